// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dco_live.c - braidd's probes of the kernel's paths and the failure
 * rule (daemon/dataplane/dco_live.c): when a probe is due (busy, idle,
 * repeated while unanswered), the echo that answers one (rtt, and the
 * ones that are not ours: another path's id, a sequence never sent, a
 * duplicate), a path failed after two probes unanswered for max(3 srtt,
 * 300 ms) but never the last one alive, and back after two echoes in a row.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "dataplane/dco_live.h"
#include "mp/mp_msg.h"

static uint8_t buf[BRAID_MP_MSG_MAX];

/* path i's probe at now: its sequence number, 0 when none was due */
static uint32_t probe(struct braid_dco_live *l, int i, uint64_t now, bool busy)
{
	struct braid_mp_msg m;
	int n = braid_dco_live_probe(l, i, now, busy, buf, sizeof(buf));

	if (n <= 0)
		return 0;
	if (braid_mp_msg_parse(buf, (size_t)n, &m) || m.type != BRAID_MP_MSG_PROBE || m.path_id != (uint32_t)i ||
	    m.u.probe.tx_us != now)
		return UINT32_MAX;
	return m.u.probe.seq;
}

/* the peer's echo of probe seq sent at tx, claiming path id pid, arriving on path i at now */
static int echo(struct braid_dco_live *l, int i, uint32_t pid, uint32_t seq, uint64_t tx, uint64_t now)
{
	struct braid_mp_msg m;
	int n;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PROBE_ECHO;
	m.path_id = pid;
	m.u.echo.seq = seq;
	m.u.echo.tx_us = tx;
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	return braid_dco_live_echo(l, i, buf, (size_t)n, now);
}

