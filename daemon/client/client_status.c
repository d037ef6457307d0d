// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_status.c - the TLS client's statistics (client_status.h): the
 * `status FILE [N]` file in OpenVPN's client format and the stats log line
 * (SIGUSR2 and at exit).
 */
#include "client/client_status.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "client/client_mp.h"
#include "util/log.h"
#include "control/statfile.h"
#include "control/statline.h"

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

/* `status FILE [N]`: OpenVPN's client status format, rewritten every N seconds (and at exit). */
void client_write_status(const struct braid_client *c)
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

void client_status_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	client_write_status(w->data);
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
