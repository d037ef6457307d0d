// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_select.c - the `dco auto|on|off` choice of the data plane at start
 * (dco_select.h). The module is looked up as OpenVPN looks up ovpn-dco: its
 * generic netlink family is resolved (CTRL_CMD_GETFAMILY "braid_dco").
 * The kernel backend (backend_kmod.c) carries the TLS client's session over
 * UDP; what it cannot carry (another role, TCP, compression, ...) is named: `dco auto` then runs the userspace data plane and
 * says why in one line, `dco on` refuses to start with the option named.
 */
#include "dataplane/dco_select.h"

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include "dataplane/dco_sched.h"
#include "os/netlink.h"
#include "util/log.h"

#define DCO_FAMILY "braid_dco"	/* BRAID_DCO_FAMILY_NAME of kmod/uapi/linux/braid_dco.h */

static const char *backend = "userspace";

/* the answer to one CTRL_CMD_GETFAMILY: 0 (a family message), the kernel's -errno, or -EBADMSG */
static int probe_reply(const uint8_t *buf, size_t len)
{
	const struct nlmsghdr *nlh = (const void *)buf;
	const struct nlmsgerr *e;

	if (len < sizeof(*nlh) || !braid_nl_buf_ok(buf, len))
		return -EBADMSG;
	if (nlh->nlmsg_type == GENL_ID_CTRL)
		return 0;
	if (nlh->nlmsg_type != NLMSG_ERROR || nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
		return -EBADMSG;
	e = NLMSG_DATA(nlh);
	return e->error < 0 ? e->error : -EBADMSG;
}

int braid_dco_probe(void)
{
	uint8_t buf[MNL_SOCKET_BUFFER_SIZE];
	struct timeval tv = { .tv_sec = 2 };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	ssize_t n;
	int r;

	nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		r = -errno;
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = (uint32_t)time(NULL);
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, DCO_FAMILY);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out;
	}
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	r = n < 0 ? -errno : probe_reply(buf, (size_t)n);
out:
	mnl_socket_close(nl);
	return r;
}

const char *braid_dco_unsupported(const struct braid_options *o)
{
	if (o->tls != BRAID_TLS_CLIENT)
		return o->mode == BRAID_MODE_SERVER ? "mode server (the gateway)" :
		       o->secret.path || o->secret.inline_text ? "secret (static-key mode)" :
								  "the point-to-point role";
	if (o->proto != BRAID_PROTO_UDP)
		return "proto (TCP: the module carries UDP paths)";
	for (unsigned int i = 0; i < o->n_remotes; i++)
		if (o->remotes[i].proto != BRAID_PROTO_UDP)
			return "remote ... tcp (the module carries UDP paths)";
	if (o->compress != BRAID_OPT_COMP_NONE)
		return "compress / comp-lzo";
	if (o->has_dev_type && !strcmp(o->dev, "tap"))
		return "dev-type tap";
	if (o->mptcp)
		return "mptcp";
	if (strcmp(o->mp_sched, "edf"))
		return "mp-scheduler (the kernel schedules: round robin or a BPF program)";
	for (unsigned int i = 0; i < o->n_mp_paths; i++) {
		if (o->mp_paths[i].kind == BRAID_MP_LOCAL_AUTO)
			return "mp-path auto";
		if (o->mp_paths[i].backup || o->mp_paths[i].cap_bps)
			return "mp-backup / mp-cap";
	}
	return NULL;
}

/* dco-scheduler with the userspace data plane: a documented no-op, said once (its scheduler is mp-scheduler) */
static int sched_unused(const struct braid_options *o)
{
	if (o->dco_sched_file)
		braid_info("dco-scheduler %s: not used: the userspace data plane carries the session (its "
			   "scheduler is mp-scheduler)", o->dco_sched_file);
	return 0;
}

int braid_dco_select(const struct braid_options *o)
{
	const char *why;
	int r;

	backend = "userspace";
	if (o->dco == BRAID_DCO_OFF)
		return sched_unused(o);
	r = braid_dco_probe();
	why = r ? NULL : braid_dco_unsupported(o);
	if (o->dco == BRAID_DCO_ON) {
		if (r)
			braid_err("dco on: the braid_dco kernel module is not available (generic netlink "
				  "family '%s': %s); not starting ('dco auto' falls back to the "
				  "userspace data plane)", DCO_FAMILY, strerror(-r));
		else if (why)
			braid_err("dco on: the kernel data plane does not support '%s'; not starting "
				  "('dco auto' falls back to the userspace data plane)", why);
		if (r || why)
			return r ? r : -EOPNOTSUPP;
	} else if (r) {
		braid_info("dco: the braid_dco kernel module is not available (generic netlink family "
			   "'%s': %s): using the userspace data plane", DCO_FAMILY, strerror(-r));
		return sched_unused(o);
	} else if (why) {
		braid_info("dco: the kernel data plane does not support '%s': using the userspace "
			   "data plane", why);
		return sched_unused(o);
	}
	backend = "dco";
	braid_info("dco: using the braid_dco kernel data plane");
	/* the scheduler program is loaded now, as root: the session attaches it after the privilege drop */
	return braid_dco_sched_load(o);
}

const char *braid_dco_backend(void)
{
	return backend;
}
