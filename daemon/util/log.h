/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * log.h - leveled logging for braidd: stderr, a file or syslog, one line per
 * message.
 *
 * Levels follow OpenVPN's `verb 0..11`, mapped to four classes:
 *   verb 0      errors only
 *   verb 1..2   + warnings
 *   verb 3..4   + info (the default is verb 3)
 *   verb 5..11  + debug (per-packet events)
 * A line looks like "2026-11-22 10:00:00.123 [info] message"; "[info] message"
 * with suppress-timestamps; "<6>message" when stderr is the systemd journal
 * (JOURNAL_STREAM: the journal stamps and takes the priority); OpenVPN's
 * "1795696810.391227 3 message" with machine-readable-output (a log file and
 * machine-readable-output win over the journal form; syslog is used only
 * without a log file).
 * main.c routes the data-channel library's log sink here.
 * Secrets are never passed to the logger.
 */
#ifndef BRAID_LOG_H
#define BRAID_LOG_H

#include <stdbool.h>

/* The value is the smallest verb at which the class is printed. */
enum braid_log_level {
	BRAID_LOG_ERR = 0,
	BRAID_LOG_WARN = 1,
	BRAID_LOG_INFO = 3,
	BRAID_LOG_DEBUG = 5,
};

#define BRAID_LOG_VERB_MAX 11
#define BRAID_LOG_VERB_DEFAULT 3

void braid_log_set_verb(int verb);
int braid_log_get_verb(void);
bool braid_log_enabled(int level);

/* Log to path (truncate, or append) instead of stderr. 0 or -errno. */
int braid_log_open_file(const char *path, bool append);
/* Timestamps on stderr/file lines (suppress-timestamps), OpenVPN's machine-readable lines. */
void braid_log_set_format(bool timestamps, bool machine_readable);
/* Log to syslog as ident (facility daemon) unless a log file is open. */
void braid_log_open_syslog(const char *ident);
/* Is stderr the systemd journal (JOURNAL_STREAM)? Then lines carry "<N>" and no timestamp. */
bool braid_log_detect_journal(void);
/* Back to stderr; closes the file. */
void braid_log_close(void);

/*
 * A second sink (the management interface's log history): called with every
 * line that is printed, after it is printed. NULL removes it.
 */
typedef void (*braid_log_hook_fn)(void *ctx, int level, const char *msg);
void braid_log_set_hook(braid_log_hook_fn fn, void *ctx);
/*
 * Keep the first n (at most 64) lines printed before a hook is set; the
 * first hook gets them at once (the management interface's history then
 * starts at the process start, as stock's).
 */
void braid_log_keep_early(unsigned n);
/*
 * The hook runs on the thread that set it. Lines of other threads (the gateway's workers) are
 * queued for it (at most 256 waiting; more are not handed to the hook) and wake(ctx) is called
 * from the logging thread; the hook's thread then calls braid_log_drain, which hands them to the
 * hook. Without a wake function (NULL, the default) the hook sees only its own thread's lines.
 */
void braid_log_set_wake(void (*wake)(void *ctx), void *ctx);
void braid_log_drain(void);

void braid_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define braid_err(...) braid_log(BRAID_LOG_ERR, __VA_ARGS__)
#define braid_warn(...) braid_log(BRAID_LOG_WARN, __VA_ARGS__)
#define braid_info(...) braid_log(BRAID_LOG_INFO, __VA_ARGS__)
#define braid_dbg(...)                                                                             \
	do {                                                                                       \
		if (braid_log_enabled(BRAID_LOG_DEBUG))                                            \
			braid_log(BRAID_LOG_DEBUG, __VA_ARGS__);                                   \
	} while (0)

#endif /* BRAID_LOG_H */
