// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_client.c - one gateway client's control channel (see gateway.h for
 * the whole path): its control packets, authentication
 * (auth-user-pass-verify, client-config-dir, duplicate-cn), address,
 * client-connect, PUSH_REPLY and data keys, renegotiations, and the
 * control-channel events that drive all of it.
 */
#include "gateway/gw_client.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateway/gateway_mp.h"
#include "gateway/gw_cluster.h"
#include "gateway/gw_mgmt_ev.h"
#include "gateway/gw_data.h"
#include "gateway/gw_tcpsuper.h"
#include "gateway/gw_link.h"
#include "gateway/gw_script.h"
#include "gateway/gw_shared.h"
#include "control/mgmt.h"
#include "util/log.h"
#include "session/push.h"

/* authentication, address, push */

static void auth_fail(struct gw_client *c, const char *why)
{
	braid_warn("%s/%s: authentication failed: %s", braid_gw_cname(c), c->real, why);
	c->g->st.auth_failed++;
	braid_ctls_send_text(c->ctl, "AUTH_FAILED");
	braid_gw_mp_stop(c);	/* no more data, probes or challenges for it */
	c->st = C_DYING;
	c->die_at_ms = braid_gw_now_ms() + AUTH_FAILED_LINGER_MS;
}

static int emit_push(void *ctx, const char *msg)
{
	struct gw_client *c = ctx;
	int r = braid_ctls_send_text(c->ctl, msg);

	if (r)
		braid_warn("%s/%s: cannot send PUSH_REPLY: %s", braid_gw_cname(c), c->real, strerror(-r));
	else
		braid_dbg("%s/%s: sent %s", braid_gw_cname(c), c->real, msg);
	return r;
}

static void send_push(struct gw_client *c)
{
	if (c->pushed || c->st != C_ACTIVE)
		return;
	if (!braid_push_split((const char *const *)c->push.opts, c->push.n_opts, 0, emit_push, c))
		c->pushed = true;
}

static int install_key(struct gw_client *c, unsigned key_id)
{
	struct braid_key2 k2;
	int r;

	r = braid_ctls_derive(c->ctl, key_id, c->push.ekm ? BRAID_CTLS_KDF_EKM : BRAID_CTLS_KDF_PRF,
			      &k2);
	if (!r)
		r = braid_dc_key_install(c->dc, key_id, c->push.cipher, &k2, BRAID_KEY_DIR_INVERSE);
	braid_key2_wipe(&k2);
	if (r)
		braid_err("%s/%s: cannot install data key %u: %s", braid_gw_cname(c), c->real, key_id,
			  strerror(-r));
	return r;
}

/* Drop older sessions of this common name (no duplicate-cn), as 2.6 does. */
static void drop_same_cn(struct gw_client *c)
{
	struct braid_gateway *g = c->g;

	if (g->o->duplicate_cn || !c->cn[0])
		return;
	for (unsigned w = 0; w < braid_gw_nw(g); w++)	/* the other workers drop theirs */
		if (w != g->widx)
			braid_gw_xq_send(g, w, GW_XQ_DROP_CN, c->cn, strlen(c->cn));
	for (uint32_t i = g->widx; i < g->max_clients; i += braid_gw_nw(g)) {
		struct gw_client *o = g->by_pid[i];

		if (o && o != c && !strcmp(o->cn, c->cn)) {
			braid_info("%s/%s: new connection by this common name drops the one from %s",
				   braid_gw_cname(c), c->real, o->real);
			braid_gw_client_kill(o, "replaced by a newer connection with the same common name");
		}
	}
}

static void client_connect_finish(struct gw_client *c);
static void start_connect_script(struct gw_client *c);
static int apply_dynamic(struct gw_client *c, const char *what, const char *text);

static void connect_entries(struct gw_client *c, int r, const char *why);
static void connect_addresses(struct gw_client *c, int r, const char *why);

/* After a stage that ran from the loop (an etcd answer): send what it queued (push reply, AUTH_FAILED), reap. */
static void after_async(struct gw_client *c)
{
	struct braid_gateway *g = c->g;

	if (!c->dead)
		braid_gw_ctl_run(c);
	braid_gw_reap(g);
}

static void entries_k(struct gw_client *c, int r, const char *why)
{
	connect_entries(c, r, why);
	after_async(c);
}

