// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_reorder.c - receive-side reorder buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp_mem.h"
#include "mp_reorder.h"

enum { RO_EMPTY, RO_PKT, RO_FILLER };

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

int mp_reorder_init(struct mp_reorder *r, uint32_t win, uint32_t max_pkts)
{
	memset(r, 0, sizeof(*r));
	if (!is_pow2(win) || win < 16 || !max_pkts || max_pkts > win)
		return -EINVAL;
	r->win = win;
	r->max_pkts = max_pkts;
	r->hist = win * 4;
	r->ready_cap = win * 2;
	r->slot = mp_zalloc(win, sizeof(*r->slot));
	if (!r->slot)
		goto err;
	r->fifo = mp_zalloc(win, sizeof(*r->fifo));
	if (!r->fifo)
		goto err_slot;
	r->ready = mp_zalloc(r->ready_cap, sizeof(*r->ready));
	if (!r->ready)
		goto err_fifo;
	r->bits = mp_zalloc(r->hist / 64, sizeof(*r->bits));
	if (!r->bits)
		goto err_ready;
	return 0;

err_ready:
	mp_zfree(r->ready, r->ready_cap, sizeof(*r->ready));
err_fifo:
	mp_zfree(r->fifo, win, sizeof(*r->fifo));
err_slot:
	mp_zfree(r->slot, win, sizeof(*r->slot));
err:
	r->slot = NULL;
	return -ENOMEM;
}

void mp_reorder_fini(struct mp_reorder *r, void (*drop)(void *ctx, void *ref), void *ctx)
{
	uint32_t i;

	if (!r->slot)
		return;
	for (i = 0; i < r->win; i++)
		if (r->slot[i].state == RO_PKT && drop)
			drop(ctx, r->slot[i].ref);
	for (i = 0; i < r->ready_n; i++)
		if (drop)
			drop(ctx, r->ready[(r->ready_head + i) % r->ready_cap].ref);
	mp_zfree(r->bits, r->hist / 64, sizeof(*r->bits));
	mp_zfree(r->ready, r->ready_cap, sizeof(*r->ready));
	mp_zfree(r->fifo, r->win, sizeof(*r->fifo));
	mp_zfree(r->slot, r->win, sizeof(*r->slot));
	memset(r, 0, sizeof(*r));
}

static void bit_set(struct mp_reorder *r, uint64_t pid, int v)
{
	uint64_t b = pid & (r->hist - 1);

	if (v)
		r->bits[b / 64] |= 1ULL << (b % 64);
	else
		r->bits[b / 64] &= ~(1ULL << (b % 64));
}

static int bit_get(const struct mp_reorder *r, uint64_t pid)
{
	uint64_t b = pid & (r->hist - 1);

	return (int)((r->bits[b / 64] >> (b % 64)) & 1);
}

/* Never full: place() keeps ready_n + held below ready_cap. */
static void ready_push(struct mp_reorder *r, uint64_t now, void *ref, uint64_t pid,
		       uint32_t len, uint64_t arr)
{
	struct mp_ro_out *o;

	o = &r->ready[(r->ready_head + r->ready_n) % r->ready_cap];
	o->ref = ref;
	o->pid = pid;
	o->len = len;
	o->arr_us = arr;
	r->ready_n++;
	r->st.delivered++;
	if (now - arr > r->st.max_hold_us)
		r->st.max_hold_us = now - arr;
}

/* Release the head slot (packet, filler or gap) and move next on. */
static void step(struct mp_reorder *r, uint64_t now, int *gap)
{
	struct mp_ro_slot *s = &r->slot[r->next & (r->win - 1)];

	if (s->state != RO_EMPTY && s->pid == r->next) {
		if (s->state == RO_PKT) {
			ready_push(r, now, s->ref, s->pid, s->len, s->arr_us);
			r->st.held--;
		}
		bit_set(r, r->next, 1);
		s->state = RO_EMPTY;
		s->ref = NULL;
	} else {
		bit_set(r, r->next, 0);
		if (gap)
			(*gap)++;
	}
	r->next++;
}

static void drain(struct mp_reorder *r, uint64_t now)
{
	for (;;) {
		struct mp_ro_slot *s = &r->slot[r->next & (r->win - 1)];

		if (s->state == RO_EMPTY || s->pid != r->next)
			return;
		step(r, now, NULL);
	}
}

/* Release everything below pid, giving up gaps; counts them in *gaps. */
static void advance_to(struct mp_reorder *r, uint64_t now, uint64_t pid, uint64_t *gaps)
{
	int g;

	while (r->next < pid) {
		if (r->st.held == 0 && pid - r->next > r->win) {
			/* Nothing held: jump, forgetting the skipped ids. */
			uint64_t n = pid - r->next;

			*gaps += n;
			if (n >= r->hist)
				memset(r->bits, 0, r->hist / 8);
			else
				for (; r->next < pid; r->next++)
					bit_set(r, r->next, 0);
			r->next = pid;
			return;
		}
		g = 0;
		step(r, now, &g);
		*gaps += (uint64_t)g;
	}
}

static void fifo_push(struct mp_reorder *r, uint64_t pid, uint64_t now)
{
	struct mp_ro_fifo *f;

	if (r->fifo_n == r->win) {
		/* Oldest entries are stale once released; drop the head. */
		r->fifo_head = (r->fifo_head + 1) % r->win;
		r->fifo_n--;
	}
	f = &r->fifo[(r->fifo_head + r->fifo_n) % r->win];
	f->pid = pid;
	f->arr_us = now;
	r->fifo_n++;
}

