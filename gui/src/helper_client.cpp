// SPDX-License-Identifier: GPL-2.0-only
// braid-helper's D-Bus client (see helper_client.h).
#include "helper_client.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

namespace {
const QString kService = QStringLiteral("net.braid.Helper1");
const QString kPath = QStringLiteral("/net/braid/Helper1");
const QString kIface = QStringLiteral("net.braid.Helper1");
constexpr int kTimeoutMs = 120000;  // polkit may wait for the user to type a password
}  // namespace

HelperClient::HelperClient(const QDBusConnection &bus, QObject *parent) : QObject(parent), bus_(bus) {}

void HelperClient::start(const QByteArray &profile, const QString &name) {
  if (!bus_.isConnected()) {
    emit failed(tr("no D-Bus system bus: braid-helper cannot be reached"));
    return;
  }
  QDBusMessage m = QDBusMessage::createMethodCall(kService, kPath, kIface, QStringLiteral("Connect"));
  m << profile << QVariantMap{{QStringLiteral("name"), name}};
  auto *w = new QDBusPendingCallWatcher(bus_.asyncCall(m, kTimeoutMs), this);
  connect(w, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
    QDBusPendingReply<QString, QString> r = *w;
    w->deleteLater();
    if (r.isError())
      emit failed(r.error().message());
    else
      emit started(r.argumentAt<0>(), r.argumentAt<1>());
  });
}

void HelperClient::stop(const QString &id) {
  QDBusMessage m = QDBusMessage::createMethodCall(kService, kPath, kIface, QStringLiteral("Disconnect"));
  m << id;
  bus_.asyncCall(m);
}
