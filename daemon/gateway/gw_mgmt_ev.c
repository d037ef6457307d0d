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

/*
 * `workers N`: the interface is worker 0's; an event of another worker's client is built there
 * (its environment read on the thread that owns the client) and handed to worker 0, which adds
 * n_clients (it counts every worker's) and prints it (braid_gw_mgmt_ev_drain).
 */
struct gw_mgmt_msg {
	struct gw_mgmt_msg *next;
	char what[16];		/* the event; "" for >CLIENT:ADDRESS */
	unsigned long cid;
	long kid;
	bool n_clients;		/* add n_clients=… */
	char *text;		/* CR_RESPONSE's text, or the address */
	char **env;		/* n entries, one more slot for n_clients */
	size_t n;
};

static void env_wipe(char **env, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strncmp(env[i], "password=", 9))
			sodium_memzero(env[i], strlen(env[i]));
	braid_gw_env_free(env, n);
}

static void msg_free(struct gw_mgmt_msg *m)
{
	if (m->env)
		env_wipe(m->env, m->n);
	free(m->env);
	if (m->text)
		sodium_memzero(m->text, strlen(m->text));	/* a CR_RESPONSE: the client's answer */
	free(m->text);
	free(m);
}

static void post(struct braid_gateway *g, struct gw_mgmt_msg *m)
{
	struct gw_workers *k = g->wk;

	pthread_mutex_lock(&k->ev_lk);
	*k->ev_tail = m;
	k->ev_tail = &m->next;
	pthread_mutex_unlock(&k->ev_lk);
	ev_async_send(k->w[0].g->loop, &k->w0_a);
}

/* Not worker 0: the event (env moved into it) goes to worker 0. */
static void post_event(struct gw_client *c, const char *what, long kid, bool n_clients,
		       const char *cr_text, char **env, size_t n)
{
	struct gw_mgmt_msg *m = calloc(1, sizeof(*m));

	if (m) {
		m->env = calloc(n + 1, sizeof(*m->env));
		m->text = cr_text ? strdup(cr_text) : NULL;
	}
	if (!m || !m->env || (cr_text && !m->text)) {
		braid_warn("%s/%s: management event %s lost: out of memory", braid_gw_cname(c),
			   c->real, what);
		env_wipe(env, n);
		if (m)
			msg_free(m);
		return;
	}
	snprintf(m->what, sizeof(m->what), "%s", what);
	m->cid = c->cid;
	m->kid = kid;
	m->n_clients = n_clients;
	memcpy(m->env, env, n * sizeof(*env));
	m->n = n;
	post(c->g, m);
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
	if (g->widx) {	/* another worker's: worker 0 prints it */
		post_event(c, what, kid, !disconnect, cr_text, env, n);
		return;
	}
	if (!disconnect)
		ADD("n_clients=%u", active_clients(g));
#undef ADD
	if (cr_text)
		braid_mgmt_client_cr_response(g->mg, c->cid, (unsigned)kid, cr_text,
					      (const char *const *)env, n);
	else
		braid_mgmt_client_event(g->mg, what, c->cid, kid, (const char *const *)env, n);
	env_wipe(env, n);
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

/* >CLIENT:ADDRESS,cid,addr,1 (on worker 0, as the events) */
static void address(struct gw_client *c, const char *a)
{
	struct gw_mgmt_msg *m;

	if (!c->g->widx) {
		braid_mgmt_client_address(c->g->mg, c->cid, a, true);
		return;
	}
	m = calloc(1, sizeof(*m));
	if (m && !(m->text = strdup(a))) {
		free(m);
		m = NULL;
	}
	if (!m) {
		braid_warn("%s/%s: management ADDRESS lost: out of memory", braid_gw_cname(c), c->real);
		return;
	}
	m->cid = c->cid;
	post(c->g, m);
}

void braid_gw_mgmt_ev_drain(struct braid_gateway *g)
{
	struct gw_workers *k = g->wk;
	struct gw_mgmt_msg *m, *next;

	if (!k)
		return;
	pthread_mutex_lock(&k->ev_lk);
	m = k->ev_head;
	k->ev_head = NULL;
	k->ev_tail = &k->ev_head;
	pthread_mutex_unlock(&k->ev_lk);
	for (; m; m = next) {
		next = m->next;
		if (g->mg && !m->what[0]) {
			braid_mgmt_client_address(g->mg, m->cid, m->text, true);
		} else if (g->mg) {
			if (m->n_clients && asprintf(&m->env[m->n], "n_clients=%u", active_clients(g)) >= 0)
				m->n++;
			if (m->text)
				braid_mgmt_client_cr_response(g->mg, m->cid, (unsigned)m->kid, m->text,
							      (const char *const *)m->env, m->n);
			else
				braid_mgmt_client_event(g->mg, m->what, m->cid, m->kid,
							(const char *const *)m->env, m->n);
		}
		msg_free(m);
	}
}

void braid_gw_mgmt_established(struct gw_client *c)
{
	char a[INET_ADDRSTRLEN];

	if (!c->g->mg)
		return;
	/* as stock: ADDRESS (and DISCONNECT) only for clients that went through client-auth */
	if (c->has_v4 && braid_mgmt_client_auth(c->g->mg)) {
		braid_gw_v4str(c->v4, a, sizeof(a));
		address(c, a);
	}
	if (c->has_v6 && braid_mgmt_client_auth(c->g->mg)) {	/* stock announces both */
		char a6[INET6_ADDRSTRLEN];

		inet_ntop(AF_INET6, &c->v6, a6, sizeof(a6));
		address(c, a6);
	}
	event(c, "ESTABLISHED", -1, false);
}

void braid_gw_mgmt_disconnect(struct gw_client *c)
{
	if (c->g->mg && braid_mgmt_client_auth(c->g->mg))
		event(c, "DISCONNECT", -1, true);
}
