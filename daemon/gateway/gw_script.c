// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_script.c - what the gateway's client scripts share (gw_script.h): the
 * environment of client-connect / client-disconnect, and the
 * client-disconnect scripts, which run on after their client is removed
 * (the client table starts them; the tick and the teardown reap them).
 */
#include "gateway/gw_script.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control/mgmt.h"
#include "util/log.h"
#include "session/push.h"
#include "session/script.h"

/*
 * The variables OpenVPN 2.6 gives client-connect / client-disconnect: identity, trusted address,
 * the pool addresses, the client's peer-info IV_* lines; plus the byte counts on disconnect.
 * Strings go into v (malloc'ed, NULL-terminated); returns how many.
 */
size_t braid_gw_client_env(const struct gw_client *c, char **v, size_t max, bool disconnect)
{
	const char *pi = c->ctl ? braid_ctls_peer_info(c->ctl) : "";
	char a[INET6_ADDRSTRLEN];
	size_t n = 0;

#define ENV(...) do { if (n + 1 < max && asprintf(&v[n], __VA_ARGS__) >= 0) n++; } while (0)
	ENV("trusted_ip=%s", c->ip);
	ENV("trusted_port=%s", c->port);
	ENV("time_unix=%lld", (long long)c->since);
	if (c->has_v4) {
		braid_gw_v4str(c->v4, a, sizeof(a));
		ENV("ifconfig_pool_remote_ip=%s", a);
		braid_gw_v4str(c->v4_remote, a, sizeof(a));
		ENV(c->g->subnet ? "ifconfig_pool_netmask=%s" : "ifconfig_pool_local_ip=%s", a);
	}
	if (c->has_v6) {
		inet_ntop(AF_INET6, &c->v6, a, sizeof(a));
		ENV("ifconfig_pool_remote_ip6=%s", a);
		ENV("ifconfig_pool_ip6_netbits=%u", c->v6_prefix);
	}
	if (disconnect) {
		ENV("bytes_received=%llu", (unsigned long long)c->rx_bytes);
		ENV("bytes_sent=%llu", (unsigned long long)c->tx_bytes);
		ENV("time_duration=%lld", (long long)(time(NULL) - c->since));
	}
	/* peer-info: "NAME=VALUE" lines with a safe name */
	while (pi && *pi) {
		const char *e = strchr(pi, '\n'), *eq = strchr(pi, '=');
		size_t l = e ? (size_t)(e - pi) : strlen(pi);
		bool ok = eq && eq > pi && (size_t)(eq - pi) < l;

		for (const char *q = pi; ok && q < eq; q++)
			ok = (*q >= 'A' && *q <= 'Z') || (*q >= 'a' && *q <= 'z') ||
			     (*q >= '0' && *q <= '9') || *q == '_';
		if (ok)
			ENV("%.*s", (int)l, pi);
		pi = e ? e + 1 : NULL;
	}
#undef ENV
	v[n] = NULL;
	return n;
}

/* The process and device variables stock 2.6 gives every gateway script (see gw_script.h). */
static size_t process_env(const struct braid_gateway *g, char **v, size_t n, size_t max)
{
	static time_t start;
	const struct braid_options *o = g->o;
	char a[INET6_ADDRSTRLEN];

	if (!start)
		start = time(NULL);
#define ENV(...) do { if (n + 1 < max && asprintf(&v[n], __VA_ARGS__) >= 0) n++; } while (0)
	ENV("script_context=init");
	if (o->config_path[0])
		ENV("config=%s", o->config_path);
	ENV("daemon=0");
	ENV("daemon_log_redirect=%d", o->log_path ? 1 : 0);
	ENV("daemon_start_time=%lld", (long long)start);
	ENV("daemon_pid=%d", (int)getpid());
	ENV("verb=%d", o->verb);
	ENV("dev=%s", g->tun.name);
	ENV("dev_type=tun");
	ENV("tun_mtu=%d", o->tun_mtu);
	if (g->has_v4) {
		braid_gw_v4str(g->gw4, a, sizeof(a));
		ENV("ifconfig_local=%s", a);
		braid_gw_v4str(g->mask4, a, sizeof(a));
		ENV("ifconfig_netmask=%s", a);
	}
	if (g->has_v6) {
		struct in6_addr r6 = g->gw6;

		inet_ntop(AF_INET6, &g->gw6, a, sizeof(a));
		ENV("ifconfig_ipv6_local=%s", a);
		ENV("ifconfig_ipv6_netbits=%u", g->prefix6);
		r6.s6_addr[15]++;	/* stock's ifconfig_ipv6_remote: the next address */
		inet_ntop(AF_INET6, &r6, a, sizeof(a));
		ENV("ifconfig_ipv6_remote=%s", a);
	}
	if (g->bind_addr.sa.sa_family == AF_INET &&
	    g->bind_addr.in.sin_addr.s_addr != htonl(INADDR_ANY)) {
		inet_ntop(AF_INET, &g->bind_addr.in.sin_addr, a, sizeof(a));
		ENV("local_1=%s", a);
	}
	ENV("local_port_1=%u", o->lport);
	ENV("proto_1=%s", g->tcp ? "tcp-server" : "udp");
	ENV("remote_port_1=%u", o->rport ? o->rport : o->lport);
	for (unsigned i = 0; i < o->n_setenv; i++)	/* `setenv NAME VALUE`, as for every stock script */
		ENV("%s=%s", o->setenv[i].name, o->setenv[i].value ? o->setenv[i].value : "");
#undef ENV
	v[n] = NULL;
	return n;
}

