// SPDX-License-Identifier: GPL-2.0-only
// The profile store: <store>/<id>/profile.ovpn + copied files + meta.json. Everything written with 0600/0700
// modes (profiles hold private keys).
#include "profile_model.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>

#include "ovpn_import.h"

namespace {

QString quoteIfNeeded(const QString &w) {
  bool plain = !w.isEmpty();
  for (const QChar c : w) plain &= !(c.isSpace() || c == '"' || c == '\'' || c == '\\' || c == '#' || c == ';');
  if (plain) return w;
  QString q = "\"";
  for (const QChar c : w) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + '"';
}

const QFile::Permissions kPrivate = QFile::ReadOwner | QFile::WriteOwner;

}  // namespace

ProfileModel::ProfileModel(const QString &storeDir, QObject *parent) : QAbstractListModel(parent), dir_(storeDir) {
  if (dir_.isEmpty()) dir_ = qEnvironmentVariable("BRAID_GUI_PROFILE_DIR");
  if (dir_.isEmpty())
    dir_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/profiles");
  QDir().mkpath(dir_);
  QFile::setPermissions(dir_, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  reload();
}

int ProfileModel::rowCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : int(rows_.size()); }

QHash<int, QByteArray> ProfileModel::roleNames() const {
  return {{IdRole, "profileId"},         {NameRole, "name"},   {PathRole, "path"},
          {RemotesRole, "remotes"},      {AuthUserPassRole, "authUserPass"},
          {FilesRole, "files"},          {WarningsRole, "warnings"},
          {SchedulerRole, "scheduler"},  {EndpointRole, "endpoint"}};
}

QVariant ProfileModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rows_.size()) return {};
  const Profile &p = rows_[index.row()];
  switch (role) {
    case Qt::DisplayRole:
    case NameRole: return p.name;
    case IdRole: return p.id;
    case PathRole: return p.path;
    case RemotesRole: return p.remotes.join(QStringLiteral(", "));
    case AuthUserPassRole: return p.authUserPass;
    case FilesRole: return p.files;
    case WarningsRole: return p.warnings;
    case SchedulerRole: return p.scheduler;
    case EndpointRole: return p.endpoint;
  }
  return {};
}

void ProfileModel::setError(const QString &e) {
  lastError_ = e;
  emit lastErrorChanged();
}

void ProfileModel::reload() {
  beginResetModel();
  rows_.clear();
  const QDir d(dir_);
  for (const QString &id : d.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
    QFile mf(d.filePath(id + QStringLiteral("/meta.json")));
    if (!mf.open(QIODevice::ReadOnly) || mf.size() > 65536) continue;
    const QJsonObject o = QJsonDocument::fromJson(mf.readAll()).object();
    Profile p;
    p.id = id;
    p.name = o.value(QLatin1String("name")).toString(id);
    p.path = d.filePath(id + QStringLiteral("/profile.ovpn"));
    p.scheduler = o.value(QLatin1String("scheduler")).toString();
    p.endpoint = o.value(QLatin1String("endpoint")).toString();
    p.authUserPass = o.value(QLatin1String("auth_user_pass")).toBool();
    for (const auto &v : o.value(QLatin1String("remotes")).toArray()) p.remotes.append(v.toString());
    for (const auto &v : o.value(QLatin1String("files")).toArray()) p.files.append(v.toString());
    for (const auto &v : o.value(QLatin1String("warnings")).toArray()) p.warnings.append(v.toString());
    rows_.append(p);
  }
  std::sort(rows_.begin(), rows_.end(),
            [](const Profile &a, const Profile &b) { return a.name.localeAwareCompare(b.name) < 0; });
  endResetModel();
  emit countChanged();
}

bool ProfileModel::saveMeta(const Profile &p) const {
  QJsonObject o;
  o.insert(QStringLiteral("name"), p.name);
  o.insert(QStringLiteral("scheduler"), p.scheduler);
  o.insert(QStringLiteral("endpoint"), p.endpoint);
  o.insert(QStringLiteral("auth_user_pass"), p.authUserPass);
  o.insert(QStringLiteral("remotes"), QJsonArray::fromStringList(p.remotes));
  o.insert(QStringLiteral("files"), QJsonArray::fromStringList(p.files));
  o.insert(QStringLiteral("warnings"), QJsonArray::fromStringList(p.warnings));
  QSaveFile f(QDir(dir_).filePath(p.id + QStringLiteral("/meta.json")));
  if (!f.open(QIODevice::WriteOnly)) return false;
  f.write(QJsonDocument(o).toJson());
  f.setPermissions(kPrivate);
  return f.commit();
}

QString ProfileModel::uniqueName(const QString &wanted) const {
  auto taken = [&](const QString &n) {
    for (const Profile &p : rows_)
      if (p.name == n) return true;
    return false;
  };
  if (!taken(wanted)) return wanted;
  for (int i = 2;; ++i)
    if (!taken(QStringLiteral("%1 (%2)").arg(wanted).arg(i))) return QStringLiteral("%1 (%2)").arg(wanted).arg(i);
}

