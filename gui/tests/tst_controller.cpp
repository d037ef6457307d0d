// SPDX-License-Identifier: GPL-2.0-only
// Controller against fake_mgmt.py: the whole connect sequence to Connected (addresses, bytes, two paths live),
// a cut path marked down within 2 s and back up, per-path commands, credentials (good and refused), disconnect,
// a stock server without the path extension, and a daemon that disappears.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include "controller.h"
#include "fake_server.h"

class TstController : public QObject {
  Q_OBJECT

  static bool raw(Controller &c, const QString &cmd) {
    bool ok = false, done = false;
    c.client()->send(cmd, [&](const braid::mgmt::Reply &r) { ok = r.ok; done = true; });
    QElapsedTimer t;
    t.start();
    while (!done && t.elapsed() < 10000) QTest::qWait(10);
    return ok;
  }

 private slots:
  void connectPathsCutRestoreDisconnect() {
    FakeServer srv;
    QVERIFY(srv.start({"--hold", "--tick", "0.1"}));
    Controller c;
    QSignalSpy notes(&c, &Controller::notify);
    c.setEndpoint(srv.endpoint());
    QCOMPARE(c.state(), Controller::Idle);
    c.toggle();
    QCOMPARE(c.state(), Controller::Connecting);
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Connected, 10000);
    QCOMPARE(c.daemonState(), QStringLiteral("CONNECTED"));
    QCOMPARE(c.localAddress(), QStringLiteral("10.88.0.2"));
    QCOMPARE(c.remoteAddress(), QStringLiteral("127.0.0.1:11940"));
    QTRY_VERIFY_WITH_TIMEOUT(c.bytesIn() > 2395, 10000);
    QVERIFY(c.multipath());
    QTRY_COMPARE_WITH_TIMEOUT(c.paths()->count(), 2, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(c.paths()->upCount(), 2, 10000);
    QVERIFY(c.log()->totalCount() > 5);  // the daemon's history and live log arrived

    // The acceptance bound: a cut path shows as down in the model within 2 s.
    QElapsedTimer cut;
    cut.start();
    QVERIFY(raw(c, "fake cut wwan0"));
    QTRY_COMPARE_WITH_TIMEOUT(c.paths()->stateOf("wwan0"), QStringLiteral("down"), 2000);
    qInfo("wwan0 down in the model %lld ms after the cut", cut.elapsed());
    QCOMPARE(c.paths()->upCount(), 1);
    QCOMPARE(c.state(), Controller::Connected);  // the tunnel stays up on the other path
    QVERIFY(!notes.isEmpty());
    QCOMPARE(notes.last().at(0).toString(), QStringLiteral("Path down"));
    QVERIFY(raw(c, "fake restore wwan0"));
    QTRY_COMPARE_WITH_TIMEOUT(c.paths()->stateOf("wwan0"), QStringLiteral("up"), 2000);
    QCOMPARE(notes.last().at(0).toString(), QStringLiteral("Path up"));

    // Per-path controls reach the daemon and come back in the path events.
    c.setPathBackup("wwan0", true);
    QTRY_VERIFY_WITH_TIMEOUT(c.paths()->data(c.paths()->index(c.paths()->rowOf("wwan0")), PathModel::BackupRole).toBool(), 5000);
    c.setPathCap("wlan0", 5e6);
    QTRY_COMPARE_WITH_TIMEOUT(c.paths()->data(c.paths()->index(c.paths()->rowOf("wlan0")), PathModel::CapRole).toDouble(), 5e6, 5000);
    c.setPathDisabled("wlan0", true);
    QTRY_COMPARE_WITH_TIMEOUT(c.paths()->stateOf("wlan0"), QStringLiteral("disabled"), 5000);
    QVERIFY(c.paths()->history(0, "tx").size() >= 2);

    c.toggle();
    QCOMPARE(c.state(), Controller::Disconnecting);
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Idle, 10000);
    QVERIFY(c.errorText().isEmpty());
  }

  void credentials() {
    FakeServer srv;
    QVERIFY(srv.start({"--hold", "--auth"}));
    Controller c;
    c.setEndpoint(srv.endpoint());
    c.activate();
    QTRY_COMPARE_WITH_TIMEOUT(c.credentialsType(), QStringLiteral("Auth"), 10000);
    QVERIFY(c.credentialsNeedUsername());
    QCOMPARE(c.state(), Controller::Connecting);
    c.submitCredentials("user1", "pass1");
    QVERIFY(c.credentialsType().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Connected, 10000);
    for (int i = 0; i < c.log()->rowCount(); ++i)  // the password never reaches the log
      QVERIFY(!c.log()->data(c.log()->index(i), LogModel::TextRole).toString().contains("pass1"));
  }

  void refusedCredentials() {
    FakeServer srv;
    QVERIFY(srv.start({"--hold", "--auth"}));
    Controller c;
    c.setEndpoint(srv.endpoint());
    c.activate();
    QTRY_COMPARE_WITH_TIMEOUT(c.credentialsType(), QStringLiteral("Auth"), 10000);
    c.submitCredentials("user1", "bad");
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Error, 10000);
    QCOMPARE(c.errorText(), QStringLiteral("authentication failed ('Auth')"));
    // The daemon goes away afterwards; the error stays for the user to read.
    QTRY_COMPARE_WITH_TIMEOUT(c.client()->status(), braid::mgmt::ManagementClient::Status::Closed, 10000);
    QCOMPARE(c.state(), Controller::Error);
  }

  void staticChallenge() {  // static-challenge "Enter your PIN" 1 -> SCRV1:b64(password):b64(response)
    FakeServer srv;
    QVERIFY(srv.start({"--hold", "--challenge", "static"}));
    Controller c;
    c.setEndpoint(srv.endpoint());
    c.activate();
    QTRY_COMPARE_WITH_TIMEOUT(c.credentialsType(), QStringLiteral("Auth"), 10000);
    QCOMPARE(c.challengeText(), QStringLiteral("Enter your PIN"));
    QVERIFY(c.challengeEcho());
    QVERIFY(!c.challengeOnly());
    c.submitCredentials("user1", "pass1", "4321");
    QVERIFY(c.challengeText().isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Connected, 10000);  // the fake accepts only the exact SCRV1
    for (int i = 0; i < c.log()->rowCount(); ++i)
      QVERIFY(!c.log()->data(c.log()->index(i), LogModel::TextRole).toString().contains("SCRV1"));
  }

  void dynamicChallenge() {  // AUTH_FAILED,CRV1 after the password; then only the response is asked
    FakeServer srv;
    QVERIFY(srv.start({"--hold", "--challenge", "dynamic"}));
    Controller c;
    c.setEndpoint(srv.endpoint());
    c.activate();
    QTRY_COMPARE_WITH_TIMEOUT(c.credentialsType(), QStringLiteral("Auth"), 10000);
    QVERIFY(c.challengeText().isEmpty());
    c.submitCredentials("user1", "pass1");
    QTRY_COMPARE_WITH_TIMEOUT(c.challengeText(), QStringLiteral("Enter the code sent to your phone"), 10000);
    QVERIFY(c.challengeOnly());
    QVERIFY(c.challengeEcho());
    QCOMPARE(c.credentialsType(), QStringLiteral("Auth"));
    QVERIFY(c.state() != Controller::Error);
    c.submitCredentials(QString(), QString(), "123456");  // username user1 comes from the CRV1 line
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Connected, 10000);
  }

  void stockServerHasNoPaths() {
    FakeServer srv;
    QVERIFY(srv.start({"--stock"}));  // stock OpenVPN: `braid ...` is an unknown command
    Controller c;
    c.setEndpoint(srv.endpoint());
    c.activate();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Connected, 10000);
    QTest::qWait(300);
    QCOMPARE(c.paths()->count(), 0);
    QVERIFY(!c.multipath());
    QCOMPARE(c.client()->rejected(), 0u);
  }

  void daemonVanishes() {
    auto *srv = new FakeServer;
    QVERIFY(srv->start({}));
    Controller c;
    c.setEndpoint(srv->endpoint());
    c.activate();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Connected, 10000);
    delete srv;  // kills the fake daemon
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Error, 10000);
    QVERIFY(c.errorText().contains("management connection"));
  }

  void noSocket() {
    Controller c;
    c.setEndpoint("unix:/nonexistent/braid.sock");
    c.activate();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Error, 10000);
    c.setEndpoint("tcp:nohost");
    c.activate();
    QCOMPARE(c.state(), Controller::Error);
    QVERIFY(c.errorText().contains("invalid management endpoint"));
  }
};

QTEST_GUILESS_MAIN(TstController)
#include "tst_controller.moc"
