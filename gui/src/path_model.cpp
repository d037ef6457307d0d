// SPDX-License-Identifier: GPL-2.0-only
// The per-path model: rows keyed by path id, state transitions reported, history pruned to kHistorySeconds.
#include "path_model.h"

#include <QVariantMap>

using braid::mgmt::PathInfo;

PathModel::PathModel(QObject *parent)
    : QAbstractListModel(parent), now_([] { return QDateTime::currentMSecsSinceEpoch(); }) {}

int PathModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(rows_.size()); }

QHash<int, QByteArray> PathModel::roleNames() const {
  return {{PathIdRole, "pathId"}, {IfnameRole, "ifname"}, {LocalRole, "local"},     {RemoteRole, "remote"},
          {StateRole, "state"},   {UpRole, "up"},         {BackupRole, "backup"},   {DisabledRole, "disabled"},
          {RttRole, "rttMs"},     {LossRole, "lossPct"},  {TxBpsRole, "txBps"},     {RxBpsRole, "rxBps"},
          {ShareRole, "share"},   {TxBytesRole, "txBytes"}, {RxBytesRole, "rxBytes"}, {CapRole, "capBps"},
          {ChangedRole, "changedMs"}};
}

QVariant PathModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  const PathInfo &p = rows_[index.row()].info;
  switch (role) {
    case Qt::DisplayRole:
    case IfnameRole: return p.ifname;
    case PathIdRole: return p.id;
    case LocalRole: return p.local;
    case RemoteRole: return p.remote;
    case StateRole: return p.state;
    case UpRole: return p.state == QLatin1String("up");
    case BackupRole: return p.backup;
    case DisabledRole: return p.disabled;
    case RttRole: return p.rttMs;
    case LossRole: return p.lossPct;
    case TxBpsRole: return double(p.txBps);
    case RxBpsRole: return double(p.rxBps);
    case ShareRole: return p.share >= 0 ? p.share : rows_[index.row()].computedShare;
    case TxBytesRole: return double(p.txBytes);
    case RxBytesRole: return double(p.rxBytes);
    case CapRole: return double(p.capBps);
    case ChangedRole: return rows_[index.row()].changedMs;
  }
  return {};
}

int PathModel::rowOf(const QString &ifname) const {
  for (int i = 0; i < rows_.size(); ++i)
    if (rows_[i].info.ifname == ifname) return i;
  return -1;
}

QString PathModel::stateOf(const QString &ifname) const {
  const int r = rowOf(ifname);
  return r < 0 ? QString() : rows_[r].info.state;
}

int PathModel::upCount() const {
  int n = 0;
  for (const Row &r : rows_) n += r.info.state == QLatin1String("up");
  return n;
}

void PathModel::appendSample(Row &r) {
  const qint64 t = now_();
  r.history.append(Sample{t, double(r.info.txBps), double(r.info.rxBps), r.info.rttMs});
  while (!r.history.isEmpty() && r.history.first().t < t - qint64(kHistorySeconds) * 1000) r.history.removeFirst();
  // Bounded even if events arrive faster than once a second.
  while (r.history.size() > kHistorySeconds * 10) r.history.removeFirst();
}

void PathModel::recomputeShares() {
  // The daemon's share wins; a daemon that leaves it out gets the share of transmitted rate.
  double total = 0;
  for (const Row &r : rows_) total += double(r.info.txBps);
  for (Row &r : rows_) r.computedShare = total > 0 ? 100.0 * double(r.info.txBps) / total : 0;
}

void PathModel::update(const PathInfo &path) {
  const int row = [&] {
    for (int i = 0; i < rows_.size(); ++i)
      if (rows_[i].info.id == path.id) return i;
    return -1;
  }();
  if (path.state == QLatin1String("removed")) {
    if (row < 0) return;
    beginRemoveRows({}, row, row);
    rows_.removeAt(row);
    endRemoveRows();
    emit countChanged();
    return;
  }
  if (row < 0) {
    if (rows_.size() >= kMaxPaths) return;
    beginInsertRows({}, int(rows_.size()), int(rows_.size()));
    Row r{path, {}, now_(), 0};
    appendSample(r);
    rows_.append(r);
    endInsertRows();
    recomputeShares();
    emit dataChanged(index(0), index(int(rows_.size()) - 1));  // the others' shares changed
    emit countChanged();
    emit historyChanged();
    if (path.state != QLatin1String("up")) emit pathDown(path.ifname);
    return;
  }
  Row &r = rows_[row];
  const bool wasUp = r.info.state == QLatin1String("up");
  const bool isUp = path.state == QLatin1String("up");
  if (r.info.state != path.state) r.changedMs = now_();
  r.info = path;
  appendSample(r);
  recomputeShares();
  emit dataChanged(index(0), index(int(rows_.size()) - 1));
  emit historyChanged();
  if (wasUp != isUp) {
    emit countChanged();
    if (isUp) emit pathUp(path.ifname); else emit pathDown(path.ifname);
  }
}

void PathModel::replaceAll(const QList<PathInfo> &paths) {
  // Drop paths the daemon no longer reports, then upsert the rest (keeps history of surviving paths).
  for (int i = int(rows_.size()) - 1; i >= 0; --i) {
    bool keep = false;
    for (const PathInfo &p : paths) keep |= p.id == rows_[i].info.id;
    if (!keep) {
      beginRemoveRows({}, i, i);
      rows_.removeAt(i);
      endRemoveRows();
      emit countChanged();
    }
  }
  for (const PathInfo &p : paths) update(p);
}

void PathModel::clear() {
  beginResetModel();
  rows_.clear();
  endResetModel();
  emit countChanged();
  emit historyChanged();
}

double PathModel::maxThroughput() const {
  double m = 0;
  const qint64 now = now_();
  // Stacked chart: the maximum of the per-second sum across paths.
  QHash<qint64, double> sums;
  for (const Row &r : rows_)
    for (const Sample &s : r.history) sums[(now - s.t) / 1000] += s.tx + s.rx;
  for (double v : sums) m = qMax(m, v);
  return m;
}

double PathModel::maxRtt() const {
  double m = 0;
  for (const Row &r : rows_)
    for (const Sample &s : r.history) m = qMax(m, s.rtt);
  return m;
}

QVariantList PathModel::history(int row, const QString &field) const {
  QVariantList out;
  if (row < 0 || row >= rows_.size()) return out;
  const qint64 now = now_();
  for (const Sample &s : rows_[row].history) {
    double v = 0;
    if (field == QLatin1String("tx")) v = s.tx;
    else if (field == QLatin1String("rx")) v = s.rx;
    else if (field == QLatin1String("rtt")) v = s.rtt;
    else if (field == QLatin1String("total")) v = s.tx + s.rx;
    QVariantMap m;
    m.insert(QStringLiteral("t"), double(s.t - now) / 1000.0);
    m.insert(QStringLiteral("v"), v);
    out.append(m);
  }
  return out;
}