QString ProfileModel::importFile(const QString &pathOrUrl) {
  const QUrl url(pathOrUrl);
  const QString path = url.isLocalFile() ? url.toLocalFile() : pathOrUrl;
  braid::ovpn::Parsed parsed;
  braid::ovpn::Error err;
  if (!braid::ovpn::parseFile(path, &parsed, &err)) {
    setError(err.text());
    return {};
  }
  // id: a slug of the file name plus random hex (never a path component from the file).
  QString slug;
  for (const QChar c : QFileInfo(path).completeBaseName().left(32))
    slug += (c.isLetterOrNumber() && c.unicode() < 128) ? c.toLower() : QChar('-');
  const QString id = QStringLiteral("%1-%2").arg(slug.isEmpty() ? QStringLiteral("profile") : slug)
                         .arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QChar('0'));
  QDir store(dir_);
  if (!store.mkdir(id)) {
    setError(QStringLiteral("%1: cannot create %2").arg(QFileInfo(path).fileName(), store.filePath(id)));
    return {};
  }
  const QString pdir = store.filePath(id);
  QFile::setPermissions(pdir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
  auto abort = [&](const QString &msg) {
    QDir(pdir).removeRecursively();
    setError(msg);
    return QString();
  };

  // Copy referenced files next to the profile; rewrite their references to the stored names.
  QStringList lines = parsed.lines;
  QHash<QString, QString> stored;  // resolved source -> stored file name
  QStringList copied;
  for (const auto &ref : parsed.files) {
    QString name = stored.value(ref.resolved);
    if (name.isEmpty()) {
      name = QFileInfo(ref.resolved).fileName();
      if (name == QLatin1String("profile.ovpn") || name == QLatin1String("meta.json")) name.prepend("ref-");
      for (int i = 2; copied.contains(name); ++i) name = QStringLiteral("%1-%2").arg(i).arg(QFileInfo(ref.resolved).fileName());
      if (!QFile::copy(ref.resolved, QDir(pdir).filePath(name)))
        return abort(QStringLiteral("%1:%2: cannot copy '%3'").arg(err.file).arg(ref.line).arg(ref.path));
      QFile::setPermissions(QDir(pdir).filePath(name), kPrivate);
      stored.insert(ref.resolved, name);
      copied.append(name);
    }
    QString line = lines[ref.line - 1];
    const bool cr = line.endsWith('\r');
    QStringList w;
    QString why;
    braid::ovpn::splitWords(line.trimmed(), &w, &why);
    w[1] = name;
    for (QString &x : w) x = quoteIfNeeded(x);
    lines[ref.line - 1] = w.join(' ') + (cr ? "\r" : "");
  }
  QSaveFile out(QDir(pdir).filePath(QStringLiteral("profile.ovpn")));
  if (!out.open(QIODevice::WriteOnly)) return abort(QStringLiteral("cannot write the stored profile"));
  out.write(lines.join('\n').toUtf8());
  out.setPermissions(kPrivate);
  if (!out.commit()) return abort(QStringLiteral("cannot write the stored profile"));

  Profile p;
  p.id = id;
  p.name = uniqueName(QFileInfo(path).completeBaseName());
  p.path = QDir(pdir).filePath(QStringLiteral("profile.ovpn"));
  p.authUserPass = parsed.authUserPass;
  p.files = copied;
  p.warnings = parsed.warnings;
  for (const auto &r : parsed.remotes)
    p.remotes.append(QStringList{r.host, r.port, r.proto}.filter(QRegularExpression(".+")).join(' '));
  if (!saveMeta(p)) return abort(QStringLiteral("cannot write meta.json"));
  setError(QString());
  reload();
  return id;
}

int ProfileModel::rowOf(const QString &id) const {
  for (int i = 0; i < rows_.size(); ++i)
    if (rows_[i].id == id) return i;
  return -1;
}

QString ProfileModel::nameAt(int row) const { return row >= 0 && row < rows_.size() ? rows_[row].name : QString(); }

bool ProfileModel::rename(const QString &id, const QString &name) {
  const int r = rowOf(id);
  const QString n = name.trimmed();
  if (r < 0 || n.isEmpty() || n.size() > 128) {
    setError(r < 0 ? tr("no profile '%1'").arg(id) : tr("a profile name must be 1-128 characters"));
    return false;
  }
  Profile p = rows_[r];
  p.name = n;
  if (!saveMeta(p)) return false;
  reload();
  return true;
}

bool ProfileModel::setSetting(const QString &id, const QString &key, const QString &value) {
  const int r = rowOf(id);
  if (r < 0) return false;
  Profile p = rows_[r];
  if (key == QLatin1String("scheduler")) p.scheduler = value;
  else if (key == QLatin1String("endpoint")) p.endpoint = value;
  else return false;
  if (!saveMeta(p)) return false;
  reload();
  return true;
}

bool ProfileModel::remove(const QString &id) {
  const int r = rowOf(id);
  if (r < 0 || id.contains('/') || id.startsWith('.')) return false;
  if (!QDir(QDir(dir_).filePath(id)).removeRecursively()) return false;
  reload();
  return true;
}
