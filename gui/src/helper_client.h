// SPDX-License-Identifier: GPL-2.0-only
// HelperClient: braid-gui's side of braid-helper (net.braid.Helper1 on the D-Bus system bus, docs/gui.md
// "Privileges"). Connect hands over the profile text (files already inlined, read as the user); the helper asks
// polkit, checks the profile against its allow list and answers with the management socket of the braidd it
// started, which the Controller then attaches to. Calls are asynchronous (polkit may ask for a password).
#pragma once

#include <QDBusConnection>
#include <QObject>

class HelperClient : public QObject {
  Q_OBJECT
 public:
  explicit HelperClient(const QDBusConnection &bus = QDBusConnection::systemBus(), QObject *parent = nullptr);
  void start(const QByteArray &profile, const QString &name);  // -> started() or failed()
  void stop(const QString &id);                                  // Disconnect(id); errors are logged only

 signals:
  void started(const QString &id, const QString &socketPath);
  void failed(const QString &message);  // the helper's own words: "line 12: 'up' runs a program as root: ..."

 private:
  QDBusConnection bus_;
};
