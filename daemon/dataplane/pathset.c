// SPDX-License-Identifier: GPL-2.0-only
/*
 * pathset.c - today's single-path path set (see pathset.h for the seam).
 */
#include "dataplane/pathset.h"

#include <errno.h>
#include <string.h>

void braid_pathset_init(struct braid_pathset *ps, int fd, const union braid_sockaddr *remote,
			bool float_ok)
{
	memset(ps, 0, sizeof(*ps));
	ps->n = 1;
	ps->float_ok = float_ok;
	ps->path[0].fd = fd;
	braid_pathset_reset(ps, remote);
}

void braid_pathset_reset(struct braid_pathset *ps, const union braid_sockaddr *remote)
{
	struct braid_path *p = &ps->path[0];

	p->has_peer = remote != NULL;
	if (remote)
		p->peer = *remote;
	else
		memset(&p->peer, 0, sizeof(p->peer));
}

int braid_pathset_select(struct braid_pathset *ps, const uint8_t *pkt, size_t len)
{
	(void)pkt, (void)len;
	return ps->path[0].has_peer ? 0 : -EDESTADDRREQ;
}

void braid_pathset_tx_done(struct braid_pathset *ps, int path, size_t len)
{
	ps->path[path].tx_packets++;
	ps->path[path].tx_bytes += len;
}

int braid_pathset_rx_lookup(struct braid_pathset *ps, int fd, const union braid_sockaddr *from)
{
	struct braid_path *p = &ps->path[0];

	if (p->fd != fd)
		return -EPERM;
	if (p->has_peer && !ps->float_ok && !braid_sockaddr_equal(&p->peer, from)) {
		ps->rx_wrong_peer++;
		return -EPERM;
	}
	return 0;
}

int braid_pathset_rx_confirm(struct braid_pathset *ps, int path, const union braid_sockaddr *from,
			     size_t len, union braid_sockaddr *old, bool *had_peer)
{
	struct braid_path *p = &ps->path[path];

	p->rx_packets++;
	p->rx_bytes += len;
	if (p->has_peer && braid_sockaddr_equal(&p->peer, from))
		return 0;
	if (had_peer)
		*had_peer = p->has_peer;
	if (old)
		*old = p->peer;
	p->peer = *from;
	p->has_peer = true;
	ps->peer_changes++;
	return 1;
}
