/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dclog.h - the log sink of the data-channel library.
 *
 * The library has no logger of its own: it formats one line per event and
 * hands it to a sink the daemon installs (default: stderr). Key material is
 * never passed to the sink.
 */
#ifndef BRAID_DC_DCLOG_H
#define BRAID_DC_DCLOG_H

enum braid_dc_log_level {
	BRAID_DC_LOG_ERR = 3,
	BRAID_DC_LOG_WARN = 4,
	BRAID_DC_LOG_INFO = 6,
	BRAID_DC_LOG_DEBUG = 7,
};

typedef void (*braid_dc_log_fn)(int level, const char *msg, void *ctx);

/* Install a sink; NULL restores the default (stderr, levels <= INFO). */
void braid_dc_log_set(braid_dc_log_fn fn, void *ctx);

/* Library-internal: format and emit one line. */
void braid_dc_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* BRAID_DC_DCLOG_H */
