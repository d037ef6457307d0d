// SPDX-License-Identifier: GPL-2.0-only
/*
 * push_msg.c - the push/pull control messages (see push_msg.h): PUSH_REPLY
 * split into parts and accumulated from them, pull-filter and route-nopull,
 * and the classification of the other control messages.
 */
#include "session/push_msg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

#define PUSH_PREFIX "PUSH_REPLY"
#define CONT_MORE "push-continuation 2"
#define CONT_LAST "push-continuation 1"

void braid_push_list_clear(struct braid_push_list *l)
{
	for (unsigned int i = 0; i < l->n; i++)
		free(l->opt[i]);
	memset(l, 0, sizeof(*l));
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

int braid_push_accumulate(struct braid_push_list *l, const char *msg, char *err, size_t err_len)
{
	size_t plen = strlen(PUSH_PREFIX);
	bool more = false;
	char *copy, *p, *tok, *save = NULL;

	if (strncmp(msg, PUSH_PREFIX, plen) || (msg[plen] != '\0' && msg[plen] != ',')) {
		snprintf(err, err_len, "not a PUSH_REPLY: '%.40s'", msg);
		return -EBADMSG;
	}
	if (l->complete)
		braid_push_list_clear(l);
	copy = strdup(msg + plen);
	if (!copy) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	l->parts++;
	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		tok = trim(p);
		if (!*tok)
			continue;	/* ",," is tolerated as OpenVPN does */
		if (!strcmp(tok, CONT_MORE)) {
			more = true;
			continue;
		}
		if (!strcmp(tok, CONT_LAST)) {
			more = false;
			continue;
		}
		if (l->n >= BRAID_PUSH_MAX_OPTS) {
			snprintf(err, err_len, "PUSH_REPLY has more than %d options",
				 BRAID_PUSH_MAX_OPTS);
			free(copy);
			return -EBADMSG;
		}
		l->opt[l->n] = strdup(tok);
		if (!l->opt[l->n]) {
			free(copy);
			snprintf(err, err_len, "out of memory");
			return -ENOMEM;
		}
		l->n++;
	}
	free(copy);
	if (more)
		return 0;
	l->complete = true;
	return 1;
}

int braid_push_split(const char *const *opts, unsigned int n, size_t max_len,
		     int (*emit)(void *user, const char *msg), void *user)
{
	/* room reserved at the end of every message for the continuation marker */
	const size_t tail = 1 + strlen(CONT_MORE);
	char msg[BRAID_PUSH_MSG_MAX + 1];
	size_t len;
	unsigned int i = 0;
	bool first = true;
	int r;

	if (!max_len || max_len > BRAID_PUSH_MSG_MAX)
		max_len = BRAID_PUSH_MSG_MAX;
	for (unsigned int k = 0; k < n; k++) {
		if (strchr(opts[k], ','))
			return -EINVAL;
		if (strlen(PUSH_PREFIX) + 1 + strlen(opts[k]) + tail > max_len)
			return -EMSGSIZE;
	}
	/* everything in one message: no continuation marker at all */
	len = strlen(PUSH_PREFIX);
	for (unsigned int k = 0; k < n; k++)
		len += 1 + strlen(opts[k]);
	if (len <= max_len) {
		len = (size_t)snprintf(msg, sizeof(msg), "%s", PUSH_PREFIX);
		for (unsigned int k = 0; k < n; k++)
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, ",%s", opts[k]);
		return emit(user, msg);
	}
	while (i < n || first) {
		first = false;
		len = (size_t)snprintf(msg, sizeof(msg), "%s", PUSH_PREFIX);
		while (i < n && len + 1 + strlen(opts[i]) + tail <= max_len) {
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, ",%s", opts[i]);
			i++;
		}
		snprintf(msg + len, sizeof(msg) - len, ",%s", i < n ? CONT_MORE : CONT_LAST);
		r = emit(user, msg);
		if (r)
			return r;
	}
	return 0;
}

static bool route_nopull_drops(const char *opt)
{
	static const char *const names[] = { "route", "route-ipv6", "redirect-gateway",
					     "redirect-private", "dhcp-option", "dns",
					     "block-outside-dns", "route-gateway" };
	size_t l = strcspn(opt, " \t");

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == l && !strncmp(opt, names[i], l))
			return strcmp(names[i], "route-gateway") != 0;
	return false;
}

