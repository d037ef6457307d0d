// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_reload.c - the TLS client's live reload (client_reload.h): verb at
 * once (session/reload.c); mp-scheduler, mp-path lines added, removed or
 * changed (the data path's path_cfg_add/remove, as `braid path-add`) and
 * their backup/cap, on the running multipath engine and for later reconnects
 * (which copy the reloaded lines); crl-verify read
 * again (whenever configured) for the next handshake (the gateway's
 * certificate is checked at the next renegotiation or reconnect, as stock).
 * Everything else is logged as needing a restart.
 */
#include "client/client_reload.h"

#include "client/client_int.h"
#include "client/client_mp.h"
#include "ctl/tls_crl.h"
#include "session/reload.h"
#include "util/log.h"

static void on_reload(void *user)
{
	struct braid_client *c = user;
	struct braid_reload_diff d;
	int r = braid_reload_begin(c->o, &d);

	if (!r) {
		const struct braid_opt_source *b = &c->o->blobs[BRAID_BLOB_CRL_VERIFY];

		if (d.auto_attrs_changed)
			client_mp_reload_attrs(c);	/* for interfaces auto finds later */
		braid_reload_apply_dp(client_mp_dp(c), c->o, &d, NULL);
		/* as the gateway: the file is read again whenever one is configured */
		if (c->ssl && (b->path || b->inline_text || (d.changed & BRAID_RELOAD_CRL))) {
			unsigned n = 0;
			char err[512];

			if (braid_tls_crl_reload(c->ssl, b->inline_text ? NULL : b->path, b->inline_text,
						 &n, err, sizeof(err)))
				braid_err("reload: %s; the CRL loaded before stays in force", err);
			else
				braid_info("reload: crl-verify: %u CRL(s) for the next handshake", n);
		}
	}
	braid_reload_end(c->loop, r, &d);
}

void client_reload_listen(struct braid_client *c)
{
	braid_reload_listen(c->loop, on_reload, c);
}

void client_reload_unlisten(struct braid_client *c)
{
	braid_reload_unlisten(c->loop);
}
