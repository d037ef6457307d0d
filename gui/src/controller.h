// SPDX-License-Identifier: GPL-2.0-only
// Controller: the connection as the GUI sees it, one State enum (as Mozilla VPN's Controller) over a
// ManagementClient. It attaches to braidd's management socket, turns on state/log/bytecount and Braid's path events,
// releases the hold, answers >PASSWORD: through the credentials prompt, and maps the daemon's OpenVPN states
// (CONNECTING, WAIT, AUTH, GET_CONFIG, ASSIGN_IP, CONNECTED, RECONNECTING, EXITING) onto State.
// Starting braidd with privileges is braid-helper's job: connectProfile() asks it (HelperClient, system bus) and
// then attaches to the management socket it answers with; activate() attaches to a socket that exists.
#pragma once

#include <QDateTime>
#include <QObject>
#include <QTimer>

#include "helper_client.h"
#include "log_model.h"
#include "mgmt_client.h"
#include "path_model.h"

class Controller : public QObject {
  Q_OBJECT
  Q_PROPERTY(State state READ state NOTIFY stateChanged)
  Q_PROPERTY(QString stateText READ stateText NOTIFY stateChanged)
  Q_PROPERTY(QString daemonState READ daemonState NOTIFY stateChanged)
  Q_PROPERTY(QString errorText READ errorText NOTIFY stateChanged)
  Q_PROPERTY(QString endpoint READ endpoint WRITE setEndpoint NOTIFY endpointChanged)
  Q_PROPERTY(QString localAddress READ localAddress NOTIFY addressesChanged)
  Q_PROPERTY(QString localAddress6 READ localAddress6 NOTIFY addressesChanged)
  Q_PROPERTY(QString remoteAddress READ remoteAddress NOTIFY addressesChanged)
  Q_PROPERTY(qint64 connectedSeconds READ connectedSeconds NOTIFY tick)
  Q_PROPERTY(double bytesIn READ bytesIn NOTIFY bytesChanged)
  Q_PROPERTY(double bytesOut READ bytesOut NOTIFY bytesChanged)
  Q_PROPERTY(bool multipath READ multipath NOTIFY multipathChanged)
  Q_PROPERTY(QString credentialsType READ credentialsType NOTIFY credentialsChanged)
  Q_PROPERTY(bool credentialsNeedUsername READ credentialsNeedUsername NOTIFY credentialsChanged)
  Q_PROPERTY(QString authUrl READ authUrl NOTIFY credentialsChanged)
  // A challenge to answer in the prompt: static-challenge (asked with the password, sent as SCRV1) or a CRV1
  // dynamic challenge (after the server refused the first password; only the response is asked then).
  Q_PROPERTY(QString challengeText READ challengeText NOTIFY credentialsChanged)
  Q_PROPERTY(bool challengeEcho READ challengeEcho NOTIFY credentialsChanged)
  Q_PROPERTY(bool challengeOnly READ challengeOnly NOTIFY credentialsChanged)
  Q_PROPERTY(PathModel *paths READ paths CONSTANT)
  Q_PROPERTY(LogModel *log READ log CONSTANT)
 public:
  enum State { Idle, Connecting, Connected, Reconnecting, Disconnecting, Error };
  Q_ENUM(State)

  explicit Controller(QObject *parent = nullptr);
  ~Controller() override;

  State state() const { return state_; }
  QString stateText() const;
  QString daemonState() const { return daemonState_; }
  QString errorText() const { return error_; }
  QString endpoint() const { return endpoint_; }
  void setEndpoint(const QString &e);
  QString localAddress() const { return local4_; }
  QString localAddress6() const { return local6_; }
  QString remoteAddress() const { return remote_; }
  qint64 connectedSeconds() const;
  double bytesIn() const { return double(bytesIn_); }
  double bytesOut() const { return double(bytesOut_); }
  bool multipath() const { return multipath_; }
  QString credentialsType() const { return credType_; }
  bool credentialsNeedUsername() const { return credUser_; }
  QString authUrl() const { return authUrl_; }
  QString challengeText() const { return challenge_.text; }
  bool challengeEcho() const { return challenge_.echo; }
  bool challengeOnly() const { return challenge_.dynamic; }
  PathModel *paths() { return &paths_; }
  LogModel *log() { return &log_; }
  braid::mgmt::ManagementClient *client() { return &mgmt_; }

  Q_INVOKABLE void activate();     // attach to endpoint() and bring the tunnel up
  Q_INVOKABLE void deactivate();   // bring it down (signal SIGTERM) and detach
  Q_INVOKABLE void toggle();
  // Through braid-helper: the profile's files are inlined (read as this user), the helper starts braidd.
  Q_INVOKABLE void connectProfile(const QString &profilePath, const QString &name);
  void setHelper(HelperClient *helper);
  // response: the challenge's answer (static or CRV1); ignored when no challenge is asked
  Q_INVOKABLE void submitCredentials(const QString &username, const QString &password,
                                     const QString &response = QString());
  Q_INVOKABLE void cancelCredentials();
  // Braid's per-path controls (gui/README.md): each sends one `braid path ...` command.
  Q_INVOKABLE void setPathBackup(const QString &ifname, bool backup);
  Q_INVOKABLE void setPathDisabled(const QString &ifname, bool disabled);
  Q_INVOKABLE void setPathCap(const QString &ifname, double bitsPerSecond);
  Q_INVOKABLE void setScheduler(const QString &name);
  Q_INVOKABLE void refreshPaths();

 signals:
  void stateChanged();
  void endpointChanged();
  void addressesChanged();
  void bytesChanged();
  void multipathChanged();
  void credentialsChanged();
  void tick();
  void notify(const QString &title, const QString &body);  // desktop notification (path loss, reconnect)

 private:
  void setState(State s, const QString &error = QString());
  void onStatus(braid::mgmt::ManagementClient::Status s);
  void onStateEvent(const braid::mgmt::StateEvent &e);
  void onPassword(const braid::mgmt::PasswordRequest &r);
  void onInfo(const QString &text);
  void guiLog(const QString &text, const QString &flags = QString());
  void command(const QString &cmd);  // sends and logs an ERROR: reply

  braid::mgmt::ManagementClient mgmt_;
  HelperClient *helper_ = nullptr;
  PathModel paths_;
  LogModel log_;
  QTimer tick_;
  QTimer disconnectGuard_;
  State state_ = Idle;
  QString daemonState_, error_, endpoint_, local4_, local6_, remote_, lastProtocolError_;
  QString credType_, authUrl_;
  struct Challenge {
    QString text, stateId, username;  // stateId/username: CRV1's, sent back with the response
    bool echo = false, dynamic = false, concat = false;  // concat: static-challenge's "concat" format
  } challenge_, pendingCrv1_;
  bool credUser_ = false, multipath_ = false, wantDown_ = false, everConnected_ = false;
  qint64 connectedAt_ = 0;
  quint64 bytesIn_ = 0, bytesOut_ = 0;
};
