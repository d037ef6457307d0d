// SPDX-License-Identifier: GPL-2.0-only
// .ovpn reading for import: OpenVPN's config syntax (directives, quoting, # and ; comments, inline <tag> blobs,
// <connection> blocks), the files a profile references (ca, cert, key, tls-auth, tls-crypt, auth-user-pass, ...),
// and errors that name the file and line ("work.ovpn:12: ..."). It does not apply options: braidd does.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace braid::ovpn {

constexpr qint64 kMaxProfileBytes = 1 << 20;  // a .ovpn or a file it references
constexpr int kMaxLineChars = 4096;

struct Remote {
  QString host, port, proto;
};
struct FileRef {            // a directive argument naming a file (copied next to the stored profile)
  int line = 0;
  QString directive;
  QString path;             // as written
  QString resolved;         // absolute, resolved against the .ovpn's directory
};
struct Parsed {
  QStringList lines;        // the original text, line by line
  QList<Remote> remotes;
  QList<FileRef> files;
  QStringList inlineBlobs;  // tag names found inline (ca, cert, key, tls-crypt, ...)
  QStringList warnings;     // "file:line: ..." (directives braidd's helper will refuse, e.g. scripts)
  bool authUserPass = false;
  bool isClient = false;
};
struct Error {
  QString file;
  int line = 0;             // 0: the file as a whole
  QString message;
  QString text() const;     // "file:line: message"
};

// Splits one directive line into words as OpenVPN does ("..." with \ escapes, '...' literal).
// Returns false (and sets *why) on an unterminated quote.
bool splitWords(const QString &line, QStringList *words, QString *why);

// Reads and checks `path`. On failure returns false with *err set; never throws.
bool parseFile(const QString &path, Parsed *out, Error *err);

}  // namespace braid::ovpn
