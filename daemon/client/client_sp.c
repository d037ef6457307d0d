// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_sp.c - the TLS client's single-path data path (client_sp.h): the
 * session's data channel behind the single-path backend (dataplane/
 * backend_sp.c), with the client's link as its transmit and the client's
 * counters and stock-worded rejections for what does not open.
 */
#include "client/client_sp.h"

#include <errno.h>

#include "client/client_link.h"
#include "client/client_payload.h"
#include "client/client_state.h"
#include "client/client_mptcp.h"
#include "dataplane/backend_mptcp.h"
#include "dataplane/backend_kmod.h"
#include "dataplane/backend_sp.h"
#include "ctl/session.h"
#include "dc/static_key.h"
#include "util/log.h"

static int sp_xmit(void *user, const uint8_t *pkt, size_t len)
{
	client_link_send(user, pkt, len);
	return 0;
}

static int sp_rx_auth(void *user, const union braid_sockaddr *from, size_t len)
{
	struct braid_client *c = user;

	(void)from;
	c->last_rx = ev_now(c->loop);
	c->stt.auth_read_bytes += len;
	return 0;
}

static void sp_rx_drop(void *user, int err, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from)
{
	struct braid_client *c = user;
	char a[80];

	(void)from;
	if (err == -EBADMSG) {
		c->stt.rx_auth_failures++;
		braid_reject(&c->rej, BRAID_REJ_DATA_AUTH, client_now_ms(), 0,
			     "%s: data packet authentication failed (%llu so far)",
			     braid_sockaddr_str(&c->remote, a, sizeof(a)),
			     (unsigned long long)c->stt.rx_auth_failures);
		if (c->tcp)	/* OpenVPN: fatal on a stream */
			client_request_restart(c, "decryption-error", false);
		return;
	}
	if (err == -EALREADY || err == -ESTALE) {
		c->stt.rx_replays++;
		braid_reject_replay(&c->rej, "", braid_sockaddr_str(&c->remote, a, sizeof(a)), pkt, len,
				    c->o->mute_replay_warnings, client_now_ms());
		return;
	}
	c->stt.rx_malformed++;
}

static void sp_deliver(void *user, uint8_t *payload, size_t len)
{
	client_rx_payload(user, payload, len);
}

int client_sp_open(struct braid_client *c)
{
	const struct braid_dp_role role = {
		.deliver = sp_deliver, .xmit = sp_xmit, .rx_auth = sp_rx_auth,
		.rx_drop = sp_rx_drop, .user = c,
	};
	bool mptcp = client_mptcp_wanted(c) && c->tl.fd >= 0;
	const struct braid_dp_config cfg = { .loop = c->loop, .o = c->o, .dc = c->dc,
					     .mss = &c->mss, .shared_fd = mptcp ? c->tl.fd : -1 };

	client_sp_close(c);
	if (c->dco && !c->tcp) {
		struct braid_dp_config kc = cfg;

		kc.shared_fd = c->ufd;	/* the session socket is the path; the role reads it */
		kc.dco_remote = &c->remote;
		return client_dco_open(c, &c->sp, &kc, &role);
	}
	/* over MPTCP the same data path, with the subflows as its paths */
	return braid_dp_open(mptcp ? &braid_dp_mptcp_ops : &braid_dp_sp_ops, &c->sp, &cfg, &role);
}

int client_dco_key(struct braid_client *c, struct braid_dp *dp, unsigned int key_id)
{
	struct braid_key2 k2;
	int r;

	if (!braid_dp_is_kmod(dp))
		return 0;
	r = braid_ctls_derive(c->s, key_id, c->use_ekm ? BRAID_CTLS_KDF_EKM : BRAID_CTLS_KDF_PRF, &k2);
	if (!r)
		r = braid_dp_key_install(dp, (int)key_id, c->cipher, &k2, BRAID_KEY_DIR_NORMAL);
	braid_key2_wipe(&k2);
	return r;
}

int client_dco_open(struct braid_client *c, struct braid_dp **dp, struct braid_dp_config *cfg,
		    const struct braid_dp_role *role)
{
	int kid = braid_ctls_current_key_id(c->s), r;

	cfg->dco_ifindex = c->tun.ifindex;
	cfg->dco_peer_id = c->pushed.has_peer_id ? c->pushed.peer_id : BRAID_DC_PEER_ID_NONE;
	r = braid_dp_open(&braid_dp_kmod_ops, dp, cfg, role);
	if (!r && kid >= 0)
		r = client_dco_key(c, *dp, (unsigned int)kid);
	if (r) {
		braid_err("dco: the kernel data plane cannot carry this session: %s", strerror(-r));
		braid_dp_close(*dp);
		*dp = NULL;
	}
	return r;
}

void client_sp_close(struct braid_client *c)
{
	braid_dp_close(c->sp);
	c->sp = NULL;
}
