/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_class.h - what braidd does with each directive it accepts, and with
 * each option a server may push: applied, checked (validated, no run-time
 * effect), a documented no-op, refused, or only valid in a client-config-dir
 * file. No accepted option may be silently ignored: tests/unit/config
 * (test_option_classes) walks the directive table and the pushed-option list
 * against these tables, and checks the no-op table of docs/braidd.md.
 */
#ifndef BRAID_OPTIONS_CLASS_H
#define BRAID_OPTIONS_CLASS_H

#include <stddef.h>

enum braid_opt_class {
	BRAID_OPTC_NONE = 0,	/* unclassified: a test failure */
	BRAID_OPTC_APPLIED,	/* what: the fields/identifiers the run time reads (space-separated) */
	BRAID_OPTC_CHECKED,	/* validated (bad values refused); what: why it has no other effect */
	BRAID_OPTC_NOOP,	/* accepted, logged, no effect; what: why */
	BRAID_OPTC_REFUSED,	/* always an error naming file and line; what: the message */
	BRAID_OPTC_CCD,		/* client-config-dir files only (ccd.c); refused in the config */
	BRAID_OPTC_PARSER,	/* changes how the config is read (ignore-unknown-option) */
};

struct braid_opt_class_entry {
	const char *name;
	enum braid_opt_class cls;
	const char *what;
};

/* The config directives' classes (one per row of the directive table), and their count. */
const struct braid_opt_class_entry *braid_options_classes(size_t *n);
/* One directive's entry, or NULL. */
const struct braid_opt_class_entry *braid_options_class(const char *name);
/* The options a server may push (push.c) and what the TLS client does with each. */
const struct braid_opt_class_entry *braid_push_classes(size_t *n);
/* One pushed option's entry, or NULL. */
const struct braid_opt_class_entry *braid_push_class(const char *name);
/* "applied", "checked", "no-op", "refused", "ccd", "parser" or "unclassified". */
const char *braid_options_class_name(enum braid_opt_class c);

/* Directive table access for the tests: the count and the i-th name. */
size_t braid_options_table_size(void);
const char *braid_options_table_name(size_t i);

#endif /* BRAID_OPTIONS_CLASS_H */
