// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_status.c - the TLS client's statistics (client_status.h): the
 * `status FILE [N]` file in OpenVPN's client format, the `status-json FILE
 * [N]` file (control/status.h's JSON with role "client") and the stats log
 * line (SIGUSR2 and at exit).
 */
#include "client/client_status.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "client/client_mp.h"
#include "util/log.h"
#include "control/statfile.h"
#include "control/statline.h"
#include "control/status.h"
#include "os/sock.h"

void client_status_print(const struct braid_client *c, FILE *f)
{
	struct client_stats all;
	const struct client_stats *s = &all;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	client_mp_counters(c, &all);	/* with the multipath data path's */
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "OpenVPN STATISTICS\nUpdated,%s\nTUN/TAP read bytes,%llu\nTUN/TAP write bytes,%llu\n"
		   "TCP/UDP read bytes,%llu\nTCP/UDP write bytes,%llu\nAuth read bytes,%llu\n",
		when, (unsigned long long)s->tun_read_bytes, (unsigned long long)s->tun_write_bytes,
		(unsigned long long)s->link_rx_bytes, (unsigned long long)s->link_tx_bytes,
		(unsigned long long)s->auth_read_bytes);
}

/* The JSON object of `status-json` (docs/braidd.md "JSON status file"). */
static void client_status_json(const struct braid_client *c, FILE *f)
{
	static const char *const stname[] = { [CS_IDLE] = "waiting",
					      [CS_TCP_CONNECTING] = "connecting",
					      [CS_TLS] = "tls", [CS_PUSH] = "push", [CS_UP] = "up" };
	const struct braid_dp *dp = client_mp_dp(c);
	struct client_stats s;
	struct braid_tunnel_stats t = { 0 };
	char b[INET6_ADDRSTRLEN + 8];

	client_mp_counters(c, &s);	/* with the multipath data path's */
	t = (struct braid_tunnel_stats){
		.tun_read_pkts = s.tun_read_pkts, .tun_read_bytes = s.tun_read_bytes,
		.tun_write_pkts = s.tun_write_pkts, .tun_write_bytes = s.tun_write_bytes,
		.link_tx_pkts = s.link_tx_pkts, .link_tx_bytes = s.link_tx_bytes,
		.link_rx_pkts = s.link_rx_pkts, .link_rx_bytes = s.link_rx_bytes,
		.rx_auth_failures = s.rx_auth_failures, .rx_replays = s.rx_replays,
		.rx_malformed = s.rx_malformed, .tx_no_peer = s.tx_dropped,
		.pings_tx = s.pings_tx, .pings_rx = s.pings_rx, .restarts = s.restarts,
	};
	braid_status_json_head(f, "client", dp, c->st == CS_UP);
	fputs("\"state\":", f);
	braid_status_json_str(f, (unsigned)c->st < sizeof(stname) / sizeof(stname[0]) ?
			      stname[c->st] : "?");
	fputs(",\"remote\":", f);
	if (c->st != CS_IDLE)
		braid_status_json_str(f, braid_sockaddr_str(&c->remote, b, sizeof(b)));
	else
		fputs("null", f);
	fputs(",\"dev\":", f);
	braid_status_json_str(f, c->tun_open ? c->tun.name : "");
	fputs(",\"ifconfig_local\":", f);
	if (c->have_push && c->pushed.has_ifconfig)
		braid_status_json_str(f, inet_ntop(AF_INET, &c->pushed.ifc_local, b, sizeof(b)));
	else
		fputs("null", f);
	fputs(",\"ifconfig_ipv6_local\":", f);
	if (c->have_push && c->pushed.has_ifconfig6)
		braid_status_json_str(f, inet_ntop(AF_INET6, &c->pushed.ifc6_local, b, sizeof(b)));
	else
		fputs("null", f);
	fputs(",\"cipher\":", f);
	braid_status_json_str(f, c->cipher);
	fputc(',', f);
	braid_status_json_tunnel(f, &t);
	fprintf(f, ",\"renegotiations\":%llu,\"keys_removed\":%llu,\"ctl_dropped\":%llu,"
		   "\"auth_read_bytes\":%llu}", (unsigned long long)s.renegotiations,
		(unsigned long long)s.keys_removed, (unsigned long long)s.rx_ctl_dropped,
		(unsigned long long)s.auth_read_bytes);
	/* TCP super-packet frames (docs/braidd.md "TCP super-packet frames") */
	fprintf(f, ",\"tcp_super\":{\"on\":%s,\"tx\":%llu,\"rx\":%llu,\"rejected\":%llu}",
		c->tcp_super ? "true" : "false", (unsigned long long)s.tcp_super_tx,
		(unsigned long long)s.tcp_super_rx, (unsigned long long)s.tcp_super_bad);
	braid_status_json_mp(f, dp);
	fputs("}\n", f);
}

void client_write_status_json(const struct braid_client *c)
{
	struct braid_statfile sf;
	int r;

	if (!c->o->status_json_path)
		return;
	r = braid_statfile_open(&sf, c->o->status_json_path);
	if (r) {
		braid_warn("status-json: cannot write '%s': %s", c->o->status_json_path,
			   strerror(-r));
		return;
	}
	client_status_json(c, sf.f);
	r = braid_statfile_commit(&sf, 0);
	if (r)
		braid_warn("status-json: cannot write '%s': %s", c->o->status_json_path,
			   strerror(-r));
}

void client_status_json_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	client_write_status_json(w->data);
}

/* `status FILE [N]`: OpenVPN's client status format. */
static void write_ovpn_status(const struct braid_client *c)
{
	struct braid_statfile sf;
	FILE *f;
	int r;

	if (!c->o->status_path)
		return;
	r = braid_statfile_open(&sf, c->o->status_path);
	if (r) {
		braid_warn("status: cannot write '%s': %s", sf.tmp, strerror(-r));
		return;
	}
	f = sf.f;
	client_status_print(c, f);
	fputs("END\n", f);
	client_mp_status(c, f);
	r = braid_statfile_commit(&sf, 0);
	if (r)
		braid_warn("status: cannot write '%s': %s", c->o->status_path, strerror(-r));
}

void client_write_status(const struct braid_client *c)
{
	write_ovpn_status(c);
	client_write_status_json(c);
}

void client_status_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	write_ovpn_status(w->data);
}

void client_log_stats(const struct braid_client *c, const char *what)
{
	struct client_stats all;
	const struct client_stats *s = (client_mp_counters(c, &all), &all);
	const uint64_t *rj = c->rej.count;
	const uint64_t v[] = { BRAID_STATLINE_TRAFFIC(s), s->rx_ctl_dropped, s->pings_tx,
			       s->pings_rx, s->restarts, s->renegotiations, s->keys_removed,
			       rj[BRAID_REJ_HMAC], rj[BRAID_REJ_TLS_CRYPT], rj[BRAID_REJ_OPCODE],
			       rj[BRAID_REJ_TCP_LENGTH] };

	braid_statline_log(what,
			   "ctl_dropped pings_tx pings_rx restarts renegotiations keys_removed "
			   "hmac_failed tls_crypt_failed bad_opcode tcp_bad_length", v,
			   sizeof(v) / sizeof(v[0]));
}
