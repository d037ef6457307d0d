// SPDX-License-Identifier: GPL-2.0-only
// LogModel: the daemon's log (>LOG: lines and `log on all` history) plus the GUI's own events, in a bounded ring,
// with a text/level filter for the log view and export to a file.
#pragma once

#include <QAbstractListModel>
#include <QList>

class LogModel : public QAbstractListModel {
  Q_OBJECT
  Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
  Q_PROPERTY(QString filter READ filter WRITE setFilter NOTIFY filterChanged)
 public:
  enum Role { TimeRole = Qt::UserRole + 1, FlagsRole, TextRole, LevelRole, SourceRole };
  static constexpr int kMaxEntries = 5000;

  explicit LogModel(QObject *parent = nullptr);
  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;

  // flags as in >LOG: (I info, F fatal, N non-fatal error, W warning, D debug; empty = info); source "daemon"/"gui".
  void append(qint64 time, const QString &flags, const QString &text, const QString &source = QStringLiteral("daemon"));
  Q_INVOKABLE void clear();
  Q_INVOKABLE bool exportTo(const QString &pathOrUrl) const;  // all entries, unfiltered
  QString filter() const { return filter_; }
  void setFilter(const QString &f);
  int totalCount() const { return int(all_.size()); }

 signals:
  void countChanged();
  void filterChanged();

 private:
  struct Entry {
    qint64 time;
    QString flags, text, source;
  };
  bool matches(const Entry &e) const;
  void rebuild();
  QList<Entry> all_;
  QList<int> visible_;  // indexes into all_
  QString filter_;
};
