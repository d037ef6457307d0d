/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctlproto.h - the request grammar of braidd's control socket
 * (docs/control-protocol.md, protocol version 1).
 *
 *   request = command *(SP arg) LF        at most BRAID_CTL_LINE_MAX bytes
 *   reply   = ("ok" / "error: " reason) LF *(payload-line LF) LF
 *
 * Commands: status | version | paths [CLIENT] | clients | kill CLIENT |
 *           set [client CLIENT] scheduler SCHED |
 *           set [client CLIENT] path PATH (backup | active | cap MBIT | nocap)
 * CLIENT is a gateway client's common name or client ID.
 * This file only turns one line into a request (no I/O): every refusal
 * gets a reason naming the offending word.
 */
#ifndef BRAID_CTLPROTO_H
#define BRAID_CTLPROTO_H

#include <stddef.h>
#include <stdint.h>

#define BRAID_CTL_PROTO_VERSION 1
#define BRAID_CTL_LINE_MAX 512		/* request bytes including the LF */
#define BRAID_CTL_ERR_MAX 200

enum braid_ctl_cmd {
	BRAID_CTL_STATUS = 1,
	BRAID_CTL_VERSION,
	BRAID_CTL_SET_SCHED,
	BRAID_CTL_SET_PATH,
	BRAID_CTL_PATHS,
	BRAID_CTL_CLIENTS,
	BRAID_CTL_KILL,
};

enum braid_ctl_path_op {
	BRAID_CTL_PATH_BACKUP = 1,
	BRAID_CTL_PATH_ACTIVE,
	BRAID_CTL_PATH_CAP,
	BRAID_CTL_PATH_NOCAP,
};

struct braid_ctl_req {
	enum braid_ctl_cmd cmd;
	char sched[96];			/* SET_SCHED: "edf", "ratio 1:0", ... (checked) */
	char path[64];			/* SET_PATH: index or local address, as given */
	enum braid_ctl_path_op op;	/* SET_PATH */
	uint64_t cap_bps;		/* SET_PATH cap */
	char client[64];		/* PATHS, KILL, SET_*: the client named, "" none */
};

/*
 * Parse one request line (without its LF; a trailing CR is ignored).
 * 0, or -EINVAL with the reason (no "error: " prefix) in err.
 */
int braid_ctl_parse(const char *line, size_t len, struct braid_ctl_req *req, char *err,
		    size_t errlen);

#endif /* BRAID_CTLPROTO_H */
