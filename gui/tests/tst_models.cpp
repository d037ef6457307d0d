// SPDX-License-Identifier: GPL-2.0-only
// PathModel (upsert, removal, shares, history window with a fake clock, up/down signals), LogModel (filter, ring,
// export), ClientModel (stock + Braid merge), AdminController against the fake gateway (status 3, braid clients,
// drill-down, kick).
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "admin_controller.h"
#include "client_model.h"
#include "fake_server.h"
#include "log_model.h"
#include "path_model.h"

using namespace braid::mgmt;

static PathInfo path(int id, const QString &ifname, const QString &state, quint64 tx, double rtt = 20) {
  PathInfo p;
  p.id = id;
  p.ifname = ifname;
  p.state = state;
  p.txBps = tx;
  p.rxBps = tx * 2;
  p.rttMs = rtt;
  return p;
}

class TstModels : public QObject {
  Q_OBJECT
 private slots:
  void paths() {
    PathModel m;
    qint64 now = 1000000;
    m.setClock([&] { return now; });
    QSignalSpy down(&m, &PathModel::pathDown), up(&m, &PathModel::pathUp);
    m.replaceAll({path(1, "wlan0", "up", 3000000), path(2, "wwan0", "up", 1000000, 60)});
    QCOMPARE(m.rowCount(), 2);
    QCOMPARE(m.upCount(), 2);
    // No share from the daemon: the model computes the share of transmitted rate.
    QCOMPARE(m.data(m.index(0), PathModel::ShareRole).toDouble(), 75.0);
    QCOMPARE(m.data(m.index(1), PathModel::ShareRole).toDouble(), 25.0);
    QCOMPARE(m.roleNames().value(PathModel::IfnameRole), QByteArray("ifname"));

    now += 1000;
    m.update(path(2, "wwan0", "down", 0, -1));
    QCOMPARE(m.stateOf("wwan0"), QStringLiteral("down"));
    QCOMPARE(m.upCount(), 1);
    QCOMPARE(down.count(), 1);
    QCOMPARE(down.at(0).at(0).toString(), QStringLiteral("wwan0"));
    now += 1000;
    m.update(path(2, "wwan0", "up", 500000, 55));
    QCOMPARE(up.count(), 1);
    QCOMPARE(m.data(m.index(1), PathModel::ChangedRole).toLongLong(), now);

    // History: samples older than the window are dropped; times are relative to now.
    const QVariantList h = m.history(1, "rtt");
    QCOMPARE(h.size(), 3);
    QCOMPARE(h.last().toMap().value("v").toDouble(), 55.0);
    QCOMPARE(h.first().toMap().value("t").toDouble(), -2.0);
    now += qint64(PathModel::kHistorySeconds) * 1000 + 1500;
    m.update(path(2, "wwan0", "up", 500000, 50));
    QCOMPARE(m.history(1, "rtt").size(), 1);
    QCOMPARE(m.history(1, "total").first().toMap().value("v").toDouble(), 1500000.0);
    QVERIFY(m.history(7, "rtt").isEmpty());

    // A full list without wlan0 removes it; "removed" events remove too.
    m.replaceAll({path(2, "wwan0", "up", 1)});
    QCOMPARE(m.rowCount(), 1);
    QCOMPARE(m.rowOf("wlan0"), -1);
    m.update(path(2, "wwan0", "removed", 0));
    QCOMPARE(m.rowCount(), 0);
    // Bounded: no more than kMaxPaths rows whatever the daemon sends.
    for (int i = 0; i < PathModel::kMaxPaths + 10; ++i) m.update(path(100 + i, QString("p%1").arg(i), "up", 1));
    QCOMPARE(m.rowCount(), PathModel::kMaxPaths);
  }

