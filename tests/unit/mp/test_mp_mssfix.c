// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_mssfix.c - the MSS clamp follows the engine's tunnel MTU
 * (braid_mssfix_limit, docs/multipath.md §11.4): values, the floor, a clamp
 * that is off, and a real SYN clamped with a TCP checksum that still holds.
 */
#include <stdint.h>
#include <string.h>

#include "dataplane/mssfix.h"
#include "util/wire.h"
#include "check.h"

static uint32_t sum16(const uint8_t *p, size_t n, uint32_t s)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		s += (uint32_t)(p[n - 1] << 8);
	return s;
}

static uint16_t fold(uint32_t s)
{
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* TCP checksum over the IPv4 pseudo-header: 0 when the packet is right. */
static uint16_t tcp4_check(const uint8_t *ip, size_t len)
{
	uint8_t ph[12];

	memcpy(ph, ip + 12, 8);
	ph[8] = 0;
	ph[9] = 6;
	wire_put_be16(ph + 10, (uint16_t)(len - 20));
	return fold(sum16(ip + 20, len - 20, sum16(ph, 12, 0)));
}

/* IPv4 SYN 10.200.0.2:40000 -> 10.200.0.1:8080, options MSS 1460, NOP NOP SACK-permitted. */
static size_t make_syn(uint8_t *p)
{
	size_t len = 20 + 28;

	memset(p, 0, len);
	p[0] = 0x45;
	wire_put_be16(p + 2, (uint16_t)len);
	p[8] = 64;
	p[9] = 6;
	p[12] = 10, p[13] = 200, p[14] = 0, p[15] = 2;
	p[16] = 10, p[17] = 200, p[18] = 0, p[19] = 1;
	wire_put_be16(p + 20, 40000);
	wire_put_be16(p + 22, 8080);
	wire_put_be32(p + 24, 0x11223344);
	p[32] = 7 << 4;		/* data offset 28 bytes */
	p[33] = 0x02;		/* SYN */
	wire_put_be16(p + 34, 64240);
	p[40] = 2, p[41] = 4;	/* MSS */
	wire_put_be16(p + 42, 1460);
	p[44] = 1, p[45] = 1, p[46] = 4, p[47] = 2;
	wire_put_be16(p + 36, 0);
	wire_put_be16(p + 36, tcp4_check(p, len));	/* over a zero checksum field */
	return len;
}

int main(void)
{
	struct braid_mssfix base, lim, off;
	uint8_t syn[64];
	size_t len;

	/* mssfix 1492 over IPv4 with 24 bytes of data-channel overhead: 1400 / 1380 */
	braid_mssfix_init(&base, 1492, 20, 24, 1500);
	CHECK_EQ(base.mss4, 1400);
	CHECK_EQ(base.mss6, 1380);
	/* the tunnel MTU of the bed's test (1246): 1206 / 1186 */
	braid_mssfix_limit(&lim, &base, 1246);
	CHECK_EQ(lim.mss4, 1206);
	CHECK_EQ(lim.mss6, 1186);
	/* unknown (0) or larger than the configured clamp: the configured one */
	braid_mssfix_limit(&lim, &base, 0);
	CHECK_EQ(lim.mss4, 1400);
	CHECK_EQ(lim.mss6, 1380);
	braid_mssfix_limit(&lim, &base, 1500);
	CHECK_EQ(lim.mss4, 1400);
	CHECK_EQ(lim.mss6, 1380);
	/* never below 536 */
	braid_mssfix_limit(&lim, &base, 300);
	CHECK_EQ(lim.mss4, 536);
	CHECK_EQ(lim.mss6, 536);
	/* mssfix 0 stays off whatever the tunnel MTU */
	braid_mssfix_init(&off, 0, 20, 24, 1500);
	braid_mssfix_limit(&lim, &off, 1246);
	CHECK_EQ(lim.mss4, 0);
	CHECK_EQ(lim.mss6, 0);

	/* a real SYN: clamped to 1206, checksum still right; a second pass changes nothing */
	len = make_syn(syn);
	CHECK_EQ(tcp4_check(syn, len), 0);
	braid_mssfix_limit(&lim, &base, 1246);
	CHECK(braid_mssfix_apply(&lim, syn, len));
	CHECK_EQ(wire_get_be16(syn + 42), 1206);
	CHECK_EQ(tcp4_check(syn, len), 0);
	CHECK(!braid_mssfix_apply(&lim, syn, len));
	/* with the static clamp only it would have been 1400 */
	len = make_syn(syn);
	CHECK(braid_mssfix_apply(&base, syn, len));
	CHECK_EQ(wire_get_be16(syn + 42), 1400);
	CHECK_EQ(tcp4_check(syn, len), 0);
	CHECK_DONE();
}
