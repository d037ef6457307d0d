/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lg_report.h - the load generator's measurements: the gateway's resident
 * memory from /proc/PID/status (bounded read) and the JSON report.
 */
#ifndef BRAID_LG_REPORT_H
#define BRAID_LG_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "lg_session.h"

/* The gateway's memory at one moment of the run. */
struct lg_rss_point {
	const char *phase;   /* "start", "established", "idle" */
	double t_s;          /* since the start */
	unsigned sessions;   /* established then */
	long rss_kb;         /* -1: unreadable */
};

/* VmRSS of pid in KiB, or -errno (-ENOENT: no such process, -EBADMSG: no VmRSS line). */
long lg_rss_kb(pid_t pid);

/* Parse the text of a /proc/PID/status file (len bytes, any content): VmRSS in KiB or -EBADMSG. */
long lg_rss_parse(const char *text, size_t len);

struct lg_run {
	const char *label;
	unsigned sessions, rate;
	pid_t gw_pid;
	double t_launch_s;       /* first reset to the last session launched */
	double t_handshakes_s;   /* first reset to the last handshake finished (or failed) */
	struct lg_rss_point rss[4];
	unsigned n_rss;
};

/* Write the JSON report (one object, one line) to f. */
void lg_report_json(FILE *f, const struct lg_ctx *ctx, const struct lg_run *run);

#endif /* BRAID_LG_REPORT_H */
