// SPDX-License-Identifier: GPL-2.0-only
/*
 * gateway.c - the gateway (server) mode's set-up and teardown (see
 * gateway.h): TLS context, addresses and pool, TUN, socket, the loop's
 * watchers; the signals (SIGUSR2 counters, explicit-exit-notify RESTART on
 * SIGTERM/SIGINT/SIGHUP/SIGUSR1; SIGHUP: full restart, main.c reads the
 * configuration again; SIGUSR1: soft restart, every client dropped, TUN,
 * socket and pool kept). The per-packet work is in the gw_*.c files (gw_types.h
 * lists them).
 */
#include "gateway/gateway.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "config/config.h"
#include "gateway/gateway_mp.h"
#include "gateway/gw_client.h"
#include "gateway/gw_cluster.h"
#include "gateway/gw_data.h"
#include "gateway/gw_io.h"
#include "gateway/gw_script.h"
#include "gateway/gw_table.h"
#include "gateway/gw_tcp.h"
#include "gateway/gw_timers.h"
#include "gateway/gw_types.h"
#include "gateway/gw_udp.h"
#include "gateway/gw_workers.h"
#include "util/log.h"
#include "os/netlink.h"
#include "os/mptcp.h"
#include "dataplane/mptcp_endp.h"
#include "os/sdnotify.h"
#include "control/ovpn_status.h"
#include "session/push.h"
#include "session/tlsconf.h"

/*
 * The UDP socket kept across a SIGHUP restart (the next gateway takes it if its address is the same):
 * what clients send while the gateway restarts waits in it, nothing is lost.
 */
static int kept_fd = -1;
static union braid_sockaddr kept_addr;

/* RESTART to every active client (explicit-exit-notify 2: "RESTART,[N]" = try the next server). */
static unsigned notify_restart(struct braid_gateway *g)
{
	const char *msg = g->o->explicit_exit_notify >= 2 ? "RESTART,[N]" : "RESTART";
	unsigned n = 0;

	braid_gw_lock_all(g);	/* every worker's clients */
	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->st != C_ACTIVE || braid_ctls_send_text(c->ctl, msg))
			continue;
		braid_gw_ctl_run(c);
		n++;
	}
	braid_gw_unlock_all(g);
	braid_gw_reap(g);
	if (n)
		braid_info("shutting down: sent %s to %u client(s)", msg, n);
	return n;
}

static void exit_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)w;
	(void)revents;
	ev_break(loop, EVBREAK_ALL);
}

static void sig_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	struct braid_gateway *g = w->data;

	(void)revents;
	if (w->signum == SIGUSR2) {
		braid_gw_log_stats(g);
		return;
	}
	if (w->signum == SIGHUP || w->signum == SIGUSR1) {
		if (g->exit_req || g->restart_sig)
			return;
		g->restart_sig = w->signum;
		g->restart_ms = braid_gw_now_ms();
		/* the socket is not read until the restart: a session begun now would die with it */
		braid_gw_sock_all(g, false);	/* every worker's */
		braid_info("%s[%s,] received, process restarting",
			   w->signum == SIGHUP ? "SIGHUP" : "SIGUSR1",
			   w->signum == SIGHUP ? "hard" : "soft");
		if (g->o->explicit_exit_notify > 0 && notify_restart(g)) {
			/*
			 * as 2.6: the clients are told to reconnect, the restart follows (sooner than
			 * 2.6's 2 s: a client's reconnect after its 1 s connect-retry pause then finds the
			 * restarted gateway; what comes before waits in the socket)
			 */
			ev_timer_set(&g->exit_t, 0.5, 0);
			ev_timer_start(loop, &g->exit_t);
			return;
		}
		ev_break(loop, EVBREAK_ALL);
		return;
	}
	if (!g->exit_req && g->o->explicit_exit_notify > 0 && notify_restart(g)) {
		/* 2.6 with explicit-exit-notify: tell the clients to reconnect, exit a second later */
		g->exit_req = true;
		ev_timer_set(&g->exit_t, 1.0, 0);
		ev_timer_start(loop, &g->exit_t);
		return;
	}
	g->exit_req = true;
	ev_break(loop, EVBREAK_ALL);
}

