// SPDX-License-Identifier: GPL-2.0-only
// Desktop notifications over org.freedesktop.Notifications (see notifier.h).
#include "notifier.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

Notifier::Notifier(const QDBusConnection &bus, QObject *parent) : QObject(parent), bus_(bus) {}

void Notifier::notify(const QString &title, const QString &body) {
  auto fallback = [this, title, body] {
    if (!fallback_) return;
    fallback_(title, body);
    emit shown(title, false);
  };
  if (!bus_.isConnected()) {
    fallback();
    return;
  }
  QDBusMessage m = QDBusMessage::createMethodCall(
      QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("/org/freedesktop/Notifications"),
      QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("Notify"));
  // Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)
  m << QStringLiteral("Braid") << 0u << QStringLiteral("braid-gui") << title << body << QStringList()
    << QVariantMap{{QStringLiteral("desktop-entry"), QStringLiteral("braid-gui")}} << -1;
  auto *w = new QDBusPendingCallWatcher(bus_.asyncCall(m, 5000), this);
  connect(w, &QDBusPendingCallWatcher::finished, this, [this, title, fallback](QDBusPendingCallWatcher *w) {
    QDBusPendingReply<uint> r = *w;
    w->deleteLater();
    if (r.isError())
      fallback();
    else
      emit shown(title, true);
  });
}
