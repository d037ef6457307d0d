/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table.h - braidctl's human-readable output: sizes, addresses, the path
 * table and the gateway's client table (table.c), and their JSON forms.
 */
#ifndef BRAIDCTL_TABLE_H
#define BRAIDCTL_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "info.h"

/* "1.50 MiB" */
void table_bytes(char *b, size_t n, double v);
/* A unix time as local "YYYY-MM-DD HH:MM:SS" ("-" for 0). */
void table_time(char *b, size_t n, long long t);
/* The path table (one line per path object, then notes under it). */
void table_paths(const struct info_paths *ps, const char *indent);
/* {"paths":[...]} members: the daemon's objects as they came. */
void table_paths_json(FILE *f, const struct info_paths *ps);
/* The clients table / a JSON array of client objects. */
void table_clients(const struct info_client *cl, size_t n);
void table_clients_json(FILE *f, const struct info_client *cl, size_t n);

#endif
