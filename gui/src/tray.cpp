// SPDX-License-Identifier: GPL-2.0-only
// The tray icon and its menu (see tray.h).
#include "tray.h"

#include <QAction>
#include <QCoreApplication>
#include <QIcon>
#include <QMenu>
#include <QPainter>
#include <QSystemTrayIcon>
#include <QWindow>

#include "controller.h"

namespace {
// The state's colour as a badge on the application icon (the same colours as the window's StateBadge).
QIcon stateIcon(Controller::State s) {
  static const QIcon base(QStringLiteral(":/icons/braid-gui.svg"));
  QColor c(0x9e, 0x9e, 0x9e);
  switch (s) {
    case Controller::Connected: c = QColor(0x2e, 0x7d, 0x32); break;
    case Controller::Connecting:
    case Controller::Reconnecting:
    case Controller::Disconnecting: c = QColor(0xf9, 0xa8, 0x25); break;
    case Controller::Error: c = QColor(0xc6, 0x28, 0x28); break;
    case Controller::Idle: break;
  }
  QPixmap pm = base.pixmap(64, 64);
  if (pm.isNull()) {  // no SVG image plugin: a plain tile in the icon's colour
    pm = QPixmap(64, 64);
    pm.fill(QColor(0x1f, 0x3b, 0x57));
  }
  QPainter p(&pm);
  p.setRenderHint(QPainter::Antialiasing);
  p.setPen(QPen(Qt::white, 3));
  p.setBrush(c);
  p.drawEllipse(QRectF(38, 38, 24, 24));
  p.end();
  return QIcon(pm);
}
}  // namespace

Tray *Tray::create(Controller *controller, QWindow *window, QObject *parent) {
  if (!QSystemTrayIcon::isSystemTrayAvailable()) return nullptr;
  return new Tray(controller, window, parent);
}

Tray::Tray(Controller *controller, QWindow *window, QObject *parent)
    : QObject(parent), ctl_(controller), win_(window), icon_(new QSystemTrayIcon(this)), menu_(new QMenu) {
  toggle_ = menu_->addAction(QString(), ctl_, &Controller::toggle);
  menu_->addAction(tr("Show Braid"), win_, [this] {
    win_->show();
    win_->raise();
    win_->requestActivate();
  });
  menu_->addSeparator();
  menu_->addAction(tr("Quit"), QCoreApplication::instance(), &QCoreApplication::quit);
  icon_->setContextMenu(menu_);
  connect(icon_, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason r) {
    if (r == QSystemTrayIcon::Trigger) win_->setVisible(!win_->isVisible());
  });
  connect(ctl_, &Controller::stateChanged, this, &Tray::update);
  connect(this, &QObject::destroyed, menu_, &QObject::deleteLater);
  update();
  icon_->show();
}

void Tray::update() {
  const Controller::State s = ctl_->state();
  icon_->setIcon(stateIcon(s));
  icon_->setToolTip(tr("Braid: %1").arg(ctl_->stateText()));
  toggle_->setText(s == Controller::Idle || s == Controller::Error ? tr("Connect") : tr("Disconnect"));
  toggle_->setEnabled(s != Controller::Disconnecting);
}

void Tray::showMessage(const QString &title, const QString &body) {
  icon_->showMessage(title, body, stateIcon(ctl_->state()), 8000);
}
