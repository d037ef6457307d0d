// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_live.c - braidd's own probes of the kernel's paths and the failure
 * rule applied to their answers (dco_live.h).
 */
#include "dataplane/dco_live.h"

#include <errno.h>
#include <string.h>

#include "mp/mp_msg.h"

int braid_dco_live_init(struct braid_dco_live *l, int n)
{
	if (n < 0 || n > BRAID_DCO_LIVE_PATHS)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->n = n;
	return 0;
}

uint64_t braid_dco_live_timeout(const struct braid_dco_live_path *p)
{
	uint64_t t = 3 * p->srtt_us;

	return t > BRAID_DCO_LIVE_FLOOR_US ? t : BRAID_DCO_LIVE_FLOOR_US;
}

int braid_dco_live_probe(struct braid_dco_live *l, int i, uint64_t now, bool busy, uint8_t *out,
			 size_t cap)
{
	struct braid_dco_live_path *p;
	struct braid_mp_msg m;
	uint64_t iv;

	if (i < 0 || i >= l->n)
		return -EINVAL;
	p = &l->p[i];
	/* a live path with an answer outstanding is probed at the busy rate: its fate is open; a dead one
	 * at the tunnel's rate (an idle session does not need it back within a second) */
	iv = busy || (p->unanswered && !p->dead) ? BRAID_DCO_LIVE_BUSY_US : BRAID_DCO_LIVE_IDLE_US;
	if (p->next_us > now + iv)
		p->next_us = now + iv;	/* the tunnel became busy: do not wait out an idle interval */
	if (now < p->next_us)
		return 0;
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PROBE;
	m.path_id = (uint32_t)i;
	m.u.probe.seq = ++p->seq;
	m.u.probe.tx_us = now;
	if (p->seq == 0)
		m.u.probe.seq = ++p->seq;	/* 0 means "none sent" */
	p->tx_us[p->seq % 16] = now;
	if (!p->unanswered++)
		p->first_unanswered_us = now;
	p->next_us = now + iv;
	return braid_mp_msg_encode(&m, out, cap);
}

int braid_dco_live_echo(struct braid_dco_live *l, int i, const uint8_t *msg, size_t len,
			uint64_t now)
{
	struct braid_mp_msg m;
	int r;

	r = braid_mp_msg_parse(msg, len, &m);
	return r ? r : braid_dco_live_echo_msg(l, i, &m, now);
}

int braid_dco_live_echo_msg(struct braid_dco_live *l, int i, const struct braid_mp_msg *mp, uint64_t now)
{
	struct braid_dco_live_path *p;
	uint64_t rtt, d;

	if (mp->type != BRAID_MP_MSG_PROBE_ECHO)
		return -ENOMSG;
	if (i < 0 || i >= l->n)
		return 1;
	p = &l->p[i];
	/* ours: this path's id, a sequence sent and not older than the last answer, a time not ahead */
	if (mp->path_id != (uint32_t)i || !mp->u.echo.seq || (int32_t)(mp->u.echo.seq - p->seq) > 0 ||
	    (int32_t)(mp->u.echo.seq - p->answered) <= 0 || mp->u.echo.tx_us > now) {
		p->echoes_bad++;
		return 1;
	}
	p->echoes_rx++;
	rtt = now - mp->u.echo.tx_us;
	if (mp->u.echo.hold_us < rtt)
		rtt -= mp->u.echo.hold_us;
	if (!p->srtt_us) {
		p->srtt_us = rtt ? rtt : 1;
		p->rttvar_us = rtt / 2;
	} else {
		d = rtt > p->srtt_us ? rtt - p->srtt_us : p->srtt_us - rtt;
		p->rttvar_us = (3 * p->rttvar_us + d) / 4;
		p->srtt_us = (7 * p->srtt_us + rtt) / 8;
	}
	/* the probes sent after this one are still out: the rule counts from the oldest one's departure */
	if (p->dead)
		p->streak = mp->u.echo.seq == p->answered + 1 ? p->streak + 1 : 1;
	p->answered = mp->u.echo.seq;
	p->unanswered = p->seq - mp->u.echo.seq;
	p->first_unanswered_us = !p->unanswered ? 0 :
				 p->unanswered < 16 ? p->tx_us[(mp->u.echo.seq + 1) % 16] :
				 p->tx_us[(p->seq + 1) % 16];
	return 1;
}

enum braid_dco_live_event braid_dco_live_check(struct braid_dco_live *l, int i, uint64_t now)
{
	struct braid_dco_live_path *p;
	int alive = 0;

	if (i < 0 || i >= l->n)
		return BRAID_DCO_LIVE_NONE;
	p = &l->p[i];
	if (p->dead) {
		if (p->streak < BRAID_DCO_LIVE_BACK)
			return BRAID_DCO_LIVE_NONE;
		p->dead = false;
		p->streak = 0;
		p->recoveries++;
		return BRAID_DCO_LIVE_BACK_UP;
	}
	if (p->unanswered < BRAID_DCO_LIVE_UNANSWERED || !p->first_unanswered_us ||
	    now < p->first_unanswered_us + braid_dco_live_timeout(p))
		return BRAID_DCO_LIVE_NONE;
	for (int j = 0; j < l->n; j++)
		alive += j != i && !l->p[j].dead;
	if (!alive)
		return BRAID_DCO_LIVE_NONE;
	p->dead = true;
	p->streak = 0;
	p->dead_at_us = now;
	p->fails++;
	return BRAID_DCO_LIVE_DEAD;
}
