// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_km2.c - key-method-2 messages (daemon/ctl/km2.c braid_km2_parse,
 * braid_km2_build) and the peer-info they carry (braid_peer_info_get,
 * braid_peer_info_iv_proto, braid_peer_info_braid_mp).
 *
 * Feeds: flags(1) then one key-method-2 message as read from the TLS
 * channel; flags bit 0: it comes from a client (has a pre-master secret).
 * Asserts: every parsed string is NUL-terminated inside its field; the
 * options fit BRAID_KM2_OPTIONS_MAX; a parsed message builds and parses back
 * to the same fields (round trip); a failure names its reason; peer-info
 * look-ups stay inside their output buffer.
 */
#include <errno.h>
#include <string.h>

#include "fuzz_common.h"
#include "km2.h"

static struct braid_km2 m, m2;	/* 3.7 KB each */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	bool from_client = fz_u8(&f) & 1;
	uint8_t buf[BRAID_KM2_MSG_MAX * 3];
	const char *why = NULL;
	char val[64];
	uint32_t proto;
	size_t len = 0;
	int r;

	r = braid_km2_parse(f.p, f.n, from_client, &m, &why);
	if (r) {
		FZ_ASSERT(r == -EBADMSG && why);
		return 0;
	}
	FZ_ASSERT(strnlen(m.options, sizeof(m.options)) < sizeof(m.options));
	FZ_ASSERT(strnlen(m.username, sizeof(m.username)) < sizeof(m.username));
	FZ_ASSERT(strnlen(m.password, sizeof(m.password)) < sizeof(m.password));
	FZ_ASSERT(strnlen(m.peer_info, sizeof(m.peer_info)) < sizeof(m.peer_info));
	FZ_ASSERT(m.from_client == from_client);

	/* round trip */
	r = braid_km2_build(&m, buf, sizeof(buf), &len);
	FZ_ASSERT(r == 0 && len <= sizeof(buf));
	FZ_ASSERT(!braid_km2_parse(buf, len, from_client, &m2, &why));
	FZ_ASSERT(m2.from_client == m.from_client);
	FZ_ASSERT(!memcmp(m.pre_master, m2.pre_master, sizeof(m.pre_master)));
	FZ_ASSERT(!memcmp(m.random1, m2.random1, sizeof(m.random1)));
	FZ_ASSERT(!memcmp(m.random2, m2.random2, sizeof(m.random2)));
	/* a field may hold bytes after an inner NUL; only the C string counts */
	FZ_ASSERT(!strcmp(m.options, m2.options) && !strcmp(m.username, m2.username));
	FZ_ASSERT(!strcmp(m.password, m2.password) && !strcmp(m.peer_info, m2.peer_info));

	if (braid_peer_info_get(m.peer_info, "IV_VER", val, sizeof(val)) == 0)
		FZ_ASSERT(strnlen(val, sizeof(val)) < sizeof(val));
	if (braid_peer_info_get(m.peer_info, "IV_PLAT", val, 4) == 0)
		FZ_ASSERT(strnlen(val, 4) < 4);
	(void)braid_peer_info_iv_proto(m.peer_info, &proto);
	(void)braid_peer_info_braid_mp(m.peer_info);
	braid_km2_wipe(&m);
	braid_km2_wipe(&m2);
	return 0;
}
