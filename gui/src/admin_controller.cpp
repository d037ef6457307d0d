// SPDX-License-Identifier: GPL-2.0-only
// Gateway admin: polling, merge of stock and Braid client data, kick, per-client paths.
#include "admin_controller.h"

using namespace braid::mgmt;

AdminController::AdminController(QObject *parent) : QObject(parent), clients_(this), clientPaths_(this) {
  poll_.setInterval(2000);
  connect(&poll_, &QTimer::timeout, this, &AdminController::refresh);
  connect(&mgmt_, &ManagementClient::protocolError, this, [this](const QString &w) { error_ = w; });
  connect(&mgmt_, &ManagementClient::statusChanged, this, [this](ManagementClient::Status s) {
    if (s == ManagementClient::Status::Open) {
      error_.clear();
      poll_.start();
      refresh();
    } else if (s == ManagementClient::Status::Closed) {
      poll_.stop();
      busy_ = false;
    }
    emit attachedChanged();
  });
}

AdminController::~AdminController() {
  mgmt_.disconnect(this);  // see Controller::~Controller
  mgmt_.close();
}

void AdminController::attach() {
  if (!mgmt_.open(endpoint_)) {
    error_ = tr("invalid management endpoint '%1'").arg(endpoint_);
    emit attachedChanged();
  }
}

void AdminController::detach() { mgmt_.close(); }

void AdminController::refresh() {
  if (busy_ || !attached()) return;
  busy_ = true;
  mgmt_.send(QStringLiteral("status 3"), [this](const Reply &st) {
    auto stock = st.ok ? parseStatusClients(st.lines) : std::nullopt;
    if (!stock) {
      busy_ = false;
      if (st.ok) error_ = tr("unexpected 'status 3' reply");
      emit attachedChanged();
      return;
    }
    const QList<StatusClient> rows = *stock;
    mgmt_.send(QStringLiteral("braid clients"), [this, rows](const Reply &bc) {
      QList<BraidClient> braid;
      if (bc.ok)
        for (const QString &l : bc.lines)
          if (auto c = parseBraidClient(l)) braid.append(*c);
      clients_.setClients(rows, braid);
      busy_ = false;
      if (selected_ >= 0) select(selected_);
      emit refreshed();
    });
  });
}

void AdminController::select(qint64 cid) {
  if (cid != selected_) {
    selected_ = cid;
    clientPaths_.clear();
    emit selectionChanged();
  }
  if (cid < 0 || !attached()) return;
  mgmt_.send(QStringLiteral("braid client-paths %1").arg(cid), [this, cid](const Reply &r) {
    if (cid != selected_) return;
    QList<PathInfo> list;
    if (r.ok)
      for (const QString &l : r.lines)
        if (auto p = parsePath(l)) list.append(*p);
    clientPaths_.replaceAll(list);
  });
}

void AdminController::kick(qint64 cid) {
  if (cid < 0) return;
  const bool sent = mgmt_.send(QStringLiteral("client-kill %1").arg(cid), [this, cid](const Reply &r) {
    emit kicked(cid, r.ok, r.text);
    refresh();
  });
  if (!sent) emit kicked(cid, false, tr("not attached"));
}