/* ---------------------------------------------------------------------------------------- */
/* set-up */

static int load_wrap(struct braid_gateway *g)
{
	return braid_tlsconf_wrap(g->o, true, &g->ccfg, &g->wrap_key);
}

static int make_tls(struct braid_gateway *g)
{
	return braid_tlsconf_ctx(g->o, true, &g->ssl);
}

/* The server's OCC string, as 2.6 builds it (fact sheet §7); mismatches only warn. */
static void build_occ(struct braid_gateway *g)
{
	const struct braid_options *o = g->o;
	bool comp = o->compress != BRAID_OPT_COMP_NONE;
	int n;

	n = snprintf(g->occ, sizeof(g->occ), "V4,dev-type tun,link-mtu %d,tun-mtu %d,proto %s%s",
		     o->tun_mtu + (g->tcp ? 43 : 41) + (comp ? 1 : 0), o->tun_mtu,
		     g->family == AF_INET6 ? (g->tcp ? "TCPv6_SERVER" : "UDPv6")
					   : (g->tcp ? "TCPv4_SERVER" : "UDPv4"),
		     comp ? ",comp-lzo" : "");
	if (g->ccfg.wrap == BRAID_CTLS_WRAP_AUTH && g->ccfg.key_direction >= 0)
		n += snprintf(g->occ + n, sizeof(g->occ) - (size_t)n, ",keydir %d",
			      g->ccfg.key_direction);
	n += snprintf(g->occ + n, sizeof(g->occ) - (size_t)n, ",auth %s,keysize 128",
		      o->auth_digest[0] ? o->auth_digest : "SHA1");
	if (g->ccfg.wrap == BRAID_CTLS_WRAP_AUTH)
		n += snprintf(g->occ + n, sizeof(g->occ) - (size_t)n, ",tls-auth");
	snprintf(g->occ + n, sizeof(g->occ) - (size_t)n, ",key-method 2,tls-server");
}

/*
 * `mode server` long form: the gateway's own `ifconfig LOCAL NETMASK|PEER` and an explicit
 * `ifconfig-pool START END [MASK]`; nothing else is implied (the admin pushes route-gateway,
 * topology and routes, and adds the `route` for net30).
 */
static int setup_longform(struct braid_gateway *g)
{
	struct braid_options *o = g->o;
	struct braid_pool_config pc;
	int r;

	g->longform = true;
	g->has_v4 = true;
	g->gw4 = ntohl(o->ifc_local.s_addr);
	g->mask4 = g->subnet ? ntohl(o->ifc_remote.s_addr) : 0xffffffffu;
	if (!o->has_ifconfig_pool) {
		braid_info("no ifconfig-pool: clients need an ifconfig-push (client-config-dir)");
		return 0;
	}
	memset(&pc, 0, sizeof(pc));
	pc.has_v4 = true;
	pc.topo = g->subnet ? BRAID_POOL_SUBNET : BRAID_POOL_NET30;
	pc.v4_start = ntohl(o->ifconfig_pool_start.s_addr);
	pc.v4_end = ntohl(o->ifconfig_pool_end.s_addr);
	pc.v4_netmask = o->ifconfig_pool_mask.s_addr ? ntohl(o->ifconfig_pool_mask.s_addr) : g->mask4;
	pc.duplicate_cn = o->duplicate_cn;
	r = braid_pool_new(&g->pool, &pc);
	if (r) {
		braid_err("option 'ifconfig-pool': empty or invalid range%s",
			  g->subnet ? "" : " (net30: START must begin a /30 block)");
		return r;
	}
	braid_info("IFCONFIG POOL: size %u", braid_pool_size(g->pool));
	return 0;
}