int main(void)
{
	struct braid_dco_live l;
	struct braid_mp_msg m;
	uint64_t t = 1000000;
	uint32_t s;
	int n;

	CHECK_EQ(braid_dco_live_init(&l, 9), -EINVAL);
	CHECK_EQ(braid_dco_live_init(&l, 2), 0);
	CHECK_EQ(braid_dco_live_probe(&l, 2, t, true, buf, sizeof(buf)), -EINVAL);

	/* due at once, then once per interval: busy 50 ms, idle 1 s */
	CHECK_EQ(probe(&l, 0, t, false), 1);
	CHECK_EQ(echo(&l, 0, 0, 1, t, t + 2000), 1);
	CHECK_EQ(l.p[0].srtt_us, 2000);
	CHECK_EQ(l.p[0].unanswered, 0);
	CHECK_EQ(probe(&l, 0, t + 500000, false), 0);
	CHECK_EQ(probe(&l, 0, t + 1000000, false), 2);
	/* the tunnel turns busy: the idle wait is cut short to one busy interval */
	CHECK_EQ(echo(&l, 0, 0, 2, t + 1000000, t + 1002000), 1);
	CHECK_EQ(probe(&l, 0, t + 1010000, true), 0);
	CHECK_EQ(probe(&l, 0, t + 1060000, true), 3);
	CHECK_EQ(echo(&l, 0, 0, 3, t + 1060000, t + 1062000), 1);

	/* not ours: another path's id, a sequence never sent, a duplicate; no state changes */
	CHECK_EQ(echo(&l, 0, 1, 3, t, t + 1063000), 1);
	CHECK_EQ(echo(&l, 0, 0, 9, t, t + 1063000), 1);
	CHECK_EQ(echo(&l, 0, 0, 3, t + 1060000, t + 1063000), 1);
	CHECK_EQ(echo(&l, 0, 0, 0, t, t + 1063000), 1);
	CHECK_EQ(l.p[0].echoes_bad, 4);
	CHECK_EQ(l.p[0].echoes_rx, 3);
	CHECK_EQ(l.p[0].answered, 3);
	/* not an echo: the caller's (a PROBE of the peer is answered by dco_mpctl.c) */
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PROBE;
	n = braid_mp_msg_encode(&m, buf, sizeof(buf));
	CHECK_EQ(braid_dco_live_echo(&l, 0, buf, (size_t)n, t), -ENOMSG);
	CHECK_EQ(braid_dco_live_echo(&l, 0, (const uint8_t *)"ping", 4, t), -ENOMSG);
	CHECK_EQ(braid_dco_live_echo(&l, 0, buf, BRAID_MP_HDR_LEN + 3, t), -EBADMSG);

	/* path 1 answers; path 0 goes silent (a cut beyond the first hop) */
	t += 2000000;
	CHECK_EQ(probe(&l, 1, t, true), 1);
	CHECK_EQ(echo(&l, 1, 1, 1, t, t + 3000), 1);
	s = probe(&l, 0, t, true);
	CHECK_EQ(s, 4);
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 299000), BRAID_DCO_LIVE_NONE);	/* one unanswered */
	CHECK_EQ(probe(&l, 0, t + 50000, true), 5);
	CHECK_EQ(probe(&l, 0, t + 60000, true), 0);
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 299999), BRAID_DCO_LIVE_NONE);	/* before 300 ms */
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 300000), BRAID_DCO_LIVE_DEAD);
	CHECK(l.p[0].dead);
	CHECK_EQ(l.p[0].fails, 1);
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 350000), BRAID_DCO_LIVE_NONE);	/* once */
	/* the last path alive is never failed, however long it is silent */
	CHECK_EQ(probe(&l, 1, t + 400000, true), 2);
	CHECK_EQ(probe(&l, 1, t + 450000, true), 3);
	CHECK_EQ(braid_dco_live_check(&l, 1, t + 2000000), BRAID_DCO_LIVE_NONE);
	CHECK(!l.p[1].dead);
	CHECK_EQ(echo(&l, 1, 1, 3, t + 450000, t + 2000000), 1);	/* the older one, 2, stays lost */
	CHECK_EQ(l.p[1].unanswered, 0);

	/* the dead path comes back: one echo is not enough, an echo after a gap restarts the count,
	 * two in a row are */
	CHECK_EQ(probe(&l, 0, t + 2000000, true), 6);
	CHECK_EQ(probe(&l, 0, t + 2050000, true), 7);
	CHECK_EQ(probe(&l, 0, t + 2100000, true), 8);
	CHECK_EQ(echo(&l, 0, 0, 6, t + 2000000, t + 2101000), 1);
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 2101000), BRAID_DCO_LIVE_NONE);
	CHECK_EQ(echo(&l, 0, 0, 8, t + 2100000, t + 2102000), 1);	/* 7 lost: not in a row */
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 2102000), BRAID_DCO_LIVE_NONE);
	CHECK_EQ(probe(&l, 0, t + 2150000, true), 9);
	CHECK_EQ(echo(&l, 0, 0, 9, t + 2150000, t + 2152000), 1);
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 2152000), BRAID_DCO_LIVE_BACK_UP);
	CHECK(!l.p[0].dead);
	CHECK_EQ(l.p[0].recoveries, 1);

	/* a slow path: the timeout is 3 srtt once that exceeds the 300 ms floor */
	CHECK_EQ(braid_dco_live_init(&l, 2), 0);
	t = 5000000;
	CHECK_EQ(probe(&l, 0, t, true), 1);
	CHECK_EQ(echo(&l, 0, 0, 1, t, t + 200000), 1);
	CHECK_EQ(braid_dco_live_timeout(&l.p[0]), 600000);
	CHECK_EQ(probe(&l, 0, t + 250000, true), 2);
	CHECK_EQ(probe(&l, 0, t + 300000, true), 3);
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 250000 + 599999), BRAID_DCO_LIVE_NONE);
	CHECK_EQ(braid_dco_live_check(&l, 0, t + 250000 + 600000), BRAID_DCO_LIVE_DEAD);
	CHECK_DONE();
}
