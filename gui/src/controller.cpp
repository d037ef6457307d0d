// SPDX-License-Identifier: GPL-2.0-only
// The connection controller: attach sequence, state mapping, credentials, per-path commands.
#include "controller.h"

#include "profile_inline.h"

using namespace braid::mgmt;

Controller::Controller(QObject *parent) : QObject(parent), paths_(this), log_(this) {
  tick_.setInterval(1000);
  connect(&tick_, &QTimer::timeout, this, &Controller::tick);
  disconnectGuard_.setSingleShot(true);
  disconnectGuard_.setInterval(10000);
  connect(&disconnectGuard_, &QTimer::timeout, this, [this] {
    guiLog(QStringLiteral("the daemon did not close the management connection within 10 s; detaching"), "W");
    mgmt_.close();
  });
  connect(&mgmt_, &ManagementClient::statusChanged, this, &Controller::onStatus);
  connect(&mgmt_, &ManagementClient::stateEvent, this, &Controller::onStateEvent);
  connect(&mgmt_, &ManagementClient::passwordRequest, this, &Controller::onPassword);
  connect(&mgmt_, &ManagementClient::infoMessage, this, &Controller::onInfo);
  connect(&mgmt_, &ManagementClient::protocolError, this, [this](const QString &w) { lastProtocolError_ = w; });
  connect(&mgmt_, &ManagementClient::byteCount, this, [this](const ByteCount &b) {
    if (b.cid >= 0) return;
    bytesIn_ = b.in;
    bytesOut_ = b.out;
    emit bytesChanged();
  });
  connect(&mgmt_, &ManagementClient::logEntry, this,
          [this](const LogEntry &e) { log_.append(e.time, e.flags, e.text); });
  connect(&mgmt_, &ManagementClient::hold, this, [this](const QString &) {
    if (!wantDown_) command(QStringLiteral("hold release"));
  });
  connect(&mgmt_, &ManagementClient::pathEvent, this, [this](const PathInfo &p) {
    if (!multipath_) {
      multipath_ = true;
      emit multipathChanged();
    }
    paths_.update(p);
  });
  connect(&paths_, &PathModel::pathDown, this, [this](const QString &ifname) {
    guiLog(QStringLiteral("path %1 is down").arg(ifname), "W");
    if (state_ == Connected) emit notify(tr("Path down"), tr("%1 stopped carrying the tunnel").arg(ifname));
  });
  connect(&paths_, &PathModel::pathUp, this, [this](const QString &ifname) {
    guiLog(QStringLiteral("path %1 is up").arg(ifname));
    if (state_ == Connected) emit notify(tr("Path up"), tr("%1 carries the tunnel again").arg(ifname));
  });
}

Controller::~Controller() {
  // The members die before mgmt_'s own destructor would report Closed into them: detach first, silently.
  mgmt_.disconnect(this);
  mgmt_.close();
}

QString Controller::stateText() const {
  switch (state_) {
    case Idle: return tr("Disconnected");
    case Connecting: return tr("Connecting…");
    case Connected: return tr("Connected");
    case Reconnecting: return tr("Reconnecting…");
    case Disconnecting: return tr("Disconnecting…");
    case Error: return tr("Error");
  }
  return {};
}

void Controller::setEndpoint(const QString &e) {
  if (e == endpoint_) return;
  endpoint_ = e;
  emit endpointChanged();
}

qint64 Controller::connectedSeconds() const {
  if (state_ != Connected || connectedAt_ <= 0) return 0;
  return qMax<qint64>(0, QDateTime::currentSecsSinceEpoch() - connectedAt_);
}

void Controller::guiLog(const QString &text, const QString &flags) {
  log_.append(QDateTime::currentSecsSinceEpoch(), flags, text, QStringLiteral("gui"));
}

