// SPDX-License-Identifier: GPL-2.0-only
/* ctlcmd.c - parse and execute control commands against the link model. */
#include "ctlcmd.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_TOKENS 16
#define MAX_REQ 512

/* Keys the control socket may change (the seed stays what the command line said). */
static const char *const set_keys[] = { "rate", "delay", "jitter", "loss", "ge", "qms", "qpkts", "batch" };

static bool settable(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof(set_keys) / sizeof(set_keys[0]); i++)
		if (!strcmp(key, set_keys[i]))
			return true;
	return false;
}

static enum ctl_action do_set(struct link *l, char **tok, int ntok, char *reply, size_t len)
{
	struct pe_params np = l->par;
	char err[200];
	int i, n;

	if (ntok < 2) {
		snprintf(reply, len, "error: set needs at least one key=value (rate delay jitter loss ge qms qpkts batch)");
		return CTL_NONE;
	}
	for (i = 1; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq || eq == tok[i]) {
			snprintf(reply, len, "error: set: '%.100s' is not key=value", tok[i]);
			return CTL_NONE;
		}
		*eq = '\0';
		if (!settable(tok[i])) {
			snprintf(reply, len, "error: set: unknown parameter '%.100s'", tok[i]);
			return CTL_NONE;
		}
		if (params_set(&np, tok[i], eq + 1, err, sizeof(err))) {
			snprintf(reply, len, "error: set: %s", err);
			return CTL_NONE;
		}
	}
	/* all valid: apply atomically */
	link_set_params(l, &np);
	n = snprintf(reply, len, "ok {");
	if (n > 0 && (size_t)n < len) {
		int m = params_json(&l->par, reply + n, len - (size_t)n);

		if (m > 0 && (size_t)(n + m) + 1 < len)
			strcpy(reply + n + m, "}");
	}
	return CTL_NONE;
}

enum ctl_action ctlcmd_exec(struct link *l, const char *req, char *reply, size_t len)
{
	char buf[MAX_REQ], *tok[MAX_TOKENS], *save = NULL, *t;
	int ntok = 0;
	size_t n;

	n = strlen(req);
	if (n >= sizeof(buf)) {
		snprintf(reply, len, "error: command longer than %d bytes", MAX_REQ - 1);
		return CTL_NONE;
	}
	memcpy(buf, req, n + 1);
	for (t = strtok_r(buf, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
		if (ntok == MAX_TOKENS) {
			snprintf(reply, len, "error: more than %d words", MAX_TOKENS);
			return CTL_NONE;
		}
		tok[ntok++] = t;
	}
	if (!ntok) {
		snprintf(reply, len, "error: empty command");
		return CTL_NONE;
	}
	if (!strcmp(tok[0], "set"))
		return do_set(l, tok, ntok, reply, len);

	if (strcmp(tok[0], "down") && strcmp(tok[0], "blackhole") && strcmp(tok[0], "up") &&
	    strcmp(tok[0], "stats") && strcmp(tok[0], "quit")) {
		snprintf(reply, len, "error: unknown command '%.100s' (set down blackhole up stats quit)", tok[0]);
		return CTL_NONE;
	}
	if (ntok > 1) {
		snprintf(reply, len, "error: '%s' takes no arguments, got '%.100s'", tok[0], tok[1]);
		return CTL_NONE;
	}
	if (!strcmp(tok[0], "down")) {
		size_t dropped;

		link_set_state(l, LINK_DOWN);
		dropped = link_flush(l);
		snprintf(reply, len, "ok down, dropped %zu queued", dropped);
		return dropped ? CTL_FLUSHED : CTL_NONE;
	}
	if (!strcmp(tok[0], "blackhole")) {
		link_set_state(l, LINK_BLACKHOLE);
		snprintf(reply, len, "ok blackhole, %zu queued still leave, %" PRIu64 " sent before", link_queued(l),
			 l->st.sent);
		return CTL_NONE;
	}
	if (!strcmp(tok[0], "up")) {
		link_set_state(l, LINK_UP);
		snprintf(reply, len, "ok up");
		return CTL_NONE;
	}
	if (!strcmp(tok[0], "stats")) {
		int m = snprintf(reply, len, "ok ");

		if (m > 0 && (size_t)m < len)
			link_stats_json(l, reply + m, len - (size_t)m);
		return CTL_NONE;
	}
	snprintf(reply, len, "ok bye");
	return CTL_QUIT;
}
