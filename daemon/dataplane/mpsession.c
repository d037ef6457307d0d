// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpsession.c - a session's multipath engine and its holder (mpsession.h).
 */
#include "dataplane/mpsession.h"

#include <errno.h>
#include <stdlib.h>

static void hook_deliver(void *user, uint8_t *payload, size_t len)
{
	const struct braid_mpsession *s = user;

	s->role.deliver(s->role.user, payload, len);
}

static void hook_rx_auth(void *user, const union braid_sockaddr *from)
{
	const struct braid_mpsession *s = user;

	if (s->role.rx_auth)
		s->role.rx_auth(s->role.user, from);
	s->role.activity(s->role.user, true);
}

static void hook_tx(void *user)
{
	const struct braid_mpsession *s = user;

	s->role.activity(s->role.user, false);
}

int braid_mpsession_start(void **out, size_t size, const struct braid_mpsession_role *role,
			  braid_mpsession_open_fn open)
{
	struct braid_mpsession *s;
	struct braid_mpath_hooks h = {
		.deliver = hook_deliver, .rx_auth = hook_rx_auth, .tx = hook_tx,
	};
	int r;

	if (size < sizeof(*s))
		return -EINVAL;
	s = calloc(1, size);
	if (!s)
		return -ENOMEM;
	s->role = *role;
	h.user = s;
	r = open(s, &h);
	if (r) {
		free(s);
		return r;
	}
	*out = s;
	return 0;
}

void braid_mpsession_free(struct braid_mpsession *s)
{
	if (!s)
		return;
	braid_mpath_free(s->m);
	free(s);
}