static void addresses_k(struct gw_client *c, int r, const char *why)
{
	connect_addresses(c, r, why);
	after_async(c);
}

/*
 * After authentication: the cluster's entries (revoked/, ccd/ in etcd), ccd, duplicate-cn, the address
 * (claimed in etcd when clustered), then client-connect or the rest. The etcd requests run from the loop:
 * the client waits in C_AUTH meanwhile and the stage after them is their continuation.
 */
static void client_connect(struct gw_client *c)
{
	const char *why = NULL;
	int r = braid_gw_cluster_client(c, entries_k, &why);

	if (r == -EINPROGRESS) {
		c->st = C_AUTH;
		return;
	}
	connect_entries(c, r, why);
}

static void connect_entries(struct gw_client *c, int r, const char *why)
{
	struct braid_gateway *g = c->g;
	struct braid_options *o = g->o;
	char err[512] = "";

	if (r) {
		auth_fail(c, why);
		return;
	}
	c->st = C_HANDSHAKE;
	if (o->client_config_dir || c->ccd.found) {
		if (!c->ccd.found)
			r = braid_ccd_load(&c->ccd, o->client_config_dir, c->cn, err, sizeof(err));
		if (r) {
			braid_err("%s/%s: %s", braid_gw_cname(c), c->real, err);
			auth_fail(c, "client-config-dir file unreadable");
			return;
		}
		if (!c->ccd.found && o->ccd_exclusive) {
			auth_fail(c, "ccd-exclusive and no client-config-dir file for this common name");
			return;
		}
		if (c->ccd.disable) {
			auth_fail(c, "client-config-dir file says 'disable'");
			return;
		}
	}
	drop_same_cn(c);
	/* a pool entry unless ccd fixes every address family the gateway serves */
	if (g->pool && !c->has_pool && ((g->has_v4 && !c->ccd.has_ifconfig) ||
					(g->has_v6 && !c->ccd.has_ifconfig6))) {
		r = braid_gw_pool_take(c, addresses_k);
		if (r == -EINPROGRESS) {
			c->st = C_AUTH;
			return;
		}
	}
	connect_addresses(c, r, NULL);
}

static void connect_addresses(struct gw_client *c, int r, const char *why)
{
	struct braid_gateway *g = c->g;
	struct braid_options *o = g->o;

	if (r) {
		auth_fail(c, why ? why : r != -ENOSPC ?
			  "the address pool's store (cluster-etcd) is not reachable" :
			  g->has_v4 ? "no free address in the ifconfig-pool" :
			  "no free address in the IPv6 pool");
		return;
	}
	c->st = C_HANDSHAKE;
	if (c->ccd.has_ifconfig) {
		c->has_v4 = true;
		c->v4 = c->ccd.ifc_local;
		c->v4_remote = c->ccd.ifc_remote;
	} else if (c->has_pool && g->has_v4) {
		braid_pool_addr4(g->pool, c->pool_h, &c->v4, &c->v4_remote);
		c->has_v4 = true;
	}
	if (c->ccd.has_ifconfig6) {
		c->has_v6 = true;
		c->v6 = c->ccd.ifc6;
		c->v6_prefix = c->ccd.ifc6_prefix;
	} else if (c->has_pool && g->has_v6) {
		braid_pool_addr6(g->pool, c->pool_h, &c->v6, &c->v6_prefix);
		c->has_v6 = true;
	}
	if (c->mgmt_config) {
		r = apply_dynamic(c, "management client-auth", c->mgmt_config);
		free(c->mgmt_config);
		c->mgmt_config = NULL;
		if (r)
			return;
	}
	if (o->client_connect) {
		start_connect_script(c);
		return;
	}
	client_connect_finish(c);
}

