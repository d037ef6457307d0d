// SPDX-License-Identifier: GPL-2.0-only
// E2eDriver: lets a test read braid-gui's models and ask for screenshots while the GUI runs as a user would run it
// (gui/tests/e2e_netns.sh). Enabled only by --e2e DIR. Every 200 ms it appends one JSON line to DIR/model.jsonl:
//   {"ms": <epoch ms>, "state": "<controller state>", "paths": [{"ifname", "state", "up", "txBytes", "rxBytes", ...}]}
// and when a file DIR/shoot-TAG appears it removes it, saves every screen as DIR/TAG-<screen>.png and then
// creates DIR/TAG.done. When a file DIR/click-TAG appears (its content: a control's Accessible.name) it removes
// it, activates the visible control of that name as a click would (toggle + toggled() if checkable, clicked()), and creates
// DIR/TAG.clicked (or DIR/TAG.unclicked holding the reason: no such visible control, disabled). The test drives
// the GUI only through those clicks, by the names a screen reader would read; it never reaches into the process.
#pragma once

#include <QObject>
#include <QString>

class QQuickWindow;
class QTimer;
class Controller;
class AdminController;

class E2eDriver : public QObject {
  // no Q_OBJECT: no signals, slots or properties of its own
 public:
  E2eDriver(QQuickWindow *win, Controller *ctl, AdminController *admin, const QString &dir, QObject *parent = nullptr);

 private:
  void tick();
  void writeModel();
  void shoot(const QString &tag);
  void click(const QString &tag, const QString &name);

  QQuickWindow *win_;
  Controller *ctl_;
  AdminController *admin_;
  QString dir_;
  QTimer *timer_;
  bool shooting_ = false;
};
