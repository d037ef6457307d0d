// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_push.c - applying a complete PUSH_REPLY (client_push.h): pull-filter,
 * parse, auth-token, NCP cipher check, compression framing, keepalive, data-
 * channel keys (EKM or PRF), then the TUN in OpenVPN's order (MTU, addresses,
 * `up`, routes, >UPDOWN:UP); and undoing it (>UPDOWN:DOWN, routes and addresses, then `down`);
 * the scripts' and >UPDOWN: environment.
 */
#include "client/client_tcpsuper.h"
#include "client/client_push.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "client/client_mgmt.h"
#include "client/client_mp.h"
#include "client/client_peerinfo.h"
#include "client/client_setup.h"
#include "client/client_sp.h"
#include "client/client_state.h"
#include "control/mgmt.h"
#include "config/config.h"
#include "ctl/session.h"
#include "dataplane/mssfix.h"
#include "dc/dc.h"
#include "os/netlink.h"
#include "os/sdnotify.h"
#include "os/sock.h"
#include "session/push.h"
#include "session/push_dns.h"
#include "session/script.h"
#include "util/log.h"

/* ---- push ---- */

/* Pushed DNS into the host's resolver (dns-updown, docs/braidd.md "DNS"). Failure is logged only. */
static void apply_dns(struct braid_client *c)
{
	struct braid_dns_conf dc;

	braid_push_dns_conf(&c->pushed, c->o, &dc);
	if (!dc.n_servers && !dc.n_search)
		return;
	if (c->o->dns_updown == BRAID_DNS_UPDOWN_DISABLE) {
		braid_info("DNS: pushed settings not applied (dns-updown disable)");
		return;
	}
	if (c->o->up && c->o->dns_updown != BRAID_DNS_UPDOWN_FORCE) {
		braid_info("DNS: pushed settings left to the up script (dns-updown force applies them "
			   "too)");
		return;
	}
	braid_dns_apply(&c->dns, c->tun.name, &dc);
}

#define CERT_ENV_MAX 32

/* The server's identity as stock gives it: common_name, untrusted_*, its certificate chain. */
static int env_peer(struct braid_client *c, struct braid_script_env *e)
{
	char *cv[CERT_ENV_MAX], a[INET6_ADDRSTRLEN] = "?", port[8] = "0";
	size_t n;
	int r = 0;

	if (c->remote.sa.sa_family == AF_INET) {
		inet_ntop(AF_INET, &c->remote.in.sin_addr, a, sizeof(a));
		snprintf(port, sizeof(port), "%u", ntohs(c->remote.in.sin_port));
	} else if (c->remote.sa.sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &c->remote.in6.sin6_addr, a, sizeof(a));
		snprintf(port, sizeof(port), "%u", ntohs(c->remote.in6.sin6_port));
	}
	if (c->s && braid_ctls_peer_cn(c->s)[0])
		r = braid_script_env_add(e, "common_name", "%s", braid_ctls_peer_cn(c->s));
	if (!r)
		r = braid_script_env_add(e, "untrusted_ip", "%s", a);
	if (!r)
		r = braid_script_env_add(e, "untrusted_port", "%s", port);
	if (r || !c->s)
		return r;
	n = braid_ctls_peer_cert_env(c->s, cv, CERT_ENV_MAX);
	for (size_t i = 0; i < n; i++) {
		char *eq = strchr(cv[i], '=');

		if (!r && eq) {
			*eq = '\0';
			r = braid_script_env_add(e, cv[i], "%s", eq + 1);
		}
		free(cv[i]);
	}
	return r;
}

int client_script_env(struct braid_client *c, struct braid_script_env *e, const char *type)
{
	int r = braid_script_env_tunnel(e, c->o, type, c->tun.name, c->tun_mtu, &c->pushed,
					&c->remote);

	if (!r)
		r = env_peer(c, e);
	if (!r)
		r = braid_script_env_process(e, c->o);
	if (!r && !strcmp(type, "down"))	/* what ends the tunnel, as stock names it */
		r = braid_script_env_add(e, "signal", "%s",
					 !c->exit_req ? "sigusr1" :
					 c->exit_code == BRAID_RUN_RELOAD ? "sighup" : "sigterm");
	if (!r)
		r = braid_script_env_finish(e);
	return r;
}

#define UPDOWN_ENV_MAX 160

void client_updown(struct braid_client *c, bool up)
{
	struct braid_script_env env = { 0 };
	const char *v[UPDOWN_ENV_MAX];
	size_t n = 0;

	if (!braid_mgmt_up_down_on(c->mg) || c->mg_updown == up)
		return;
	c->mg_updown = up;
	if (client_script_env(c, &env, up ? "up" : "down")) {
		braid_script_env_free(&env);
		return;
	}
	/* stock's block: the script's variables without script_type (set for a command only) */
	for (size_t i = 0; i < env.n_own && n < UPDOWN_ENV_MAX; i++)
		if (strncmp(env.v[i], "script_type=", 12) && strncmp(env.v[i], "link_mtu=", 9) &&
		    strncmp(env.v[i], "signal=", 7))
			v[n++] = env.v[i];
	braid_mgmt_up_down(c->mg, up ? "UP" : "DOWN", v, n);
	braid_script_env_free(&env);
}

