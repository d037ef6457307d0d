// SPDX-License-Identifier: GPL-2.0-only
// The management-interface connection: transport, bounded line splitting, reply matching, real-time routing.
#include "mgmt_client.h"

#include <QLocalSocket>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTcpSocket>

Q_LOGGING_CATEGORY(lcMgmt, "braid.mgmt")

namespace braid::mgmt {

ManagementClient::ManagementClient(QObject *parent) : QObject(parent) {
  timer_.setSingleShot(true);
  connect(&timer_, &QTimer::timeout, this, [this] {
    fail(QStringLiteral("no reply to '%1' within %2 ms").arg(pending_.isEmpty() ? QString() : pending_.head().command.section(' ', 0, 0)).arg(timeoutMs_));
  });
}

ManagementClient::~ManagementClient() { close(); }

bool ManagementClient::open(const QString &endpoint) {
  close();
  QString ep = endpoint;
  if (ep.startsWith(QLatin1String("tcp:"))) {
    const QString hp = ep.mid(4);
    const int colon = hp.lastIndexOf(':');
    bool ok = false;
    const int port = colon > 0 ? hp.mid(colon + 1).toInt(&ok) : 0;
    if (!ok || port <= 0 || port > 65535) return false;
    auto *s = new QTcpSocket(this);
    dev_ = s;
    connect(s, &QTcpSocket::connected, this, &ManagementClient::onConnected);
    connect(s, &QTcpSocket::disconnected, this, &ManagementClient::onDisconnected);
    connect(s, &QTcpSocket::errorOccurred, this, [this, s](QAbstractSocket::SocketError e) {
      if (e == QAbstractSocket::RemoteHostClosedError) return;  // an ordinary end: disconnected() follows
      if (status_ != Status::Closed) fail(s->errorString());
    });
    connect(s, &QIODevice::readyRead, this, &ManagementClient::onReadyRead);
    status_ = Status::Connecting;
    emit statusChanged(status_);
    s->connectToHost(hp.left(colon), quint16(port));
  } else {
    if (ep.startsWith(QLatin1String("unix:"))) ep = ep.mid(5);
    if (ep.isEmpty()) return false;
    auto *s = new QLocalSocket(this);
    dev_ = s;
    connect(s, &QLocalSocket::connected, this, &ManagementClient::onConnected);
    connect(s, &QLocalSocket::disconnected, this, &ManagementClient::onDisconnected);
    connect(s, &QLocalSocket::errorOccurred, this, [this, s](QLocalSocket::LocalSocketError e) {
      if (e == QLocalSocket::PeerClosedError) return;  // an ordinary end: disconnected() follows
      if (status_ != Status::Closed) fail(s->errorString());
    });
    connect(s, &QIODevice::readyRead, this, &ManagementClient::onReadyRead);
    status_ = Status::Connecting;
    emit statusChanged(status_);
    s->connectToServer(ep);  // may fail synchronously (and close us) for an invalid name
  }
  return true;
}

void ManagementClient::close() {
  timer_.stop();
  QIODevice *d = dev_;
  dev_ = nullptr;
  buf_.clear();
  discarding_ = false;
  // Every pending command gets an answer, so no caller waits forever.
  QQueue<Pending> left;
  left.swap(pending_);
  if (d) {
    d->disconnect(this);
    if (auto *t = qobject_cast<QTcpSocket *>(d)) t->abort();
    if (auto *l = qobject_cast<QLocalSocket *>(d)) l->abort();
    d->deleteLater();
  }
  for (Pending &p : left)
    if (p.cb) p.cb(Reply{false, QStringLiteral("connection closed"), {}});
  if (status_ != Status::Closed) {
    status_ = Status::Closed;
    emit statusChanged(status_);
  }
}

bool ManagementClient::send(const QString &command, Callback cb) {
  if (status_ != Status::Open || !dev_) return false;
  if (command.contains('\n') || command.contains('\r') || command.isEmpty() ||
      command.size() > 1024 || pending_.size() >= kMaxPending)
    return false;
  // As stock's dispatcher: `log|state|echo on|off all|N` runs two commands, so two replies come back.
  static const QRegularExpression twoPart(QStringLiteral("^(log|state|echo) (on|off) (all|[0-9]+)$"));
  pending_.enqueue(Pending{command, std::move(cb), {}, twoPart.match(command).hasMatch() ? 2 : 1});
  dev_->write(command.toUtf8() + "\n");
  armTimer();
  return true;
}

void ManagementClient::armTimer() {
  if (pending_.isEmpty())
    timer_.stop();
  else if (!timer_.isActive())
    timer_.start(timeoutMs_);
}

void ManagementClient::onConnected() {
  status_ = Status::Open;
  emit statusChanged(status_);
}

void ManagementClient::onDisconnected() {
  if (status_ == Status::Closed) return;
  close();
}

void ManagementClient::reject(const QString &why) {
  ++rejected_;
  emit protocolError(why);
  // Rate-limited: a hostile peer must not flood the log.
  if (!rejectLog_.isValid() || rejectLog_.elapsed() > 1000) {
    qCWarning(lcMgmt) << "management:" << why << "(rejected so far:" << rejected_ << ")";
    rejectLog_.start();
  }
}

void ManagementClient::fail(const QString &why) {
  reject(why);
  close();
}

void ManagementClient::onReadyRead() {
  while (dev_ && dev_->bytesAvailable() > 0) {
    const QByteArray chunk = dev_->read(64 * 1024);
    if (chunk.isEmpty()) break;
    buf_.append(chunk);
    qsizetype start = 0;
    for (;;) {
      const qsizetype nl = buf_.indexOf('\n', start);
      if (nl < 0) break;
      QByteArray line = buf_.mid(start, nl - start);
      start = nl + 1;
      if (discarding_) {  // tail of an over-long line: drop it, resync on the next line
        discarding_ = false;
        continue;
      }
      if (line.endsWith('\r')) line.chop(1);
      if (line.size() > kMaxLineBytes) {
        reject(QStringLiteral("line of %1 bytes exceeds %2").arg(line.size()).arg(kMaxLineBytes));
        continue;
      }
      if (line.contains('\0')) {
        reject(QStringLiteral("NUL byte in a line"));
        continue;
      }
      ++linesRead_;
      handleLine(QString::fromUtf8(line));
      if (!dev_) return;  // handler closed us
    }
    buf_.remove(0, start);
    // ENTER PASSWORD: has no line end (stock writes the prompt and waits).
    if (buf_.startsWith("ENTER PASSWORD:")) {
      buf_.remove(0, 15);
      if (password_.isEmpty()) {
        fail(QStringLiteral("the management interface wants a password and none is set"));
        return;
      }
      dev_->write(password_.toUtf8() + "\n");
    }
    if (buf_.size() > kMaxLineBytes) {
      reject(QStringLiteral("line exceeds %1 bytes").arg(kMaxLineBytes));
      buf_.clear();
      discarding_ = true;
    }
  }
}

void ManagementClient::handleLine(const QString &line) {
  if (line.startsWith('>')) {
    handleRealtime(line);
    return;
  }
  if (line.startsWith(QLatin1String("SUCCESS: password is correct"))) return;  // answer to ENTER PASSWORD:
  if (line.startsWith(QLatin1String("ERROR: bad password"))) {
    fail(QStringLiteral("management password refused"));
    return;
  }
  if (pending_.isEmpty()) {
    reject(QStringLiteral("unsolicited line: %1").arg(line.left(80)));
    return;
  }
  Pending &p = pending_.head();
  if (p.lines.isEmpty()) {
    if (line.startsWith(QLatin1String("SUCCESS:"))) {
      if (p.partsLeft > 1) {  // first half of a two-part reply; the history follows
        --p.partsLeft;
        return;
      }
      finishPending(true, line.mid(8).trimmed());
      return;
    }
    if (line.startsWith(QLatin1String("ERROR:"))) {
      finishPending(false, line.mid(6).trimmed());
      return;
    }
  }
  if (line == QLatin1String("END")) {
    finishPending(true, QString());
    return;
  }
  if (p.lines.size() >= kMaxReplyLines) {
    fail(QStringLiteral("reply to '%1' exceeds %2 lines").arg(p.command.section(' ', 0, 0)).arg(kMaxReplyLines));
    return;
  }
  p.lines.append(line);
}

void ManagementClient::finishPending(bool ok, const QString &text) {
  Pending p = pending_.dequeue();
  timer_.stop();
  armTimer();
  if (p.cb) p.cb(Reply{ok, text, p.lines});
}

void ManagementClient::handleRealtime(const QString &line) {
  const int colon = line.indexOf(':');
  if (colon < 2 || colon > 24) {
    reject(QStringLiteral("malformed real-time line: %1").arg(line.left(80)));
    return;
  }
  const QString name = line.mid(1, colon - 1);
  const QString payload = line.mid(colon + 1);
  emit notification(name, payload);
  bool bad = false;
  if (name == QLatin1String("STATE")) {
    if (auto e = parseState(payload)) emit stateEvent(*e); else bad = true;
  } else if (name == QLatin1String("BYTECOUNT") || name == QLatin1String("BYTECOUNT_CLI")) {
    if (auto b = parseByteCount(payload, name.size() > 9)) emit byteCount(*b); else bad = true;
  } else if (name == QLatin1String("LOG")) {
    if (auto e = parseLog(payload)) emit logEntry(*e); else bad = true;
  } else if (name == QLatin1String("PASSWORD")) {
    if (auto r = parsePassword(payload)) emit passwordRequest(*r); else bad = true;
  } else if (name == QLatin1String("HOLD")) {
    emit hold(payload);
  } else if (name == QLatin1String("BRAID-PATH")) {
    if (auto p = parsePath(payload)) emit pathEvent(*p); else bad = true;
  } else if (name == QLatin1String("INFO")) {
    if (payload.startsWith(QLatin1String("OpenVPN Management Interface Version")))
      emit banner(payload);
    else
      emit infoMessage(payload);
  } else if (name == QLatin1String("INFOMSG")) {
    emit infoMessage(payload);
  } else if (name == QLatin1String("CLIENT")) {
    emit clientEvent(payload);
  }
  if (bad) reject(QStringLiteral("unparsable >%1: %2").arg(name, payload.left(80)));
}

}  // namespace braid::mgmt