  void log() {
    LogModel m;
    m.append(1795677366, "I", "UDPv4 link remote: [AF_INET]127.0.0.1:11940");
    m.append(1795677366, "W", "WARNING: this configuration may cache passwords in memory");
    m.append(1795677367, "", "SENT CONTROL [server]: 'PUSH_REQUEST' (status=1)", "gui");
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(m.data(m.index(1), LogModel::LevelRole).toString(), QStringLiteral("warning"));
    QCOMPARE(m.data(m.index(2), LogModel::SourceRole).toString(), QStringLiteral("gui"));
    m.setFilter("level:warning");
    QCOMPARE(m.rowCount(), 1);
    m.setFilter("push_request");
    QCOMPARE(m.rowCount(), 1);
    m.append(1795677368, "", "another PUSH_REQUEST");
    QCOMPARE(m.rowCount(), 2);
    m.setFilter("");
    QCOMPARE(m.rowCount(), 4);
    QTemporaryDir d;
    const QString f = d.filePath("log.txt");
    QVERIFY(m.exportTo(f));
    QFile in(f);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = in.readAll().split('\n');
    QCOMPARE(lines.size(), 5);  // 4 lines + the empty tail
    QVERIFY(lines[1].contains(" daemon W WARNING: this configuration"));
    QVERIFY(!m.exportTo("/nonexistent/dir/log.txt"));
    for (int i = 0; i < LogModel::kMaxEntries + 100; ++i) m.append(1, "", QString::number(i));
    QVERIFY(m.totalCount() <= LogModel::kMaxEntries);
    QCOMPARE(m.data(m.index(m.rowCount() - 1), LogModel::TextRole).toString(),
             QString::number(LogModel::kMaxEntries + 99));
  }

  void clients() {
    ClientModel m;
    StatusClient a, b;
    a.commonName = "client1"; a.cid = 4; a.bytesIn = 10; a.virtualAddress = "10.88.0.2";
    b.commonName = "stock"; b.cid = 1;
    BraidClient ba;
    ba.cid = 4; ba.braid = true; ba.paths = 2; ba.pathsUp = 1;
    m.setClients({a, b}, {ba});
    QCOMPARE(m.rowCount(), 2);
    QCOMPARE(m.data(m.index(0), ClientModel::CommonNameRole).toString(), QStringLiteral("stock"));  // by cid
    QCOMPARE(m.data(m.index(0), ClientModel::BraidRole).toBool(), false);
    QCOMPARE(m.data(m.index(0), ClientModel::HealthRole).toString(), QStringLiteral("ok"));
    QCOMPARE(m.data(m.index(1), ClientModel::PathsRole).toInt(), 2);
    QCOMPARE(m.data(m.index(1), ClientModel::HealthRole).toString(), QStringLiteral("degraded"));
    QCOMPARE(m.cidAt(1), 4);
  }

  void admin() {
    FakeServer srv;
    QVERIFY(srv.start({"--role", "gateway"}));
    AdminController a;
    QSignalSpy refreshed(&a, &AdminController::refreshed);
    a.setPollInterval(200);
    a.setEndpoint(srv.endpoint());
    a.attach();
    QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, 10000);
    ClientModel *m = a.clients();
    QCOMPARE(m->rowCount(), 3);
    const int c1 = m->rowOfCommonName("client1"), st = m->rowOfCommonName("laptop-stock"),
              br = m->rowOfCommonName("branch-office");
    QVERIFY(c1 >= 0 && st >= 0 && br >= 0);
    QCOMPARE(m->data(m->index(c1), ClientModel::VirtualAddressRole).toString(), QStringLiteral("10.88.0.2"));
    QCOMPARE(m->data(m->index(c1), ClientModel::BytesInRole).toDouble(), 2911.0);
    QCOMPARE(m->data(m->index(c1), ClientModel::BraidRole).toBool(), true);
    QCOMPARE(m->data(m->index(st), ClientModel::BraidRole).toBool(), false);
    QCOMPARE(m->data(m->index(br), ClientModel::HealthRole).toString(), QStringLiteral("degraded"));

    a.select(2);  // branch-office's paths
    QTRY_COMPARE_WITH_TIMEOUT(a.clientPaths()->rowCount(), 2, 10000);
    QCOMPARE(a.clientPaths()->stateOf("lte0"), QStringLiteral("down"));
    QCOMPARE(a.clientPaths()->stateOf("fibre0"), QStringLiteral("up"));

    QSignalSpy kicked(&a, &AdminController::kicked);
    a.kick(1);
    QTRY_COMPARE_WITH_TIMEOUT(kicked.count(), 1, 10000);
    QVERIFY(kicked.at(0).at(1).toBool());
    QTRY_COMPARE_WITH_TIMEOUT(m->rowCount(), 2, 10000);
    QCOMPARE(m->rowOfCommonName("laptop-stock"), -1);
    a.kick(42);
    QTRY_COMPARE_WITH_TIMEOUT(kicked.count(), 2, 10000);
    QVERIFY(!kicked.at(1).at(1).toBool());
  }
};

QTEST_GUILESS_MAIN(TstModels)
#include "tst_models.moc"
