/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics_fmt.h - a scrape (metrics_snap.h) as text: OpenMetrics 1.0.0
 * (`# TYPE`, `# UNIT`, `# HELP` per family, counters as NAME_total, infos
 * as NAME_info, `# EOF` at the end) or the Prometheus text format 0.0.4 (the
 * same samples; no UNIT, no EOF, an info is a gauge NAME_info).
 */
#ifndef BRAID_METRICS_FMT_H
#define BRAID_METRICS_FMT_H

#include <stdbool.h>
#include <stdio.h>

#include "control/metrics_snap.h"

#define BRAID_MET_CT_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"
#define BRAID_MET_CT_PROMETHEUS "text/plain; version=0.0.4; charset=utf-8"

/* Write m to f, every family with a sample, in the order of enum braid_met_id. */
void braid_met_write(FILE *f, const struct braid_met_snap *m, bool openmetrics);

#endif /* BRAID_METRICS_FMT_H */
