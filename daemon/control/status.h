/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * status.h - the `status FILE [SECONDS]` file and the SIGUSR2 log lines.
 *
 * The file is one JSON object, replaced atomically (written to FILE.tmp,
 * then renamed) every SECONDS:
 *   {"version":1,"time":UNIX_S,"role":"p2p","uptime_s":..,"up":true,
 *    "failovers":..,"multipath":true,"scheduler":"edf",
 *    "tunnel":{...braid_tunnel_stats...},
 *    "engine":{...}, "paths":[{"index":0,"local":"...","remote":"...",
 *      "learned":false,"state":"active","tx_mbit":..,"rx_mbit":..,
 *      "share_iv_pct":..,"loss_iv_pct":..|null,"rtt_ms":..|null,
 *      "capacity_est_mbit":..|null,"last_rx_s":..|null,"srtt_ms":..,
 *      "rate_mbit":..(pacing),"share_pct":..(since start),
 *      "tx_bytes":..,"rx_bytes":..,"queue_pkts":..,...}, ...]}
 * The data path is reached through the ops of dataplane/backend.h.
 * docs/braidd.md lists every field.
 */
#ifndef BRAID_STATUS_H
#define BRAID_STATUS_H

#include <stdbool.h>
#include <stdio.h>

#include "dataplane/backend.h"
#include "dataplane/tunstats.h"

/*
 * Write the JSON object to f. dp: the session's data path, NULL in single-path
 * mode; up: a peer answered in this session (the metrics' braid_session_up).
 */
void braid_status_json(FILE *f, const struct braid_tunnel_stats *ts, const struct braid_dp *dp,
		       bool up);
/*
 * The pieces, for the TLS client's and the gateway's JSON status files
 * (client_status.c, gw_statjson.c): head writes `{"version":1,"time":..,
 * "role":ROLE,"uptime_s":..,` then session's `"up":..,"failovers":..,
 * "multipath":..,["scheduler":..,]`; tunnel writes `"tunnel":{...` and leaves
 * the object open for the caller's own counters; mp writes
 * `[,"engine":{...}],"paths":[...]`.
 */
void braid_status_json_head(FILE *f, const char *role, const struct braid_dp *dp, bool up);
void braid_status_json_session(FILE *f, const struct braid_dp *dp, bool up);
void braid_status_json_tunnel(FILE *f, const struct braid_tunnel_stats *t);
void braid_status_json_mp(FILE *f, const struct braid_dp *dp);
/* The "paths" array alone ([] for NULL); the control surface's `paths`. */
void braid_status_paths_json(FILE *f, const struct braid_dp *dp);
/* s as a JSON string (quotes and backslashes escaped, control characters left out). */
void braid_status_json_str(FILE *f, const char *s);
/* Write it to path atomically. 0 or -errno. */
int braid_status_write(const char *path, const struct braid_tunnel_stats *ts,
		       const struct braid_dp *dp, bool up);
/* One log line per path plus one for the engine (SIGUSR2); nothing for NULL. */
void braid_status_log(const struct braid_dp *dp);

#endif /* BRAID_STATUS_H */
