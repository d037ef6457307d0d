// SPDX-License-Identifier: GPL-2.0-only
/*
 * log.c - leveled logging to stderr, a file or syslog; timestamped, or not
 * (suppress-timestamps, the systemd journal), or OpenVPN's machine-readable
 * form.
 */
#include "util/log.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

static int log_verb = BRAID_LOG_VERB_DEFAULT;
static FILE *log_file; /* NULL = stderr */
static bool log_syslog, log_no_stamp, log_machine, log_journal;
static braid_log_hook_fn log_hook;
static void *log_hook_ctx;
static pthread_t log_hook_thread;	/* the hook runs on the thread that set it (the gateway's workers) */
static pthread_mutex_t log_hook_lk = PTHREAD_MUTEX_INITIALIZER;	/* the hook, its thread, early[] */

#define EARLY_MAX 64
static struct {
	int level;
	char *msg;
} early[EARLY_MAX];
static unsigned early_n, early_keep;

/* lines of other threads than the hook's, for braid_log_drain */
#define FOREIGN_MAX 256
struct log_line {
	int level;
	char *msg;
};
static struct log_line foreign[FOREIGN_MAX];
static unsigned foreign_n;
static void (*log_wake)(void *ctx);
static void *log_wake_ctx;

static void foreign_free(unsigned n, struct log_line *q)
{
	for (unsigned i = 0; i < n; i++)
		free(q[i].msg);
}

void braid_log_set_wake(void (*wake)(void *ctx), void *ctx)
{
	pthread_mutex_lock(&log_hook_lk);
	log_wake = wake;
	log_wake_ctx = ctx;
	if (!wake) {
		foreign_free(foreign_n, foreign);
		foreign_n = 0;
	}
	pthread_mutex_unlock(&log_hook_lk);
}

void braid_log_drain(void)
{
	static struct log_line q[FOREIGN_MAX];	/* the hook's thread only */
	braid_log_hook_fn fn;
	void *ctx;
	unsigned n;
	bool mine;

	pthread_mutex_lock(&log_hook_lk);
	n = foreign_n;
	memcpy(q, foreign, n * sizeof(q[0]));
	foreign_n = 0;
	fn = log_hook;
	ctx = log_hook_ctx;
	mine = pthread_equal(pthread_self(), log_hook_thread);
	pthread_mutex_unlock(&log_hook_lk);
	for (unsigned i = 0; i < n && fn && mine; i++)	/* outside the lock: the hook may log */
		fn(ctx, q[i].level, q[i].msg);
	foreign_free(n, q);
}

void braid_log_keep_early(unsigned n)
{
	early_keep = n < EARLY_MAX ? n : EARLY_MAX;
}

void braid_log_set_hook(braid_log_hook_fn fn, void *ctx)
{
	unsigned n;

	pthread_mutex_lock(&log_hook_lk);
	log_hook = fn;
	log_hook_ctx = ctx;
	log_hook_thread = pthread_self();
	n = early_n;
	early_n = early_keep = 0;	/* only the first hook gets them */
	pthread_mutex_unlock(&log_hook_lk);
	for (unsigned i = 0; i < n; i++) {	/* outside the lock: the hook may log */
		if (fn)
			fn(ctx, early[i].level, early[i].msg);
		free(early[i].msg);
		early[i].msg = NULL;
	}
}

void braid_log_set_verb(int verb)
{
	if (verb < 0)
		verb = 0;
	if (verb > BRAID_LOG_VERB_MAX)
		verb = BRAID_LOG_VERB_MAX;
	log_verb = verb;
}

int braid_log_get_verb(void)
{
	return log_verb;
}

bool braid_log_enabled(int level)
{
	return log_verb >= level;
}

int braid_log_open_file(const char *path, bool append)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0640);
	FILE *f;

	if (fd < 0)
		return -errno;
	f = fdopen(fd, append ? "a" : "w");
	if (!f) {
		int e = -errno;

		close(fd);
		return e;
	}
	setvbuf(f, NULL, _IOLBF, 0);
	braid_log_close();
	log_file = f;
	return 0;
}

