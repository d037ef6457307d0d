// SPDX-License-Identifier: GPL-2.0-only
// Notifier: desktop notifications (path lost, path back, reconnected) through org.freedesktop.Notifications on the
// session bus. Where no notification service answers (no session bus, no daemon), the fallback (the tray icon's
// balloon) is used; with neither, nothing is shown and nothing fails.
#pragma once

#include <QDBusConnection>
#include <QObject>
#include <functional>

class Notifier : public QObject {
  Q_OBJECT
 public:
  using Fallback = std::function<void(const QString &title, const QString &body)>;
  explicit Notifier(const QDBusConnection &bus = QDBusConnection::sessionBus(), QObject *parent = nullptr);
  void setFallback(Fallback f) { fallback_ = std::move(f); }
  void notify(const QString &title, const QString &body);  // asynchronous

 signals:
  void shown(const QString &title, bool viaService);  // after the service answered, or the fallback ran

 private:
  QDBusConnection bus_;
  Fallback fallback_;
};
