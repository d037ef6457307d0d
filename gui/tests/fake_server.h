// SPDX-License-Identifier: GPL-2.0-only
// Test helper: runs fake_mgmt.py (path in $BRAID_FAKE_MGMT) on a unix socket in a temporary directory.
#pragma once

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class FakeServer {
 public:
  // Returns false (and QFAIL-able text in error()) if the script did not print READY within 10 s.
  bool start(const QStringList &args) {
    const QString script = qEnvironmentVariable("BRAID_FAKE_MGMT");
    const QString python = qEnvironmentVariable("PYTHON", QStringLiteral("python3"));
    path_ = dir_.filePath(QStringLiteral("mgmt.sock"));
    proc_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    proc_.start(python, QStringList{script, QStringLiteral("--unix"), path_} + args);
    if (!proc_.waitForStarted(10000)) return false;
    QByteArray out;
    QElapsedTimer t;
    t.start();
    while (!out.contains("READY") && t.elapsed() < 10000)
      if (proc_.waitForReadyRead(200)) out += proc_.readAllStandardOutput();
    return out.contains("READY");
  }
  QString endpoint() const { return QStringLiteral("unix:") + path_; }
  ~FakeServer() {
    proc_.kill();
    proc_.waitForFinished(3000);
  }

 private:
  QTemporaryDir dir_;
  QString path_;
  QProcess proc_;
};
