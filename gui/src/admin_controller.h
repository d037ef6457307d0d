// SPDX-License-Identifier: GPL-2.0-only
// AdminController: the gateway admin view. Attaches to a gateway's management socket, polls `status 3` (stock) and
// `braid clients` (Braid's extension; absent on stock OpenVPN) into a ClientModel, drills into one client's paths
// (`braid client-paths CID`) and kicks a client (`client-kill CID`).
#pragma once

#include <QObject>
#include <QTimer>

#include "client_model.h"
#include "mgmt_client.h"
#include "path_model.h"

class AdminController : public QObject {
  Q_OBJECT
  Q_PROPERTY(bool attached READ attached NOTIFY attachedChanged)
  Q_PROPERTY(QString endpoint READ endpoint WRITE setEndpoint NOTIFY attachedChanged)
  Q_PROPERTY(QString errorText READ errorText NOTIFY attachedChanged)
  Q_PROPERTY(ClientModel *clients READ clients CONSTANT)
  Q_PROPERTY(PathModel *clientPaths READ clientPaths CONSTANT)
  Q_PROPERTY(qint64 selectedCid READ selectedCid NOTIFY selectionChanged)
 public:
  explicit AdminController(QObject *parent = nullptr);
  ~AdminController() override;
  bool attached() const { return mgmt_.status() == braid::mgmt::ManagementClient::Status::Open; }
  QString endpoint() const { return endpoint_; }
  void setEndpoint(const QString &e) { endpoint_ = e; emit attachedChanged(); }
  QString errorText() const { return error_; }
  ClientModel *clients() { return &clients_; }
  PathModel *clientPaths() { return &clientPaths_; }
  qint64 selectedCid() const { return selected_; }
  void setPollInterval(int ms) { poll_.setInterval(ms); }

  Q_INVOKABLE void attach();
  Q_INVOKABLE void detach();
  Q_INVOKABLE void refresh();
  Q_INVOKABLE void select(qint64 cid);   // drill into a client's paths (-1: none)
  Q_INVOKABLE void kick(qint64 cid);

 signals:
  void attachedChanged();
  void selectionChanged();
  void refreshed();
  void kicked(qint64 cid, bool ok, const QString &text);

 private:
  braid::mgmt::ManagementClient mgmt_;
  ClientModel clients_;
  PathModel clientPaths_;
  QTimer poll_;
  QString endpoint_, error_;
  qint64 selected_ = -1;
  bool busy_ = false;
};
