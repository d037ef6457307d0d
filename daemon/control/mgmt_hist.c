// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_hist.c - the management interface's history rings (mgmt_hist.h).
 */
#include "control/mgmt_hist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int braid_mgmt_hist_init(struct braid_mgmt_hist *h, size_t cap)
{
	memset(h, 0, sizeof(*h));
	if (!cap || cap > BRAID_MGMT_HIST_MAX)
		return -EINVAL;
	h->e = calloc(cap, sizeof(*h->e));
	if (!h->e)
		return -ENOMEM;
	h->cap = cap;
	return 0;
}

void braid_mgmt_hist_free(struct braid_mgmt_hist *h)
{
	for (size_t i = 0; h->e && i < h->cap; i++)
		free(h->e[i].text);
	free(h->e);
	memset(h, 0, sizeof(*h));
}

int braid_mgmt_hist_add(struct braid_mgmt_hist *h, time_t t, const char *text)
{
	char *s;
	size_t slot;

	if (!h->cap)
		return -EINVAL;
	s = strdup(text);
	if (!s)
		return -ENOMEM;
	if (h->n == h->cap) {
		slot = h->head;
		h->head = (h->head + 1) % h->cap;
		free(h->e[slot].text);
	} else {
		slot = (h->head + h->n) % h->cap;
		h->n++;
	}
	h->e[slot].t = t;
	h->e[slot].text = s;
	return 0;
}

const struct braid_mgmt_hist_ent *braid_mgmt_hist_at(const struct braid_mgmt_hist *h, size_t i)
{
	if (i >= h->n)
		return NULL;
	return &h->e[(h->head + i) % h->cap];
}

const struct braid_mgmt_hist_ent *braid_mgmt_hist_last(const struct braid_mgmt_hist *h)
{
	return h->n ? braid_mgmt_hist_at(h, h->n - 1) : NULL;
}
