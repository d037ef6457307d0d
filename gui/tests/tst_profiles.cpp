// SPDX-License-Identifier: GPL-2.0-only
// Profile import: the ten fixtures in the formats real tools export import (inline blobs kept byte for byte,
// referenced files copied and the references rewritten), each broken variant fails naming file and line; rename,
// delete, per-profile settings; the word splitter follows OpenVPN's quoting.
#include <QDir>
#include <QDirIterator>
#include <QUrl>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "ovpn_import.h"
#include "profile_inline.h"
extern "C" {
#include "profile_check.h"  // braid-helper's allow list (C): the inlined text must pass it
}
#include "profile_model.h"

static QString fixture(const QString &rel) { return qEnvironmentVariable("BRAID_GUI_FIXTURES") + '/' + rel; }

static QByteArray readAll(const QString &p) {
  QFile f(p);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

class TstProfiles : public QObject {
  Q_OBJECT
 private slots:
  // braid-helper reads no file: the text the GUI hands it has every referenced file inlined, byte for byte
  // (pkcs12 as base64), and passes the helper's own allow-list check.
  void inlineForHelper_data() {
    QTest::addColumn<QString>("profile");
    QTest::addColumn<QString>("tag");
    QTest::addColumn<QString>("file");
    QTest::newRow("networkmanager") << "08-networkmanager-export/work.conf" << "cert" << "08-networkmanager-export/certs/work client.crt";
    QTest::newRow("pfsense-archive") << "04-pfsense-archive/pfsense-udp-1194-amira-config.ovpn" << "tls-auth"
                                     << "04-pfsense-archive/pfsense-udp-1194-amira-tls.key";
    QTest::newRow("auth-user-pass-file") << "09-auth-user-pass-file.ovpn" << "auth-user-pass" << "creds.txt";
  }
  void inlineForHelper() {
    QFETCH(QString, profile);
    QFETCH(QString, tag);
    QFETCH(QString, file);
    QByteArray text;
    QString why;
    QVERIFY2(braid::ovpn::inlineProfile(fixture(profile), &text, &why), qPrintable(why));
    bh_check_err err;
    QVERIFY2(bh_profile_check(text.constData(), size_t(text.size()), &err) == 0, err.msg);
    QByteArray content = readAll(fixture(file));
    if (!content.endsWith('\n')) content += '\n';
    QVERIFY(text.contains("<" + tag.toUtf8() + ">\n" + content + "</" + tag.toUtf8() + ">\n"));
    if (profile.startsWith("04")) {
      QVERIFY(text.contains("<pkcs12>\n" + readAll(fixture("04-pfsense-archive/pfsense-udp-1194-amira.p12")).toBase64()));
      QVERIFY(text.contains("</tls-auth>\nkey-direction 1\n"));
    }
    QVERIFY(!braid::ovpn::inlineProfile(fixture("broken/missing-file.ovpn"), &text, &why));
  }

  void words() {
    QStringList w;
    QString why;
    QVERIFY(braid::ovpn::splitWords(R"(verify-x509-name "pfSense Server Cert" name)", &w, &why));
    QCOMPARE(w, (QStringList{"verify-x509-name", "pfSense Server Cert", "name"}));
    QVERIFY(braid::ovpn::splitWords(R"(cert "a \"b\" c" 'x\y' # comment)", &w, &why));
    QCOMPARE(w, (QStringList{"cert", R"(a "b" c)", R"(x\y)"}));
    QVERIFY(braid::ovpn::splitWords("setenv opt block-outside-dns ; trailing", &w, &why));
    QCOMPARE(w.size(), 3);
    QVERIFY(!braid::ovpn::splitWords(R"(remote "host)", &w, &why));
    QCOMPARE(why, QStringLiteral("unterminated \" quote"));
  }

  void importFixtures_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("remotes");
    QTest::addColumn<QStringList>("copied");
    QTest::addColumn<bool>("authUserPass");
    QTest::newRow("access-server-userlogin") << "01-access-server-userlogin.ovpn" << 2 << QStringList{} << true;
    QTest::newRow("access-server-autologin") << "02-access-server-autologin-tlscryptv2.ovpn" << 4 << QStringList{} << false;
    QTest::newRow("pfsense-inline") << "03-pfsense-inline.ovpn" << 1 << QStringList{} << true;
    QTest::newRow("pfsense-archive") << "04-pfsense-archive/pfsense-udp-1194-amira-config.ovpn" << 1
                                     << QStringList{"pfsense-udp-1194-amira.p12", "pfsense-udp-1194-amira-tls.key"} << false;
    QTest::newRow("opnsense") << "05-opnsense.ovpn" << 1 << QStringList{} << true;
    QTest::newRow("angristan") << "06-angristan-openvpn-install.ovpn" << 1 << QStringList{} << false;
    QTest::newRow("nyr") << "07-nyr-openvpn-install.ovpn" << 1 << QStringList{} << false;
    QTest::newRow("networkmanager") << "08-networkmanager-export/work.conf" << 2
                                    << QStringList{"work-ca.pem", "work client.crt", "work client.key", "work-ta.key"} << true;
    QTest::newRow("auth-user-pass-file") << "09-auth-user-pass-file.ovpn" << 1 << QStringList{"creds.txt"} << true;
    QTest::newRow("connection-blocks") << "10-connection-blocks-multi-remote.ovpn" << 3 << QStringList{} << false;
  }
  void importFixtures() {
    QFETCH(QString, file);
    QFETCH(int, remotes);
    QFETCH(QStringList, copied);
    QFETCH(bool, authUserPass);
    QTemporaryDir store;
    ProfileModel m(store.path());
    const QString id = m.importFile(fixture(file));
    QVERIFY2(!id.isEmpty(), qPrintable(m.lastError()));
    QCOMPARE(m.lastError(), QString());
    QCOMPARE(m.rowCount(), 1);
    const QModelIndex ix = m.index(0);
    QCOMPARE(m.data(ix, ProfileModel::IdRole).toString(), id);
    QCOMPARE(m.data(ix, ProfileModel::NameRole).toString(), QFileInfo(file).completeBaseName());
    QCOMPARE(m.data(ix, ProfileModel::RemotesRole).toString().split(", ").size(), remotes);
    QCOMPARE(m.data(ix, ProfileModel::AuthUserPassRole).toBool(), authUserPass);
    QCOMPARE(m.data(ix, ProfileModel::FilesRole).toStringList(), copied);
    const QString stored = m.data(ix, ProfileModel::PathRole).toString();
    const QByteArray orig = readAll(fixture(file)), copy = readAll(stored);
    QVERIFY(!copy.isEmpty());
    QCOMPARE(QFile(stored).permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    if (copied.isEmpty()) {
      QCOMPARE(copy, orig);  // inline profiles are kept byte for byte
    } else {
      // Every copied file is byte-identical, and the stored profile imports again on its own (references resolve).
      const QDir src = QFileInfo(fixture(file)).absoluteDir();
      for (const QString &c : copied) {
        const QString stCopy = QFileInfo(stored).absoluteDir().filePath(c);
        QVERIFY2(QFile::exists(stCopy), qPrintable(c));
        QDirIterator it(src.path(), {c}, QDir::Files, QDirIterator::Subdirectories);
        QVERIFY(it.hasNext());
        QCOMPARE(readAll(stCopy), readAll(it.next()));
      }
      braid::ovpn::Parsed again;
      braid::ovpn::Error err;
      QVERIFY2(braid::ovpn::parseFile(stored, &again, &err), qPrintable(err.text()));
      QCOMPARE(again.files.size(), copied.size());
      for (const auto &f : again.files) QCOMPARE(QFileInfo(f.resolved).absolutePath(), QFileInfo(stored).absolutePath());
    }
    // A second import of the same file gets a distinct name.
    QVERIFY(!m.importFile(fixture(file)).isEmpty());
    QCOMPARE(m.rowCount(), 2);
    QCOMPARE(m.nameAt(1), QFileInfo(file).completeBaseName() + " (2)");
  }

  void brokenFixtures_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("error");
    QTest::newRow("unterminated") << "unterminated-ca.ovpn" << "unterminated-ca.ovpn:4: <ca> is never closed";
    QTest::newRow("mismatched") << "mismatched-close.ovpn" << "mismatched-close.ovpn:16: </cert> closes <ca> opened on line 4";
    QTest::newRow("missing-file") << "missing-file.ovpn"
                                  << "missing-file.ovpn:4: 'ca' references 'no-such-ca.crt', which does not exist";
    QTest::newRow("no-remote") << "no-remote.ovpn" << "no-remote.ovpn: no 'remote': the profile does not say where to connect";
    QTest::newRow("bad-port") << "bad-port.ovpn" << "bad-port.ovpn:3: 'remote vpn.example.com 99999': port must be 1-65535";
    QTest::newRow("bad-quote") << "bad-quote.ovpn" << "bad-quote.ovpn:4: unterminated \" quote";
    QTest::newRow("not-pem") << "not-pem.ovpn" << "not-pem.ovpn:4: <cert> holds no PEM block (-----BEGIN ... -----END)";
    QTest::newRow("unknown-tag") << "unknown-tag.ovpn" << "unknown-tag.ovpn:4: unknown inline tag <certificate>";
    QTest::newRow("bad-proto") << "bad-proto.ovpn" << "bad-proto.ovpn:3: 'remote': unknown protocol 'sctp'";
  }
  void brokenFixtures() {
    QFETCH(QString, file);
    QFETCH(QString, error);
    QTemporaryDir store;
    ProfileModel m(store.path());
    QVERIFY(m.importFile(fixture("broken/" + file)).isEmpty());
    QCOMPARE(m.lastError(), error);
    QCOMPARE(m.rowCount(), 0);
    QCOMPARE(QDir(store.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), QStringList{});  // nothing left behind
  }

  void manage() {
    QTemporaryDir store;
    QString id;
    {
      ProfileModel m(store.path());
      id = m.importFile(QUrl::fromLocalFile(fixture("03-pfsense-inline.ovpn")).toString());  // a file:// URL too
      QVERIFY(!id.isEmpty());
      QVERIFY(m.rename(id, "  Work  "));
      QCOMPARE(m.nameAt(0), QStringLiteral("Work"));
      QVERIFY(!m.rename(id, "   "));
      QVERIFY(!m.rename("nope", "x"));
      QVERIFY(m.setSetting(id, "scheduler", "minrtt"));
      QVERIFY(!m.setSetting(id, "up", "/bin/sh"));
    }
    ProfileModel again(store.path());  // persisted
    QCOMPARE(again.rowCount(), 1);
    QCOMPARE(again.nameAt(0), QStringLiteral("Work"));
    QCOMPARE(again.data(again.index(0), ProfileModel::SchedulerRole).toString(), QStringLiteral("minrtt"));
    QVERIFY(!again.remove("../" + id));
    QVERIFY(again.remove(id));
    QCOMPARE(again.rowCount(), 0);
    QVERIFY(!QDir(store.filePath(id)).exists());
  }

  // Deterministic mutations of a real profile: parseFile never crashes, and every error names a line that exists.
  void mutatedProfiles() {
    const QByteArray base = readAll(fixture("03-pfsense-inline.ovpn"));
    QVERIFY(!base.isEmpty());
    QTemporaryDir d;
    const QString path = d.filePath("m.ovpn");
    quint32 x = 777;
    auto rnd = [&x] { x ^= x << 13; x ^= x >> 17; x ^= x << 5; return x; };
    const QByteArray alphabet("<>/\"'#;\n \r-abcx0123456789");
    int failed = 0;
    for (int i = 0; i < 400; ++i) {
      QByteArray b = base;
      for (int m = 1 + rnd() % 6; m > 0; --m) {
        const int at = int(rnd() % b.size());
        if (rnd() % 2) b[at] = alphabet[rnd() % alphabet.size()];
        else b.remove(at, 1 + rnd() % 40);
      }
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
      f.write(b);
      f.close();
      braid::ovpn::Parsed p;
      braid::ovpn::Error e;
      if (!braid::ovpn::parseFile(path, &p, &e)) {
        ++failed;
        QVERIFY(e.line >= 0 && e.line <= b.count('\n') + 1);
        QVERIFY(e.text().startsWith("m.ovpn"));
      }
    }
    QVERIFY(failed > 0);
  }

  void warnsAboutScripts() {
    QTemporaryDir d;
    QFile f(d.filePath("scripted.ovpn"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("client\nremote vpn.example.com 1194\nscript-security 2\nup /etc/openvpn/update-resolv-conf\n");
    f.close();
    braid::ovpn::Parsed p;
    braid::ovpn::Error e;
    QVERIFY(braid::ovpn::parseFile(f.fileName(), &p, &e));
    QCOMPARE(p.warnings.size(), 2);
    QVERIFY(p.warnings[1].startsWith("scripted.ovpn:4: 'up' runs code"));
  }
};

QTEST_GUILESS_MAIN(TstProfiles)
#include "tst_profiles.moc"
