// SPDX-License-Identifier: GPL-2.0-only
// The gateway's clients: stock columns plus the multipath summary; health is "ok", "degraded" or "down".
#include "client_model.h"

#include <QDateTime>
#include <algorithm>

ClientModel::ClientModel(QObject *parent) : QAbstractListModel(parent) {}

int ClientModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(rows_.size()); }

QHash<int, QByteArray> ClientModel::roleNames() const {
  return {{CidRole, "cid"},
          {CommonNameRole, "commonName"},
          {RealAddressRole, "realAddress"},
          {VirtualAddressRole, "virtualAddress"},
          {VirtualAddress6Role, "virtualAddress6"},
          {BytesInRole, "bytesIn"},
          {BytesOutRole, "bytesOut"},
          {ConnectedSinceRole, "connectedSince"},
          {UsernameRole, "username"},
          {BraidRole, "braid"},
          {PathsRole, "paths"},
          {PathsUpRole, "pathsUp"},
          {HealthRole, "health"}};
}

QVariant ClientModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  const Row &r = rows_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
    case CommonNameRole: return r.s.commonName;
    case CidRole: return r.s.cid;
    case RealAddressRole: return r.s.realAddress;
    case VirtualAddressRole: return r.s.virtualAddress;
    case VirtualAddress6Role: return r.s.virtualAddress6;
    case BytesInRole: return double(r.s.bytesIn);
    case BytesOutRole: return double(r.s.bytesOut);
    case ConnectedSinceRole: return QDateTime::fromSecsSinceEpoch(r.s.connectedSince);
    case UsernameRole: return r.s.username;
    case BraidRole: return r.braid;
    case PathsRole: return r.paths;
    case PathsUpRole: return r.pathsUp;
    case HealthRole:
      return r.pathsUp == 0 ? QStringLiteral("down")
                            : (r.pathsUp < r.paths ? QStringLiteral("degraded") : QStringLiteral("ok"));
  }
  return {};
}

void ClientModel::setClients(const QList<braid::mgmt::StatusClient> &stock,
                             const QList<braid::mgmt::BraidClient> &braid) {
  QList<Row> next;
  next.reserve(stock.size());
  for (const auto &s : stock) {
    Row r;
    r.s = s;
    for (const auto &b : braid)
      if (b.cid == s.cid) {
        r.braid = b.braid;
        r.paths = b.paths;
        r.pathsUp = b.pathsUp;
      }
    next.append(r);
  }
  std::stable_sort(next.begin(), next.end(), [](const Row &a, const Row &b) { return a.s.cid < b.s.cid; });
  const bool countChange = next.size() != rows_.size();
  beginResetModel();
  rows_ = next;
  endResetModel();
  if (countChange) emit countChanged();
}

int ClientModel::rowOfCommonName(const QString &cn) const {
  for (int i = 0; i < rows_.size(); ++i)
    if (rows_[i].s.commonName == cn) return i;
  return -1;
}

qint64 ClientModel::cidAt(int row) const { return row >= 0 && row < rows_.size() ? rows_[row].s.cid : -1; }