/* After the client-connect script (if any): push list, data channel, routes. */
static void client_connect_finish(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	struct braid_options *o = g->o;
	struct braid_gw_push_in in;
	struct braid_dc_config dcfg = { 0 };
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	bool mp;
	int r;

	/* push list and cipher */
	memset(&in, 0, sizeof(in));
	in.subnet = g->subnet;
	in.has_v4 = g->has_v4;
	in.gw4 = g->gw4;
	in.has_v6 = g->has_v6;
	in.gw6 = g->gw6;
	in.no_server_helper = g->longform;
	in.ping = o->keepalive_ping;
	in.ping_restart = o->keepalive_restart;
	in.user_push = (const char *const *)o->push;
	in.n_user_push = o->n_push;
	in.data_ciphers = g->ciphers;
	in.tun_mtu = o->tun_mtu;
	in.compress_migrate = o->compress == BRAID_OPT_COMP_MIGRATE;
	in.server_framing = o->compress == BRAID_OPT_COMP_LZO_NO ? BRAID_COMP_LZO :
			    o->compress == BRAID_OPT_COMP_STUB ? BRAID_COMP_STUB :
			    o->compress == BRAID_OPT_COMP_STUBV2 ? BRAID_COMP_STUB_V2 : BRAID_COMP_NONE;
	in.ccd_push = (const char *const *)c->ccd.push;
	in.n_ccd_push = c->ccd.n_push;
	in.push_reset = c->ccd.push_reset;
	in.has_ifc4 = c->has_v4;
	in.ifc_local = c->v4;
	in.ifc_remote = c->v4_remote;
	in.has_ifc6 = c->has_v6;
	in.ifc6 = c->v6;
	in.ifc6_prefix = c->v6_prefix;
	in.peer_id = braid_gw_wire_pid(c);
	in.peer_info = braid_ctls_peer_info(c->ctl);
	in.peer_options = braid_ctls_peer_options(c->ctl);
	r = braid_gw_push_build(&in, &c->push);
	if (r) {
		auth_fail(c, r == -ENOTSUP ? c->push.why : "cannot build the push list");
		return;
	}
	c->framing = c->push.framing;
	c->use_peer_id = c->push.use_peer_id;
	mp = braid_gw_mp_offer(c);
	braid_gw_tcpsuper_offer(c);	/* TCP super-packet frames: a TCP client only, never with mp */
	/* data channel */
	dcfg.peer_id = c->use_peer_id ? braid_gw_wire_pid(c) : BRAID_DC_PEER_ID_NONE;
	dcfg.replay_window = mp ? BRAID_GW_MP_WINDOW : o->replay_window;
	dcfg.replay_time = o->replay_time;
	r = braid_dc_new(&c->dc, &dcfg);
	if (!r)
		r = install_key(c, (unsigned)braid_ctls_current_key_id(c->ctl));
	if (!r && mp)
		r = braid_gw_mp_start(c, braid_gw_deliver);
	else if (!r)
		r = braid_gw_sp_start(c);
	if (r) {
		auth_fail(c, "data channel set-up failed");
		return;
	}
	/* routes */
	braid_gw_rt_wr(g);
	if (c->has_v4) {
		uint32_t n = htonl(c->v4);

		braid_vroute_add(braid_gw_routes(g), AF_INET, &n, 32, false, c->pid);
	}
	if (c->has_v6)
		braid_vroute_add(braid_gw_routes(g), AF_INET6, &c->v6, 128, false, c->pid);
	for (unsigned i = 0; i < c->ccd.n_iroute; i++)
		braid_vroute_add(braid_gw_routes(g), c->ccd.iroute[i].family, c->ccd.iroute[i].addr,
				 c->ccd.iroute[i].prefix, true, c->pid);
	braid_gw_rt_unlock(g);
	c->st = C_ACTIVE;
	c->was_active = true;
	braid_gw_mgmt_established(c);
	c->last_rx_ms = c->last_tx_ms = braid_gw_now_ms();
	a[0] = b[0] = 0;
	if (c->has_v4)
		braid_gw_v4str(c->v4, a, sizeof(a));
	if (c->has_v6)
		inet_ntop(AF_INET6, &c->v6, b, sizeof(b));
	braid_info("%s/%s: connected, peer-id %u, %s%s%s%s, cipher %s, %s keys%s", braid_gw_cname(c),
		   c->real, braid_gw_wire_pid(c), a[0] ? a : "", a[0] && b[0] ? " " : "", b[0] ? b : "",
		   !a[0] && !b[0] ? "no address" : "", c->push.cipher, c->push.ekm ? "EKM" : "PRF",
		   c->framing != BRAID_COMP_NONE ? ", compression stub framing" : "");
	{
		uint32_t proto = 0;

		braid_peer_info_iv_proto(in.peer_info, &proto);
		if ((proto & BRAID_IV_PROTO_REQUEST_PUSH) || c->push_requested)
			send_push(c);
	}
}

