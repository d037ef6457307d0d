/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics_snap.h - one scrape of the metrics endpoint as data: the metric
 * families braidd exports (their names, types, units, help; docs/metrics.md
 * lists them with the status JSON field each one mirrors), label sets and
 * samples. A role fills a snapshot from the same numbers its status JSON
 * prints (braid_met_dp adds a multipath session's paths and engine numbers
 * for every role), metrics_fmt.c writes it as text.
 *
 * A family's samples may be added in any order; the writer groups them.
 */
#ifndef BRAID_METRICS_SNAP_H
#define BRAID_METRICS_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/backend.h"

enum braid_met_type { BRAID_MET_COUNTER, BRAID_MET_GAUGE, BRAID_MET_INFO };

/* The families. Names without the _total of counters / _info of infos. */
enum braid_met_id {
	/* process */
	BRAID_MET_BUILD,		/* info: version, role */
	BRAID_MET_START_TIME,
	BRAID_MET_UPTIME,
	/* session (a gateway: one per client, labels client and client_id) */
	BRAID_MET_SESSION_UP,
	BRAID_MET_SESSION_MULTIPATH,
	BRAID_MET_SESSION_PATHS,
	BRAID_MET_SESSION_PATHS_UP,
	BRAID_MET_SESSION_FAILOVERS,
	BRAID_MET_SESSION_SINCE,
	/* the "tunnel" object of the status JSON (static-key, TLS client) */
	BRAID_MET_TUN_READ_PKTS,
	BRAID_MET_TUN_READ_BYTES,
	BRAID_MET_TUN_WRITE_PKTS,
	BRAID_MET_TUN_WRITE_BYTES,
	BRAID_MET_LINK_TX_PKTS,
	BRAID_MET_LINK_TX_BYTES,
	BRAID_MET_LINK_RX_PKTS,
	BRAID_MET_LINK_RX_BYTES,
	BRAID_MET_AUTH_FAILURES,
	BRAID_MET_REPLAYS,
	BRAID_MET_MALFORMED,
	BRAID_MET_PINGS_TX,
	BRAID_MET_PINGS_RX,
	BRAID_MET_RESTARTS,
	BRAID_MET_RENEGOTIATIONS,
	/* a gateway's client (the clients[] objects) */
	BRAID_MET_CLIENT_RX_BYTES,
	BRAID_MET_CLIENT_TX_BYTES,
	/* the "gateway" object */
	BRAID_MET_GW_CLIENTS,
	BRAID_MET_GW_MAX_CLIENTS,
	BRAID_MET_GW_CLIENTS_UNLABELLED,
	BRAID_MET_GW_SESSIONS_CREATED,
	BRAID_MET_GW_CLIENTS_REMOVED,
	BRAID_MET_GW_AUTH_FAILED,
	BRAID_MET_GW_MAX_CLIENTS_REFUSED,
	BRAID_MET_GW_CONNECT_FREQ_REFUSED,
	BRAID_MET_GW_FLOATS,
	BRAID_MET_GW_DATA_AUTH_FAILED,
	BRAID_MET_GW_TUN_READ_PKTS,
	BRAID_MET_GW_TUN_WRITE_PKTS,
	BRAID_MET_GW_LINK_RX_PKTS,
	BRAID_MET_GW_LINK_TX_PKTS,
	/* a multipath session's paths (the paths[] objects) */
	BRAID_MET_PATH_STATE,
	BRAID_MET_PATH_BACKUP,
	BRAID_MET_PATH_RTT,
	BRAID_MET_PATH_SRTT,
	BRAID_MET_PATH_MIN_RTT,
	BRAID_MET_PATH_LOSS,
	BRAID_MET_PATH_TX_RATE,
	BRAID_MET_PATH_RX_RATE,
	BRAID_MET_PATH_SHARE,
	BRAID_MET_PATH_CAPACITY,
	BRAID_MET_PATH_LAST_RX,
	BRAID_MET_PATH_TX_PKTS,
	BRAID_MET_PATH_TX_BYTES,
	BRAID_MET_PATH_RX_PKTS,
	BRAID_MET_PATH_RX_BYTES,
	BRAID_MET_PATH_WIRE_TX_PKTS,
	BRAID_MET_PATH_WIRE_TX_BYTES,
	BRAID_MET_PATH_WIRE_RX_PKTS,
	BRAID_MET_PATH_WIRE_RX_BYTES,
	BRAID_MET_PATH_LOST_PKTS,
	BRAID_MET_PATH_RESENT_PKTS,
	BRAID_MET_PATH_FAILURES,
	BRAID_MET_PATH_VALIDATIONS,
	BRAID_MET_PATH_REBINDS,
	/* the endpoint itself */
	BRAID_MET_HTTP_REQUESTS,	/* label code */
	BRAID_MET_HTTP_REJECTED,	/* label reason */
	BRAID_MET_N
};

struct braid_met_family {
	const char *name;		/* e.g. "braid_path_rtt_seconds" */
	enum braid_met_type type;
	const char *unit;		/* OpenMetrics UNIT (the name's suffix), or NULL */
	const char *help;
};

const struct braid_met_family *braid_met_family(enum braid_met_id id);

struct braid_met_sample {
	enum braid_met_id id;
	int lset;			/* label set index, -1: none */
	bool is_u;			/* value in u (exact), else in d */
	uint64_t u;
	double d;
};

struct braid_met_snap {
	struct braid_met_sample *s;
	size_t n, cap;
	char **lsets;			/* "k=\"v\",k2=\"v2\"" (escaped), owned */
	size_t nl, capl;
	int err;			/* -ENOMEM once an add failed (the scrape answers 500) */
};

void braid_met_snap_init(struct braid_met_snap *m);
void braid_met_snap_free(struct braid_met_snap *m);

/*
 * A label set: parent's labels (-1: none) followed by the NULL-terminated
 * pairs of name and value (values escaped; bytes that are not UTF-8 become
 * '?'). Its index, or -1 (and m->err) on ENOMEM.
 */
int braid_met_lset(struct braid_met_snap *m, int parent, ...) __attribute__((sentinel));

void braid_met_u(struct braid_met_snap *m, enum braid_met_id id, int lset, uint64_t v);
void braid_met_d(struct braid_met_snap *m, enum braid_met_id id, int lset, double v);

/*
 * A multipath session's numbers through the data path's ops (the same the
 * status JSON prints): one path row per path with labels path, dev, local,
 * remote under lset, and the session's path count, paths up, failovers.
 */
void braid_met_dp(struct braid_met_snap *m, int lset, const struct braid_dp *dp);

/*
 * The process's start (Unix time) and uptime in seconds, from
 * /proc/self/stat and CLOCK_BOOTTIME; without /proc (after a chroot) from
 * the start an earlier call read. 0 or -errno.
 */
int braid_met_process_times(double *start, double *uptime);

/* The status JSON's "failovers" of a session: its paths' failures. */
uint64_t braid_met_failovers(const struct braid_dp *dp);

#endif /* BRAID_METRICS_SNAP_H */