static int setup_addresses(struct braid_gateway *g)
{
	struct braid_options *o = g->o;
	struct braid_pool_config pc;
	const char *why = "";
	unsigned skipped = 0;
	int r;

	g->subnet = o->topology == BRAID_TOPO_SUBNET;
	g->has_v4 = o->has_server;
	g->has_v6 = o->has_server6;
	if (!g->has_v4 && !g->has_v6 && o->has_ifconfig)
		return setup_longform(g);
	if (!g->has_v4 && !g->has_v6) {
		braid_err("gateway mode needs 'server NETWORK NETMASK' and/or 'server-ipv6 NET/BITS' "
			  "(or 'ifconfig' + 'ifconfig-pool')");
		return -EINVAL;
	}
	g->mask4 = ntohl(o->server_mask.s_addr);
	r = braid_pool_config_server(&pc, g->has_v4, ntohl(o->server_net.s_addr), g->mask4,
				     g->subnet ? BRAID_POOL_SUBNET : BRAID_POOL_NET30, g->has_v6,
				     &o->server6_net, o->server6_prefix, &g->gw4, &g->gw6, &why);
	if (r) {
		braid_err("option 'server': %s", why);
		return r;
	}
	g->prefix6 = o->server6_prefix;
	if (o->has_ifconfig_pool) {
		pc.v4_start = ntohl(o->ifconfig_pool_start.s_addr);
		pc.v4_end = ntohl(o->ifconfig_pool_end.s_addr);
		if (o->ifconfig_pool_mask.s_addr)
			pc.v4_netmask = ntohl(o->ifconfig_pool_mask.s_addr);
	} else if (o->server_nopool) {
		pc.has_v4 = false;
	}
	pc.duplicate_cn = o->duplicate_cn;
	if (pc.has_v4 || pc.has_v6) {
		r = braid_pool_new(&g->pool, &pc);
		if (r) {
			braid_err("address pool: empty or invalid range");
			return r;
		}
		braid_info("IFCONFIG POOL: size %u", braid_pool_size(g->pool));
		if (o->ifconfig_pool_persist) {
			r = braid_pool_persist_load(g->pool, o->ifconfig_pool_persist, &skipped);
			if (r)
				braid_warn("ifconfig-pool-persist '%s': %s", o->ifconfig_pool_persist,
					   strerror(-r));
			else if (skipped)
				braid_warn("ifconfig-pool-persist '%s': %u line(s) ignored",
					   o->ifconfig_pool_persist, skipped);
		}
	}
	return 0;
}