static void start_connect_script(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	struct braid_authscript_req req;
	char *env[BRAID_GW_SCRIPT_ENV_MAX];
	size_t n;
	int fd, r;

	snprintf(c->cc_file, sizeof(c->cc_file), "/tmp/braidd_cc_%d_%u_XXXXXX", (int)getpid(), c->pid);
	fd = mkstemp(c->cc_file);
	if (fd < 0) {
		c->cc_file[0] = 0;
		auth_fail(c, "client-connect: cannot create its config file");
		return;
	}
	close(fd);
	n = braid_gw_script_env(c, env, BRAID_GW_SCRIPT_ENV_MAX, BRAID_GW_ENV_CONNECT);
	memset(&req, 0, sizeof(req));
	req.cmd = g->o->client_connect;
	req.script_type = "client-connect";
	req.username = c->user;
	req.common_name = c->cn;
	req.untrusted_ip = c->ip;
	req.untrusted_port = c->port;
	req.env = (const char *const *)env;
	req.extra_arg = c->cc_file;
	r = braid_authscript_start(&c->as, &req, braid_gw_now_ms());
	braid_gw_env_free(env, n);
	if (r) {
		braid_err("%s/%s: cannot run client-connect '%s': %s", braid_gw_cname(c), c->real,
			  g->o->client_connect, strerror(-r));
		auth_fail(c, "client-connect could not run");
		return;
	}
	c->cc_running = true;
	c->st = C_AUTH;
	if (!g->scripts++)
		ev_timer_again(g->loop, &g->auth_t);
}

/*
 * Configuration given at connect time (client-connect's output, a management client-auth block;
 * ccd syntax) on top of the ccd file. 0, or -EINVAL with AUTH_FAILED sent.
 */
static int apply_dynamic(struct gw_client *c, const char *what, const char *text)
{
	struct braid_gateway *g = c->g;
	struct braid_ccd dyn;
	char err[512] = "", why[128];
	int r;

	r = braid_ccd_parse(&dyn, what, text, err, sizeof(err));
	if (r) {
		braid_err("%s/%s: %s", braid_gw_cname(c), c->real, err);
		snprintf(why, sizeof(why), "%s: an invalid configuration", what);
		auth_fail(c, why);
		return -EINVAL;
	}
	if (dyn.disable) {
		braid_ccd_free(&dyn);
		snprintf(why, sizeof(why), "%s says 'disable'", what);
		auth_fail(c, why);
		return -EINVAL;
	}
	if (dyn.has_ifconfig) {
		if (c->has_pool)
			braid_gw_pool_give(g, c->pool_h);
		c->has_pool = false;
		c->has_v4 = true;
		c->v4 = dyn.ifc_local;
		c->v4_remote = dyn.ifc_remote;
	}
	if (dyn.has_ifconfig6) {
		c->has_v6 = true;
		c->v6 = dyn.ifc6;
		c->v6_prefix = dyn.ifc6_prefix;
	}
	if (dyn.push_reset)
		c->ccd.push_reset = true;
	for (unsigned i = 0; i < dyn.n_push && c->ccd.n_push < BRAID_CCD_MAX_PUSH; i++) {
		c->ccd.push[c->ccd.n_push++] = dyn.push[i];
		dyn.push[i] = NULL;
	}
	for (unsigned i = 0; i < dyn.n_iroute && c->ccd.n_iroute < BRAID_CCD_MAX_IROUTE; i++)
		c->ccd.iroute[c->ccd.n_iroute++] = dyn.iroute[i];
	braid_ccd_free(&dyn);
	return 0;
}

/* client-connect exited 0: apply what it wrote (ccd syntax) on top of the ccd file. */
static void connect_script_done(struct gw_client *c)
{
	FILE *f = fopen(c->cc_file, "re");
	char *text = calloc(1, 65537);
	size_t len = 0;
	int r;

	if (f && text)
		len = fread(text, 1, 65536, f);
	if (f)
		fclose(f);
	unlink(c->cc_file);
	c->cc_file[0] = 0;
	if (!text) {
		auth_fail(c, "client-connect: out of memory");
		return;
	}
	text[len] = 0;
	r = apply_dynamic(c, "client-connect output", text);
	free(text);
	if (r)
		return;
	c->st = C_HANDSHAKE;
	client_connect_finish(c);
}