void Controller::setState(State s, const QString &error) {
  if (s == state_ && error == error_) return;
  const State old = state_;
  state_ = s;
  error_ = error;
  if (s == Connected) {
    everConnected_ = true;
    tick_.start();
  } else {
    tick_.stop();
  }
  if (s == Error) guiLog(QStringLiteral("error: %1").arg(error), "N");
  if (old == Reconnecting && s == Connected) emit notify(tr("Reconnected"), tr("The tunnel is up again"));
  emit stateChanged();
  emit tick();
}

void Controller::activate() {
  if (state_ != Idle && state_ != Error) return;
  wantDown_ = false;
  everConnected_ = false;
  multipath_ = false;
  emit multipathChanged();
  paths_.clear();
  lastProtocolError_.clear();
  guiLog(QStringLiteral("attaching to %1").arg(endpoint_));
  setState(Connecting);  // before open(): a socket error may come back synchronously from it
  if (!mgmt_.open(endpoint_)) setState(Error, tr("invalid management endpoint '%1'").arg(endpoint_));
}

void Controller::deactivate() {
  if (state_ == Idle || state_ == Disconnecting) return;
  wantDown_ = true;
  if (mgmt_.status() != ManagementClient::Status::Open) {
    mgmt_.close();
    setState(Idle);
    return;
  }
  setState(Disconnecting);
  command(QStringLiteral("signal SIGTERM"));
  disconnectGuard_.start();
}

void Controller::toggle() {
  if (state_ == Idle || state_ == Error)
    activate();
  else
    deactivate();
}

void Controller::setHelper(HelperClient *helper) {
  helper_ = helper;
  connect(helper, &HelperClient::started, this, [this](const QString &id, const QString &sock) {
    guiLog(QStringLiteral("braid-helper started session %1 (%2)").arg(id, sock));
    state_ = Idle;  // activate() starts from Idle; Connecting is shown again at once
    setEndpoint(QStringLiteral("unix:") + sock);
    activate();
  });
  connect(helper, &HelperClient::failed, this,
          [this](const QString &why) { setState(Error, tr("braid-helper: %1").arg(why)); });
}

void Controller::connectProfile(const QString &profilePath, const QString &name) {
  if (state_ != Idle && state_ != Error) return;
  if (!helper_) {
    setState(Error, tr("no privileged helper: start braidd yourself and attach with --mgmt"));
    return;
  }
  QByteArray text;
  QString why;
  if (!braid::ovpn::inlineProfile(profilePath, &text, &why)) {
    setState(Error, why);
    return;
  }
  guiLog(QStringLiteral("asking braid-helper to start '%1'").arg(name));
  setState(Connecting);
  helper_->start(text, name);
}

void Controller::command(const QString &cmd) {
  const QString verb = cmd.section(' ', 0, 1);
  if (!mgmt_.send(cmd, [this, verb](const Reply &r) {
        if (!r.ok && r.text != QLatin1String("connection closed"))
          guiLog(QStringLiteral("'%1' refused: %2").arg(verb, r.text), "W");
      }))
    guiLog(QStringLiteral("'%1' not sent: not attached").arg(verb), "W");
}

