/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_cmd.h - the management interface's commands (mgmt_cmd.c): one
 * received line in, stock 2.6's reply out (SUCCESS:/ERROR: lines, or
 * lines ending in END), with stock's wording for errors; the title string
 * `version` and `help` show.
 */
#ifndef BRAID_MGMT_CMD_H
#define BRAID_MGMT_CMD_H

#include "control/mgmt_int.h"

/* Answer one command line of k (not NUL-terminated). */
void mgmt_cmd_line(struct mgmt_conn *k, const char *line, size_t len);

/*
 * The title: "OpenVPN 2.6.14 x86_64-pc-linux-gnu [SSL (OpenSSL)] [EPOLL]
 * [MH/PKTINFO] [AEAD] [Braid X.Y.Z]": the second word is the OpenVPN
 * version braidd is compatible with, which parsers (openvpn-monitor splits
 * on blanks and reads word 2 as semver) expect as plain X.Y.Z.
 */
const char *braid_mgmt_title(void);

#endif /* BRAID_MGMT_CMD_H */
