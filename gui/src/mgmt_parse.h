// SPDX-License-Identifier: GPL-2.0-only
// Pure parsers for the lines of the OpenVPN management protocol (v5) and of Braid's extension (gui/README.md):
// >STATE:, >BYTECOUNT:, >BYTECOUNT_CLI:, >LOG:, >PASSWORD:, `status 3` rows, and the JSON path/client objects of
// `braid paths` / `braid clients` / >BRAID-PATH:. No I/O: every function takes one bounded line and returns
// std::nullopt on anything malformed, so the callers count and drop it.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace braid::mgmt {

// Upper bounds on what the wire may give us (checked before anything is parsed).
constexpr int kMaxLineBytes = 8192;        // one line, CR/LF excluded
constexpr int kMaxReplyLines = 100000;     // one multi-line reply (a big gateway's status 3)
constexpr int kMaxNameChars = 64;          // interface names, common names in the path/client objects

struct StateEvent {          // >STATE:time,name,desc,tun4,remote,rport,local,lport[,tun6]
  qint64 time = 0;
  QString name, desc, tunIp4, remoteIp, remotePort, localIp, localPort, tunIp6;
};
struct ByteCount {
  qint64 cid = -1;           // -1 for >BYTECOUNT: (client side), the client id for >BYTECOUNT_CLI:
  quint64 in = 0, out = 0;
};
struct LogEntry {            // >LOG:time,flags,text (text may hold commas)
  qint64 time = 0;
  QString flags, text;
};
struct PasswordRequest {     // >PASSWORD:Need 'Auth' username/password | Need 'X' password | Verification Failed: 'X'
  QString type;
  bool needUsername = false;
  bool failed = false;
  QString challenge;         // CRV1/SC text when present (shown, never logged)
};
struct StatusClient {        // one CLIENT_LIST row of `status 2|3`
  QString commonName, realAddress, virtualAddress, virtualAddress6, username, cipher;
  quint64 bytesIn = 0, bytesOut = 0;
  qint64 connectedSince = 0, cid = -1, peerId = -1;
};
struct PathInfo {            // one object of `braid paths` / >BRAID-PATH:
  int id = -1;
  QString ifname, local, remote, state;
  bool backup = false, disabled = false;
  double rttMs = -1, lossPct = -1, share = -1;  // -1: unknown
  quint64 txBps = 0, rxBps = 0, txBytes = 0, rxBytes = 0, capBps = 0;
};
struct BraidClient {         // one object of `braid clients`
  qint64 cid = -1;
  QString commonName;
  bool braid = false;
  int paths = 0, pathsUp = 0;
};

std::optional<StateEvent> parseState(const QString &payload);
std::optional<ByteCount> parseByteCount(const QString &payload, bool perClient);
std::optional<LogEntry> parseLog(const QString &payload);
std::optional<PasswordRequest> parsePassword(const QString &payload);
// `status 2` (commas) or `status 3` (tabs): the CLIENT_LIST rows; std::nullopt if the reply has no TITLE/HEADER.
std::optional<QList<StatusClient>> parseStatusClients(const QStringList &lines);
std::optional<PathInfo> parsePath(const QString &json);
std::optional<BraidClient> parseBraidClient(const QString &json);
// Quotes an argument the way the management interface's parser expects ("..." with \\ and \" escaped).
QString quoteArg(const QString &arg);

}  // namespace braid::mgmt