void Controller::onStatus(ManagementClient::Status s) {
  if (s == ManagementClient::Status::Open) {
    // The attach sequence of OpenVPN GUI, then Braid's path list and path events.
    command(QStringLiteral("state on"));
    mgmt_.send(QStringLiteral("log on all"), [this](const Reply &r) {
      for (const QString &l : r.lines)
        if (auto e = parseLog(l)) log_.append(e->time, e->flags, e->text);
    });
    command(QStringLiteral("bytecount 1"));
    mgmt_.send(QStringLiteral("state"), [this](const Reply &r) {
      if (!r.lines.isEmpty())
        if (auto e = parseState(r.lines.last())) onStateEvent(*e);
    });
    refreshPaths();
    mgmt_.send(QStringLiteral("braid paths on 1"), [this](const Reply &r) {
      if (!r.ok) guiLog(QStringLiteral("the daemon has no path events (stock OpenVPN?): %1").arg(r.text));
    });
    // A held daemon (re)sends >HOLD: to each new management client; the hold handler releases it.
    return;
  }
  if (s != ManagementClient::Status::Closed) return;
  disconnectGuard_.stop();
  credType_.clear();
  authUrl_.clear();
  challenge_ = pendingCrv1_ = Challenge{};
  emit credentialsChanged();
  if (state_ == Error) {
    guiLog(QStringLiteral("detached"));  // keep the error on screen
  } else if (wantDown_ || state_ == Disconnecting) {
    guiLog(QStringLiteral("detached"));
    setState(Idle);
  } else if (state_ != Idle) {
    setState(Error, lastProtocolError_.isEmpty() ? tr("lost the management connection")
                                                 : tr("management connection: %1").arg(lastProtocolError_));
  }
}

void Controller::onStateEvent(const StateEvent &e) {
  daemonState_ = e.name;
  if (state_ == Error && wantDown_) {  // the daemon winds down after an error: keep the error on screen
    emit stateChanged();
    return;
  }
  if (e.name == QLatin1String("CONNECTED")) {
    connectedAt_ = e.time;
    local4_ = e.tunIp4;
    local6_ = e.tunIp6;
    remote_ = e.remotePort.isEmpty() ? e.remoteIp : e.remoteIp + ':' + e.remotePort;
    emit addressesChanged();
    setState(Connected);
    guiLog(QStringLiteral("connected: %1 via %2").arg(local4_, remote_));
  } else if (e.name == QLatin1String("RECONNECTING")) {
    setState(Reconnecting);
  } else if (e.name == QLatin1String("EXITING")) {
    if (wantDown_) {
      setState(Disconnecting);
    } else {
      wantDown_ = true;  // the daemon is going away on its own: say why
      setState(Error, tr("the daemon exited (%1)").arg(e.desc.isEmpty() ? QStringLiteral("no reason") : e.desc));
    }
  } else if (state_ != Disconnecting) {
    setState(everConnected_ ? Reconnecting : Connecting);
    if (e.name == QLatin1String("ASSIGN_IP") && !e.tunIp4.isEmpty()) {
      local4_ = e.tunIp4;
      emit addressesChanged();
    }
  } else {
    emit stateChanged();
  }
}

void Controller::onPassword(const PasswordRequest &r) {
  // CRV1 (OpenVPN's dynamic challenge): the server refused with AUTH_FAILED,CRV1:flags:state:b64user:text.
  // Not an error: the daemon asks again, and the prompt then wants only the response.
  if (r.failed && r.challenge.startsWith(QLatin1String("CRV1:"))) {
    const QStringList f = r.challenge.mid(5).split(':');
    if (f.size() >= 4) {
      pendingCrv1_ = Challenge{};
      pendingCrv1_.dynamic = true;
      pendingCrv1_.echo = f[0].split(',').contains(QStringLiteral("E"));
      pendingCrv1_.stateId = f[1];
      pendingCrv1_.username = QString::fromUtf8(QByteArray::fromBase64(f[2].toLatin1()));
      pendingCrv1_.text = f.mid(3).join(':');
      guiLog(QStringLiteral("the server asks a challenge question ('%1')").arg(r.type));
      return;
    }
  }
  if (r.failed) {
    wantDown_ = true;
    credType_.clear();
    challenge_ = pendingCrv1_ = Challenge{};
    emit credentialsChanged();
    setState(Error, tr("authentication failed ('%1')").arg(r.type));
    command(QStringLiteral("signal SIGTERM"));
    return;
  }
  credType_ = r.type;
  credUser_ = r.needUsername;
  challenge_ = Challenge{};
  if (!pendingCrv1_.stateId.isEmpty() && r.type == QLatin1String("Auth")) {
    challenge_ = pendingCrv1_;  // the second ask after a CRV1 refusal: the response only
    pendingCrv1_ = Challenge{};
  } else if (r.challenge.startsWith(QLatin1String("SC:"))) {
    // static-challenge: "SC:<flags>,<text>", flags bit 0 = echo, bit 1 = concat instead of SCRV1
    const int comma = r.challenge.indexOf(',');
    const int flags = r.challenge.mid(3, comma - 3).toInt();
    challenge_.text = comma >= 0 ? r.challenge.mid(comma + 1) : QString();
    challenge_.echo = flags & 1;
    challenge_.concat = flags & 2;
  }
  emit credentialsChanged();
  guiLog(QStringLiteral("the daemon asks for '%1' credentials%2")
             .arg(r.type, challenge_.text.isEmpty() ? QString() : QStringLiteral(" and a challenge response")));
}

