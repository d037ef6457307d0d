// SPDX-License-Identifier: GPL-2.0-only
// The end-to-end test's window into braid-gui (see e2e_driver.h): model lines out, screenshot requests in.
#include "e2e_driver.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QQuickWindow>
#include <QTimer>

#include "admin_controller.h"
#include "controller.h"
#include "screens.h"

E2eDriver::E2eDriver(QQuickWindow *win, Controller *ctl, AdminController *admin, const QString &dir, QObject *parent)
    : QObject(parent), win_(win), ctl_(ctl), admin_(admin), dir_(dir), timer_(new QTimer(this)) {
  QDir().mkpath(dir_);
  timer_->setInterval(200);
  connect(timer_, &QTimer::timeout, this, &E2eDriver::tick);
  timer_->start();
}

void E2eDriver::tick() {
  writeModel();
  if (shooting_) return;
  const QStringList req = QDir(dir_).entryList({QStringLiteral("shoot-*")}, QDir::Files, QDir::Name);
  if (req.isEmpty()) return;
  QFile::remove(QDir(dir_).filePath(req.first()));
  shoot(req.first().mid(6));
}

void E2eDriver::writeModel() {
  PathModel *pm = ctl_->paths();
  const QHash<int, QByteArray> roles = pm->roleNames();
  QJsonArray paths;
  for (int r = 0; r < pm->rowCount(); ++r) {
    QJsonObject o;
    const QModelIndex i = pm->index(r);
    for (auto it = roles.cbegin(); it != roles.cend(); ++it)
      o.insert(QString::fromLatin1(it.value()), QJsonValue::fromVariant(pm->data(i, it.key())));
    paths.append(o);
  }
  QJsonObject line{{"ms", QDateTime::currentMSecsSinceEpoch()}, {"state", ctl_->stateText()},
                   {"bytesIn", ctl_->bytesIn()}, {"bytesOut", ctl_->bytesOut()}, {"paths", paths}};
  QFile f(QDir(dir_).filePath(QStringLiteral("model.jsonl")));
  if (!f.open(QIODevice::WriteOnly | QIODevice::Append)) {
    qWarning("e2e: cannot append to %s", qPrintable(f.fileName()));
    return;
  }
  f.write(QJsonDocument(line).toJson(QJsonDocument::Compact) + '\n');
}

void E2eDriver::shoot(const QString &tag) {
  shooting_ = true;
  braid::gui::captureScreens(win_, admin_, dir_, tag + QLatin1Char('-'), [this, tag](bool ok) {
    shooting_ = false;
    QFile done(QDir(dir_).filePath(tag + (ok ? QStringLiteral(".done") : QStringLiteral(".failed"))));
    if (!done.open(QIODevice::WriteOnly)) qWarning("e2e: cannot create %s", qPrintable(done.fileName()));
  });
}
