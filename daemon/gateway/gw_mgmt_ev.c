// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_mgmt_ev.c - the gateway's client events on the management interface
 * (see gw_mgmt_ev.h).
 */
#include "gateway/gw_mgmt_ev.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "control/mgmt.h"
#include "ctl/session.h"
#include "gateway/gw_script.h"
#include "gateway/gw_shared.h"
#include "util/log.h"

#define CERT_ENV_MAX 32
#define ENV_MAX (64 + CERT_ENV_MAX)

/* stock's n_clients: the clients connected (pushed, keys installed) */
static unsigned active_clients(const struct braid_gateway *g)
{
	unsigned n = 0;

	braid_gw_lock_all(g);
	for (uint32_t i = 0; i < g->max_clients; i++)
		n += g->by_pid[i] && !g->by_pid[i]->dead && g->by_pid[i]->st == C_ACTIVE;
	braid_gw_unlock_all(g);
	return n;
}

static void event_env(struct gw_client *c, const char *what, long kid, bool disconnect,
		      bool connect, const char *cr_text)
{
	struct braid_gateway *g = c->g;
	char *env[ENV_MAX];
	size_t n;

	n = braid_gw_client_env(c, env, ENV_MAX - 7 - CERT_ENV_MAX, disconnect);
	if (c->ctl)	/* tls_id_N, X509_N_*, tls_serial_N, tls_digest_N ... as stock */
		n += braid_ctls_peer_cert_env(c->ctl, env + n, CERT_ENV_MAX);
	if (connect) {
		/* before authentication stock has no trusted_* / time_unix yet */
		size_t k = 0;

		for (size_t i = 0; i < n; i++) {
			if (!strncmp(env[i], "trusted_", 8) || !strncmp(env[i], "time_unix=", 10))
				free(env[i]);
			else
				env[k++] = env[i];
		}
		n = k;
	}
#define ADD(...) do { if (asprintf(&env[n], __VA_ARGS__) >= 0) n++; } while (0)
	if (kid >= 0 && !cr_text && c->ctl && braid_ctls_peer_password(c->ctl)[0])
		ADD("password=%s", braid_ctls_peer_password(c->ctl));	/* the protocol: never logged */
	ADD("common_name=%s", braid_gw_cname(c));
	if (c->user[0])
		ADD("username=%s", c->user);
	ADD("untrusted_ip=%s", c->ip);
	ADD("untrusted_port=%s", c->port);
	if (!disconnect)
		ADD("n_clients=%u", active_clients(g));
#undef ADD
	if (cr_text)
		braid_mgmt_client_cr_response(g->mg, c->cid, (unsigned)kid, cr_text,
					      (const char *const *)env, n);
	else
		braid_mgmt_client_event(g->mg, what, c->cid, kid, (const char *const *)env, n);
	for (size_t i = 0; i < n; i++)
		if (!strncmp(env[i], "password=", 9))
			sodium_memzero(env[i], strlen(env[i]));
	braid_gw_env_free(env, n);
}

static void event(struct gw_client *c, const char *what, long kid, bool disconnect)
{
	event_env(c, what, kid, disconnect, !strcmp(what, "CONNECT"), NULL);
}

void braid_gw_mgmt_cr_response(struct gw_client *c, const char *text)
{
	if (c->g->mg)
		event_env(c, "CR_RESPONSE", (long)c->mgmt_kid, false, false, text);
	else
		braid_dbg("%s/%s: CR_RESPONSE ignored (no management interface)",
			  braid_gw_cname(c), c->real);
}

void braid_gw_mgmt_connect(struct gw_client *c, bool reauth)
{
	if (c->g->mg)
		event(c, reauth ? "REAUTH" : "CONNECT", (long)c->mgmt_kid, false);
}

void braid_gw_mgmt_established(struct gw_client *c)
{
	char a[INET_ADDRSTRLEN];

	if (!c->g->mg)
		return;
	/* as stock: ADDRESS (and DISCONNECT) only for clients that went through client-auth */
	if (c->has_v4 && braid_mgmt_client_auth(c->g->mg)) {
		braid_gw_v4str(c->v4, a, sizeof(a));
		braid_mgmt_client_address(c->g->mg, c->cid, a, true);
	}
	if (c->has_v6 && braid_mgmt_client_auth(c->g->mg)) {	/* stock announces both */
		char a6[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, &c->v6, a6, sizeof(a6));
		braid_mgmt_client_address(c->g->mg, c->cid, a6, true);
	}
	event(c, "ESTABLISHED", -1, false);
}

void braid_gw_mgmt_disconnect(struct gw_client *c)
{
	if (c->g->mg && braid_mgmt_client_auth(c->g->mg))
		event(c, "DISCONNECT", -1, true);
}