void Controller::onInfo(const QString &text) {
  if (text.startsWith(QLatin1String("WEB_AUTH:")) || text.startsWith(QLatin1String("OPEN_URL:"))) {
    // WEB_AUTH:flags:url
    const QString rest = text.section(':', 1);
    const int c = rest.indexOf(':');
    authUrl_ = c >= 0 ? rest.mid(c + 1) : rest;
    if (!authUrl_.startsWith(QLatin1String("https://")) && !authUrl_.startsWith(QLatin1String("http://")))
      authUrl_.clear();  // only web URLs are offered to the user
    emit credentialsChanged();
  }
}

void Controller::submitCredentials(const QString &username, const QString &password, const QString &response) {
  if (credType_.isEmpty()) return;
  const QString type = quoteArg(credType_);
  QString user = username, pass = password;
  if (challenge_.dynamic) {  // CRV1: the server's username and state travel back with the response
    user = challenge_.username;
    pass = QStringLiteral("CRV1::%1::%2").arg(challenge_.stateId, response);
  } else if (!challenge_.text.isEmpty()) {
    pass = challenge_.concat ? password + response
                             : QStringLiteral("SCRV1:%1:%2").arg(QString::fromLatin1(password.toUtf8().toBase64()),
                                                                 QString::fromLatin1(response.toUtf8().toBase64()));
  }
  if (credUser_) command(QStringLiteral("username %1 %2").arg(type, quoteArg(user)));
  command(QStringLiteral("password %1 %2").arg(type, quoteArg(pass)));  // never logged: command() logs the verb
  credType_.clear();
  challenge_ = Challenge{};
  emit credentialsChanged();
}

void Controller::cancelCredentials() {
  credType_.clear();
  challenge_ = pendingCrv1_ = Challenge{};
  emit credentialsChanged();
  deactivate();
}

void Controller::setPathBackup(const QString &ifname, bool backup) {
  command(QStringLiteral("braid path %1 backup %2").arg(quoteArg(ifname), backup ? "on" : "off"));
}

void Controller::setPathDisabled(const QString &ifname, bool disabled) {
  command(QStringLiteral("braid path %1 %2").arg(quoteArg(ifname), disabled ? "disable" : "enable"));
}

void Controller::setPathCap(const QString &ifname, double bitsPerSecond) {
  command(QStringLiteral("braid path %1 cap %2").arg(quoteArg(ifname)).arg(quint64(qMax(0.0, bitsPerSecond))));
}

void Controller::setScheduler(const QString &name) {
  command(QStringLiteral("braid scheduler %1").arg(quoteArg(name)));
}

void Controller::refreshPaths() {
  mgmt_.send(QStringLiteral("braid paths"), [this](const Reply &r) {
    if (!r.ok) return;  // stock daemon: no paths view
    QList<PathInfo> list;
    for (const QString &l : r.lines)
      if (auto p = parsePath(l)) list.append(*p);
    if (!multipath_) {
      multipath_ = true;
      emit multipathChanged();
    }
    paths_.replaceAll(list);
  });
}
