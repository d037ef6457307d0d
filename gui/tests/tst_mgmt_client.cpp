// SPDX-License-Identifier: GPL-2.0-only
// ManagementClient against fake_mgmt.py (stock 2.6.14 replies): banner, single- and multi-line replies, the
// two-part `log on all`, real-time routing, defences against junk (counted, connection kept), reply matching order.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include "fake_server.h"
#include "mgmt_client.h"

using namespace braid::mgmt;

class TstMgmtClient : public QObject {
  Q_OBJECT

  // Sends and waits for the reply.
  static Reply call(ManagementClient &c, const QString &cmd) {
    Reply out;
    bool done = false;
    if (!c.send(cmd, [&](const Reply &r) { out = r; done = true; })) return Reply{false, "not sent", {}};
    QElapsedTimer t;
    t.start();
    while (!done && t.elapsed() < 10000) QTest::qWait(10);
    if (!done) out.text = QStringLiteral("no reply within 10 s");
    return out;
  }

 private slots:
  void replies() {
    FakeServer srv;
    QVERIFY(srv.start({"--hold"}));
    ManagementClient c;
    QSignalSpy banner(&c, &ManagementClient::banner);
    QSignalSpy hold(&c, &ManagementClient::hold);
    QVERIFY(c.open(srv.endpoint()));
    QTRY_COMPARE_WITH_TIMEOUT(c.status(), ManagementClient::Status::Open, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(banner.count(), 1, 10000);
    QCOMPARE(banner.at(0).at(0).toString(),
             QStringLiteral("OpenVPN Management Interface Version 5 -- type 'help' for more info"));
    QTRY_COMPARE_WITH_TIMEOUT(hold.count(), 1, 10000);
    QCOMPARE(hold.at(0).at(0).toString(), QStringLiteral("Waiting for hold release:0"));

    Reply v = call(c, "version");
    QVERIFY(v.ok);
    QCOMPARE(v.lines.size(), 2);
    QVERIFY(v.lines[0].startsWith("OpenVPN Version: OpenVPN 2.6.14 "));
    QCOMPARE(v.lines[1], QStringLiteral("Management Version: 5"));

    Reply s = call(c, "state on");
    QVERIFY(s.ok);
    QCOMPARE(s.text, QStringLiteral("real-time state notification set to ON"));

    Reply lg = call(c, "log on all");  // SUCCESS: then the history and END, as stock
    QVERIFY(lg.ok);
    // 3 start-up lines, then (as stock) the echo of each command so far: version, state on, log on all
    QCOMPARE(lg.lines.size(), 6);
    QVERIFY(lg.lines[2].endsWith(",,Need hold release from management interface, waiting..."));
    QVERIFY(lg.lines[5].endsWith(",D,MANAGEMENT: CMD 'log on all'"));

    Reply e = call(c, "nosuchcommand");
    QVERIFY(!e.ok);
    QCOMPARE(e.text, QStringLiteral("unknown command [nosuchcommand], enter 'help' for more options"));

    // Pipelined: the replies come back to the right callbacks in order.
    QStringList got;
    c.send("pid", [&](const Reply &r) { got << "pid:" + QString::number(r.ok); });
    c.send("state", [&](const Reply &r) { got << "state:" + r.lines.value(0).section(',', 1, 1); });
    c.send("bytecount 1", [&](const Reply &r) { got << "bc:" + r.text; });
    QTRY_COMPARE_WITH_TIMEOUT(got.size(), 3, 10000);
    QCOMPARE(got, (QStringList{"pid:1", "state:CONNECTING", "bc:bytecount interval changed"}));
    QCOMPARE(c.rejected(), 0u);

    // A command with a line break is refused locally, nothing sent.
    QVERIFY(!c.send("state\nsignal SIGTERM"));
  }

  void realtime() {
    FakeServer srv;
    QVERIFY(srv.start({"--hold", "--tick", "0.05"}));
    ManagementClient c;
    QSignalSpy states(&c, &ManagementClient::stateEvent);
    QSignalSpy bytes(&c, &ManagementClient::byteCount);
    QSignalSpy paths(&c, &ManagementClient::pathEvent);
    QVERIFY(c.open(srv.endpoint()));
    QTRY_COMPARE_WITH_TIMEOUT(c.status(), ManagementClient::Status::Open, 10000);
    QVERIFY(call(c, "state on").ok);
    QVERIFY(call(c, "bytecount 1").ok);
    QVERIFY(call(c, "braid paths on 1").ok);
    QVERIFY(call(c, "hold release").ok);
    QTRY_VERIFY_WITH_TIMEOUT(!states.isEmpty() &&
                                 states.last().at(0).value<StateEvent>().name == QLatin1String("CONNECTED"),
                             10000);
    QStringList names;
    for (const auto &a : states) names << a.at(0).value<StateEvent>().name;
    QCOMPARE(names, (QStringList{"WAIT", "AUTH", "GET_CONFIG", "ASSIGN_IP", "CONNECTED"}));
    QCOMPARE(states.last().at(0).value<StateEvent>().tunIp4, QStringLiteral("10.88.0.2"));
    QTRY_VERIFY_WITH_TIMEOUT(bytes.count() >= 2, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(paths.count() >= 2, 10000);
    Reply list = call(c, "braid paths");
    QVERIFY(list.ok);
    QCOMPARE(list.lines.size(), 2);
    QVERIFY(parsePath(list.lines[0]) && parsePath(list.lines[1]));
    QCOMPARE(c.rejected(), 0u);
  }

  void junkIsCountedAndSurvived() {
    FakeServer srv;
    QVERIFY(srv.start({"--hold"}));
    ManagementClient c;
    QVERIFY(c.open(srv.endpoint()));
    QTRY_COMPARE_WITH_TIMEOUT(c.status(), ManagementClient::Status::Open, 10000);
    Reply j = call(c, "fake junk");
    QVERIFY(j.ok);
    // over-long line, bad >STATE:, two bad >BRAID-PATH:, bad >BYTECOUNT:, NUL line: six rejections, still open
    QCOMPARE(c.rejected(), 6u);
    QCOMPARE(c.status(), ManagementClient::Status::Open);
    QVERIFY(call(c, "version").ok);
  }

  void closedConnectionAnswersPending() {
    FakeServer srv;
    QVERIFY(srv.start({"--hold"}));
    ManagementClient c;
    QVERIFY(c.open(srv.endpoint()));
    QTRY_COMPARE_WITH_TIMEOUT(c.status(), ManagementClient::Status::Open, 10000);
    Reply r;
    bool done = false;
    QVERIFY(c.send("signal SIGTERM", {}));
    QVERIFY(c.send("state", [&](const Reply &x) { r = x; done = true; }));
    QTRY_VERIFY_WITH_TIMEOUT(done, 10000);  // either the reply or "connection closed": never left hanging
    QTRY_COMPARE_WITH_TIMEOUT(c.status(), ManagementClient::Status::Closed, 10000);
    QVERIFY(!c.send("state"));
  }

  void badEndpoints() {
    ManagementClient c;
    QVERIFY(!c.open("tcp:127.0.0.1"));
    QVERIFY(!c.open("tcp:127.0.0.1:0"));
    QVERIFY(!c.open("unix:"));
    QSignalSpy err(&c, &ManagementClient::protocolError);
    QVERIFY(c.open("unix:/nonexistent/braid.sock"));
    QTRY_COMPARE_WITH_TIMEOUT(c.status(), ManagementClient::Status::Closed, 10000);
    QVERIFY(err.count() >= 1);
  }
};

QTEST_GUILESS_MAIN(TstMgmtClient)
#include "tst_mgmt_client.moc"
