/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ipc.h - one request over braidd's control socket (docs/control-protocol.md).
 */
#ifndef BRAIDCTL_IPC_H
#define BRAIDCTL_IPC_H

#include <stddef.h>

/*
 * Send request (no LF) to the socket at path and read the reply up to its
 * blank line. 0: *ok is 1 for "ok" (payload = the lines after it) or 0 for
 * "error: ..." (payload = the reason); the caller frees *payload. -errno
 * when the socket cannot be reached or the reply is malformed (message
 * printed to stderr).
 */
int ipc_request(const char *path, const char *request, int *ok, char **payload);

#endif
