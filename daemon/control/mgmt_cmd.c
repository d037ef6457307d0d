// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_cmd.c - the management interface's commands (see mgmt_cmd.h). The
 * replies and error texts are stock 2.6.14's (captured from
 * /usr/sbin/openvpn, see docs/management.md); a command braidd cannot
 * serve keeps stock's "ERROR: ..." shape and says why.
 */
#include "control/mgmt_cmd.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "control/mgmt_braid.h"
#include "control/mgmt_conn.h"
#include "control/mgmt_remote.h"
#include "util/log.h"

#define NOT_MODE "ERROR: The '%s' command is not supported by the current daemon mode"

const char *braid_mgmt_title(void)
{
	return "OpenVPN 2.6.14 x86_64-pc-linux-gnu [SSL (OpenSSL)] [EPOLL] [MH/PKTINFO] [AEAD] "
	       "[Braid " BRAID_VERSION_STR "]";
}

static const char *const help_text[] = {
	"Commands:",
	"auth-retry t           : Auth failure retry mode (none,interact,nointeract).",
	"bytecount n            : Show bytes in/out, update every n secs (0=off).",
	"echo [on|off] [N|all]  : Like log, but only show messages in echo buffer.",
	"cr-response response   : Send a challenge response answer via CR_RESPONSE to server",
	"exit|quit              : Close management session.",
	"forget-passwords       : Forget passwords entered so far.",
	"help                   : Print this message.",
	"hold [on|off|release]  : Set/show hold flag to on/off state, or",
	"                         release current hold and start tunnel.",
	"kill cn                : Kill the client instance(s) having common name cn.",
	"kill IP:port           : Kill the client instance connecting from IP:port.",
	"load-stats             : Show global server load stats.",
	"log [on|off] [N|all]   : Turn on/off realtime log display",
	"                         + show last N lines or 'all' for entire history.",
	"mute [n]               : Set log mute level to n, or show level if n is absent.",
	"needok type action     : Enter confirmation for NEED-OK request of 'type',",
	"                         where action = 'ok' or 'cancel'.",
	"needstr type action    : Enter confirmation for NEED-STR request of 'type',",
	"                         where action is reply string.",
	"net                    : (Windows only) Show network info and routing table.",
	"password type p        : Enter password p for a queried OpenVPN password.",
	"remote type [host port] : Override remote directive, type=ACCEPT|MOD|SKIP.",
	"remote-entry-count     : Get number of available remote entries.",
	"remote-entry-get  i|all [j]: Get remote entry at index = i to to j-1 or all.",
	"proxy type [host port flags] : Enter dynamic proxy server info.",
	"pid                    : Show process ID of the current OpenVPN process.",
	"pkcs11-id-count        : Get number of available PKCS#11 identities.",
	"pkcs11-id-get index    : Get PKCS#11 identity at index.",
	"client-auth CID KID    : Authenticate client-id/key-id CID/KID (MULTILINE)",
	"client-auth-nt CID KID : Authenticate client-id/key-id CID/KID",
	"client-deny CID KID R [CR] : Deny auth client-id/key-id CID/KID with log reason",
	"                             text R and optional client reason text CR",
	"client-pending-auth CID KID MSG timeout : Instruct OpenVPN to send AUTH_PENDING and INFO_PRE msg",
	"                                      to the client and wait for a final client-auth/client-deny",
	"client-kill CID [M]    : Kill client instance CID with message M (def=RESTART)",
	"env-filter [level]     : Set env-var filter level",
	"rsa-sig                : Enter a signature in response to >RSA_SIGN challenge",
	"                         Enter signature base64 on subsequent lines followed by END",
	"pk-sig                 : Enter a signature in response to >PK_SIGN challenge",
	"                         Enter signature base64 on subsequent lines followed by END",
	"certificate            : Enter a client certificate in response to >NEED-CERT challenge",
	"                         Enter certificate base64 on subsequent lines followed by END",
	"signal s               : Send signal s to daemon,",
	"                         s = SIGHUP|SIGTERM|SIGUSR1|SIGUSR2.",
	"state [on|off] [N|all] : Like log, but show state history.",
	"status [n]             : Show current daemon status info using format #n.",
	"test n                 : Produce n lines of output for testing/debugging.",
	"username type u        : Enter username u for a queried OpenVPN username.",
	"verb [n]               : Set log verbosity level to n, or show if n is absent.",
	"version [n]            : Set client's version to n or show current version of daemon.",
	"END",
};

