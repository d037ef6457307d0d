// SPDX-License-Identifier: GPL-2.0-only
// Tray: the system tray icon (QSystemTrayIcon) with the connection state (icon badge colour and tooltip) and a
// menu for the quick toggle, showing the window and quitting. Created only where a tray exists: without one
// (offscreen, a desktop without a StatusNotifier host) braid-gui runs without it, silently.
#pragma once

#include <QObject>

class Controller;
class QMenu;
class QAction;
class QSystemTrayIcon;
class QWindow;

class Tray : public QObject {
  Q_OBJECT
 public:
  // Returns nullptr when the desktop has no system tray.
  static Tray *create(Controller *controller, QWindow *window, QObject *parent);
  void showMessage(const QString &title, const QString &body);

 private:
  Tray(Controller *controller, QWindow *window, QObject *parent);
  void update();

  Controller *ctl_;
  QWindow *win_;
  QSystemTrayIcon *icon_;
  QMenu *menu_;
  QAction *toggle_;
};
