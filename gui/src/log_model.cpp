// SPDX-License-Identifier: GPL-2.0-only
// The log ring and its filter. The filter matches text case-insensitively; "level:W" style prefixes select flags.
#include "log_model.h"

#include <QDateTime>
#include <QFile>
#include <QUrl>

LogModel::LogModel(QObject *parent) : QAbstractListModel(parent) {}

int LogModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(visible_.size()); }

QHash<int, QByteArray> LogModel::roleNames() const {
  return {{TimeRole, "time"}, {FlagsRole, "flags"}, {TextRole, "text"}, {LevelRole, "level"}, {SourceRole, "source"}};
}

static QString levelOf(const QString &flags) {
  if (flags.contains('F')) return QStringLiteral("fatal");
  if (flags.contains('N')) return QStringLiteral("error");
  if (flags.contains('W')) return QStringLiteral("warning");
  if (flags.contains('D')) return QStringLiteral("debug");
  return QStringLiteral("info");
}

QVariant LogModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= visible_.size()) return {};
  const Entry &e = all_[visible_[index.row()]];
  switch (role) {
    case Qt::DisplayRole:
    case TextRole: return e.text;
    case TimeRole: return QDateTime::fromSecsSinceEpoch(e.time).toString(QStringLiteral("HH:mm:ss"));
    case FlagsRole: return e.flags;
    case LevelRole: return levelOf(e.flags);
    case SourceRole: return e.source;
  }
  return {};
}

bool LogModel::matches(const Entry &e) const {
  if (filter_.isEmpty()) return true;
  if (filter_.startsWith(QLatin1String("level:"))) return levelOf(e.flags) == filter_.mid(6);
  return e.text.contains(filter_, Qt::CaseInsensitive);
}

void LogModel::rebuild() {
  beginResetModel();
  visible_.clear();
  for (int i = 0; i < all_.size(); ++i)
    if (matches(all_[i])) visible_.append(i);
  endResetModel();
  emit countChanged();
}

void LogModel::append(qint64 time, const QString &flags, const QString &text, const QString &source) {
  if (all_.size() >= kMaxEntries) {
    // Drop the oldest tenth at once so the ring does not reset the view on every line.
    all_.erase(all_.begin(), all_.begin() + kMaxEntries / 10);
    all_.append(Entry{time, flags, text.left(2048), source});
    rebuild();
    return;
  }
  all_.append(Entry{time, flags, text.left(2048), source});
  if (matches(all_.last())) {
    beginInsertRows({}, int(visible_.size()), int(visible_.size()));
    visible_.append(int(all_.size()) - 1);
    endInsertRows();
    emit countChanged();
  }
}

void LogModel::clear() {
  all_.clear();
  rebuild();
}

void LogModel::setFilter(const QString &f) {
  if (f == filter_) return;
  filter_ = f;
  rebuild();
  emit filterChanged();
}

bool LogModel::exportTo(const QString &pathOrUrl) const {
  const QUrl url(pathOrUrl);
  QFile f(url.isLocalFile() ? url.toLocalFile() : pathOrUrl);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) return false;
  for (const Entry &e : all_) {
    const QString line = QStringLiteral("%1 %2 %3 %4\n")
                             .arg(QDateTime::fromSecsSinceEpoch(e.time, Qt::UTC).toString(Qt::ISODate),
                                  e.source, e.flags.isEmpty() ? QStringLiteral("-") : e.flags, e.text);
    if (f.write(line.toUtf8()) < 0) return false;
  }
  return true;
}
