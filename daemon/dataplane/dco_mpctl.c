// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_mpctl.c - answers to the peer's multipath control messages for the
 * kernel backend (dco_mpctl.h): PATH_CHALLENGE -> PATH_RESPONSE with the
 * token, PROBE -> PROBE_ECHO, MTU_PROBE -> MTU_ACK (docs/multipath.md).
 */
#include "dataplane/dco_mpctl.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "mp/mp_msg.h"

static unsigned int gen_kid(uint64_t g)
{
	return g ? (unsigned int)((g - 1) % 7 + 1) : 0;
}

uint32_t braid_dco_mpctl_gen(int64_t cur, unsigned int key_id)
{
	uint64_t g;

	if (cur < 0)
		return key_id;	/* generation key_id has key id key_id (0..7) */
	for (g = (uint64_t)cur + 1; g <= (uint64_t)cur + 7; g++)
		if (gen_kid(g) == key_id)
			return (uint32_t)g;
	return (uint32_t)cur;
}

int braid_dco_mpctl_report(struct braid_dco_mpctl_path *pp, int n, const struct braid_dco_mpctl_rx *rx,
			   uint32_t gen, uint8_t *out, size_t cap)
{
	struct braid_mp_msg m;
	bool news = false;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_REPORT;
	for (int i = 0; i < n && m.u.report.n < BRAID_MP_REPORT_MAX; i++) {
		struct braid_mp_report_entry *e = &m.u.report.e[m.u.report.n];
		uint64_t db = rx[i].span_bytes - pp[i].span_bytes, dt = rx[i].span_ns - pp[i].span_ns;

		if (!pp[i].known)
			continue;
		news |= rx[i].pkts != pp[i].rx_pkts;
		e->path_id = pp[i].peer_path_id;
		e->rx_pkts = (uint32_t)rx[i].pkts;
		e->rx_bytes = rx[i].bytes;
		e->last_pid = (uint64_t)gen << 32 | rx[i].last_pktid;
		/* a span of at least 1 us (the sender divides by it), both within the field's range */
		if (db && dt >= 1000 && db <= UINT32_MAX && dt / 1000 <= UINT32_MAX) {
			e->span_us = (uint32_t)(dt / 1000);
			e->span_bytes = (uint32_t)db;
		}
		e->probe_seq_hi = pp[i].probe_seq_hi;
		pp[i].rx_pkts = rx[i].pkts;
		if (e->span_us) {	/* a sub-microsecond remainder waits for the next report */
			pp[i].span_bytes = rx[i].span_bytes;
			pp[i].span_ns = rx[i].span_ns;
		}
		m.u.report.n++;
	}
	if (!news)
		return 0;
	return braid_mp_msg_encode(&m, out, cap);
}

int braid_dco_mpctl_answer(const uint8_t *msg, size_t len, uint64_t now_us, uint8_t *out, size_t cap,
			   struct braid_dco_mpctl_stats *st, struct braid_dco_mpctl_path *pp)
{
	struct braid_mp_msg m;
	int r;

	r = braid_mp_msg_parse(msg, len, &m);
	if (r == -ENOMSG)
		return r;
	if (r) {
		st->malformed++;
		return -EBADMSG;
	}
	return braid_dco_mpctl_answer_msg(&m, now_us, out, cap, st, pp);
}

int braid_dco_mpctl_answer_msg(const struct braid_mp_msg *m, uint64_t now_us, uint8_t *out, size_t cap,
			       struct braid_dco_mpctl_stats *st, struct braid_dco_mpctl_path *pp)
{
	struct braid_mp_msg a;

	memset(&a, 0, sizeof(a));
	a.path_id = m->path_id;
	if (pp && (m->type == BRAID_MP_MSG_PATH_CHALLENGE || m->type == BRAID_MP_MSG_PROBE)) {
		pp->known = true;
		pp->peer_path_id = m->path_id;
		if (m->type == BRAID_MP_MSG_PROBE && (int32_t)(m->u.probe.seq - pp->probe_seq_hi) > 0)
			pp->probe_seq_hi = m->u.probe.seq;
	}
	switch (m->type) {
	case BRAID_MP_MSG_PATH_CHALLENGE:
		a.type = BRAID_MP_MSG_PATH_RESPONSE;
		memcpy(a.u.token, m->u.token, sizeof(a.u.token));
		st->challenges++;
		break;
	case BRAID_MP_MSG_PROBE:
		a.type = BRAID_MP_MSG_PROBE_ECHO;
		a.u.echo.seq = m->u.probe.seq;
		a.u.echo.tx_us = m->u.probe.tx_us;
		a.u.echo.hold_us = 0;
		a.u.echo.owd_us = (int64_t)(now_us - m->u.probe.tx_us);
		st->probes++;
		break;
	case BRAID_MP_MSG_MTU_PROBE:
		a.type = BRAID_MP_MSG_MTU_ACK;
		a.u.mtu.seq = m->u.mtu.seq;
		a.u.mtu.size = m->u.mtu.size;
		st->mtu_probes++;
		break;
	default:
		st->other++;
		return 0;
	}
	return braid_mp_msg_encode(&a, out, cap);
}