static int setup_tun(struct braid_gateway *g)
{
	struct braid_options *o = g->o;
	struct braid_tun *t = &g->tun;
	int r;

	r = g->wk ? braid_gw_workers_tun(g, t) : braid_tun_open_vnet(t, o);
	if (r) {
		braid_err("cannot open the TUN device '%s': %s", o->dev, strerror(-r));
		return r;
	}
	g->tun_open = true;
	r = braid_nl_link_set(t->nl, t->ifindex, o->tun_mtu, true);
	if (r) {
		braid_err("%s: cannot set mtu %d / link up: %s", t->name, o->tun_mtu, strerror(-r));
		return r;
	}
	if (g->has_v4) {
		uint32_t gw = htonl(g->gw4), net = o->server_net.s_addr;
		uint8_t prefix = 0;
		char a[INET_ADDRSTRLEN];

		while (prefix < 32 && (g->mask4 & (0x80000000u >> prefix)))
			prefix++;
		if (g->subnet) {
			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &gw, NULL, prefix);
		} else if (g->longform) {
			uint32_t peer = o->ifc_remote.s_addr;

			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &gw, &peer, 32);
		} else {
			uint32_t peer = htonl(g->gw4 + 1);

			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &gw, &peer, 32);
			if (!r)
				r = braid_nl_route(t->nl, true, t->ifindex, AF_INET, &net, prefix, NULL, 0);
		}
		if (r) {
			braid_err("%s: cannot add the gateway address/route: %s", t->name, strerror(-r));
			return r;
		}
		braid_gw_v4str(g->gw4, a, sizeof(a));
		braid_info("%s: gateway address %s/%u (%s)", t->name, a, prefix,
			   g->subnet ? "topology subnet" : "topology net30");
	}
	if (g->has_v6) {
		char a[INET6_ADDRSTRLEN];

		r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET6, &g->gw6, NULL, g->prefix6);
		if (r) {
			braid_err("%s: cannot add the IPv6 gateway address: %s", t->name, strerror(-r));
			return r;
		}
		braid_info("%s: gateway address %s/%u", t->name,
			   inet_ntop(AF_INET6, &g->gw6, a, sizeof(a)), g->prefix6);
	}
	/* `route` / `route-ipv6` of the gateway: networks behind clients (with their iroute) */
	for (unsigned i = 0; i < o->n_routes; i++) {
		const struct braid_opt_route *rt = &o->routes[i];
		char a[INET6_ADDRSTRLEN];

		r = braid_nl_route(t->nl, true, t->ifindex, rt->family, rt->dst, rt->prefix, NULL,
				   rt->metric);
		inet_ntop(rt->family, rt->dst, a, sizeof(a));
		if (r) {
			braid_err("%s: cannot add route %s/%u: %s", t->name, a, rt->prefix, strerror(-r));
			return r;
		}
		braid_info("%s: route %s/%u", t->name, a, rt->prefix);
	}
	fcntl(t->fd, F_SETFL, fcntl(t->fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

static int setup_socket(struct braid_gateway *g, unsigned nw)
{
	struct braid_options *o = g->o;
	union braid_sockaddr bind_addr;
	char err[256], s[96];
	int r, one = 1;

	r = braid_sock_resolve(o->local, o->lport /* 1194 unless set; 0: ephemeral */, o->family,
			       true, &bind_addr, err, sizeof(err));
	if (r) {
		braid_err("option 'local': %s", err);
		return r;
	}
	g->family = bind_addr.sa.sa_family;
	g->bind_addr = bind_addr;
	if (kept_fd >= 0 && (g->tcp || nw > 1 || !braid_sockaddr_equal(&kept_addr, &bind_addr))) {
		close(kept_fd);
		kept_fd = -1;
	}
	if (nw <= 1 || g->tcp)
		braid_gw_workers_kept_close();	/* a group kept by SIGHUP: not for one worker */
	if (nw > 1 && !g->tcp) {
		r = braid_gw_workers_sockets(g, nw, &bind_addr);
		if (r)	/* no CAP_BPF, no bpf/ in this build, or the kernel refused the program */
			braid_log(o->workers > 0 ? BRAID_LOG_WARN : BRAID_LOG_INFO,
				  "workers: sk_reuseport steering unavailable (%s): 1 worker",
				  r == -ENOTSUP ? "braidd built without bpf/" : strerror(-r));
	}
	if (g->wk) {
		/* the group's sockets (gw_workers.c), worker 0's in g->fd */
	} else if (kept_fd >= 0) {
		g->fd = kept_fd;	/* SIGHUP: the same address; what came meanwhile is still queued */
		g->kept_socket = true;
		kept_fd = -1;
	} else if (!g->tcp) {
		r = braid_sock_open_udp(g->family, &bind_addr, false, &g->fd);
		if (r) {
			braid_err("cannot bind UDP %s: %s",
				  braid_sockaddr_str(&bind_addr, s, sizeof(s)), strerror(-r));
			return r;
		}
	} else {
		int why = 0;

		r = braid_mptcp_socket(g->family, o->mptcp, o->sndbuf, o->rcvbuf, &g->fd, &g->mptcp,
				       &why);
		if (r)
			return r;
		if (why && o->mptcp == BRAID_OPT_MPTCP_ON)
			braid_warn("MPTCP: the kernel refuses MPTCP sockets (%s): the gateway listens "
				   "on plain TCP", strerror(why));
		else if (why)
			braid_info("MPTCP: not enabled in this kernel (net.mptcp.enabled): the gateway "
				   "listens on plain TCP");
		setsockopt(g->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (g->family == AF_INET6) {
			int zero = 0;

			setsockopt(g->fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		}
		if (bind(g->fd, &bind_addr.sa, braid_sockaddr_len(&bind_addr)) ||
		    listen(g->fd, 64)) {
			r = -errno;
			braid_err("cannot listen on TCP %s: %s",
				  braid_sockaddr_str(&bind_addr, s, sizeof(s)), strerror(-r));
			return r;
		}
	}
	/* multihome, and the paths of multipath clients by default: answer from the address used */
	g->pktinfo = !g->tcp && (o->multihome || o->multipath);
	if (g->pktinfo) {
		r = braid_pktinfo_enable(g->fd, g->family);
		if (r) {
			braid_err("%s: cannot read the local address of datagrams: %s",
				  o->multihome ? "option 'multihome'" : "multipath", strerror(-r));
			return r;
		}
		if (o->multihome)
			braid_info("multihome: each client is answered from the address it talks "
				   "to%s", o->multihome_same_if ? ", out of the interface it came in on" : "");
	}
	braid_info("gateway listening on %s %s%s", g->tcp ? (g->mptcp ? "MPTCP" : "TCP") : "UDP",
		   braid_sockaddr_str(&bind_addr, s, sizeof(s)),
		   g->kept_socket ? " (the socket kept from before the restart)" : "");
	return 0;
}

/* The worker count: `workers N` as given (proto tcp-server: one worker, logged); `workers auto` or no
 * `workers` line: one per online core, or one worker, said with why, for what runs on one worker only
 * (docs/scaling.md "Workers"). */
static unsigned workers_count(const struct braid_gateway *g)
{
	const struct braid_options *o = g->o;
	unsigned nw = (unsigned)braid_gw_workers_want(o);
	const char *one = g->tcp ? "proto tcp-server" : NULL;
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	if (o->workers > 0) {
		if (nw > 1 && g->tcp) {
			braid_info("workers %u: proto tcp-server runs on one worker", nw);
			return 1;
		}
		return nw;
	}
	if (nw > 1 && one) {
		braid_info("workers auto: %ld cores, 1 worker: %s runs on one worker "
			   "(docs/scaling.md \"Workers\")", cores, one);
		return 1;
	}
	braid_info("workers auto: %ld core%s, %u worker%s", cores, cores == 1 ? "" : "s", nw,
		   nw == 1 ? "" : "s");
	return nw;
}

int braid_gateway_new(struct braid_gateway **out, struct braid_options *o)
{
	struct braid_gateway *g;
	static const int sigs[SIG_N] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 };
	char err[256];
	unsigned nw;
	int r;

	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->o = o;
	g->fd = -1;
	g->tun.fd = -1;
	g->tcp = o->proto == BRAID_PROTO_TCP_SERVER;
	g->ciphers = o->data_ciphers[0] ? o->data_ciphers : DEFAULT_CIPHERS;
	g->client_limit = o->max_clients > 0 ? (uint32_t)o->max_clients : 1024;
	if (g->client_limit > BRAID_DC_PEER_ID_MAX)
		g->client_limit = BRAID_DC_PEER_ID_MAX;
	if (o->cluster_etcd && g->client_limit > 0xffff)	/* the local part of a peer-id */
		g->client_limit = 0xffff;
	nw = workers_count(g);
	/* `workers N`: max-clients slots for each worker (pid % N == w), the limit for all of them */
	g->max_clients = g->client_limit;
	if (nw > 1 && !g->tcp) {
		uint64_t cap = o->cluster_etcd ? 0xffff : BRAID_DC_PEER_ID_MAX;
		uint64_t slots = (uint64_t)g->client_limit * nw;

		g->max_clients = (uint32_t)(slots < cap ? slots : cap);
	}
	braid_vroute_init(&g->routes);
	g->buf = malloc(BUF_SIZE);
	g->buf2 = malloc(BUF_SIZE);
	g->by_pid = calloc(g->max_clients, sizeof(*g->by_pid));
	for (g->n_buckets = 64; g->n_buckets < 2 * (size_t)g->max_clients; g->n_buckets *= 2)
		;
	g->by_addr = calloc(g->n_buckets, sizeof(*g->by_addr));
	randombytes_buf(g->hkey, sizeof(g->hkey));
	r = -ENOMEM;
	if (!g->buf || !g->buf2 || !g->by_pid || !g->by_addr)
		goto fail;
	if (o->script_security < 2 &&
	    (o->auth_user_pass_verify || o->client_connect || o->client_disconnect)) {
		braid_err("option '%s' needs 'script-security 2' (calling external programs is off)",
			  o->auth_user_pass_verify ? "auth-user-pass-verify" :
			  o->client_connect ? "client-connect" : "client-disconnect");
		r = -EPERM;
		goto fail;
	}
	r = load_wrap(g);
	if (r)
		goto fail;
	r = make_tls(g);
	if (r)
		goto fail;
	r = setup_addresses(g);
	if (r)
		goto fail;
	r = setup_socket(g, nw);
	if (r)
		goto fail;
	build_occ(g);
	g->ccfg.server = true;
	g->ccfg.ssl_ctx = g->ssl;
	g->ccfg.auth_digest = o->auth_digest[0] ? o->auth_digest : NULL;
	g->ccfg.tcp = g->tcp;
	g->ccfg.hand_window_s = o->hand_window > 0 ? (unsigned)o->hand_window : 0;
	g->ccfg.tls_timeout_s = o->tls_timeout > 0 ? (unsigned)o->tls_timeout : 0;
	g->ccfg.reneg_sec = o->reneg_sec > 0 ? (unsigned)o->reneg_sec : UINT32_MAX;
	g->ccfg.tran_window_s = o->tran_window > 0 ? (unsigned)o->tran_window : 0;
	g->ccfg.reneg_bytes = o->reneg_bytes;
	g->ccfg.reneg_pkts = o->reneg_pkts;
	g->ccfg.options_string = g->occ;
	if (!g->tcp) {
		r = braid_ctls_cookie_new(&g->cookie, &g->ccfg, NULL, err, sizeof(err));
		if (r) {
			braid_err("control channel set-up failed: %s", err);
			goto fail;
		}
	}
	r = setup_tun(g);
	if (!r)
		r = braid_gw_updown_script(g, true);
	if (r)
		goto fail;
	r = braid_gw_io_init(g);
	if (r)
		goto fail;
	braid_mssfix_init(&g->mss, o->mssfix, g->family == AF_INET6 ? 40 : 20,
			  BRAID_DC_V2_OVERHEAD + 1, o->tun_mtu);

	g->loop = ev_loop_new(EVFLAG_AUTO);
	if (!g->loop) {
		r = -ENOMEM;
		goto fail;
	}
	ev_io_init(&g->tun_r, braid_gw_tun_cb, g->tun.fd, EV_READ);
	ev_io_init(&g->sock_r, g->tcp ? braid_gw_accept_cb : braid_gw_sock_cb, g->fd, EV_READ);
	g->tun_r.data = g->sock_r.data = g;
	ev_io_start(g->loop, &g->tun_r);
	ev_io_start(g->loop, &g->sock_r);
	if (g->mptcp) {
		const union braid_sockaddr *b = &g->bind_addr;
		bool wild = b->sa.sa_family == AF_INET ? b->in.sin_addr.s_addr == htonl(INADDR_ANY)
						       : IN6_IS_ADDR_UNSPECIFIED(&b->in6.sin6_addr);
		uint16_t port = ntohs(b->sa.sa_family == AF_INET ? b->in.sin_port : b->in6.sin6_port);

		r = braid_mptcp_endps_start(&g->mptcp_endps, g->loop, o, true, wild ? 0 : port);
		if (r)
			goto fail;
	}
	r = braid_gw_cluster_start(g);
	if (r)
		goto fail;
	ev_timer_init(&g->tick, braid_gw_tick_cb, 1.0, 1.0);
	g->tick.data = g;
	ev_timer_start(g->loop, &g->tick);
	ev_timer_init(&g->exit_t, exit_cb, 1.0, 0);
	ev_init(&g->auth_t, braid_gw_auth_cb);
	g->auth_t.repeat = 0.05;
	g->auth_t.data = g;
	for (int i = 0; i < SIG_N; i++) {
		ev_signal_init(&g->sig[i], sig_cb, sigs[i]);
		g->sig[i].data = g;
		ev_signal_start(g->loop, &g->sig[i]);
	}
	signal(SIGPIPE, SIG_IGN);
	g->next_status_ms = braid_gw_now_ms();
	g->cf_start_ms = braid_gw_now_ms();
	g->next_persist_ms = braid_gw_now_ms() + 1000;
	if (g->wk) {
		r = braid_gw_workers_start(g);
		if (r) {
			braid_err("workers: cannot start %u workers: %s", g->wk->n, strerror(-r));
			goto fail;
		}
	}
	braid_info("gateway ready: %s, max %u clients, data ciphers %s%s%s", g->tun.name,
		   g->client_limit, g->ciphers, o->client_to_client ? ", client-to-client" : "",
		   o->duplicate_cn ? ", duplicate-cn" : "");
	*out = g;
	return 0;
fail:
	braid_gateway_free(g);
	return r;
}

/* SIGUSR1 (or SIGHUP after the privilege drop): every client from before the signal goes. */
static void soft_restart(struct braid_gateway *g)
{
	unsigned n = 0;

	braid_gw_lock_all(g);
	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (c && c->created_ms <= g->restart_ms) {
			braid_gw_client_kill(c, "gateway restarting");
			n++;
		}
	}
	braid_gw_unlock_all(g);
	braid_gw_reap(g);
	braid_gw_sock_all(g, true);
	braid_info("gateway restarted: %u client(s) dropped; TUN, socket and address pool kept", n);
	braid_sd_status("gateway restarted: %u client(s) dropped", n);
}

int braid_gateway_run(struct braid_gateway *g)
{
	if (!g->mg_held)	/* management-hold (gw_mgmt_hold): >UPDOWN:UP at the release */
		braid_gw_updown_notify(g, true);
	braid_info("Initialization Sequence Completed");
	braid_sd_ready(g->loop, "Initialization Sequence Completed (gateway on %s)", g->tun.name);
	for (;;) {
		ev_run(g->loop, 0);
		if (!g->restart_sig || g->exit_req)
			break;
		if (g->restart_sig == SIGHUP && braid_run_can_reload(g->o)) {
			braid_gw_log_stats(g);
			if (g->wk) {		/* the socket group, the same way (gw_workers.c) */
				braid_gw_workers_keep(g);
			} else if (!g->tcp) {	/* braid_gateway_free leaves it open for the next gateway */
				kept_fd = g->fd;
				kept_addr = g->bind_addr;
				g->fd = -1;
			}
			braid_gw_updown_notify(g, false);	/* the device is closed and opened again */
			return BRAID_RUN_RELOAD;	/* main.c: free, read the config again, start */
		}
		if (g->restart_sig == SIGHUP)
			braid_info("SIGHUP: privileges were dropped, the configuration cannot be "
				   "applied again; restarting as SIGUSR1");
		soft_restart(g);
		g->restart_sig = 0;
	}
	braid_gw_log_stats(g);
	braid_gw_updown_notify(g, false);
	return g->cluster_lost ? 1 : 0;	/* 1: a service manager restarts it with a new lease */
}

void braid_gateway_stats(const struct braid_gateway *g, struct braid_gateway_stats *st)
{
	uint64_t rj[BRAID_REJ__COUNT];

	braid_gw_workers_sum(g, st, rj);
}

void braid_gateway_free(struct braid_gateway *g)
{
	if (!g)
		return;
	braid_gw_workers_stop(g);	/* the other workers' threads joined, their clients dropped (their
					 * cluster handles freed first: no release each) */
	braid_gw_cluster_stop(g);	/* then: the revoked lease frees every claim at once */
	if (g->by_pid) {
		for (uint32_t i = 0; i < g->max_clients; i++)
			if (g->by_pid[i])
				braid_gw_client_kill(g->by_pid[i], "gateway shutting down");
		braid_gw_reap(g);
	}
	if (g->n_bg)
		braid_gw_bg_poll(g, true);	/* client-disconnect of the clients dropped above */
	free(g->bg);
	if (g->pool && g->o->ifconfig_pool_persist)
		braid_pool_persist_save(g->pool, g->o->ifconfig_pool_persist);
	braid_mptcp_endps_stop(g->mptcp_endps);	/* only the endpoints it created */
	if (g->loop) {
		for (int i = 0; i < SIG_N; i++)
			ev_signal_stop(g->loop, &g->sig[i]);
		ev_loop_destroy(g->loop);
	}
	if (g->tun_open) {
		braid_tun_close(&g->tun, g->o);
		braid_gw_updown_script(g, false);	/* after the device is gone, as stock */
	}
	if (g->fd >= 0)
		close(g->fd);
	braid_ctls_cookie_free(g->cookie);
	braid_tls_ctx_free(g->ssl);
	braid_pool_free(g->pool);
	braid_vroute_free(&g->routes);
	braid_key2_wipe(&g->wrap_key);
	free(g->by_pid);
	free(g->by_addr);
	free(g->buf);
	free(g->buf2);
	braid_gw_io_free(g);
	free(g);
}
