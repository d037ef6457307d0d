// SPDX-License-Identifier: GPL-2.0-only
// The .ovpn reader: one pass over the lines, inline blocks checked for their closing tag and PEM shape, the
// directives that name files resolved and checked for existence, `remote` arguments validated.
#include "ovpn_import.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace braid::ovpn {
namespace {

// Inline tags OpenVPN 2.6 accepts; the PEM ones must hold a -----BEGIN/-----END pair.
const QStringList kInlineTags = {"ca", "cert", "key", "tls-auth", "tls-crypt", "tls-crypt-v2", "secret", "dh",
                                 "extra-certs", "pkcs12", "crl-verify", "auth-user-pass", "http-proxy-user-pass"};
const QStringList kPemTags = {"ca", "cert", "key", "dh", "extra-certs", "crl-verify"};
const QStringList kStaticKeyTags = {"tls-auth", "tls-crypt", "tls-crypt-v2", "secret"};
// Directives whose first argument is a file (when not "[inline]").
const QStringList kFileDirectives = {"ca", "cert", "key", "tls-auth", "tls-crypt", "tls-crypt-v2", "secret", "dh",
                                     "extra-certs", "pkcs12", "crl-verify", "auth-user-pass", "askpass",
                                     "http-proxy-user-pass"};
// Directives that run code or write files as whoever runs the daemon: imported, but flagged.
const QStringList kRiskyDirectives = {"up", "down", "route-up", "route-pre-down", "ipchange", "tls-verify",
                                      "auth-user-pass-verify", "client-connect", "client-disconnect", "learn-address",
                                      "script-security", "plugin", "log", "log-append", "writepid", "status",
                                      "management-client-user", "management-client-group", "chroot", "cd",
                                      "daemon", "iproute"};

bool validPort(const QString &p) {
  bool ok = false;
  const int v = p.toInt(&ok);
  return ok && v >= 1 && v <= 65535;
}

bool validProto(const QString &p) {
  static const QStringList protos = {"udp", "udp4", "udp6", "tcp", "tcp4", "tcp6", "tcp-client", "tcp4-client",
                                     "tcp6-client"};
  return protos.contains(p);
}

}  // namespace

QString Error::text() const {
  return line > 0 ? QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(message)
                  : QStringLiteral("%1: %2").arg(file, message);
}

bool splitWords(const QString &line, QStringList *words, QString *why) {
  words->clear();
  QString cur;
  bool inWord = false;
  QChar quote;
  for (int i = 0; i < line.size(); ++i) {
    const QChar c = line[i];
    if (!quote.isNull()) {
      if (c == quote) {
        quote = QChar();
      } else if (c == '\\' && quote == '"' && i + 1 < line.size()) {
        cur += line[++i];
      } else {
        cur += c;
      }
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
      continue;
    }
    if (c == '\\' && i + 1 < line.size()) {
      cur += line[++i];
      inWord = true;
      continue;
    }
    if (c.isSpace()) {
      if (inWord) words->append(cur);
      cur.clear();
      inWord = false;
      continue;
    }
    if ((c == '#' || c == ';') && !inWord) break;  // comment
    cur += c;
    inWord = true;
  }
  if (!quote.isNull()) {
    *why = QStringLiteral("unterminated %1 quote").arg(quote);
    return false;
  }
  if (inWord) words->append(cur);
  return true;
}

