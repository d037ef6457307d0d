// SPDX-License-Identifier: GPL-2.0-only
/*
 * backend_user.c - the userspace data-plane backend (backend.h): a session's
 * multipath engine (dataplane/mpath*) held by dataplane/mpsession.c behind
 * the struct braid_dp_ops seam. Paths come from the options or are learned;
 * keys live in the session's data channel, which the engine uses directly.
 */
#include "dataplane/backend_user.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/mpath.h"
#include "dataplane/mpsession.h"

struct user_dp {
	struct braid_mpsession s;	/* first: mpsession's holder (engine, stats, role) */
	struct braid_dp dp;		/* the handle the role holds */
	struct braid_dp_role role;	/* the role's callbacks */
	struct braid_tunnel_stats *st;	/* the role's counters, or &s.st */
};

/* What user_open hands to user_engine_open through the holder's role.user. */
struct user_open_ctx {
	const struct braid_dp_config *cfg;
	const struct braid_dp_role *role;
};

static struct user_dp *U(const struct braid_dp *dp)
{
	return (struct user_dp *)((char *)(uintptr_t)dp - offsetof(struct user_dp, dp));
}

static void role_deliver(void *user, uint8_t *payload, size_t len)
{
	const struct user_dp *u = user;

	u->role.deliver(u->role.user, payload, len);
}

static void role_rx_auth(void *user, const union braid_sockaddr *from)
{
	const struct user_dp *u = user;

	if (u->role.rx_auth)
		u->role.rx_auth(u->role.user, from, 0);
}

static void role_activity(void *user, bool rx)
{
	const struct user_dp *u = user;

	u->role.activity(u->role.user, rx);
}

/* mpsession's open: take the config and the role in, then open the engine. */
static int user_engine_open(struct braid_mpsession *s, const struct braid_mpath_hooks *h)
{
	struct user_dp *u = (struct user_dp *)s;	/* s is its first member */
	const struct user_open_ctx *ctx = s->role.user;
	const struct braid_dp_config *c = ctx->cfg;
	int r;

	u->role = *ctx->role;
	u->dp.ops = &braid_dp_user_ops;
	u->st = c->st ? c->st : &s->st;
	s->role.user = u;	/* from now on the hooks reach the role through u */
	if (c->shared_fd >= 0) {
		r = braid_mpath_new_shared(&s->m, c->loop, c->o, c->dc, c->mss, u->st, h,
					   c->shared_fd, c->name);
		if (!r)
			braid_mpath_set_shared_local(s->m, c->shared_local);
		return r;
	}
	r = braid_mpath_new(&s->m, c->loop, c->o, c->dc, c->mss, u->st, h);
	if (!r && c->tun_attach) {
		r = braid_mpath_attach_tun(s->m, c->tun_fd, c->tun_vnet);
		if (r) {
			braid_mpath_free(s->m);
			s->m = NULL;
		}
	}
	return r;
}

static int user_open(struct braid_dp **out, const struct braid_dp_config *cfg,
		     const struct braid_dp_role *role)
{
	struct user_open_ctx ctx = { .cfg = cfg, .role = role };
	const struct braid_mpsession_role mr = {
		.deliver = role_deliver, .activity = role_activity, .rx_auth = role_rx_auth,
		.user = &ctx,
	};
	void *h;
	int r;

	r = braid_mpsession_start(&h, sizeof(struct user_dp), &mr, user_engine_open);
	if (r)
		return r;
	*out = &((struct user_dp *)h)->dp;
	return 0;
}

static void user_close(struct braid_dp *dp)
{
	braid_mpsession_free(&U(dp)->s);
}

static int user_restart(struct braid_dp *dp, struct braid_dc *dc)
{
	return braid_mpath_restart(U(dp)->s.m, dc);
}

static bool user_has_peer(const struct braid_dp *dp)
{
	return braid_mpath_has_peer(U(dp)->s.m);
}

static int user_outer_hdr(const struct braid_dp *dp)
{
	return braid_mpath_outer_hdr(U(dp)->s.m);
}

static int user_path_enable(struct braid_dp *dp, int path, bool on)
{
	return braid_mpath_path_enable(U(dp)->s.m, path, on);
}

static int user_path_cfg_add(struct braid_dp *dp, const struct braid_opt_mp_path *p, char *err,
			     size_t errlen)
{
	return braid_mpath_path_cfg_add(U(dp)->s.m, p, err, errlen);
}

static int user_path_cfg_remove(struct braid_dp *dp, const char *local, char *err, size_t errlen)
{
	return braid_mpath_path_cfg_remove(U(dp)->s.m, local, err, errlen);
}

static int user_path_set(struct braid_dp *dp, int path, unsigned int flags, uint64_t cap_bps)
{
	return braid_mpath_path_set(U(dp)->s.m, path, flags, cap_bps);
}

static int user_set_sched(struct braid_dp *dp, const char *spec)
{
	return braid_mpath_set_sched(U(dp)->s.m, spec);
}

static int user_set_weight(struct braid_dp *dp, const char *path, uint32_t weight)
{
	return braid_mpath_set_weight(U(dp)->s.m, path, weight);
}

static int user_send(struct braid_dp *dp, const uint8_t *p, size_t len)
{
	return braid_mpath_send_payload(U(dp)->s.m, p, len);
}

static int user_send_ip(struct braid_dp *dp, const uint8_t *ip, size_t len)
{
	return braid_mpath_send_ip(U(dp)->s.m, ip, len);
}

static void user_input(struct braid_dp *dp, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from)
{
	braid_mpath_input(U(dp)->s.m, pkt, len, from);
}

static void user_tun_readable(struct braid_dp *dp, int tun_fd)
{
	braid_mpath_tun_readable(U(dp)->s.m, tun_fd);
}

static void user_stats(const struct braid_dp *dp, struct braid_tunnel_stats *st)
{
	*st = *U(dp)->st;
}

static int user_paths(const struct braid_dp *dp, struct braid_mpath_path_info *out, int max)
{
	return braid_mpath_paths(U(dp)->s.m, out, max);
}

static const char *user_sched_name(const struct braid_dp *dp)
{
	return braid_mpath_sched_name(U(dp)->s.m);
}

static int user_engine_stats(const struct braid_dp *dp, struct braid_mpath_stats *st)
{
	braid_mpath_stats(U(dp)->s.m, st);
	return 0;
}

const struct braid_dp_ops braid_dp_user_ops = {
	.name = "user",
	.open = user_open,
	.close = user_close,
	.restart = user_restart,
	.has_peer = user_has_peer,
	.outer_hdr = user_outer_hdr,
	.path_set = user_path_set,
	.path_enable = user_path_enable,
	.path_cfg_add = user_path_cfg_add,
	.path_cfg_remove = user_path_cfg_remove,
	.set_sched = user_set_sched,
	.set_weight = user_set_weight,
	.send = user_send,
	.send_ip = user_send_ip,
	.input = user_input,
	.tun_readable = user_tun_readable,
	.stats = user_stats,
	.paths = user_paths,
	.sched_name = user_sched_name,
	.engine_stats = user_engine_stats,
};
