/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_statjson.h - the gateway's `status-json FILE [N]` file: one JSON object
 * with the gateway's counters and one object per client (its bytes, and for
 * a multipath client its scheduler, failovers, engine and paths in the same
 * shapes as the static-key status file, control/status.h), rewritten
 * atomically every N seconds by the tick, on SIGUSR2 and at exit.
 * docs/braidd.md "JSON status file" lists the fields.
 */
#ifndef BRAID_GW_STATJSON_H
#define BRAID_GW_STATJSON_H

#include <stdio.h>

struct braid_gateway;

/* The object to f. 0 or -ENOMEM. */
int braid_gw_status_json(const struct braid_gateway *g, FILE *f);
/* To the status-json file (nothing without one); failures logged. */
void braid_gw_status_json_write(const struct braid_gateway *g);

#endif /* BRAID_GW_STATJSON_H */
