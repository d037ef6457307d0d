// SPDX-License-Identifier: GPL-2.0-only
// ProfileModel: the user's stored profiles. Import copies a .ovpn into its own directory under the store
// (inline blobs kept as they are, referenced files copied next to it and the references rewritten), with
// meta.json for the display name and per-profile settings; list, rename, delete. Errors name file and line.
#pragma once

#include <QAbstractListModel>
#include <QList>

class ProfileModel : public QAbstractListModel {
  Q_OBJECT
  Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
  Q_PROPERTY(QString lastError READ lastError NOTIFY lastErrorChanged)
  Q_PROPERTY(QString storeDir READ storeDir CONSTANT)
 public:
  enum Role {
    IdRole = Qt::UserRole + 1, NameRole, PathRole, RemotesRole, AuthUserPassRole, FilesRole, WarningsRole,
    SchedulerRole, EndpointRole
  };
  // storeDir empty: $BRAID_GUI_PROFILE_DIR, else <AppDataLocation>/profiles.
  explicit ProfileModel(const QString &storeDir = QString(), QObject *parent = nullptr);
  int rowCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role) const override;
  QHash<int, QByteArray> roleNames() const override;
  QString lastError() const { return lastError_; }
  QString storeDir() const { return dir_; }

  // Returns the new profile's id, or an empty string with lastError() = "file:line: message".
  Q_INVOKABLE QString importFile(const QString &pathOrUrl);
  Q_INVOKABLE bool rename(const QString &id, const QString &name);
  Q_INVOKABLE bool remove(const QString &id);
  Q_INVOKABLE bool setSetting(const QString &id, const QString &key, const QString &value);  // scheduler, endpoint
  Q_INVOKABLE int rowOf(const QString &id) const;
  Q_INVOKABLE QString nameAt(int row) const;
  void reload();

 signals:
  void countChanged();
  void lastErrorChanged();

 private:
  struct Profile {
    QString id, name, path, scheduler, endpoint;
    QStringList remotes, files, warnings;
    bool authUserPass = false;
  };
  bool saveMeta(const Profile &p) const;
  void setError(const QString &e);
  QString uniqueName(const QString &wanted) const;
  QList<Profile> rows_;
  QString dir_, lastError_;
};
