// SPDX-License-Identifier: GPL-2.0-only
// ClientModel: the gateway admin's client list, from stock `status 3` rows merged with Braid's `braid clients`
// objects (multipath or stock, path count and health). Stock gateways (no extension) still fill every stock column.
#pragma once

#include <QAbstractListModel>
#include <QList>

#include "mgmt_parse.h"

class ClientModel : public QAbstractListModel {
  Q_OBJECT
  Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
 public:
  enum Role {
    CidRole = Qt::UserRole + 1, CommonNameRole, RealAddressRole, VirtualAddressRole, VirtualAddress6Role,
    BytesInRole, BytesOutRole, ConnectedSinceRole, UsernameRole, BraidRole, PathsRole, PathsUpRole, HealthRole
  };
  explicit ClientModel(QObject *parent = nullptr);
  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;

  // Replaces the list; `braid` may be empty (stock gateway). Rows keep their order by client id.
  void setClients(const QList<braid::mgmt::StatusClient> &stock, const QList<braid::mgmt::BraidClient> &braid);
  Q_INVOKABLE int rowOfCommonName(const QString &cn) const;
  Q_INVOKABLE qint64 cidAt(int row) const;

 signals:
  void countChanged();

 private:
  struct Row {
    braid::mgmt::StatusClient s;
    bool braid = false;
    int paths = 1, pathsUp = 1;
  };
  QList<Row> rows_;
};
