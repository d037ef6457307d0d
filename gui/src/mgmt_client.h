// SPDX-License-Identifier: GPL-2.0-only
// ManagementClient: one connection to an OpenVPN-compatible management interface (braidd or stock openvpn),
// over a unix socket or localhost TCP. It splits the CRLF stream into bounded lines, routes real-time lines
// (">NAME:payload") to signals, and matches every other line to the oldest pending command: a reply is one
// SUCCESS:/ERROR: line, or data lines ending in END. Protocol errors (an over-long line, a reply line nobody asked
// for, a reply that never ends) are counted, reported through protocolError(), and, where the stream can no longer
// be trusted, end the connection.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QQueue>
#include <QTimer>
#include <functional>

#include "mgmt_parse.h"

class QIODevice;

namespace braid::mgmt {

struct Reply {
  bool ok = false;        // SUCCESS: or a data reply ending in END
  QString text;           // the text after SUCCESS:/ERROR: (trimmed)
  QStringList lines;      // data lines of a multi-line reply (END excluded)
};

class ManagementClient : public QObject {
  Q_OBJECT
 public:
  using Callback = std::function<void(const Reply &)>;
  enum class Status { Closed, Connecting, Open };
  Q_ENUM(Status)

  explicit ManagementClient(QObject *parent = nullptr);
  ~ManagementClient() override;

  // "unix:/run/braid/x.sock", "tcp:127.0.0.1:7505" or a bare path. Returns false on a malformed endpoint.
  bool open(const QString &endpoint);
  void close();
  Status status() const { return status_; }
  void setPassword(const QString &pw) { password_ = pw; }  // answers ENTER PASSWORD: once
  void setCommandTimeout(int ms) { timeoutMs_ = ms; }

  // Queues `command` (one line; CR/LF refused) and calls `cb` with its reply. False if not open or queue full.
  bool send(const QString &command, Callback cb = {});

  // Counters (shown in the log view and asserted by the tests).
  quint64 linesRead() const { return linesRead_; }
  quint64 rejected() const { return rejected_; }

  static constexpr int kMaxPending = 64;

 signals:
  void statusChanged(braid::mgmt::ManagementClient::Status status);
  void banner(const QString &text);                 // >INFO:OpenVPN Management Interface Version 5 ...
  void stateEvent(const braid::mgmt::StateEvent &e);
  void byteCount(const braid::mgmt::ByteCount &b);
  void logEntry(const braid::mgmt::LogEntry &e);
  void passwordRequest(const braid::mgmt::PasswordRequest &r);
  void hold(const QString &text);
  void pathEvent(const braid::mgmt::PathInfo &p);   // >BRAID-PATH:{json}
  void infoMessage(const QString &text);            // >INFO: / >INFOMSG: (WEB_AUTH:, CR_TEXT:)
  void clientEvent(const QString &payload);         // >CLIENT:... (gateway)
  void notification(const QString &name, const QString &payload);  // every real-time line, parsed or not
  void protocolError(const QString &what);

 private:
  struct Pending {
    QString command;
    Callback cb;
    QStringList lines;
    int partsLeft = 1;  // `log on all` & co. answer twice: SUCCESS: (the switch), then the history ending in END
  };
  void onReadyRead();
  void onConnected();
  void onDisconnected();
  void handleLine(const QString &line);
  void handleRealtime(const QString &line);
  void finishPending(bool ok, const QString &text);
  void fail(const QString &why);  // protocol can no longer be trusted: count, report, close
  void armTimer();
  void reject(const QString &why);

  QPointer<QIODevice> dev_;
  Status status_ = Status::Closed;
  QByteArray buf_;
  bool discarding_ = false;       // skipping the rest of an over-long line
  QQueue<Pending> pending_;
  QTimer timer_;
  int timeoutMs_ = 15000;
  QString password_;
  quint64 linesRead_ = 0, rejected_ = 0;
  QElapsedTimer rejectLog_;
};

}  // namespace braid::mgmt