static void need_msg(struct mgmt_conn *k, const char *cmd, int n, bool at_least)
{
	mgmt_printf(k, "ERROR: the '%s' command requires %s%d parameter%s", cmd,
		    at_least ? "at least " : "", n, n == 1 ? "" : "s");
}

#define NEED(n, least)                                                                             \
	do {                                                                                       \
		if (a->argc - 1 < (n)) {                                                           \
			mgmt_reject(k->m, BRAID_MGMT_REJ_ARGS, "a command without its parameters");\
			need_msg(k, a->argv[0], (n), (least));                                     \
			return;                                                                    \
		}                                                                                  \
	} while (0)

static bool parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	if (!s[0] || s[0] == '-' || s[0] == '+')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return !errno && !*end && *v <= max;
}

/* ---- history commands: log, echo, state ---- */

static void dump(struct mgmt_conn *k, const struct braid_mgmt_hist *h, size_t last)
{
	size_t from = last >= h->n ? 0 : h->n - last;

	for (size_t i = from; i < h->n; i++) {
		const struct braid_mgmt_hist_ent *e = braid_mgmt_hist_at(h, i);

		mgmt_printf(k, "%lld,%s", (long long)e->t, e->text);
	}
	mgmt_printf(k, "END");
}

static void cmd_history(struct mgmt_conn *k, const struct braid_mgmt_argv *a, const char *what,
			bool *rt, const struct braid_mgmt_hist *h)
{
	unsigned long n;

	if (a->argc == 1 && !strcmp(what, "state")) {
		dump(k, h, 1);
		return;
	}
	NEED(1, true);
	for (int i = 1; i < a->argc && i <= 2; i++) {
		const char *p = a->argv[i];

		if (!strcmp(p, "on") || !strcmp(p, "off")) {
			*rt = p[1] == 'n';
			mgmt_printf(k, "SUCCESS: real-time %s notification set to %s", what,
				    *rt ? "ON" : "OFF");
		} else if (!strcmp(p, "all")) {
			dump(k, h, SIZE_MAX);
		} else if (parse_uint(p, ULONG_MAX, &n)) {
			dump(k, h, n);
		} else {
			mgmt_reject(k->m, BRAID_MGMT_REJ_ARGS, "bad '%s' parameter", what);
			mgmt_printf(k, "ERROR: %s parameter must be 'on' or 'off' or some number n "
				    "or 'all'", what);
			return;
		}
	}
}

/* ---- the client's commands ---- */

static void cmd_hold(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;

	if (a->argc == 1) {
		mgmt_printf(k, "SUCCESS: hold=%d", m->hold ? 1 : 0);
	} else if (!strcmp(a->argv[1], "on") || !strcmp(a->argv[1], "off")) {
		m->hold = a->argv[1][1] == 'n';
		mgmt_printf(k, "SUCCESS: hold flag set to %s", m->hold ? "ON" : "OFF");
	} else if (!strcmp(a->argv[1], "release")) {
		bool was = m->holding;

		m->holding = false;
		mgmt_printf(k, "SUCCESS: hold release succeeded");
		if (was && m->ops.hold_release)
			m->ops.hold_release(m->ops.user);
	} else {
		mgmt_reject(m, BRAID_MGMT_REJ_ARGS, "bad hold parameter");
		mgmt_printf(k, "ERROR: bad hold command parameter");
	}
}

static void wipe(char **s)
{
	if (*s) {
		sodium_memzero(*s, strlen(*s));
		free(*s);
		*s = NULL;
	}
}

