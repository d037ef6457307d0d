// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_tcpsuper.c - TCP super-packet frames (daemon/os/tun_super.c), the
 * receiver's check of a frame from the peer (braid_tcpsuper_open) and the
 * sender's cut of a vnet TUN read into frames (braid_tcpsuper_tx_*).
 *
 * Feeds: flags(1) then the bytes. flags bit 0 clear: the bytes are a
 * decrypted frame; open() must either refuse it (-EINVAL with a reason) or
 * give a vnet write that the kernel-side segmentation (braid_tun_split, the
 * oracle) takes, cutting it into exactly *nseg segments of at most
 * hl + gso bytes whose payloads add up to the frame's. Bit 0 set: the bytes
 * are a vnet read; when split_begin and tx_begin take it, every frame is
 * within BRAID_TCPSUPER_MAX, opens, and its segments are byte for byte the
 * next segments of the read itself (so frames lose, add or change nothing).
 */
#include <errno.h>
#include <linux/virtio_net.h>
#include <string.h>

#include "fuzz_common.h"
#include "os/tun_super.h"

#define SEG_CAP 65536
static uint8_t frame[BRAID_TCPSUPER_MAX + 64];
static uint8_t seg_a[SEG_CAP], seg_b[SEG_CAP];

static void receiver(const uint8_t *data, size_t size)
{
	struct braid_tun_split sp;
	struct virtio_net_hdr h;
	unsigned int nseg, k = 0;
	const char *why = NULL;
	size_t hl, pl = 0;
	long n;

	if (size > sizeof(frame))
		return;
	memcpy(frame, data, size);
	if (braid_tcpsuper_open(frame, size, &nseg, &hl, &why)) {
		FZ_ASSERT(why && why[0]);
		return;
	}
	FZ_ASSERT(nseg >= 1 && hl >= 40 && hl < size - BRAID_TCPSUPER_HDR);
	memcpy(&h, frame, sizeof(h));
	FZ_ASSERT(!braid_tun_split_begin(&sp, frame, size));
	while ((n = braid_tun_split_next(&sp, seg_a, sizeof(seg_a))) > 0) {
		FZ_ASSERT((size_t)n > hl && (size_t)n <= hl + (h.gso_size ? h.gso_size : SEG_CAP));
		pl += (size_t)n - hl;
		k++;
	}
	FZ_ASSERT(n == 0 && k == nseg);
	FZ_ASSERT(pl == size - BRAID_TCPSUPER_HDR - hl);
}

static void sender(const uint8_t *data, size_t size)
{
	struct braid_tun_split orig, sp;
	struct braid_tcpsuper_tx t;
	unsigned int nseg;
	const char *why;
	size_t hl;
	long n, a, b;

	if (size > BRAID_TUN_SUPER_MAX || braid_tun_split_begin(&orig, data, size) ||
	    braid_tcpsuper_tx_begin(&t, &orig))
		return;
	if ((orig.len - orig.hl) / orig.gso_size > 4096)
		return;	/* correct, only slow: keep executions fast */
	while ((n = braid_tcpsuper_tx_next(&t, frame, sizeof(frame))) > 0) {
		FZ_ASSERT((size_t)n <= BRAID_TCPSUPER_MAX);
		FZ_ASSERT(!braid_tcpsuper_open(frame, (size_t)n, &nseg, &hl, &why));
		FZ_ASSERT(!braid_tun_split_begin(&sp, frame, (size_t)n));
		while ((b = braid_tun_split_next(&sp, seg_b, sizeof(seg_b))) > 0) {
			a = braid_tun_split_next(&orig, seg_a, sizeof(seg_a));
			FZ_ASSERT(a == b && !memcmp(seg_a, seg_b, (size_t)a));
			nseg--;
		}
		FZ_ASSERT(b == 0 && nseg == 0);
	}
	FZ_ASSERT(n == 0);
	FZ_ASSERT(braid_tun_split_next(&orig, seg_a, sizeof(seg_a)) == 0);	/* nothing left out */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	unsigned flags = fz_u8(&f);

	if (flags & 1)
		sender(f.p, f.n);
	else
		receiver(f.p, f.n);
	return 0;
}
