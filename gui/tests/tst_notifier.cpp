// SPDX-License-Identifier: GPL-2.0-only
// Desktop notifications: on a private session bus (dbus-daemon --session started here) a fake
// org.freedesktop.Notifications records what arrives; the Controller's path loss, path return and reconnect
// (driven through fake_mgmt.py's `fake cut/restore`) reach it as Notify calls. Without the service, the fallback
// (the tray balloon) is used.
#include <QDBusConnection>
#include <QProcess>
#include <QTest>

#include "controller.h"
#include "fake_server.h"
#include "notifier.h"

class FakeNotifications : public QObject {
  Q_OBJECT
  Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
 public:
  QStringList summaries, bodies;
 public slots:
  uint Notify(const QString &app, uint replaces, const QString &icon, const QString &summary, const QString &body,
              const QStringList &actions, const QVariantMap &hints, int timeout) {
    Q_UNUSED(replaces) Q_UNUSED(actions) Q_UNUSED(timeout)
    if (app == QLatin1String("Braid") && icon == QLatin1String("braid-gui") &&
        hints.value("desktop-entry").toString() == QLatin1String("braid-gui")) {
      summaries << summary;
      bodies << body;
    }
    return uint(summaries.size());
  }
};

class TstNotifier : public QObject {
  Q_OBJECT
  QProcess bus_;
  QString address_;

 private slots:
  void initTestCase() {
    bus_.start(QStringLiteral("dbus-daemon"), {"--session", "--nofork", "--print-address=1"});
    QVERIFY2(bus_.waitForStarted(5000), "dbus-daemon (package dbus-daemon) did not start");
    QTRY_VERIFY_WITH_TIMEOUT(bus_.canReadLine() || bus_.waitForReadyRead(100), 5000);
    address_ = QString::fromLatin1(bus_.readLine()).trimmed();
    QVERIFY(!address_.isEmpty());
  }
  void cleanupTestCase() {
    bus_.kill();
    bus_.waitForFinished(3000);
  }

  void pathLossAndReturnNotified() {
    QDBusConnection srvBus = QDBusConnection::connectToBus(address_, "srv");
    QVERIFY(srvBus.isConnected());
    FakeNotifications fake;
    QVERIFY(srvBus.registerObject("/org/freedesktop/Notifications", &fake, QDBusConnection::ExportAllSlots));
    QVERIFY(srvBus.registerService("org.freedesktop.Notifications"));
    Notifier n(QDBusConnection::connectToBus(address_, "cli"));
    int fallbacks = 0;
    n.setFallback([&](const QString &, const QString &) { ++fallbacks; });

    FakeServer srv;
    QVERIFY(srv.start({}));
    Controller c;
    connect(&c, &Controller::notify, &n, &Notifier::notify);
    c.setEndpoint(srv.endpoint());
    c.activate();
    QTRY_COMPARE_WITH_TIMEOUT(c.state(), Controller::Connected, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(c.paths()->count(), 2, 5000);
    c.client()->send("fake cut wwan0", [](const braid::mgmt::Reply &) {});
    QTRY_COMPARE_WITH_TIMEOUT(fake.summaries, QStringList{"Path down"}, 5000);
    QCOMPARE(fake.bodies, QStringList{"wwan0 stopped carrying the tunnel"});
    c.client()->send("fake restore wwan0", [](const braid::mgmt::Reply &) {});
    QTRY_COMPARE_WITH_TIMEOUT(fake.summaries, (QStringList{"Path down", "Path up"}), 5000);
    QCOMPARE(fallbacks, 0);
    srvBus.unregisterService("org.freedesktop.Notifications");
    QDBusConnection::disconnectFromBus("srv");
    QDBusConnection::disconnectFromBus("cli");
  }

  void noServiceUsesFallback() {
    Notifier n(QDBusConnection::connectToBus(address_, "cli2"));  // the bus has no notification service
    QStringList got;
    n.setFallback([&](const QString &t, const QString &b) { got << t + ": " + b; });
    n.notify("Reconnected", "The tunnel is up again");
    QTRY_COMPARE_WITH_TIMEOUT(got, QStringList{"Reconnected: The tunnel is up again"}, 5000);
    Notifier none(QDBusConnection("not-connected"));  // no bus at all, no fallback: silently nothing
    none.notify("x", "y");
    QDBusConnection::disconnectFromBus("cli2");
  }
};

QTEST_GUILESS_MAIN(TstNotifier)
#include "tst_notifier.moc"
