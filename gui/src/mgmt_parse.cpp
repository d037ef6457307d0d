// SPDX-License-Identifier: GPL-2.0-only
// Pure, defensive parsers for management-protocol payloads (see mgmt_parse.h). Nothing here trusts a field:
// numbers are range-checked, names length-checked, JSON type-checked.
#include "mgmt_parse.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <cmath>

namespace braid::mgmt {
namespace {

std::optional<quint64> toU64(const QString &s) {
  bool ok = false;
  const quint64 v = s.toULongLong(&ok, 10);
  if (!ok || s.isEmpty() || s.startsWith('+') || s.startsWith('-')) return std::nullopt;
  return v;
}

std::optional<qint64> toI64(const QString &s) {
  bool ok = false;
  const qint64 v = s.toLongLong(&ok, 10);
  if (!ok || s.isEmpty()) return std::nullopt;
  return v;
}

bool saneName(const QString &s) {
  if (s.size() > kMaxNameChars) return false;
  for (const QChar c : s)
    if (c.unicode() < 0x20 || c.unicode() == 0x7f) return false;
  return true;
}

std::optional<QJsonObject> jsonObject(const QString &text) {
  if (text.size() > kMaxLineBytes) return std::nullopt;
  QJsonParseError err{};
  const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &err);
  if (err.error != QJsonParseError::NoError || !doc.isObject()) return std::nullopt;
  return doc.object();
}

// A non-negative finite number, or `fallback` when absent; std::nullopt when present but wrong.
std::optional<double> num(const QJsonObject &o, const char *key, double fallback) {
  const QJsonValue v = o.value(QLatin1String(key));
  if (v.isUndefined() || v.isNull()) return fallback;
  if (!v.isDouble()) return std::nullopt;
  const double d = v.toDouble();
  if (!std::isfinite(d) || d < 0 || d > 1e18) return std::nullopt;
  return d;
}

std::optional<QString> str(const QJsonObject &o, const char *key, int maxChars) {
  const QJsonValue v = o.value(QLatin1String(key));
  if (v.isUndefined() || v.isNull()) return QString();
  if (!v.isString()) return std::nullopt;
  const QString s = v.toString();
  if (s.size() > maxChars) return std::nullopt;
  for (const QChar c : s)
    if (c.unicode() < 0x20 || c.unicode() == 0x7f) return std::nullopt;
  return s;
}

}  // namespace

std::optional<StateEvent> parseState(const QString &payload) {
  const QStringList f = payload.split(',');
  if (f.size() < 2 || f.size() > 9) return std::nullopt;
  const auto t = toI64(f[0]);
  if (!t || f[1].isEmpty() || f[1].size() > 32) return std::nullopt;
  for (const QChar c : f[1])
    if (!(c.isUpper() || c == '_')) return std::nullopt;
  StateEvent e;
  e.time = *t;
  e.name = f[1];
  auto at = [&](int i) { return i < f.size() ? f[i] : QString(); };
  e.desc = at(2);
  e.tunIp4 = at(3);
  e.remoteIp = at(4);
  e.remotePort = at(5);
  e.localIp = at(6);
  e.localPort = at(7);
  e.tunIp6 = at(8);
  return e;
}

std::optional<ByteCount> parseByteCount(const QString &payload, bool perClient) {
  const QStringList f = payload.split(',');
  if (f.size() != (perClient ? 3 : 2)) return std::nullopt;
  ByteCount b;
  int i = 0;
  if (perClient) {
    const auto cid = toU64(f[i++]);
    if (!cid || *cid > 0x7fffffffULL) return std::nullopt;
    b.cid = qint64(*cid);
  }
  const auto in = toU64(f[i++]);
  const auto out = toU64(f[i]);
  if (!in || !out) return std::nullopt;
  b.in = *in;
  b.out = *out;
  return b;
}

std::optional<LogEntry> parseLog(const QString &payload) {
  const int c1 = payload.indexOf(',');
  if (c1 <= 0) return std::nullopt;
  const int c2 = payload.indexOf(',', c1 + 1);
  if (c2 < 0) return std::nullopt;
  const auto t = toI64(payload.left(c1));
  if (!t) return std::nullopt;
  LogEntry e;
  e.time = *t;
  e.flags = payload.mid(c1 + 1, c2 - c1 - 1);
  if (e.flags.size() > 8) return std::nullopt;
  e.text = payload.mid(c2 + 1);
  return e;
}

std::optional<PasswordRequest> parsePassword(const QString &payload) {
  static const QRegularExpression need(
      QStringLiteral("^Need '([^']{1,64})' (username/password|password)(?: (.*))?$"));
  static const QRegularExpression failed(QStringLiteral("^Verification Failed: '([^']{1,64})'(?: \\['(.*)'\\])?$"));
  PasswordRequest r;
  if (auto m = need.match(payload); m.hasMatch()) {
    r.type = m.captured(1);
    r.needUsername = m.captured(2) == QLatin1String("username/password");
    r.challenge = m.captured(3);
    return r;
  }
  if (auto m = failed.match(payload); m.hasMatch()) {
    r.type = m.captured(1);
    r.failed = true;
    r.challenge = m.captured(2);
    return r;
  }
  return std::nullopt;
}

