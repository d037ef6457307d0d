/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * numparse.h - the one strict decimal parser for words read from configs, pushed options and control
 * lines: the whole word is a base-10 number (an optional '-' only when the range allows negatives, no '+',
 * no leading blank, no trailing byte), inside [lo, hi].
 */
#ifndef BRAID_NUMPARSE_H
#define BRAID_NUMPARSE_H

/* 0 and *out set; -EINVAL when s is not a number, -ERANGE when it is outside [lo, hi] (*out untouched). */
int braid_parse_long(const char *s, long lo, long hi, long *out);

/* The same for an int range. */
int braid_parse_int(const char *s, int lo, int hi, int *out);

#endif