int braid_push_filter(struct braid_push_list *l, const struct braid_opt_pull_filter *rules,
		      unsigned int n_rules, bool route_nopull, char *err, size_t err_len)
{
	unsigned int w = 0;

	for (unsigned int i = 0; i < l->n; i++) {
		char *o = l->opt[i];
		bool keep = true;

		for (unsigned int k = 0; k < n_rules; k++) {
			if (strncmp(o, rules[k].text, strlen(rules[k].text)))
				continue;
			if (rules[k].action == BRAID_PF_REJECT) {
				snprintf(err, err_len, "pushed option rejected by pull-filter: '%s'",
					 o);
				/* keep the list consistent for the caller's clear */
				for (unsigned int j = i; j < l->n; j++)
					l->opt[w++] = l->opt[j];
				l->n = w;
				return -EPERM;
			}
			keep = rules[k].action == BRAID_PF_ACCEPT;
			if (!keep)
				braid_info("pushed option removed by pull-filter: '%s'", o);
			break;
		}
		if (keep && route_nopull && route_nopull_drops(o)) {
			braid_info("pushed option ignored (route-nopull): '%s'", o);
			keep = false;
		}
		if (keep)
			l->opt[w++] = o;
		else
			free(o);
	}
	l->n = w;
	return 0;
}

/* ---- other control messages ---- */

static bool has_prefix(const char *s, const char *p, const char **rest)
{
	size_t n = strlen(p);

	if (strncmp(s, p, n) || (s[n] != '\0' && s[n] != ','))
		return false;
	*rest = s[n] == ',' ? s + n + 1 : s + n;
	return true;
}

/* "[a,b,c]rest": calls fn for each flag; returns rest (after ']'), or s if no flag block */
static const char *flag_block(const char *s, struct braid_ctl_msg *m,
			      void (*fn)(struct braid_ctl_msg *m, const char *flag, size_t len))
{
	const char *end;

	if (s[0] != '[' || !(end = strchr(s, ']')))
		return s;
	for (const char *f = s + 1; f < end;) {
		const char *c = memchr(f, ',', (size_t)(end - f));
		size_t len = (size_t)((c ? c : end) - f);

		while (len && *f == ' ') {
			f++;
			len--;
		}
		fn(m, f, len);
		f += len + 1;
	}
	return end + 1;
}

static void temp_flag(struct braid_ctl_msg *m, const char *f, size_t len)
{
	char buf[64];
	int v;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, f);
	if (sscanf(buf, "backoff %d", &v) == 1 && v >= 0 && v <= 86400)
		m->backoff = v;
	else if (!strcmp(buf, "advance no"))
		m->advance = 0;
	else if (!strcmp(buf, "advance addr") || !strcmp(buf, "advance remote"))
		m->advance = 1;
}

static void restart_flag(struct braid_ctl_msg *m, const char *f, size_t len)
{
	if (memchr(f, 'N', len))
		m->next_remote = true;
}

void braid_ctl_msg_parse(const char *msg, struct braid_ctl_msg *out)
{
	const char *rest;

	memset(out, 0, sizeof(*out));
	out->backoff = out->advance = out->timeout = -1;
	out->text = "";
	if (has_prefix(msg, "PUSH_REQUEST", &rest)) {
		out->kind = BRAID_MSG_PUSH_REQUEST;
	} else if (has_prefix(msg, "PUSH_REPLY", &rest)) {
		out->kind = BRAID_MSG_PUSH_REPLY;
		out->text = rest;
	} else if (has_prefix(msg, "AUTH_FAILED", &rest)) {
		out->kind = BRAID_MSG_AUTH_FAILED;
		if (!strncmp(rest, "TEMP", 4)) {
			out->temp = true;
			rest = flag_block(rest + 4, out, temp_flag);
			if (*rest == ':')
				rest++;
		}
		out->text = rest;
	} else if (has_prefix(msg, "AUTH_PENDING", &rest)) {
		const char *t = strstr(rest, "timeout ");
		int v;

		out->kind = BRAID_MSG_AUTH_PENDING;
		if (t && sscanf(t, "timeout %d", &v) == 1 && v > 0 && v <= 86400)
			out->timeout = v;
		out->text = rest;
	} else if (has_prefix(msg, "RESTART", &rest)) {
		out->kind = BRAID_MSG_RESTART;
		out->text = flag_block(rest, out, restart_flag);
	} else if (has_prefix(msg, "HALT", &rest)) {
		out->kind = BRAID_MSG_HALT;
		out->text = rest;
	} else if (!strcmp(msg, "EXIT")) {
		out->kind = BRAID_MSG_EXIT;
	} else if (has_prefix(msg, "INFO", &rest) || has_prefix(msg, "INFO_PRE", &rest)) {
		out->kind = BRAID_MSG_INFO;
		out->text = rest;
	}
}
