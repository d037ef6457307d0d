// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcpframe.c - receive-side u16 BE stream framing with bounded lengths
 * (see tcpframe.h).
 */
#include "os/tcpframe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int braid_tcpframe_init(struct braid_tcpframe *f, size_t max_pkt)
{
	memset(f, 0, sizeof(*f));
	if (!max_pkt || max_pkt > 65535)
		return -EINVAL;
	f->cap = 2 * (max_pkt + 2);
	f->buf = malloc(f->cap);
	if (!f->buf)
		return -ENOMEM;
	f->max_pkt = max_pkt;
	return 0;
}

int braid_tcpframe_grow(struct braid_tcpframe *f, size_t max_pkt)
{
	size_t cap = 2 * (max_pkt + 2);
	uint8_t *b;

	if (!max_pkt || max_pkt > 65535 || !f->buf)
		return -EINVAL;
	if (max_pkt <= f->max_pkt)
		return 0;
	b = realloc(f->buf, cap);	/* the unread bytes stay where they are */
	if (!b)
		return -ENOMEM;
	f->buf = b;
	f->cap = cap;
	f->max_pkt = max_pkt;
	return 0;
}

void braid_tcpframe_free(struct braid_tcpframe *f)
{
	free(f->buf);
	memset(f, 0, sizeof(*f));
}

void braid_tcpframe_reset(struct braid_tcpframe *f)
{
	f->len = f->off = f->bad_len = 0;
}

uint8_t *braid_tcpframe_space(struct braid_tcpframe *f, size_t *room)
{
	if (f->off) {
		memmove(f->buf, f->buf + f->off, f->len - f->off);
		f->len -= f->off;
		f->off = 0;
	}
	*room = f->cap - f->len;
	return f->buf + f->len;
}

void braid_tcpframe_commit(struct braid_tcpframe *f, size_t n)
{
	if (n > f->cap - f->len)	/* a caller bug; never grow past the buffer */
		n = f->cap - f->len;
	f->len += n;
}

size_t braid_tcpframe_feed(struct braid_tcpframe *f, const uint8_t *data, size_t n)
{
	size_t room;
	uint8_t *p = braid_tcpframe_space(f, &room);

	if (n > room)
		n = room;
	memcpy(p, data, n);
	braid_tcpframe_commit(f, n);
	return n;
}

int braid_tcpframe_next(struct braid_tcpframe *f, const uint8_t **pkt, size_t *len)
{
	size_t avail = f->len - f->off, plen;
	const uint8_t *p = f->buf + f->off;

	if (avail < 2)
		return -EAGAIN;
	plen = (size_t)p[0] << 8 | p[1];
	if (!plen || plen > f->max_pkt) {
		f->bad_len = plen;
		return -EMSGSIZE;
	}
	if (avail - 2 < plen)
		return -EAGAIN;
	*pkt = p + 2;
	*len = plen;
	f->off += plen + 2;
	return 0;
}

size_t braid_tcpframe_pending(const struct braid_tcpframe *f)
{
	return f->len - f->off;
}