static int start_auth_script(struct gw_client *c);

static void client_authenticate(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	struct braid_options *o = g->o;
	const char *user = braid_ctls_peer_username(c->ctl);

	snprintf(c->cn, sizeof(c->cn), "%s", braid_ctls_peer_cn(c->ctl));
	snprintf(c->cert_cn, sizeof(c->cert_cn), "%s", c->cn);
	snprintf(c->user, sizeof(c->user), "%s", user);
	c->mgmt_kid++;	/* the management KID of this key (client-pending-auth), as stock's */
	if (braid_mgmt_client_auth(g->mg)) {
		/* management-client-auth: the management client decides (client-auth / client-deny) */
		c->mgmt_wait = true;
		c->mgmt_deadline_ms = c->created_ms + (o->hand_window > 0 ? o->hand_window : 60) * 1000;
		c->st = C_AUTH;
		braid_gw_mgmt_connect(c, false);
		return;
	}
	if (!o->auth_user_pass_verify) {
		client_connect(c);
		return;
	}
	if (!user[0] && !o->auth_user_pass_optional) {
		auth_fail(c, "no username/password (auth-user-pass-verify is set)");
		return;
	}
	if (start_auth_script(c))
		return;
	c->st = C_AUTH;
}

/* Run auth-user-pass-verify on the newest key's credentials. 0, or -errno (AUTH_FAILED sent). */
static int start_auth_script(struct gw_client *c)
{
	struct braid_options *o = c->g->o;
	struct braid_authscript_req req;
	char *env[BRAID_GW_SCRIPT_ENV_MAX];
	size_t n = braid_gw_script_env(c, env, BRAID_GW_SCRIPT_ENV_MAX, BRAID_GW_ENV_VERIFY);
	int r;

	memset(&req, 0, sizeof(req));
	req.env = (const char *const *)env;
	req.cmd = o->auth_user_pass_verify;
	req.via_file = o->auth_user_pass_verify_method == BRAID_AUPV_VIA_FILE;
	req.username = braid_ctls_peer_username(c->ctl);
	req.password = braid_ctls_peer_password(c->ctl);
	req.common_name = c->cn;
	req.untrusted_ip = c->ip;
	req.untrusted_port = c->port;
	r = braid_authscript_start(&c->as, &req, braid_gw_now_ms());
	braid_gw_env_free(env, n);
	if (r) {
		braid_err("%s/%s: cannot run auth-user-pass-verify '%s': %s", braid_gw_cname(c), c->real,
			  o->auth_user_pass_verify, strerror(-r));
		auth_fail(c, "auth-user-pass-verify could not run");
		return r;
	}
	if (!c->g->scripts++)
		ev_timer_again(c->g->loop, &c->g->auth_t);
	return 0;
}

void braid_gw_auth_poll(struct gw_client *c)
{
	struct braid_options *o = c->g->o;
	int r;

	if (c->cop)	/* a request to etcd of its connect: its answer or deadline goes on */
		return;
	if (c->mgmt_wait) {
		if (braid_gw_now_ms() > c->mgmt_deadline_ms)
			braid_gw_mgmt_answer(c, false, "no client-auth from the management interface "
					     "within hand-window", NULL, NULL);
		return;
	}
	(void)o;
	r = braid_authscript_poll(&c->as, braid_gw_now_ms());

	if (r == -EAGAIN)
		return;
	if (c->g->scripts)
		c->g->scripts--;
	if (c->cc_running) {
		c->cc_running = false;
		if (r) {
			unlink(c->cc_file);
			c->cc_file[0] = 0;
			auth_fail(c, r == -ETIMEDOUT ? "client-connect timed out" :
						     "client-connect refused the client (non-zero exit)");
			return;
		}
		connect_script_done(c);
		return;
	}
	if (r) {
		char why[160];

		snprintf(why, sizeof(why), "auth-user-pass-verify %s (user '%.60s')",
			 r == -ETIMEDOUT ? "timed out" : "rejected the username/password", c->user);
		auth_fail(c, why);
		return;
	}
	if (c->reauth_key >= 0) {
		unsigned k = (unsigned)c->reauth_key;

		c->reauth_key = -1;
		if (install_key(c, k) == 0)
			braid_info("%s/%s: renegotiated, data key %u (user re-verified)",
				   braid_gw_cname(c), c->real, k);
		braid_gw_release_held(c, true);
		return;
	}
	braid_info("%s/%s: user '%s' accepted by auth-user-pass-verify", braid_gw_cname(c), c->real,
		   c->user);
	if (c->g->o->username_as_common_name && c->user[0])
		snprintf(c->cn, sizeof(c->cn), "%s", c->user);
	c->st = C_HANDSHAKE;
	client_connect(c);
}

