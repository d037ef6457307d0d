// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_mpctl.c - answers to the peer's multipath control messages for the
 * kernel backend (dco_mpctl.h): PATH_CHALLENGE -> PATH_RESPONSE with the
 * token, PROBE -> PROBE_ECHO, MTU_PROBE -> MTU_ACK (docs/multipath.md).
 */
#include "dataplane/dco_mpctl.h"

#include <errno.h>
#include <string.h>

#include "mp/mp_msg.h"

int braid_dco_mpctl_answer(const uint8_t *msg, size_t len, uint64_t now_us, uint8_t *out, size_t cap,
			   struct braid_dco_mpctl_stats *st)
{
	struct braid_mp_msg m, a;
	int r;

	r = braid_mp_msg_parse(msg, len, &m);
	if (r == -ENOMSG)
		return r;
	if (r) {
		st->malformed++;
		return -EBADMSG;
	}
	memset(&a, 0, sizeof(a));
	a.path_id = m.path_id;
	switch (m.type) {
	case BRAID_MP_MSG_PATH_CHALLENGE:
		a.type = BRAID_MP_MSG_PATH_RESPONSE;
		memcpy(a.u.token, m.u.token, sizeof(a.u.token));
		st->challenges++;
		break;
	case BRAID_MP_MSG_PROBE:
		a.type = BRAID_MP_MSG_PROBE_ECHO;
		a.u.echo.seq = m.u.probe.seq;
		a.u.echo.tx_us = m.u.probe.tx_us;
		a.u.echo.hold_us = 0;
		a.u.echo.owd_us = (int64_t)(now_us - m.u.probe.tx_us);
		st->probes++;
		break;
	case BRAID_MP_MSG_MTU_PROBE:
		a.type = BRAID_MP_MSG_MTU_ACK;
		a.u.mtu.seq = m.u.mtu.seq;
		a.u.mtu.size = m.u.mtu.size;
		st->mtu_probes++;
		break;
	default:
		st->other++;
		return 0;
	}
	return braid_mp_msg_encode(&a, out, cap);
}
