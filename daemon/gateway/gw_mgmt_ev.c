// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_mgmt_ev.c - the gateway's client events on the management interface
 * (see gw_mgmt_ev.h).
 */
#include "gateway/gw_mgmt_ev.h"

#include <stdio.h>
#include <stdlib.h>

#include "control/mgmt.h"
#include "gateway/gw_script.h"

#define ENV_MAX 64

static void event(struct gw_client *c, const char *what, bool disconnect)
{
	struct braid_gateway *g = c->g;
	char *env[ENV_MAX];
	size_t n;

	n = braid_gw_client_env(c, env, ENV_MAX - 6, disconnect);
#define ADD(...) do { if (asprintf(&env[n], __VA_ARGS__) >= 0) n++; } while (0)
	ADD("common_name=%s", braid_gw_cname(c));
	if (c->user[0])
		ADD("username=%s", c->user);
	ADD("untrusted_ip=%s", c->ip);
	ADD("untrusted_port=%s", c->port);
	ADD("n_clients=%llu", (unsigned long long)g->st.clients);
#undef ADD
	braid_mgmt_client_event(g->mg, what, c->cid, -1, (const char *const *)env, n);
	braid_gw_env_free(env, n);
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
	event(c, "ESTABLISHED", false);
}

void braid_gw_mgmt_disconnect(struct gw_client *c)
{
	if (c->g->mg && braid_mgmt_client_auth(c->g->mg))
		event(c, "DISCONNECT", true);
}
