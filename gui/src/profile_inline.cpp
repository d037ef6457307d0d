// SPDX-License-Identifier: GPL-2.0-only
// Inlining a profile's referenced files for braid-helper (see profile_inline.h).
#include "profile_inline.h"

#include <QFile>
#include <QHash>

#include "ovpn_import.h"

namespace braid::ovpn {

bool inlineProfile(const QString &path, QByteArray *out, QString *error) {
  Parsed p;
  Error err;
  if (!parseFile(path, &p, &err)) {
    *error = err.text();
    return false;
  }
  QHash<int, FileRef> byLine;
  for (const FileRef &f : p.files) byLine.insert(f.line, f);
  QByteArray text;
  for (int i = 0; i < p.lines.size(); ++i) {
    const int line = i + 1;
    if (!byLine.contains(line)) {
      text += p.lines[i].toUtf8() + '\n';
      continue;
    }
    const FileRef &f = byLine[line];
    QFile file(f.resolved);
    if (file.size() > kMaxProfileBytes || !file.open(QIODevice::ReadOnly)) {
      *error = QStringLiteral("%1:%2: cannot read '%3' (%4)").arg(path).arg(line).arg(f.path, file.errorString());
      return false;
    }
    QByteArray content = file.read(kMaxProfileBytes);
    if (f.directive == QLatin1String("pkcs12")) content = content.toBase64();  // inline pkcs12 is base64
    if (!content.endsWith('\n')) content += '\n';
    const QByteArray tag = f.directive.toUtf8();
    text += "# " + tag + " " + f.path.toUtf8() + " (inlined by braid-gui)\n";
    text += '<' + tag + ">\n" + content + "</" + tag + ">\n";
    // tls-auth FILE 1 / secret FILE 1: the direction moves to key-direction
    QStringList words;
    QString why;
    if (splitWords(p.lines[i], &words, &why) && words.size() >= 3 &&
        (f.directive == QLatin1String("tls-auth") || f.directive == QLatin1String("secret")))
      text += "key-direction " + words[2].toUtf8() + '\n';
  }
  *out = text;
  return true;
}

}  // namespace braid::ovpn
