// SPDX-License-Identifier: GPL-2.0-only
// The end-to-end test's window into braid-gui (see e2e_driver.h): model lines out, screenshot and click requests in.
#include "e2e_driver.h"

#include <QAccessible>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QQuickItem>
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
  const QStringList clicks = QDir(dir_).entryList({QStringLiteral("click-*")}, QDir::Files, QDir::Name);
  if (!clicks.isEmpty()) {
    QFile f(QDir(dir_).filePath(clicks.first()));
    const QString name = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.read(512)).trimmed() : QString();
    f.close();
    QFile::remove(f.fileName());
    click(clicks.first().mid(6), name);
    return;
  }
  const QStringList req = QDir(dir_).entryList({QStringLiteral("shoot-*")}, QDir::Files, QDir::Name);
  if (req.isEmpty()) return;
  QFile::remove(QDir(dir_).filePath(req.first()));
  shoot(req.first().mid(6));
}

// The visible item whose accessible name is `name` (depth-first; items hidden on another screen are skipped).
static QQuickItem *findByName(QQuickItem *item, const QString &name, int depth) {
  if (!item || !item->isVisible() || depth > 64) return nullptr;
  if (QAccessibleInterface *a = QAccessible::queryAccessibleInterface(item))
    if (a->text(QAccessible::Name) == name) return item;
  const QList<QQuickItem *> kids = item->childItems();
  for (QQuickItem *k : kids)
    if (QQuickItem *hit = findByName(k, name, depth + 1)) return hit;
  return nullptr;
}

// Up to 40 accessible names of visible items, for the refusal message.
static void visibleNames(QQuickItem *item, QStringList &out, int depth) {
  if (!item || !item->isVisible() || depth > 64 || out.size() >= 40) return;
  if (QAccessibleInterface *a = QAccessible::queryAccessibleInterface(item)) {
    const QString n = a->text(QAccessible::Name);
    if (!n.isEmpty()) out << n;
  }
  const QList<QQuickItem *> kids = item->childItems();
  for (QQuickItem *k : kids) visibleNames(k, out, depth + 1);
}

void E2eDriver::click(const QString &tag, const QString &name) {
  QString err;
  QQuickItem *item = name.isEmpty() ? nullptr : findByName(win_->contentItem(), name, 0);
  if (name.isEmpty())
    err = QStringLiteral("empty click request");
  else if (!item)
  {
    QStringList seen;
    visibleNames(win_->contentItem(), seen, 0);
    err = QStringLiteral("no visible control named '%1' (visible: %2)").arg(name, seen.join(QStringLiteral(" | ")));
  }
  else if (!item->isEnabled())
    err = QStringLiteral("control '%1' is disabled").arg(name);
  else {
    // Activate it as a pointer click would: a checkable control toggles (toggle() + toggled()), then every button
    // emits clicked(); the control's own onToggled/onClicked handlers do the rest. (A synthesized mouse press is
    // ignored by an offscreen window, and the offscreen platform has no accessibility bridge to press it through.)
    const QMetaObject *mo = item->metaObject();
    bool done = false;
    if (item->property("checkable").toBool() && mo->indexOfMethod("toggle()") >= 0 && mo->indexOfSignal("toggled()") >= 0) {
      QMetaObject::invokeMethod(item, "toggle");
      QMetaObject::invokeMethod(item, "toggled");
      done = true;
    }
    if (mo->indexOfSignal("clicked()") >= 0) {
      QMetaObject::invokeMethod(item, "clicked");
      done = true;
    }
    if (!done) err = QStringLiteral("control '%1' cannot be pressed (no clicked or toggled signal)").arg(name);
  }
  QFile out(QDir(dir_).filePath(tag + (err.isEmpty() ? QStringLiteral(".clicked") : QStringLiteral(".unclicked"))));
  if (!out.open(QIODevice::WriteOnly)) {
    qWarning("e2e: cannot create %s", qPrintable(out.fileName()));
    return;
  }
  out.write(err.toUtf8());
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