/* Oldest still-held entry of the arrival FIFO, or NULL. */
static struct mp_ro_fifo *fifo_peek(struct mp_reorder *r)
{
	while (r->fifo_n) {
		struct mp_ro_fifo *f = &r->fifo[r->fifo_head];
		struct mp_ro_slot *s = &r->slot[f->pid & (r->win - 1)];

		if (f->pid >= r->next && s->state == RO_PKT && s->pid == f->pid)
			return f;
		r->fifo_head = (r->fifo_head + 1) % r->win;
		r->fifo_n--;
	}
	return NULL;
}

static void enforce_bound(struct mp_reorder *r, uint64_t now)
{
	while (r->st.held > r->max_pkts) {
		struct mp_ro_slot *s;

		/* Skip the gap at the head up to the first held packet. */
		for (;;) {
			s = &r->slot[r->next & (r->win - 1)];
			if (s->state != RO_EMPTY && s->pid == r->next)
				break;
			bit_set(r, r->next, 0);
			r->next++;
			r->st.gaps_bound++;
		}
		drain(r, now);
	}
}

static int place(struct mp_reorder *r, uint64_t now, uint64_t pid, void *ref, uint32_t len,
		 uint8_t state)
{
	struct mp_ro_slot *s;

	if (!r->started) {
		r->started = 1;
		r->next = pid;
		r->hi = pid;
	}
	if (pid + 1 > r->hi)
		r->hi = pid + 1;
	if (state == RO_PKT && r->ready_n + r->st.held >= r->ready_cap)
		return -ENOBUFS;	/* the caller is not polling */
	if (pid < r->next) {
		if (r->next - pid > r->hist || bit_get(r, pid)) {
			if (state == RO_PKT) {
				if (r->next - pid > r->hist)
					r->st.too_old++;
				else
					r->st.dups++;
			}
			return -EALREADY;
		}
		bit_set(r, pid, 1);
		if (state == RO_PKT) {
			r->st.late++;
			ready_push(r, now, ref, pid, len, now);
		}
		return 0;
	}
	if (pid - r->next >= r->win)
		advance_to(r, now, pid - r->win + 1, &r->st.gaps_bound);
	s = &r->slot[pid & (r->win - 1)];
	if (s->state != RO_EMPTY && s->pid == pid) {
		if (state == RO_PKT)
			r->st.dups++;
		return -EALREADY;
	}
	s->state = state;
	s->pid = pid;
	s->ref = ref;
	s->len = len;
	s->arr_us = now;
	if (state == RO_PKT) {
		r->st.held++;
		if (pid == r->next)
			r->st.in_order++;
		else
			fifo_push(r, pid, now);
	}
	drain(r, now);
	enforce_bound(r, now);
	if (r->st.held > r->st.max_held)
		r->st.max_held = r->st.held;
	return 0;
}

int mp_reorder_insert(struct mp_reorder *r, uint64_t now, uint64_t pid, void *ref, uint32_t len)
{
	return place(r, now, pid, ref, len, RO_PKT);
}

int mp_reorder_insert_now(struct mp_reorder *r, uint64_t now, uint64_t pid, void *ref,
			  uint32_t len)
{
	int rc;

	if (r->ready_n + r->st.held >= r->ready_cap)
		return -ENOBUFS;
	if (r->started && pid < r->next)
		return place(r, now, pid, ref, len, RO_PKT);	/* late or duplicate */
	rc = place(r, now, pid, NULL, 0, RO_FILLER);
	if (rc == -EALREADY)
		r->st.dups++;	/* a second copy of an id delivered at once */
	if (rc)
		return rc;
	ready_push(r, now, ref, pid, len, now);
	return 0;
}

int mp_reorder_missing(const struct mp_reorder *r, uint64_t pid)
{
	const struct mp_ro_slot *s;

	if (!r->started || pid >= r->hi)
		return 0;
	if (pid < r->next)
		return r->next - pid <= r->hist && !bit_get(r, pid);
	if (pid - r->next >= r->win)
		return 0;
	s = &r->slot[pid & (r->win - 1)];
	return !(s->state != RO_EMPTY && s->pid == pid);
}

void mp_reorder_filler(struct mp_reorder *r, uint64_t now, uint64_t pid)
{
	(void)place(r, now, pid, NULL, 0, RO_FILLER);
}

void mp_reorder_expire(struct mp_reorder *r, uint64_t now, uint64_t deadline_us)
{
	struct mp_ro_fifo *f;

	while ((f = fifo_peek(r)) && f->arr_us + deadline_us <= now) {
		advance_to(r, now, f->pid, &r->st.gaps_deadline);
		drain(r, now);
	}
}

uint64_t mp_reorder_next_expiry(struct mp_reorder *r, uint64_t deadline_us)
{
	struct mp_ro_fifo *f = fifo_peek(r);

	return f ? f->arr_us + deadline_us : UINT64_MAX;
}

int mp_reorder_pop(struct mp_reorder *r, uint64_t now, struct mp_ro_out *out)
{
	(void)now;
	if (!r->ready_n)
		return 0;
	*out = r->ready[r->ready_head];
	r->ready_head = (r->ready_head + 1) % r->ready_cap;
	r->ready_n--;
	return 1;
}
