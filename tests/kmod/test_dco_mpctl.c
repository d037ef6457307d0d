// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dco_mpctl.c - braid_dco_mpctl_answer (daemon/dataplane/dco_mpctl.c),
 * the kernel backend's answers to the peer's multipath control messages: a
 * PATH_CHALLENGE gets the PATH_RESPONSE with its token and path id, a PROBE
 * its PROBE_ECHO (seq, echoed timestamp, one-way delay), an MTU_PROBE its
 * MTU_ACK; a REPORT needs no answer; a ping is not ours; a truncated
 * message is refused and counted.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "dataplane/dco_mpctl.h"
#include "mp/mp_msg.h"

static uint8_t in[BRAID_MP_MSG_MAX + BRAID_MP_MTU_PROBE_MAX], out[BRAID_MP_CTL_MAX];

int main(void)
{
	struct braid_dco_mpctl_stats st = { 0 };
	struct braid_mp_msg m, a;
	int n, r;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_CHALLENGE;
	m.path_id = 7;
	memcpy(m.u.token, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
	n = braid_mp_msg_encode(&m, in, sizeof(in));
	CHECK(n > 0);
	r = braid_dco_mpctl_answer(in, (size_t)n, 1000, out, sizeof(out), &st, NULL);
	CHECK_EQ(r, BRAID_MP_CHALLENGE_LEN);
	CHECK_EQ(braid_mp_msg_parse(out, (size_t)r, &a), 0);
	CHECK_EQ(a.type, BRAID_MP_MSG_PATH_RESPONSE);
	CHECK_EQ(a.path_id, 7);
	CHECK(!memcmp(a.u.token, m.u.token, 8));
	CHECK_EQ(st.challenges, 1);

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PROBE;
	m.path_id = 2;
	m.u.probe.seq = 41;
	m.u.probe.tx_us = 5000;
	n = braid_mp_msg_encode(&m, in, sizeof(in));
	r = braid_dco_mpctl_answer(in, (size_t)n, 5750, out, sizeof(out), &st, NULL);
	CHECK_EQ(r, BRAID_MP_ECHO_LEN);
	CHECK_EQ(braid_mp_msg_parse(out, (size_t)r, &a), 0);
	CHECK_EQ(a.type, BRAID_MP_MSG_PROBE_ECHO);
	CHECK_EQ(a.path_id, 2);
	CHECK_EQ(a.u.echo.seq, 41);
	CHECK_EQ(a.u.echo.tx_us, 5000);
	CHECK_EQ(a.u.echo.owd_us, 750);
	CHECK_EQ(st.probes, 1);

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_MTU_PROBE;
	m.path_id = 3;
	m.u.mtu.seq = 9;
	m.u.mtu.size = 1400;
	n = braid_mp_msg_encode(&m, in, sizeof(in));
	CHECK_EQ(n, 1400);
	r = braid_dco_mpctl_answer(in, (size_t)n, 0, out, sizeof(out), &st, NULL);
	CHECK_EQ(r, BRAID_MP_MTU_ACK_LEN);
	CHECK_EQ(braid_mp_msg_parse(out, (size_t)r, &a), 0);
	CHECK_EQ(a.type, BRAID_MP_MSG_MTU_ACK);
	CHECK_EQ(a.u.mtu.seq, 9);
	CHECK_EQ(a.u.mtu.size, 1400);
	CHECK_EQ(st.mtu_probes, 1);

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_REPORT;
	m.u.report.n = 1;
	n = braid_mp_msg_encode(&m, in, sizeof(in));
	CHECK(n > 0);
	CHECK_EQ(braid_dco_mpctl_answer(in, (size_t)n, 0, out, sizeof(out), &st, NULL), 0);
	CHECK_EQ(st.other, 1);

	/* OpenVPN's ping: not a multipath message, the role's */
	memcpy(in, "\x2a\x18\x7b\xf3\x64\x1e\xb4\xcb\x07\xed\x2d\x0a\x98\x1f\xc7\x48", 16);
	CHECK_EQ(braid_dco_mpctl_answer(in, 16, 0, out, sizeof(out), &st, NULL), -ENOMSG);
	/* a truncated challenge: refused, counted */
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_CHALLENGE;
	n = braid_mp_msg_encode(&m, in, sizeof(in));
	CHECK_EQ(braid_dco_mpctl_answer(in, (size_t)n - 1, 0, out, sizeof(out), &st, NULL), -EBADMSG);
	CHECK_EQ(st.malformed, 1);
	CHECK_EQ(st.challenges, 1);

	/* the path table a challenge and probes fill, and the REPORT built from the module's counters */
	{
		struct braid_dco_mpctl_path pp[2] = { { 0 } };
		struct braid_dco_mpctl_rx rx[2] = { { .pkts = 10, .bytes = 15000, .last_pktid = 77,
						      .span_bytes = 13500, .span_ns = 4000000 } };

		memset(&m, 0, sizeof(m));
		m.type = BRAID_MP_MSG_PATH_CHALLENGE;
		m.path_id = 3;
		n = braid_mp_msg_encode(&m, in, sizeof(in));
		CHECK(braid_dco_mpctl_answer(in, (size_t)n, 0, out, sizeof(out), &st, &pp[0]) > 0);
		CHECK(pp[0].known);
		CHECK_EQ(pp[0].peer_path_id, 3);
		memset(&m, 0, sizeof(m));
		m.type = BRAID_MP_MSG_PROBE;
		m.path_id = 3;
		m.u.probe.seq = 12;
		n = braid_mp_msg_encode(&m, in, sizeof(in));
		CHECK(braid_dco_mpctl_answer(in, (size_t)n, 0, out, sizeof(out), &st, &pp[0]) > 0);
		CHECK_EQ(pp[0].probe_seq_hi, 12);
		/* path 1's peer id unknown: left out */
		r = braid_dco_mpctl_report(pp, 2, rx, 0, out, sizeof(out));
		CHECK(r > 0);
		CHECK_EQ(braid_mp_msg_parse(out, (size_t)r, &a), 0);
		CHECK_EQ(a.type, BRAID_MP_MSG_REPORT);
		CHECK_EQ(a.u.report.n, 1);
		CHECK_EQ(a.u.report.e[0].path_id, 3);
		CHECK_EQ(a.u.report.e[0].rx_pkts, 10);
		CHECK_EQ(a.u.report.e[0].rx_bytes, 15000);
		CHECK_EQ(a.u.report.e[0].last_pid, 77);
		/* the module's spans: 13,500 B over 4 ms of arrival gaps (not the poll's interval) */
		CHECK_EQ(a.u.report.e[0].span_us, 4000);
		CHECK_EQ(a.u.report.e[0].span_bytes, 13500);
		CHECK_EQ(a.u.report.e[0].probe_seq_hi, 12);
		/* nothing new: no report */
		CHECK_EQ(braid_dco_mpctl_report(pp, 2, rx, 0, out, sizeof(out)), 0);
		/* one packet after a pause (no span grew): acknowledged, no rate sample */
		rx[0].pkts = 11, rx[0].bytes = 16400, rx[0].last_pktid = 78;
		r = braid_dco_mpctl_report(pp, 2, rx, 0, out, sizeof(out));
		CHECK_EQ(braid_mp_msg_parse(out, (size_t)r, &a), 0);
		CHECK_EQ(a.u.report.e[0].last_pid, 78);
		CHECK_EQ(a.u.report.e[0].span_us, 0);
		/* a span under a microsecond waits for the next report, which carries it with the rest */
		rx[0].pkts = 12, rx[0].span_bytes += 1400, rx[0].span_ns += 600;
		r = braid_dco_mpctl_report(pp, 2, rx, 0, out, sizeof(out));
		CHECK_EQ(braid_mp_msg_parse(out, (size_t)r, &a), 0);
		CHECK_EQ(a.u.report.e[0].span_us, 0);
		rx[0].pkts = 13, rx[0].span_bytes += 1400, rx[0].span_ns += 1000000;
		r = braid_dco_mpctl_report(pp, 2, rx, 0, out, sizeof(out));
		CHECK_EQ(braid_mp_msg_parse(out, (size_t)r, &a), 0);
		CHECK_EQ(a.u.report.e[0].span_us, 1000);
		CHECK_EQ(a.u.report.e[0].span_bytes, 2800);
		/* after renegotiations: the peer engine's id, generation << 32 | packet id */
		rx[0].pkts = 14, rx[0].last_pktid = 5;
		r = braid_dco_mpctl_report(pp, 2, rx, 8, out, sizeof(out));
		CHECK_EQ(braid_mp_msg_parse(out, (size_t)r, &a), 0);
		CHECK_EQ(a.u.report.e[0].last_pid, (8ull << 32) | 5);
	}
	/* key generations: OpenVPN's key ids 0, 1..7, 1..7, ... */
	CHECK_EQ(braid_dco_mpctl_gen(-1, 0), 0);
	CHECK_EQ(braid_dco_mpctl_gen(0, 1), 1);
	CHECK_EQ(braid_dco_mpctl_gen(6, 7), 7);
	CHECK_EQ(braid_dco_mpctl_gen(7, 1), 8);
	CHECK_EQ(braid_dco_mpctl_gen(8, 2), 9);
	CHECK_EQ(braid_dco_mpctl_gen(-1, 3), 3);
	CHECK_DONE();
}
