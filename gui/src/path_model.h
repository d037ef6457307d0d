// SPDX-License-Identifier: GPL-2.0-only
// PathModel: one row per multipath path (a card in the GUI), fed by `braid paths` replies (the full set) and
// >BRAID-PATH: events (one path each), plus a per-path history of the last minutes for the charts.
#pragma once

#include <QAbstractListModel>
#include <QDateTime>
#include <QHash>
#include <QList>
#include <functional>

#include "mgmt_parse.h"

class PathModel : public QAbstractListModel {
  Q_OBJECT
  Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
  Q_PROPERTY(int upCount READ upCount NOTIFY countChanged)
  Q_PROPERTY(int historySeconds READ historySeconds CONSTANT)
  Q_PROPERTY(double maxThroughput READ maxThroughput NOTIFY historyChanged)
  Q_PROPERTY(double maxRtt READ maxRtt NOTIFY historyChanged)
 public:
  enum Role {
    PathIdRole = Qt::UserRole + 1, IfnameRole, LocalRole, RemoteRole, StateRole, UpRole, BackupRole, DisabledRole,
    RttRole, LossRole, TxBpsRole, RxBpsRole, ShareRole, TxBytesRole, RxBytesRole, CapRole, ChangedRole
  };
  struct Sample {
    qint64 t;  // ms since epoch
    double tx, rx, rtt;
  };
  static constexpr int kHistorySeconds = 300;
  static constexpr int kMaxPaths = 64;

  explicit PathModel(QObject *parent = nullptr);
  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;

  void replaceAll(const QList<braid::mgmt::PathInfo> &paths);  // a full `braid paths` reply
  void update(const braid::mgmt::PathInfo &path);               // one >BRAID-PATH: event
  void clear();
  int count() const { return rowCount(); }
  int upCount() const;
  int historySeconds() const { return kHistorySeconds; }
  double maxThroughput() const;
  double maxRtt() const;
  void setClock(std::function<qint64()> now) { now_ = std::move(now); }  // tests

  Q_INVOKABLE int rowOf(const QString &ifname) const;
  Q_INVOKABLE QString stateOf(const QString &ifname) const;
  Q_INVOKABLE QString ifnameAt(int row) const { return row >= 0 && row < rows_.size() ? rows_[row].info.ifname : QString(); }
  // Chart data for row: [{t: seconds ago (negative), v: value}], field = "tx" | "rx" | "rtt" | "total".
  Q_INVOKABLE QVariantList history(int row, const QString &field) const;

 signals:
  void countChanged();
  void historyChanged();
  void pathDown(const QString &ifname);   // a path left "up" (desktop notification)
  void pathUp(const QString &ifname);     // a path came back

 private:
  struct Row {
    braid::mgmt::PathInfo info;
    QList<Sample> history;
    qint64 changedMs = 0;
    double computedShare = 0;  // used when the daemon sends no share_pct (info.share < 0)
  };
  void recomputeShares();
  void appendSample(Row &r);
  QList<Row> rows_;
  std::function<qint64()> now_;
};
