// SPDX-License-Identifier: GPL-2.0-only
// Saving a picture of every screen (see screens.h).
#include "screens.h"

#include <QDir>
#include <QImage>
#include <QQuickWindow>
#include <QTimer>
#include <memory>

#include "admin_controller.h"

namespace braid::gui {

const QStringList kScreens = {"connection", "paths", "profiles", "log", "gateway"};

void captureScreens(QQuickWindow *win, AdminController *admin, const QString &dir, const QString &prefix,
                    std::function<void(bool)> done) {
  QDir().mkpath(dir);
  auto idx = std::make_shared<int>(0);
  auto *step = new QTimer(win);
  step->setInterval(800);
  win->setProperty("currentScreen", 0);
  QObject::connect(step, &QTimer::timeout, win, [=] {
    const QString file = QDir(dir).filePath(prefix + kScreens[*idx] + QStringLiteral(".png"));
    const QImage img = win->grabWindow();
    if (img.isNull() || !img.save(file)) {
      qCritical("screenshots: cannot save %s", qPrintable(file));
      step->stop();
      step->deleteLater();
      done(false);
      return;
    }
    qInfo("screenshots: %s (%dx%d)", qPrintable(file), img.width(), img.height());
    if (++*idx >= kScreens.size()) {
      step->stop();
      step->deleteLater();
      win->setProperty("currentScreen", 0);
      done(true);
      return;
    }
    if (kScreens[*idx] == QLatin1String("gateway") && admin->clients()->rowCount() > 0) {
      // Drill into the first multipath client with a path down (else the first multipath client).
      ClientModel *cm = admin->clients();
      qint64 pick = -1;
      for (int r = 0; r < cm->rowCount(); ++r) {
        const QModelIndex i = cm->index(r);
        if (!cm->data(i, ClientModel::BraidRole).toBool()) continue;
        if (pick < 0 || cm->data(i, ClientModel::HealthRole).toString() != QLatin1String("ok")) pick = cm->cidAt(r);
      }
      admin->select(pick);
    }
    win->setProperty("currentScreen", *idx);
  });
  step->start();
}

}  // namespace braid::gui