bool parseFile(const QString &path, Parsed *out, Error *err) {
  const QFileInfo fi(path);
  err->file = fi.fileName();
  err->line = 0;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    err->message = QStringLiteral("cannot open: %1").arg(f.errorString());
    return false;
  }
  if (f.size() > kMaxProfileBytes) {
    err->message = QStringLiteral("larger than %1 bytes; not a profile").arg(kMaxProfileBytes);
    return false;
  }
  const QByteArray raw = f.readAll();
  if (raw.contains('\0')) {
    err->message = QStringLiteral("binary data (NUL byte); not a profile");
    return false;
  }
  QString text = QString::fromUtf8(raw);
  if (text.startsWith(QChar(0xfeff))) text.remove(0, 1);  // BOM, as Windows exports write it
  *out = Parsed();
  out->lines = text.split('\n');
  const QDir base = fi.absoluteDir();
  auto fail = [&](int line, const QString &msg) {
    err->line = line;
    err->message = msg;
    return false;
  };

  QString openTag;       // inline blob being read
  int openLine = 0;
  QStringList blob;
  bool inConnection = false;
  int connectionLine = 0;
  for (int i = 0; i < out->lines.size(); ++i) {
    const int ln = i + 1;
    QString line = out->lines[i];
    if (line.endsWith('\r')) line.chop(1);
    if (line.size() > kMaxLineChars) return fail(ln, QStringLiteral("line longer than %1 characters").arg(kMaxLineChars));
    const QString t = line.trimmed();
    if (!openTag.isEmpty()) {
      if (t.startsWith(QLatin1String("</"))) {
        const QString closing = t.mid(2).chopped(t.endsWith('>') ? 1 : 0);
        if (closing != openTag)
          return fail(ln, QStringLiteral("</%1> closes <%2> opened on line %3").arg(closing, openTag).arg(openLine));
        const QString body = blob.join('\n');
        if (kPemTags.contains(openTag) &&
            (!body.contains(QLatin1String("-----BEGIN ")) || !body.contains(QLatin1String("-----END "))))
          return fail(openLine, QStringLiteral("<%1> holds no PEM block (-----BEGIN ... -----END)").arg(openTag));
        if (kStaticKeyTags.contains(openTag) && !body.contains(QLatin1String("-----BEGIN OpenVPN")))
          return fail(openLine, QStringLiteral("<%1> holds no OpenVPN key (-----BEGIN OpenVPN ...)").arg(openTag));
        out->inlineBlobs.append(openTag);
        if (openTag == QLatin1String("auth-user-pass")) out->authUserPass = true;
        openTag.clear();
        blob.clear();
      } else if (t.startsWith('<') && t.endsWith('>') && !t.startsWith(QLatin1String("<-"))) {
        return fail(ln, QStringLiteral("%1 inside <%2> opened on line %3 (missing </%2>?)").arg(t, openTag).arg(openLine));
      } else {
        blob.append(line);
      }
      continue;
    }
    if (t.isEmpty() || t.startsWith('#') || t.startsWith(';')) continue;
    if (t.startsWith(QLatin1String("</"))) {
      if (t == QLatin1String("</connection>") && inConnection) {
        inConnection = false;
        continue;
      }
      return fail(ln, QStringLiteral("%1 without an opening tag").arg(t));
    }
    if (t.startsWith('<')) {
      if (!t.endsWith('>')) return fail(ln, QStringLiteral("malformed tag %1").arg(t.left(40)));
      const QString tag = t.mid(1, t.size() - 2);
      if (tag == QLatin1String("connection")) {
        if (inConnection) return fail(ln, QStringLiteral("<connection> inside <connection> (opened on line %1)").arg(connectionLine));
        inConnection = true;
        connectionLine = ln;
        continue;
      }
      if (!kInlineTags.contains(tag)) return fail(ln, QStringLiteral("unknown inline tag <%1>").arg(tag.left(40)));
      openTag = tag;
      openLine = ln;
      continue;
    }
    QStringList w;
    QString why;
    if (!splitWords(t, &w, &why)) return fail(ln, why);
    if (w.isEmpty()) continue;
    QString d = w[0];
    if (d.startsWith(QLatin1String("--"))) d = d.mid(2);
    if (d == QLatin1String("remote")) {
      if (w.size() < 2) return fail(ln, QStringLiteral("'remote' needs a host"));
      if (w.size() > 2 && !validPort(w[2])) return fail(ln, QStringLiteral("'remote %1 %2': port must be 1-65535").arg(w[1], w[2]));
      if (w.size() > 3 && !validProto(w[3])) return fail(ln, QStringLiteral("'remote': unknown protocol '%1'").arg(w[3]));
      out->remotes.append(Remote{w[1], w.value(2), w.value(3)});
    } else if (d == QLatin1String("client") || d == QLatin1String("tls-client")) {
      out->isClient = true;
    } else if (d == QLatin1String("auth-user-pass")) {
      out->authUserPass = true;
    }
    if (kRiskyDirectives.contains(d))
      out->warnings.append(QStringLiteral("%1:%2: '%3' runs code or writes files; braidd's helper will refuse it")
                               .arg(err->file).arg(ln).arg(d));
    if (kFileDirectives.contains(d) && w.size() >= 2 && w[1] != QLatin1String("[inline]") &&
        !(d == QLatin1String("auth-user-pass") && w[1] == QLatin1String("stdin"))) {
      const QString resolved = QDir::cleanPath(base.absoluteFilePath(w[1]));
      const QFileInfo rf(resolved);
      if (!rf.isFile())
        return fail(ln, QStringLiteral("'%1' references '%2', which does not exist").arg(d, w[1]));
      if (rf.size() > kMaxProfileBytes)
        return fail(ln, QStringLiteral("'%1' references '%2', larger than %3 bytes").arg(d, w[1]).arg(kMaxProfileBytes));
      out->files.append(FileRef{ln, d, w[1], resolved});
    }
  }
  if (!openTag.isEmpty()) return fail(openLine, QStringLiteral("<%1> is never closed").arg(openTag));
  if (inConnection) return fail(connectionLine, QStringLiteral("<connection> is never closed"));
  if (out->remotes.isEmpty()) return fail(0, QStringLiteral("no 'remote': the profile does not say where to connect"));
  return true;
}

}  // namespace braid::ovpn