/* As OpenVPN: routes and addresses go first, then the `down` script runs. */
void client_teardown_net(struct braid_client *c)
{
	client_updown(c, false);
	braid_dns_restore(&c->dns);
	if (c->tun_open)
		braid_push_unapply(&c->pnet, c->tun.nl);
	if (c->up_ran && c->o->down) {
		struct braid_script_env env = { 0 };

		if (!client_script_env(c, &env, "down"))
			braid_script_run("down", c->o->down, c->o, c->tun.name, c->tun_mtu,
					 &c->pushed, &env);
		braid_script_env_free(&env);
	}
	c->up_ran = false;
}

int client_process_push(struct braid_client *c)
{
	struct braid_options *o = c->o;
	struct braid_pushed *p = &c->pushed;
	struct braid_dc_config dcc = { .replay_window = o->replay_window,
				       .replay_time = o->has_replay_time ? o->replay_time : 0,
				       .backend = BRAID_AEAD_BACKEND_AUTO };
	struct braid_key2 k2;
	char err[512], a[128];
	int key_id, r;
	bool mp = false, first;

	r = braid_push_filter(&c->pl, o->pull_filters, o->n_pull_filters, o->route_nopull, err,
			      sizeof(err));
	if (r) {
		braid_err("%s: restarting", err);
		client_request_restart(c, "pull-filter-reject", false);
		return r;
	}
	braid_pushed_free(p);
	r = braid_push_parse(&c->pl, p, err, sizeof(err));
	if (r) {
		braid_err("bad PUSH_REPLY: %s", err);
		client_request_restart(c, "bad-push", false);
		return r;
	}
	c->have_push = true;
	client_tcpsuper_accept(c);
	if (p->auth_token && c->user) {
		char *t = strdup(p->auth_token);

		if (t) {
			client_free_secret(&c->token);
			c->token = t;
			braid_info("auth-token received: used instead of the password from now on");
		}
	}
	/* NCP: the pushed cipher must be one of ours; without one, the configured cipher */
	if (p->cipher[0]) {
		if (!client_cipher_allowed(o, p->cipher)) {
			braid_err("pushed cipher '%s' is not in data-ciphers '%s': cannot continue",
				  p->cipher, client_data_ciphers(o));
			client_request_exit(c, 1);
			return -EPROTO;
		}
		snprintf(c->cipher, sizeof(c->cipher), "%s", p->cipher);
	} else if (o->data_ciphers_fallback) {
		snprintf(c->cipher, sizeof(c->cipher), "%s", o->data_ciphers_fallback);
	} else if (o->cipher[0]) {
		snprintf(c->cipher, sizeof(c->cipher), "%s", o->cipher);
	} else {
		braid_err("the server pushed no cipher and no data-ciphers-fallback is set");
		client_request_exit(c, 1);
		return -EPROTO;
	}
	c->use_ekm = p->tls_ekm && !c->prf_only;
	c->framing = BRAID_COMP_NONE;
	if (p->has_comp)
		c->framing = p->comp == BRAID_PUSH_COMP_LZO_NO ? BRAID_COMP_LZO :
			     p->comp == BRAID_PUSH_COMP_STUB ? BRAID_COMP_STUB :
			     p->comp == BRAID_PUSH_COMP_STUB_V2 ? BRAID_COMP_STUB_V2 :
								 BRAID_COMP_NONE;
	else if (o->compress == BRAID_OPT_COMP_LZO_NO)
		c->framing = BRAID_COMP_LZO;
	else if (o->compress == BRAID_OPT_COMP_STUB)
		c->framing = BRAID_COMP_STUB;
	else if (o->compress == BRAID_OPT_COMP_STUBV2)
		c->framing = BRAID_COMP_STUB_V2;
	c->ping = p->ping >= 0 ? p->ping : o->ping;
	c->ping_restart = p->ping_restart >= 0 ? p->ping_restart : o->ping_restart;
	if (p->tun_mtu)
		c->tun_mtu = p->tun_mtu;
	dcc.peer_id = p->has_peer_id ? p->peer_id : BRAID_DC_PEER_ID_NONE;

	key_id = braid_ctls_current_key_id(c->s);
	if (key_id < 0) {
		braid_err("PUSH_REPLY before the keys are ready");
		client_request_restart(c, "protocol-error", false);
		return -EPROTO;
	}
	r = braid_ctls_derive(c->s, (unsigned)key_id,
			      c->use_ekm ? BRAID_CTLS_KDF_EKM : BRAID_CTLS_KDF_PRF, &k2);
	if (r) {
		braid_err("data-channel key derivation failed: %s", strerror(-r));
		client_request_restart(c, "key-derivation", false);
		return r;
	}
	client_mp_stop(c);	/* a second PUSH_REPLY: the data plane restarts on the new channel */
	mp = client_mp_accept(c, &dcc);
	client_sp_close(c);	/* before the data channel it uses */
	braid_dc_free(c->dc);
	c->dc = NULL;
	r = braid_dc_new(&c->dc, &dcc);
	if (!r)
		r = braid_dc_key_install(c->dc, (unsigned)key_id, c->cipher, &k2,
					 BRAID_KEY_DIR_NORMAL);
	braid_key2_wipe(&k2);
	if (!r)
		r = client_sp_open(c);
	if (r) {
		braid_err("cannot install data-channel keys (cipher %s): %s", c->cipher,
			  strerror(-r));
		client_request_exit(c, 1);
		return r;
	}
	braid_info("Data Channel: cipher '%s', peer-id %s, key-derivation %s, key_id %d%s",
		   c->cipher, p->has_peer_id ? "pushed" : "none (P_DATA_V1)",
		   c->use_ekm ? "TLS-EKM" : "OpenVPN PRF", key_id,
		   c->framing != BRAID_COMP_NONE ? ", compression stub framing" : "");
	if (p->has_peer_id)
		braid_info("peer-id %u (P_DATA_V2)", p->peer_id);

	/* the device: MTU, addresses, routes (configured ones, then pushed ones) */
	r = braid_nl_link_set(c->tun.nl, c->tun.ifindex, c->tun_mtu, true);
	if (r) {
		braid_err("%s: cannot set mtu %d: %s", c->tun.name, c->tun_mtu, strerror(-r));
		client_request_exit(c, 1);
		return r;
	}
	for (unsigned int i = 0; i < o->n_routes && p->n_routes < BRAID_PUSH_MAX_ROUTES; i++)
		p->routes[p->n_routes++] = o->routes[i];
	if (!p->has_route_gateway && o->has_route_gateway) {	/* the config's, unless pushed */
		p->has_route_gateway = true;
		p->route_gateway = o->route_gateway;
	}
	if (!p->has_ifconfig && o->has_ifconfig) {
		p->has_ifconfig = true;
		p->ifc_local = o->ifc_local;
		p->ifc_remote = o->ifc_remote;
		if (o->ifc_is_netmask)
			p->topology = BRAID_TOPO_SUBNET;
	}
	if (o->redirect_gw & BRAID_RG_ENABLE) {
		p->redirect = true;
		p->redirect_flags |= o->redirect_gw;
	}
	if (p->redirect_flags & BRAID_RG_BLOCK_LOCAL)	/* pushed: the config refuses the flag */
		braid_warn("the server pushed redirect-gateway block-local: braidd does not block the "
			   "local LAN (not implemented); it stays reachable");
	/* OpenVPN's order: addresses, the `up` script, then routes */
	r = braid_push_apply(&c->pnet, c->tun.nl, c->tun.ifindex, c->tun.name, p, &c->remote,
			     BRAID_PUSH_APPLY_ADDRS);
	if (r) {
		client_request_restart(c, "ifconfig-error", false);
		return r;
	}
	client_mgmt_state(c, "ASSIGN_IP", NULL);
	braid_mssfix_init(&c->mss, o->mssfix, c->remote.sa.sa_family == AF_INET ? 20 : 40,
			  (int)braid_dc_overhead(c->dc) + (c->tcp ? 2 : 0), c->tun_mtu);
	if (o->up) {
		struct braid_script_env env = { 0 };

		r = client_script_env(c, &env, "up");
		if (!r)
			r = braid_script_run("up", o->up, o, c->tun.name, c->tun_mtu, p, &env);
		braid_script_env_free(&env);
		if (r) {
			braid_err("up script failed: exiting");
			client_request_exit(c, 1);
			return r;
		}
		c->up_ran = true;
	}
	r = braid_push_apply(&c->pnet, c->tun.nl, c->tun.ifindex, c->tun.name, p, &c->remote,
			     BRAID_PUSH_APPLY_ROUTES);
	if (r) {
		client_request_restart(c, "route-error", false);
		return r;
	}
	if (p->n_routes || p->redirect)
		client_mgmt_state(c, "ADD_ROUTES", NULL);
	client_updown(c, true);
	apply_dns(c);
	c->st = CS_UP;
	if (mp) {
		r = client_mp_start(c);
		if (r) {
			braid_err("multipath negotiated but its data plane cannot start: %s", strerror(-r));
			client_request_restart(c, "multipath-setup", false);
			return r;
		}
	}
	c->failures = 0;
	first = !c->ever_up;
	c->ever_up = true;
	c->last_rx = c->last_tx = ev_now(c->loop);
	braid_info("Initialization Sequence Completed (server %s)",
		   braid_sockaddr_str(&c->remote, a, sizeof(a)));
	client_mgmt_state(c, "CONNECTED", "SUCCESS");
	braid_info("state: CONNECTED");
	braid_sd_ready(c->loop, "Initialization Sequence Completed (server %s)", a);
	/* user/group/chroot: after the first connection, as OpenVPN (its `up` ran as root) */
	return first ? client_drop_privileges(c) : 0;
}