void braid_log_close(void)
{
	if (log_file)
		fclose(log_file);
	log_file = NULL;
}

void braid_log_set_format(bool timestamps, bool machine_readable)
{
	log_no_stamp = !timestamps;
	log_machine = machine_readable;
}

void braid_log_open_syslog(const char *ident)
{
	static char id[64];	/* openlog keeps the pointer */

	snprintf(id, sizeof(id), "%s", ident);
	openlog(id, LOG_PID | LOG_NDELAY, LOG_DAEMON);
	log_syslog = true;
}

/* systemd's JOURNAL_STREAM is "DEV:INODE" of the stream it connected to stderr. */
bool braid_log_detect_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	log_journal = js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && !fstat(STDERR_FILENO, &st) &&
		      (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino;
	return log_journal;
}

static int syslog_prio(int level)
{
	if (level <= BRAID_LOG_ERR)
		return LOG_ERR;
	if (level <= BRAID_LOG_WARN)
		return LOG_WARNING;
	if (level <= BRAID_LOG_INFO)
		return LOG_INFO;
	return LOG_DEBUG;
}

/* OpenVPN's message flags in machine-readable lines: M_NONFATAL 0x20, M_WARN 0x40, + the verb. */
static unsigned int mr_flags(int level)
{
	if (level <= BRAID_LOG_ERR)
		return 0x20;
	if (level <= BRAID_LOG_WARN)
		return 0x40 | (unsigned int)level;
	return (unsigned int)level;
}

static const char *level_name(int level)
{
	if (level <= BRAID_LOG_ERR)
		return "error";
	if (level <= BRAID_LOG_WARN)
		return "warn";
	if (level <= BRAID_LOG_INFO)
		return "info";
	return "debug";
}

static void log_line(int level, const char *msg)
{
	struct timespec ts;
	struct tm tm;
	char stamp[32];
	FILE *out = log_file ? log_file : stderr;

	if (log_syslog && !log_file) {
		syslog(syslog_prio(level), "%s", msg);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	if (log_machine) {	/* as OpenVPN: "SECONDS.MICROSECONDS FLAGS message" */
		fprintf(out, "%lld.%06ld %x %s\n", (long long)ts.tv_sec, ts.tv_nsec / 1000,
			mr_flags(level), msg);
		fflush(out);
		return;
	}
	if (log_journal && !log_file) {	/* the journal stamps; "<N>" is the line's priority */
		fprintf(out, "<%d>%s\n", syslog_prio(level), msg);
		fflush(out);
		return;
	}
	if (log_no_stamp) {
		fprintf(out, "[%s] %s\n", level_name(level), msg);
		fflush(out);
		return;
	}
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S", &tm);
	/* one fprintf per line: lines from one process never interleave */
	fprintf(out, "%s.%03ld [%s] %s\n", stamp, ts.tv_nsec / 1000000, level_name(level), msg);
	fflush(out);
}

void braid_log(int level, const char *fmt, ...)
{
	char msg[1024];
	braid_log_hook_fn fn;
	void *ctx, *wctx = NULL;
	void (*wake)(void *ctx);
	bool mine;
	va_list ap;

	if (!braid_log_enabled(level))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	log_line(level, msg);
	pthread_mutex_lock(&log_hook_lk);
	fn = log_hook;
	ctx = log_hook_ctx;
	mine = pthread_equal(pthread_self(), log_hook_thread);
	if (!fn && early_n < early_keep && (early[early_n].msg = strdup(msg)))
		early[early_n++].level = level;
	wake = NULL;
	if (fn && !mine && log_wake && foreign_n < FOREIGN_MAX &&
	    (foreign[foreign_n].msg = strdup(msg))) {
		foreign[foreign_n++].level = level;
		wake = log_wake;
		wctx = log_wake_ctx;
	}
	pthread_mutex_unlock(&log_hook_lk);
	if (fn && mine)	/* outside the lock: the hook may log */
		fn(ctx, level, msg);
	else if (wake)
		wake(wctx);
}

