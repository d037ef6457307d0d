// SPDX-License-Identifier: GPL-2.0-only
// captureScreens: visit every screen of braid-gui's window in navigation order and save DIR/<prefix><screen>.png
// (the pictures in docs/gui/ come from it: --screenshots and the end-to-end test's shoot requests).
#pragma once

#include <QString>
#include <QStringList>
#include <functional>

class QQuickWindow;
class AdminController;

namespace braid::gui {

// Screens in the order of the navigation bar (Main.qml's `screens`).
extern const QStringList kScreens;

// Asynchronous (one screen per 800 ms so each is rendered); done(true) after the last is saved, done(false) at
// the first that cannot be saved. The gateway screen drills into the first multipath client with a path down.
void captureScreens(QQuickWindow *win, AdminController *admin, const QString &dir, const QString &prefix,
                    std::function<void(bool)> done);

}  // namespace braid::gui