std::optional<QList<StatusClient>> parseStatusClients(const QStringList &lines) {
  if (lines.isEmpty()) return std::nullopt;
  const QChar sep = lines.first().startsWith(QLatin1String("TITLE\t")) ? QChar('\t') : QChar(',');
  if (!lines.first().startsWith(QStringLiteral("TITLE") + sep)) return std::nullopt;
  QList<StatusClient> out;
  QStringList header;  // column names of CLIENT_LIST
  for (const QString &line : lines) {
    const QStringList f = line.split(sep);
    if (f.size() >= 3 && f[0] == QLatin1String("HEADER") && f[1] == QLatin1String("CLIENT_LIST")) {
      header = f.mid(2);
      continue;
    }
    if (f.isEmpty() || f[0] != QLatin1String("CLIENT_LIST")) continue;
    if (header.isEmpty() || f.size() - 1 != header.size()) return std::nullopt;  // row shape must match its header
    auto col = [&](const char *name) {
      const int i = header.indexOf(QLatin1String(name));
      return i < 0 ? QString() : f[i + 1];
    };
    StatusClient c;
    c.commonName = col("Common Name");
    c.realAddress = col("Real Address");
    c.virtualAddress = col("Virtual Address");
    c.virtualAddress6 = col("Virtual IPv6 Address");
    c.username = col("Username");
    c.cipher = col("Data Channel Cipher");
    if (!saneName(c.commonName) || c.realAddress.size() > 80) return std::nullopt;
    const auto in = toU64(col("Bytes Received")), outb = toU64(col("Bytes Sent"));
    const auto since = toI64(col("Connected Since (time_t)"));
    if (!in || !outb) return std::nullopt;
    c.bytesIn = *in;
    c.bytesOut = *outb;
    c.connectedSince = since.value_or(0);
    c.cid = toI64(col("Client ID")).value_or(-1);
    c.peerId = toI64(col("Peer ID")).value_or(-1);
    out.append(c);
  }
  return out;
}

std::optional<PathInfo> parsePath(const QString &json) {
  const auto o = jsonObject(json);
  if (!o) return std::nullopt;
  PathInfo p;
  const auto id = num(*o, "id", -1);
  const auto ifname = str(*o, "ifname", kMaxNameChars);
  const auto local = str(*o, "local", 80), remote = str(*o, "remote", 80), state = str(*o, "state", 16);
  const auto rtt = num(*o, "rtt_ms", -1), loss = num(*o, "loss_pct", -1), share = num(*o, "share_pct", -1);
  const auto tx = num(*o, "tx_bps", 0), rx = num(*o, "rx_bps", 0), txb = num(*o, "tx_bytes", 0),
             rxb = num(*o, "rx_bytes", 0), cap = num(*o, "cap_bps", 0);
  if (!id || *id < 0 || *id > 65535 || *id != std::floor(*id) || !ifname || !local || !remote || !state || !rtt ||
      !loss || !share || !tx || !rx || !txb || !rxb || !cap)
    return std::nullopt;
  static const QStringList states = {QStringLiteral("up"),       QStringLiteral("probing"),
                                     QStringLiteral("degraded"), QStringLiteral("down"),
                                     QStringLiteral("disabled"), QStringLiteral("removed")};
  if (!states.contains(*state)) return std::nullopt;
  if (*loss > 100 || *share > 100) return std::nullopt;
  p.id = int(*id);
  p.ifname = *ifname;
  p.local = *local;
  p.remote = *remote;
  p.state = *state;
  p.rttMs = *rtt;
  p.lossPct = *loss;
  p.share = *share;
  p.txBps = quint64(*tx);
  p.rxBps = quint64(*rx);
  p.txBytes = quint64(*txb);
  p.rxBytes = quint64(*rxb);
  p.capBps = quint64(*cap);
  const QJsonValue b = o->value(QLatin1String("backup"));
  if (!b.isUndefined() && !b.isBool()) return std::nullopt;
  p.backup = b.toBool(false);
  p.disabled = p.state == QLatin1String("disabled");
  return p;
}

std::optional<BraidClient> parseBraidClient(const QString &json) {
  const auto o = jsonObject(json);
  if (!o) return std::nullopt;
  const auto cid = num(*o, "cid", -1), paths = num(*o, "paths", 0), up = num(*o, "paths_up", 0);
  const auto cn = str(*o, "cn", kMaxNameChars);
  const QJsonValue b = o->value(QLatin1String("braid"));
  if (!cid || *cid < 0 || !paths || !up || !cn || *paths > 64 || *up > *paths || (!b.isUndefined() && !b.isBool()))
    return std::nullopt;
  BraidClient c;
  c.cid = qint64(*cid);
  c.commonName = *cn;
  c.paths = int(*paths);
  c.pathsUp = int(*up);
  c.braid = b.toBool(false);
  return c;
}

QString quoteArg(const QString &arg) {
  QString q;
  q.reserve(arg.size() + 2);
  q += '"';
  for (const QChar c : arg) {
    if (c == '\r' || c == '\n') continue;  // a line break would end the command: never send one
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  q += '"';
  return q;
}

}  // namespace braid::mgmt