size_t braid_gw_script_env(const struct gw_client *c, char **v, size_t max, enum braid_gw_env kind)
{
	size_t n;

	if (kind == BRAID_GW_ENV_VERIFY) {	/* the client's IV_* peer info only (stock's) */
		char *all[64];
		size_t k = braid_gw_client_env(c, all, 64, false);

		n = 0;
		for (size_t i = 0; i < k; i++) {
			if (!strncmp(all[i], "IV_", 3) && n + 1 < max)
				v[n++] = all[i];
			else
				free(all[i]);
		}
	} else {
		n = braid_gw_client_env(c, v, max, kind == BRAID_GW_ENV_DISCONNECT);
		if (n + 1 < max) {
			char t[32];
			struct tm tm;

			localtime_r(&c->since, &tm);
			strftime(t, sizeof(t), "%Y-%m-%d %H:%M:%S", &tm);
			if (asprintf(&v[n], "time_ascii=%s", t) >= 0)
				n++;
		}
	}
	if (c->ctl && n + 1 < max)	/* the client's certificate chain, as stock */
		n += braid_ctls_peer_cert_env(c->ctl, v + n, max - 1 - n);
	return process_env(c->g, v, n, max);
}

/* The `up` / `down` environment: script_type, the process and device variables, signal for down. */
static int updown_env(struct braid_gateway *g, bool up, struct braid_script_env *env)
{
	char *v[64];
	size_t n = process_env(g, v, 0, 64);
	int r = braid_script_env_add(env, "script_type", "%s", up ? "up" : "down");

	for (size_t i = 0; i < n; i++) {
		char *eq = strchr(v[i], '=');

		if (!r && eq) {
			*eq = '\0';
			r = braid_script_env_add(env, v[i], "%s", eq + 1);
		}
	}
	braid_gw_env_free(v, n);
	if (!r && !up)
		r = braid_script_env_add(env, "signal", "sigterm");
	return r ?: braid_script_env_finish(env);
}

int braid_gw_updown_script(struct braid_gateway *g, bool up)
{
	const struct braid_options *o = g->o;
	const char *cmd = up ? o->up : o->down;
	struct braid_script_env env = { 0 };
	struct braid_pushed p;
	int r;

	if (!cmd)
		return 0;
	memset(&p, 0, sizeof(p));	/* only the script's IFCONFIG_LOCAL NETMASK arguments */
	p.has_ifconfig = g->has_v4;
	p.ifc_local.s_addr = htonl(g->gw4);
	p.ifc_remote.s_addr = htonl(g->mask4);
	r = updown_env(g, up, &env);
	if (!r)
		r = braid_script_run(up ? "up" : "down", cmd, o, g->tun.name, o->tun_mtu, &p, &env);
	braid_script_env_free(&env);
	return r;
}

void braid_gw_updown_notify(struct braid_gateway *g, bool up)
{
	struct braid_script_env env = { 0 };
	const char *v[BRAID_GW_SCRIPT_ENV_MAX];
	size_t n = 0;

	if (!braid_mgmt_up_down_on(g->mg) || g->mg_updown == up)
		return;
	g->mg_updown = up;
	if (!updown_env(g, up, &env))	/* stock's block: the script's variables but script_type */
		for (size_t i = 0; i < env.n_own && n < BRAID_GW_SCRIPT_ENV_MAX; i++)
			if (strncmp(env.v[i], "script_type=", 12) && strncmp(env.v[i], "signal=", 7))
				v[n++] = env.v[i];
	braid_mgmt_up_down(g->mg, up ? "UP" : "DOWN", v, n);
	braid_script_env_free(&env);
}

void braid_gw_env_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
}

/* client-disconnect for a client that was connected; runs on after the client is gone. */
void braid_gw_start_disconnect_script(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	struct braid_authscript_req req;
	char *env[BRAID_GW_SCRIPT_ENV_MAX];
	size_t n;
	int r;

	if (g->n_bg == g->cap_bg) {
		size_t cap = g->cap_bg ? 2 * g->cap_bg : 8;
		struct braid_authscript *b = realloc(g->bg, cap * sizeof(*b));

		if (!b)
			return;
		g->bg = b;
		g->cap_bg = cap;
	}
	n = braid_gw_script_env(c, env, BRAID_GW_SCRIPT_ENV_MAX, BRAID_GW_ENV_DISCONNECT);
	memset(&req, 0, sizeof(req));
	req.cmd = g->o->client_disconnect;
	req.script_type = "client-disconnect";
	req.username = c->user;
	req.common_name = c->cn;
	req.untrusted_ip = c->ip;
	req.untrusted_port = c->port;
	req.env = (const char *const *)env;
	r = braid_authscript_start(&g->bg[g->n_bg], &req, braid_gw_now_ms());
	braid_gw_env_free(env, n);
	if (r)
		braid_warn("%s/%s: cannot run client-disconnect '%s': %s", braid_gw_cname(c), c->real,
			   g->o->client_disconnect, strerror(-r));
	else
		g->n_bg++;
}

/* Reap finished client-disconnect scripts (wait: block up to the scripts' deadline). */
void braid_gw_bg_poll(struct braid_gateway *g, bool wait)
{
	size_t i = 0;

	while (i < g->n_bg) {
		int r = braid_authscript_poll(&g->bg[i], braid_gw_now_ms());

		if (r == -EAGAIN) {
			if (wait) {
				usleep(10000);
				continue;
			}
			i++;
			continue;
		}
		if (r)
			braid_warn("client-disconnect %s (exit %d)", r == -ETIMEDOUT ? "timed out" : "failed",
				   braid_authscript_exit_code(&g->bg[i]));
		g->bg[i] = g->bg[--g->n_bg];
	}
}
