// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_mptcp.c - `mptcp on|off|auto`, the TCP socket buffers (`sndbuf`,
 * `rcvbuf`) and what `mp-path` means over MPTCP (options_mptcp.h).
 */
#include "config/options_mptcp.h"

#include <limits.h>
#include <string.h>

#include "config/options_check.h"
#include "config/options_parse.h"

int opt_mptcp(struct ctx *c, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "on") || !strcmp(argv[1], "yes")) {
		c->o->mptcp = BRAID_OPT_MPTCP_ON;
		return 0;
	}
	if (!strcmp(argv[1], "off") || !strcmp(argv[1], "no")) {
		c->o->mptcp = BRAID_OPT_MPTCP_OFF;
		return 0;
	}
	if (!strcmp(argv[1], "auto")) {
		c->o->mptcp = BRAID_OPT_MPTCP_AUTO;
		return 0;
	}
	return opt_fail(c, "expected 'on', 'off' or 'auto', got '%s'", argv[1]);
}

int opt_mptcp_pm(struct ctx *c, int argc, char **argv)
{
	(void)argc;
	if (!strcmp(argv[1], "kernel")) {
		c->o->mptcp_pm = 1;
		return 0;
	}
	if (!strcmp(argv[1], "userspace")) {
		c->o->mptcp_pm = 2;
		return 0;
	}
	return opt_fail(c, "expected 'kernel' or 'userspace', got '%s'", argv[1]);
}

/* sndbuf / rcvbuf N: the TCP (and MPTCP) socket's buffer, bytes (stock: 0 = the system's). */
int opt_sockbuf(struct ctx *c, int argc, char **argv)
{
	int *dst = !strcmp(argv[0], "sndbuf") ? &c->o->sndbuf : &c->o->rcvbuf;

	(void)argc;
	return opt_parse_int(c, "size", argv[1], 0, INT_MAX / 2, dst);
}

/* Is the session's transport TCP: a tcp-server, or a client whose every remote is tcp-client? */
static bool all_tcp(const struct braid_options *o, bool *some)
{
	bool all = o->n_remotes > 0;

	*some = o->proto != BRAID_PROTO_UDP;
	if (o->mode == BRAID_MODE_SERVER)
		return o->proto == BRAID_PROTO_TCP_SERVER;
	for (unsigned int i = 0; i < o->n_remotes; i++) {
		bool tcp = o->remotes[i].proto == BRAID_PROTO_TCP_CLIENT;

		*some |= tcp;
		all &= tcp;
	}
	if (!o->n_remotes)
		return o->proto == BRAID_PROTO_TCP_CLIENT;
	return all;
}

int opt_finalize_mptcp(struct braid_options *o, char *err, size_t err_len)
{
	bool some_tcp, tcp = all_tcp(o, &some_tcp);

	if (o->mptcp == BRAID_OPT_MPTCP_OFF)
		return 0;
	if (!some_tcp) {
		if (o->mptcp == BRAID_OPT_MPTCP_ON)
			return opt_ffail(err, err_len,
					 "option 'mptcp on': MPTCP is a TCP transport: use it with "
					 "'proto tcp-client' or 'proto tcp-server'");
		return 0;	/* auto over UDP: nothing to do (documented) */
	}
	if (!tcp) {
		if (o->n_mp_paths)
			return opt_ffail(err, err_len,
					 "option 'mptcp': with mp-path lines (MPTCP endpoints) every "
					 "'remote' must be TCP");
		return 0;	/* MPTCP for the TCP remotes, no endpoints of ours */
	}
	if (o->multipath == 1 && !o->n_mp_paths)
		return opt_ffail(err, err_len,
				 "option 'multipath on' is Braid's UDP multipath; over TCP the paths "
				 "are MPTCP subflows ('mptcp' with 'mp-path IFNAME' lines)");
	for (unsigned int i = 0; i < o->n_mp_paths; i++) {
		const struct braid_opt_mp_path *p = &o->mp_paths[i];

		if (p->kind == BRAID_MP_LOCAL_AUTO)
			return opt_ffail(err, err_len,
					 "option 'mp-path auto' is not supported with 'mptcp' yet: name "
					 "the interfaces ('mp-path IFNAME')");
		if (p->remote)
			return opt_ffail(err, err_len,
					 "option 'mp-path %s %s': an MPTCP endpoint is local only (the "
					 "subflows go to the peer's addresses)", p->local, p->remote);
	}
	for (unsigned int i = 0; i < o->n_mp_attrs; i++) {
		const struct braid_opt_mp_attr *a = &o->mp_attrs[i];
		bool found = false;

		for (unsigned int k = 0; k < o->n_mp_paths; k++)
			if (!strcmp(o->mp_paths[k].local, a->local)) {
				o->mp_paths[k].backup |= a->backup;
				if (a->cap_bps)
					o->mp_paths[k].cap_bps = a->cap_bps;
				found = true;
			}
		if (!found)
			return opt_ffail(err, err_len,
					 "option 'mp-backup %s': no 'mp-path %s' names this local address",
					 a->local, a->local);
	}
	o->mptcp_paths = true;
	return 0;
}