void braid_gw_mgmt_answer(struct gw_client *c, bool ok, const char *reason,
			  const char *client_reason, const char *config)
{
	char msg[300];

	c->mgmt_wait = false;
	if (c->reauth_key >= 0 && c->st == C_ACTIVE) {
		unsigned k = (unsigned)c->reauth_key;

		c->reauth_key = -1;
		if (!ok) {
			braid_gw_release_held(c, false);
			braid_gw_client_kill(c, "management client-deny on a renegotiation");
			return;
		}
		if (install_key(c, k) == 0)
			braid_info("%s/%s: renegotiated, data key %u (re-authorised by the management "
				   "interface)", braid_gw_cname(c), c->real, k);
		braid_gw_release_held(c, true);
		return;
	}
	if (!ok) {
		braid_warn("%s/%s: authentication failed: management client-deny: %s",
			   braid_gw_cname(c), c->real, reason ? reason : "");
		c->g->st.auth_failed++;
		snprintf(msg, sizeof(msg), "AUTH_FAILED%s%.250s", client_reason ? "," : "",
			 client_reason ? client_reason : "");
		braid_ctls_send_text(c->ctl, msg);
		braid_gw_mp_stop(c);
		c->st = C_DYING;
		c->die_at_ms = braid_gw_now_ms() + AUTH_FAILED_LINGER_MS;
		braid_gw_ctl_run(c);
		return;
	}
	braid_info("%s/%s: accepted by the management interface (client-auth)", braid_gw_cname(c),
		   c->real);
	free(c->mgmt_config);
	c->mgmt_config = config && config[0] ? strdup(config) : NULL;
	if (config && config[0] && !c->mgmt_config) {
		auth_fail(c, "management client-auth: out of memory");
		return;
	}
	c->st = C_HANDSHAKE;
	client_connect(c);
	if (!c->dead)
		braid_gw_ctl_run(c);
}

/* ---------------------------------------------------------------------------------------- */
/* control channel */

static void on_text(struct gw_client *c, const char *t)
{
	if (!strcmp(t, "PUSH_REQUEST")) {
		c->push_requested = true;
		send_push(c);
	} else if (!strcmp(t, "EXIT")) {
		braid_gw_client_kill(c, "explicit exit notification (control EXIT)");
	} else if (!strncmp(t, "CR_RESPONSE,", 12)) {
		braid_gw_mgmt_cr_response(c, t);
	} else {
		braid_dbg("%s/%s: control message ignored: %.60s", braid_gw_cname(c), c->real, t);
	}
}

static void on_event(struct gw_client *c, const struct braid_ctls_event *ev)
{
	switch (ev->type) {
	case BRAID_CTLS_EV_KEYS_READY:
		if (c->st == C_DYING)
			break;
		if (!c->dc) {
			if (c->st == C_HANDSHAKE)
				client_authenticate(c);
			break;
		}
		if (!c->mgmt_wait)
			c->mgmt_kid++;	/* the new key's management KID */
		if (strcmp(braid_ctls_peer_cn(c->ctl), c->cert_cn)) {
			braid_gw_client_kill(c, "the certificate's common name changed in a renegotiation");
		} else if (braid_mgmt_client_auth(c->g->mg) && !c->mgmt_wait) {
			/* as stock: every new key is authorised again (>CLIENT:REAUTH) */
			struct braid_options *o = c->g->o;

			c->reauth_key = ev->key_id;
			c->mgmt_wait = true;
			c->mgmt_deadline_ms = braid_gw_now_ms() +
					      (o->hand_window > 0 ? o->hand_window : 60) * 1000;
			braid_gw_mgmt_connect(c, true);
		} else if (c->g->o->auth_user_pass_verify && !c->as.pid) {
			/* as 2.6: the client sends its credentials again, the script decides again */
			c->reauth_key = ev->key_id;
			start_auth_script(c);
		} else if (install_key(c, ev->key_id) == 0) {
			braid_info("%s/%s: renegotiated, data key %u", braid_gw_cname(c), c->real, ev->key_id);
		}
		break;
	case BRAID_CTLS_EV_TEXT:
		on_text(c, ev->text);
		break;
	case BRAID_CTLS_EV_KEY_EXPIRED:
		if (c->dc)
			braid_dc_key_remove(c->dc, ev->key_id);
		break;
	case BRAID_CTLS_EV_ERROR:
		if (ev->fatal)
			braid_gw_client_kill(c, ev->text);
		else
			braid_dbg("%s/%s: control: %s", braid_gw_cname(c), c->real, ev->text);
		break;
	case BRAID_CTLS_EV_SOFT_RESET:
		braid_dbg("%s/%s: soft reset to key %u", braid_gw_cname(c), c->real, ev->key_id);
		break;
	default:
		break;
	}
}