static void cmd_userpass(struct mgmt_conn *k, const struct braid_mgmt_argv *a, bool pass)
{
	struct braid_mgmt *m = k->m;
	char **slot = pass ? &m->q_pass : &m->q_user;

	NEED(2, false);
	if (!m->pw_wanted || strcmp(a->argv[1], m->pw_type)) {
		mgmt_printf(k, "ERROR: no %s is currently needed at this time",
			    pass ? "password" : "username");
		return;
	}
	wipe(slot);
	*slot = strdup(a->argv[2]);
	if (!*slot) {
		mgmt_printf(k, "ERROR: out of memory");
		return;
	}
	mgmt_printf(k, "SUCCESS: '%s' %s entered, but not yet verified", m->pw_type,
		    pass ? "password" : "username");
	if (m->q_user && m->q_pass) {
		m->pw_wanted = false;
		if (m->ops.credentials)
			m->ops.credentials(m->ops.user, m->pw_type, m->q_user, m->q_pass);
		wipe(&m->q_user);
		wipe(&m->q_pass);
	}
}

static void cmd_signal(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	static const struct { const char *name; int sig; } sigs[] = {
		{ "SIGHUP", SIGHUP }, { "SIGTERM", SIGTERM }, { "SIGUSR1", SIGUSR1 },
		{ "SIGUSR2", SIGUSR2 }, { "SIGINT", SIGINT },
	};
	struct braid_mgmt *m = k->m;

	NEED(1, false);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (strcmp(a->argv[1], sigs[i].name))
			continue;
		mgmt_printf(k, "SUCCESS: signal %s thrown", sigs[i].name);
		if (m->ops.signal)
			m->ops.signal(m->ops.user, sigs[i].sig);
		else
			raise(sigs[i].sig);	/* the role's ev_signal handler takes it */
		return;
	}
	mgmt_reject(m, BRAID_MGMT_REJ_ARGS, "unknown signal");
	mgmt_printf(k, "ERROR: signal '%s' is not a known signal type", a->argv[1]);
}

