// SPDX-License-Identifier: GPL-2.0-only
// braid-gui: wires the controllers and models into the QML views. Unprivileged; attaches to braidd's management
// socket (--mgmt) and, for the admin view, to a gateway's (--admin). --screenshots DIR drives every screen once and
// saves DIR/<screen>.png (the smoke test); --connect-profile NAME connects through braid-helper; --e2e DIR is the
// end-to-end test's view of the models (e2e_driver.h; the pictures in docs/gui/ come from that run).
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QApplication>
#include <QQmlApplicationEngine>
#include <QQmlContext>
#include <QQuickWindow>
#include <QSystemTrayIcon>
#include <QTimer>
#include <memory>

#include "admin_controller.h"
#include "controller.h"
#include "e2e_driver.h"
#include "helper_client.h"
#include "notifier.h"
#include "profile_model.h"
#include "screens.h"
#include "tray.h"

namespace {

void runScreenshots(QQuickWindow *win, Controller *ctl, AdminController *admin, const QString &dir, int timeoutMs) {
  QDir().mkpath(dir);
  auto deadline = std::make_shared<QElapsedTimer>();
  deadline->start();
  auto *poll = new QTimer(win);
  poll->setInterval(100);
  QObject::connect(poll, &QTimer::timeout, win, [=] {
    // Wait until the tunnel is up with its paths and (if asked) the admin view has clients, so the pictures show data.
    const bool ready = ctl->state() == Controller::Connected && ctl->paths()->count() >= 2 &&
                       ctl->connectedSeconds() >= 0 && (admin->endpoint().isEmpty() || admin->clients()->rowCount() > 0);
    if (!ready && deadline->elapsed() < timeoutMs) return;
    poll->stop();
    if (!ready) {
      qCritical("screenshots: not ready after %d ms (state %s, %d paths, %d clients)", timeoutMs,
                qPrintable(ctl->stateText()), ctl->paths()->count(), admin->clients()->rowCount());
      QCoreApplication::exit(1);
      return;
    }
    // Let the charts collect a few seconds of history first.
    QTimer::singleShot(4000, win, [=] {
      braid::gui::captureScreens(win, admin, dir, QString(), [](bool ok) { QCoreApplication::exit(ok ? 0 : 1); });
    });
  });
  poll->start();
}

}  // namespace

int main(int argc, char **argv) {
  QApplication app(argc, argv);  // QApplication: the tray icon's menu is a widget
  app.setQuitOnLastWindowClosed(false);
  app.setWindowIcon(QIcon(QStringLiteral(":/icons/braid-gui.svg")));
  QCoreApplication::setOrganizationName(QStringLiteral("braid"));
  QCoreApplication::setApplicationName(QStringLiteral("braid-gui"));
  QCoreApplication::setApplicationVersion(QStringLiteral("0.1.0"));

  QCommandLineParser cli;
  cli.setApplicationDescription(QStringLiteral("Braid multipath VPN (unprivileged GUI)"));
  cli.addHelpOption();
  cli.addVersionOption();
  cli.addOption({"mgmt", "braidd's management socket: unix:PATH or tcp:HOST:PORT.", "endpoint"});
  cli.addOption({"admin", "a gateway's management socket for the admin view.", "endpoint"});
  cli.addOption({"profile-dir", "where imported profiles are stored.", "dir"});
  cli.addOption({"import", "import this .ovpn at start (repeatable).", "file"});
  cli.addOption({"connect", "connect at start."});
  cli.addOption({"connect-profile", "connect this imported profile (by name) through braid-helper at start.", "name"});
  cli.addOption({"e2e", "end-to-end test: model lines and screenshot requests in DIR (e2e_driver.h).", "dir"});
  cli.addOption({"screenshots", "save a picture of every screen into DIR, then exit.", "dir"});
  cli.addOption({"screenshot-timeout", "ms to wait for data before --screenshots fails.", "ms", "20000"});
  cli.process(app);

  qmlRegisterUncreatableType<Controller>("Braid", 1, 0, "Controller", QStringLiteral("the application's controller"));
  qmlRegisterUncreatableType<PathModel>("Braid", 1, 0, "PathModel", QStringLiteral("owned by a controller"));
  qmlRegisterUncreatableType<LogModel>("Braid", 1, 0, "LogModel", QStringLiteral("owned by the controller"));
  qmlRegisterUncreatableType<ClientModel>("Braid", 1, 0, "ClientModel", QStringLiteral("owned by the admin"));

  Controller controller;
  AdminController admin;
  ProfileModel profiles(cli.value("profile-dir"));
  controller.setEndpoint(cli.value("mgmt"));
  HelperClient helper;  // braid-helper on the system bus: Connect on a profile goes through it
  controller.setHelper(&helper);
  Notifier notifier;    // org.freedesktop.Notifications on the session bus, else the tray's balloon
  QObject::connect(&controller, &Controller::notify, &notifier, &Notifier::notify);
  admin.setEndpoint(cli.value("admin"));
  for (const QString &f : cli.values("import"))
    if (profiles.importFile(f).isEmpty())
      controller.log()->append(QDateTime::currentSecsSinceEpoch(), "N", profiles.lastError(), "gui");

  QQmlApplicationEngine engine;
  engine.rootContext()->setContextProperty("controller", &controller);
  engine.rootContext()->setContextProperty("admin", &admin);
  engine.rootContext()->setContextProperty("profiles", &profiles);
  engine.load(QUrl(QStringLiteral("qrc:/qml/Main.qml")));
  if (engine.rootObjects().isEmpty()) return 1;
  auto *win = qobject_cast<QQuickWindow *>(engine.rootObjects().first());
  if (!win) return 1;

  // The window closing quits unless a tray icon keeps the app reachable.
  QObject::connect(win, &QWindow::visibleChanged, &app, [win] {
    if (!win->isVisible() && !QSystemTrayIcon::isSystemTrayAvailable()) QCoreApplication::quit();
  });
  if (Tray *tray = Tray::create(&controller, win, &app))
    notifier.setFallback([tray](const QString &t, const QString &b) { tray->showMessage(t, b); });
  if (!admin.endpoint().isEmpty()) admin.attach();
  if (cli.isSet("connect") || cli.isSet("screenshots")) controller.activate();
  if (cli.isSet("connect-profile")) {
    const QString want = cli.value("connect-profile");
    int row = 0;
    while (row < profiles.rowCount() && profiles.nameAt(row) != want) ++row;
    if (row == profiles.rowCount()) {
      qCritical("--connect-profile: no profile named '%s'", qPrintable(want));
      return 2;
    }
    controller.connectProfile(profiles.data(profiles.index(row), ProfileModel::PathRole).toString(), want);
  }
  std::unique_ptr<E2eDriver> e2e;
  if (cli.isSet("e2e")) e2e = std::make_unique<E2eDriver>(win, &controller, &admin, cli.value("e2e"));
  if (cli.isSet("screenshots"))
    runScreenshots(win, &controller, &admin, cli.value("screenshots"), cli.value("screenshot-timeout").toInt());
  return app.exec();
}