/* Send what the session has, handle its events, re-arm its timer. */
void braid_gw_ctl_run(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	struct braid_ctls_event ev;
	uint8_t pkt[BRAID_CTL_MAX_PKT + 64];
	size_t len;
	int64_t dl, now;
	int rounds = 0, r;

	do {
		bool any = false;

		for (;;) {
			r = braid_ctls_output(c->ctl, braid_gw_now_ms(), pkt, sizeof(pkt), &len);
			if (r || !len)
				break;
			braid_gw_send_raw(c, pkt, len);
			any = true;
		}
		while (!c->dead && braid_ctls_next_event(c->ctl, &ev) == 0) {
			on_event(c, &ev);
			any = true;
		}
		if (!any)
			break;
	} while (!c->dead && ++rounds < 16);
	if (c->dead)
		return;
	ev_timer_stop(g->loop, &c->ctl_t);
	dl = braid_ctls_deadline(c->ctl);
	if (dl != BRAID_CTLS_NEVER) {
		now = braid_gw_now_ms();
		ev_timer_set(&c->ctl_t, dl > now ? (double)(dl - now) / 1000.0 : 0.0, 0);
		ev_timer_start(g->loop, &c->ctl_t);
	}
}

void braid_gw_ctl_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct gw_client *c = w->data;

	(void)loop;
	(void)revents;
	braid_gw_ctl_run(c);
	braid_gw_reap(c->g);
}

/* A control packet of client c (UDP datagram or TCP frame): its session, then its events. */
void braid_gw_on_control(struct gw_client *c, const uint8_t *pkt, size_t len)
{
	int r = braid_ctls_input(c->ctl, pkt, len, braid_gw_now_ms());

	if (r == 0) {
		c->rx_bytes += len;
		if (c->st == C_ACTIVE)
			c->last_rx_ms = braid_gw_now_ms();
	} else {
		struct braid_gateway *g = c->g;
		char a[80];
		int k = braid_reject_ctl(&g->rej, braid_ctls_last_reason(c->ctl), g->ccfg.wrap, pkt, len,
					 braid_sockaddr_str(&c->addr, a, sizeof(a)),
					 braid_ctls_last_error(c->ctl), braid_gw_now_ms());

		if (c->tcp && k < 0 && c->st == C_HANDSHAKE && !c->rx_bytes) {
			/* a fresh stream whose first packet starts no session (stock 2.6 alike) */
			braid_reject(&g->rej, BRAID_REJ_UNROUTABLE, braid_gw_now_ms(), 0,
				     "TLS Error: Unroutable control packet received from %s (op=%s)", a,
				     braid_ctl_op_name(pkt[0] >> BRAID_CTL_OP_SHIFT));
			k = BRAID_REJ_UNROUTABLE;
		}
		/* OpenVPN: a TLS error on a stream closes the connection */
		if (c->tcp && k >= 0 && k != BRAID_REJ_REPLAY) {
			if (c->st != C_ACTIVE)
				braid_reject(&g->rej, BRAID_REJ_TCP_CLOSED, braid_gw_now_ms(), 0,
					     "%s: TCP connection closed: %s", a,
					     braid_reject_name((enum braid_reject_kind)k));
			braid_gw_client_kill(c, "TLS error on a TCP connection");
			return;
		}
	}
	braid_gw_ctl_run(c);
}