static void cmd_status(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;
	unsigned long v = 0;	/* none given: the role's default (status-version) */
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	if (a->argc > 1 && (!parse_uint(a->argv[1], 3, &v) || !v))
		v = 1;	/* stock: any other value is the default format */
	f = open_memstream(&buf, &len);
	if (!f) {
		mgmt_printf(k, "ERROR: out of memory");
		return;
	}
	r = m->ops.status ? m->ops.status(m->ops.user, (int)v, f) : -EOPNOTSUPP;
	if (fclose(f))
		r = -ENOMEM;
	if (r) {
		mgmt_printf(k, NOT_MODE, "status");
	} else {
		/* the role writes LF lines: sent with CRLF */
		for (char *p = buf, *nl; p && *p; p = nl ? nl + 1 : NULL) {
			nl = strchr(p, '\n');
			mgmt_printf(k, "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		}
		mgmt_printf(k, "END");
	}
	free(buf);
}

static void cmd_load_stats(struct mgmt_conn *k)
{
	struct braid_mgmt *m = k->m;
	unsigned n = 0;
	uint64_t in = 0, out = 0;

	if (m->ops.load_stats)
		m->ops.load_stats(m->ops.user, &n, &in, &out);
	mgmt_printf(k, "SUCCESS: nclients=%u,bytesin=%llu,bytesout=%llu", n,
		    (unsigned long long)in, (unsigned long long)out);
}

/* ---- the gateway's commands ---- */

static void cmd_kill(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;
	const char *arg, *colon;
	unsigned n = 0;
	int r;

	NEED(1, false);
	if (!m->ops.gateway || !m->ops.kill) {
		mgmt_printf(k, NOT_MODE, "kill");
		return;
	}
	arg = a->argv[1];
	colon = strrchr(arg, ':');
	if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		r = m->ops.kill(m->ops.user, BRAID_MGMT_KILL_ADDR, arg, NULL, &n);
		if (!r && n)
			mgmt_printf(k, "SUCCESS: %u client(s) at address %s killed", n, arg);
		else
			mgmt_printf(k, "ERROR: client at address %s not found", arg);
		return;
	}
	r = m->ops.kill(m->ops.user, BRAID_MGMT_KILL_CN, arg, NULL, &n);
	if (!r && n)
		mgmt_printf(k, "SUCCESS: common name '%s' found, %u client(s) killed", arg, n);
	else
		mgmt_printf(k, "ERROR: common name '%s' not found", arg);
}

static void cmd_client_kill(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;
	unsigned long cid;
	unsigned n = 0;

	NEED(1, true);
	if (!m->ops.gateway || !m->ops.kill) {
		mgmt_printf(k, NOT_MODE, "client-kill");
		return;
	}
	if (parse_uint(a->argv[1], ULONG_MAX, &cid) &&
	    !m->ops.kill(m->ops.user, BRAID_MGMT_KILL_CID, a->argv[1],
			 a->argc > 2 ? a->argv[2] : NULL, &n) && n)
		mgmt_printf(k, "SUCCESS: client-kill command succeeded");
	else
		mgmt_printf(k, "ERROR: client-kill command failed");
}

/* client-auth (after its END), client-auth-nt, client-deny */
static void client_auth(struct mgmt_conn *k, const char *cmd, const char *cid_s, const char *kid_s,
			bool ok, const char *reason, const char *creason, const char *config)
{
	struct braid_mgmt *m = k->m;
	unsigned long cid, kid;
	const char *name = !strcmp(cmd, "client-deny") ? "client-deny" : "client-auth";

	if (!m->ops.gateway || !m->ops.client_auth) {
		mgmt_printf(k, NOT_MODE, name);
		return;
	}
	mgmt_defer(m, true);	/* >CLIENT:ADDRESS/ESTABLISHED come after the reply, as stock */
	if (parse_uint(cid_s, ULONG_MAX, &cid) && parse_uint(kid_s, UINT_MAX, &kid) &&
	    !m->ops.client_auth(m->ops.user, cid, (unsigned)kid, ok, reason, creason, config))
		mgmt_printf(k, "SUCCESS: %s command succeeded", name);
	else
		mgmt_printf(k, "ERROR: %s command failed", name);
	mgmt_defer(m, false);
}

/* a line of a client-auth block: collect until END */
static void multiline(struct mgmt_conn *k, const char *line, size_t len)
{
	char cid[24], kid[24];

	if (len == 3 && !memcmp(line, "END", 3)) {
		k->ml = false;
		snprintf(cid, sizeof(cid), "%lu", k->ml_cid);
		snprintf(kid, sizeof(kid), "%u", k->ml_kid);
		client_auth(k, "client-auth", cid, kid, true, NULL, NULL,
			    k->ml_buf ? k->ml_buf : "");
		free(k->ml_buf);
		k->ml_buf = NULL;
		k->ml_len = 0;
		return;
	}
	if (k->ml_len + len + 2 > MGMT_MULTILINE_MAX) {
		mgmt_reject(k->m, BRAID_MGMT_REJ_TOO_LONG, "client-auth block over %u bytes",
			    MGMT_MULTILINE_MAX);
		return;
	}
	{
		char *p = realloc(k->ml_buf, k->ml_len + len + 2);

		if (!p)
			return;
		k->ml_buf = p;
		memcpy(p + k->ml_len, line, len);
		k->ml_len += len;
		p[k->ml_len++] = '\n';
		p[k->ml_len] = '\0';
	}
}

/* cr-response B64: the answer to the server's challenge, as the control message CR_RESPONSE */
static void cmd_cr_response(struct mgmt_conn *k, const struct braid_mgmt_argv *a)
{
	struct braid_mgmt *m = k->m;
	int r;

	NEED(1, false);
	if (!m->ops.cr_response) {
		mgmt_printf(k, "ERROR: The command is not supported by the current daemon mode");
		return;
	}
	if (braid_cr_b64_check(a->argv[1], strlen(a->argv[1]))) {
		mgmt_reject(m, BRAID_MGMT_REJ_ARGS, "cr-response: not base64 or longer than %d bytes",
			    BRAID_CR_RESPONSE_MAX);
		mgmt_printf(k, "ERROR: cr-response: the response must be base64 (at most %d bytes)",
			    BRAID_CR_RESPONSE_MAX);
		return;
	}
	r = m->ops.cr_response(m->ops.user, a->argv[1]);
	if (r)
		mgmt_printf(k, "ERROR: failed to send message");
	else
		mgmt_printf(k, "SUCCESS: command succeeded");
}

/* ---- dispatch ---- */

/* Stock logs each command ("MANAGEMENT: CMD '...'", a password masked). */
static void log_cmd(struct mgmt_conn *k, const struct braid_mgmt_argv *a, const char *line,
		    size_t len)
{
	char text[BRAID_MGMT_LINE_MAX + 32];

	if (a->argc && !strcmp(a->argv[0], "password"))
		snprintf(text, sizeof(text), "MANAGEMENT: CMD 'password [...]'");
	else
		snprintf(text, sizeof(text), "MANAGEMENT: CMD '%.*s'", (int)len, line);
	mgmt_log_add(k->m, "D", text);
}

static void unavailable(struct mgmt_conn *k, const char *cmd, const char *why)
{
	mgmt_printf(k, "ERROR: The '%s' command is not supported by braidd: %s", cmd, why);
}

void mgmt_cmd_line(struct mgmt_conn *k, const char *line, size_t len)
{
	struct braid_mgmt *m = k->m;
	struct braid_mgmt_argv a;
	enum braid_mgmt_rej why;
	const char *c;
	unsigned long n;

	if (k->ml) {
		multiline(k, line, len);
		return;
	}
	if (braid_mgmt_split(line, len, &a, &why)) {
		mgmt_reject(m, why, "command refused");
		if (why == BRAID_MGMT_REJ_QUOTE)
			mgmt_printf(k, "ERROR: Options error: No closing quotation (\") in "
				    "management command");
		else if (why == BRAID_MGMT_REJ_TOO_MANY)
			mgmt_printf(k, "ERROR: too many parameters (max %d)",
				    BRAID_MGMT_ARGS_MAX - 1);
		else
			mgmt_printf(k, "ERROR: control characters in the command line");
		return;
	}
	if (!a.argc)
		return;	/* a blank line: stock answers nothing */
	log_cmd(k, &a, line, len);
	c = a.argv[0];
	if (mgmt_remote_cmd(k, &a))
		return;
	if (!strcmp(c, "help")) {
		mgmt_printf(k, "Management Interface for %s", braid_mgmt_title());
		for (size_t i = 0; i < sizeof(help_text) / sizeof(help_text[0]); i++)
			mgmt_printf(k, "%s", help_text[i]);
	} else if (!strcmp(c, "version")) {
		if (a.argc == 1)
			mgmt_printf(k, "OpenVPN Version: %s\r\nManagement Version: %d\r\nEND",
				    braid_mgmt_title(), BRAID_MGMT_VERSION);
		/* `version N` sets the client's version: stock answers nothing */
	} else if (!strcmp(c, "pid")) {
		mgmt_printf(k, "SUCCESS: pid=%d", (int)getpid());
	} else if (!strcmp(c, "exit") || !strcmp(c, "quit")) {
		mgmt_conn_end(k);
	} else if (!strcmp(c, "log")) {
		cmd_history(k, &a, "log", &k->log_rt, &m->log);
	} else if (!strcmp(c, "echo")) {
		cmd_history(k, &a, "echo", &k->echo_rt, &m->echo);
	} else if (!strcmp(c, "state")) {
		cmd_history(k, &a, "state", &k->state_rt, &m->state);
	} else if (!strcmp(c, "hold")) {
		cmd_hold(k, &a);
	} else if (!strcmp(c, "bytecount")) {
		if (a.argc < 2) {
			need_msg(k, c, 1, false);
			return;
		}
		mgmt_conn_bytecount(k, parse_uint(a.argv[1], 86400, &n) ? (unsigned)n : 0);
		mgmt_printf(k, "SUCCESS: bytecount interval changed");
	} else if (!strcmp(c, "status")) {
		cmd_status(k, &a);
	} else if (!strcmp(c, "load-stats")) {
		cmd_load_stats(k);
	} else if (!strcmp(c, "signal")) {
		cmd_signal(k, &a);
	} else if (!strcmp(c, "verb")) {
		if (a.argc == 1) {
			mgmt_printf(k, "SUCCESS: verb=%d", braid_log_get_verb());
		} else {
			braid_log_set_verb(parse_uint(a.argv[1], 11, &n) ? (int)n : 0);
			mgmt_printf(k, "SUCCESS: verb level changed");
		}
	} else if (!strcmp(c, "mute")) {
		/* braidd rate-limits its repeated lines itself: the level is shown, not used */
		if (a.argc == 1)
			mgmt_printf(k, "SUCCESS: mute=0");
		else
			mgmt_printf(k, "SUCCESS: mute level changed");
	} else if (!strcmp(c, "username") || !strcmp(c, "password")) {
		cmd_userpass(k, &a, c[0] == 'p');
	} else if (!strcmp(c, "forget-passwords")) {
		wipe(&m->q_user);
		wipe(&m->q_pass);
		mgmt_printf(k, "SUCCESS: Passwords were forgotten");
	} else if (!strcmp(c, "auth-retry")) {
		/* braidd's AUTH_FAILED policy is auth-retry none's: the mode is kept and shown */
		if (a.argc == 1) {
			mgmt_printf(k, "SUCCESS: auth-retry=none");
		} else if (!strcmp(a.argv[1], "none") || !strcmp(a.argv[1], "interact") ||
			 !strcmp(a.argv[1], "nointeract"))
			mgmt_printf(k, "SUCCESS: auth-retry parameter changed");
		else {
			/* stock prints its option parser's message first */
			mgmt_printf(k, "--auth-retry method must be 'interact', 'nointeract', or "
				    "'none'");
			mgmt_printf(k, "ERROR: bad auth-retry parameter");
		}
	} else if (!strcmp(c, "needok") || !strcmp(c, "needstr")) {
		if (a.argc < 3) {
			need_msg(k, c, 2, false);
			return;
		}
		mgmt_printf(k, "ERROR: no %s is currently needed at this time",
			    c[4] == 'o' ? "needok-confirmation" : "needstr-string");
	} else if (!strcmp(c, "env-filter")) {
		mgmt_printf(k, "SUCCESS: env_filter_level=%d",
			    a.argc > 1 && parse_uint(a.argv[1], 100, &n) ? (int)n : 0);
	} else if (!strcmp(c, "kill")) {
		cmd_kill(k, &a);
	} else if (!strcmp(c, "client-kill")) {
		cmd_client_kill(k, &a);
	} else if (!strcmp(c, "client-auth") || !strcmp(c, "client-auth-nt")) {
		if (a.argc < 3) {
			need_msg(k, c, 2, false);
			return;
		}
		if (c[11] == '-') {
			client_auth(k, c, a.argv[1], a.argv[2], true, NULL, NULL, NULL);
			return;
		}
		k->ml = true;	/* config lines follow, then END */
		k->ml_cid = parse_uint(a.argv[1], ULONG_MAX, &n) ? n : ULONG_MAX;
		k->ml_kid = parse_uint(a.argv[2], UINT_MAX, &n) ? (unsigned)n : UINT_MAX;
	} else if (!strcmp(c, "client-deny")) {
		if (a.argc < 4) {
			need_msg(k, c, 3, true);
			return;
		}
		client_auth(k, c, a.argv[1], a.argv[2], false, a.argv[3],
			    a.argc > 4 ? a.argv[4] : NULL, NULL);
	} else if (!strcmp(c, "net")) {
		mgmt_printf(k, "ERROR: Sorry, this command is currently only implemented on Windows");
	} else if (!strcmp(c, "rsa-sig") || !strcmp(c, "pk-sig") || !strcmp(c, "certificate")) {
		mgmt_printf(k, "ERROR: The %s command is not currently available (braidd has no "
			    "management-external-key/-cert)", c);
	} else if (!strncmp(c, "pkcs11-", 7)) {
		unavailable(k, c, "no PKCS#11 support");
	} else if (!strcmp(c, "proxy")) {
		unavailable(k, c, "no proxy support");
	} else if (!strcmp(c, "cr-response")) {
		cmd_cr_response(k, &a);
	} else if (!strcmp(c, "braid")) {
		mgmt_braid_cmd(k, &a);	/* the multipath extension */
	} else {
		mgmt_reject(m, BRAID_MGMT_REJ_UNKNOWN, "unknown command");
		mgmt_printf(k, "ERROR: unknown command, enter 'help' for more options");
	}
}
