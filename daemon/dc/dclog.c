// SPDX-License-Identifier: GPL-2.0-only
/*
 * dclog.c - the log sink of the data-channel library.
 */
#include "dclog.h"

#include <stdarg.h>
#include <stdio.h>

static void default_sink(int level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level <= BRAID_DC_LOG_INFO)
		fprintf(stderr, "braid-dc: %s\n", msg);
}

static braid_dc_log_fn sink = default_sink;
static void *sink_ctx;

void braid_dc_log_set(braid_dc_log_fn fn, void *ctx)
{
	sink = fn ? fn : default_sink;
	sink_ctx = fn ? ctx : NULL;
}

void braid_dc_log(int level, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sink(level, line, sink_ctx);
}
