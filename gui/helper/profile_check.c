// SPDX-License-Identifier: GPL-2.0-only
/*
 * profile_check.c - the allow list braid-helper applies to a user's profile
 * before it runs braidd with it as root.
 *
 * An allow list, as NetworkManager-openvpn's: a directive braidd learns later
 * is refused here until someone decides it is safe. The known dangerous ones
 * get a specific reason (runs code, writes files, belongs to the helper,
 * reads a file as root); anything else not listed gets the generic one.
 * File arguments are allowed only inline: the GUI reads the user's files as
 * the user and inlines them, so root opens no path a user chose.
 */
#include "profile_check.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

enum kind {
	K_ALLOW,	/* safe with any arguments */
	K_FILE,		/* argument 1 is a file: only "[inline]" (or absent) */
	K_RUNS,		/* runs a program or loads code as root */
	K_WRITES,	/* writes a file as root */
	K_HELPER,	/* the helper's own settings: socket, user, directory, process */
	K_SPECIAL,	/* checked by its own rule below */
};

struct rule {
	const char *name;
	enum kind kind;
};

static const struct rule rules[] = {
	/* connection */
	{ "client", K_ALLOW }, { "tls-client", K_ALLOW }, { "pull", K_ALLOW }, { "dev", K_ALLOW },
	{ "dev-type", K_ALLOW }, { "proto", K_ALLOW }, { "remote", K_ALLOW }, { "port", K_ALLOW },
	{ "rport", K_ALLOW }, { "lport", K_ALLOW }, { "local", K_ALLOW }, { "nobind", K_ALLOW },
	{ "float", K_ALLOW }, { "remote-random", K_ALLOW }, { "remote-random-hostname", K_ALLOW },
	{ "resolv-retry", K_ALLOW }, { "connect-retry", K_ALLOW }, { "connect-retry-max", K_ALLOW },
	{ "connect-timeout", K_ALLOW }, { "server-poll-timeout", K_ALLOW }, { "persist-key", K_ALLOW },
	{ "persist-tun", K_ALLOW }, { "persist-remote-ip", K_ALLOW }, { "explicit-exit-notify", K_ALLOW },
	{ "keepalive", K_ALLOW }, { "ping", K_ALLOW }, { "ping-restart", K_ALLOW }, { "ping-exit", K_ALLOW },
	{ "ping-timer-rem", K_ALLOW }, { "inactive", K_ALLOW }, { "socks-proxy", K_SPECIAL },
	{ "http-proxy", K_SPECIAL }, { "remap-usr1", K_ALLOW }, { "disable-dco", K_ALLOW },
	/* tunnel and routes */
	{ "topology", K_ALLOW }, { "ifconfig", K_ALLOW }, { "ifconfig-ipv6", K_ALLOW }, { "route", K_ALLOW },
	{ "route-ipv6", K_ALLOW }, { "route-gateway", K_ALLOW }, { "route-metric", K_ALLOW },
	{ "route-delay", K_ALLOW }, { "route-nopull", K_ALLOW }, { "route-noexec", K_ALLOW },
	{ "ifconfig-noexec", K_ALLOW }, { "redirect-gateway", K_ALLOW }, { "redirect-private", K_ALLOW },
	{ "block-ipv6", K_ALLOW }, { "block-outside-dns", K_ALLOW }, { "dhcp-option", K_ALLOW },
	{ "dns", K_ALLOW }, { "dns-updown", K_SPECIAL }, { "pull-filter", K_ALLOW }, { "tun-ipv6", K_ALLOW },
	{ "tun-mtu", K_ALLOW }, { "tun-mtu-extra", K_ALLOW }, { "link-mtu", K_ALLOW }, { "mtu-disc", K_ALLOW },
	{ "mssfix", K_ALLOW }, { "fragment", K_ALLOW }, { "txqueuelen", K_ALLOW }, { "sndbuf", K_ALLOW },
	{ "rcvbuf", K_ALLOW }, { "fast-io", K_ALLOW },
	/* crypto and authentication */
	{ "cipher", K_ALLOW }, { "data-ciphers", K_ALLOW }, { "data-ciphers-fallback", K_ALLOW },
	{ "ncp-ciphers", K_ALLOW }, { "auth", K_ALLOW }, { "key-direction", K_ALLOW }, { "key-method", K_ALLOW },
	{ "tls-version-min", K_ALLOW }, { "tls-version-max", K_ALLOW }, { "tls-cipher", K_ALLOW },
	{ "tls-ciphersuites", K_ALLOW }, { "tls-groups", K_ALLOW }, { "tls-cert-profile", K_ALLOW },
	{ "remote-cert-tls", K_ALLOW }, { "remote-cert-ku", K_ALLOW }, { "remote-cert-eku", K_ALLOW },
	{ "ns-cert-type", K_ALLOW }, { "verify-x509-name", K_ALLOW }, { "hand-window", K_ALLOW },
	{ "tls-timeout", K_ALLOW }, { "tran-window", K_ALLOW }, { "tls-exit", K_ALLOW }, { "reneg-sec", K_ALLOW },
	{ "reneg-bytes", K_ALLOW }, { "reneg-pkts", K_ALLOW }, { "replay-window", K_ALLOW },
	{ "mute-replay-warnings", K_ALLOW }, { "auth-retry", K_ALLOW }, { "auth-nocache", K_ALLOW },
	{ "static-challenge", K_ALLOW }, { "push-peer-info", K_ALLOW }, { "compress", K_ALLOW },
	{ "comp-lzo", K_ALLOW }, { "comp-noadapt", K_ALLOW }, { "allow-compression", K_ALLOW },
	{ "disable-occ", K_ALLOW },
	{ "ca", K_FILE }, { "cert", K_FILE }, { "key", K_FILE }, { "extra-certs", K_FILE }, { "pkcs12", K_FILE },
	{ "tls-auth", K_FILE }, { "tls-crypt", K_FILE }, { "tls-crypt-v2", K_FILE }, { "crl-verify", K_FILE },
	{ "secret", K_FILE }, { "dh", K_FILE }, { "peer-fingerprint", K_FILE }, { "auth-user-pass", K_FILE },
	{ "http-proxy-user-pass", K_FILE },
	/* multipath (braidd) */
	{ "multipath", K_ALLOW }, { "mp-path", K_ALLOW }, { "mp-backup", K_ALLOW }, { "mp-cap", K_ALLOW },
	{ "mp-auto-include", K_ALLOW }, { "mp-auto-exclude", K_ALLOW }, { "mp-scheduler", K_ALLOW },
	{ "mp-reorder-ms", K_ALLOW }, { "mp-path-timeout", K_ALLOW }, { "mp-class", K_ALLOW },
	/* output */
	{ "verb", K_ALLOW }, { "mute", K_ALLOW }, { "suppress-timestamps", K_ALLOW },
	{ "ignore-unknown-option", K_ALLOW }, { "setenv", K_SPECIAL }, { "setenv-safe", K_ALLOW },
	/* runs code as root */
	{ "up", K_RUNS }, { "down", K_RUNS }, { "down-pre", K_RUNS }, { "up-restart", K_RUNS },
	{ "route-up", K_RUNS }, { "route-pre-down", K_RUNS }, { "ipchange", K_RUNS }, { "tls-verify", K_RUNS },
	{ "client-connect", K_RUNS }, { "client-disconnect", K_RUNS }, { "learn-address", K_RUNS },
	{ "auth-user-pass-verify", K_RUNS }, { "plugin", K_RUNS }, { "script-security", K_RUNS },
	{ "iproute", K_RUNS }, { "setcon", K_RUNS }, { "providers", K_RUNS }, { "engine", K_RUNS },
	/* writes files as root */
	{ "log", K_WRITES }, { "log-append", K_WRITES }, { "status", K_WRITES }, { "status-version", K_WRITES },
	{ "writepid", K_WRITES }, { "replay-persist", K_WRITES }, { "tmp-dir", K_WRITES },
	{ "ifconfig-pool-persist", K_WRITES }, { "tls-export-cert", K_WRITES }, { "genkey", K_WRITES },
	{ "control-socket", K_WRITES },
	/* the helper's own */
	{ "config", K_HELPER }, { "cd", K_HELPER }, { "chroot", K_HELPER }, { "daemon", K_HELPER },
	{ "user", K_HELPER }, { "group", K_HELPER }, { "syslog", K_HELPER }, { "dev-node", K_HELPER },
	{ "machine-readable-output", K_HELPER }, { "mlock", K_HELPER }, { "nice", K_HELPER },
};

/* inline blocks: <connection> holds directives (checked); the others hold data */
static const char *const inline_tags[] = {
	"ca", "cert", "key", "extra-certs", "pkcs12", "tls-auth", "tls-crypt", "tls-crypt-v2", "crl-verify",
	"secret", "dh", "peer-fingerprint", "auth-user-pass", "http-proxy-user-pass",
};

/* every management-* directive: the helper writes braidd's management lines itself */
static const struct rule management_rule = { "management*", K_HELPER };

static const struct rule *rule_find(const char *name)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (!strcmp(rules[i].name, name))
			return &rules[i];
	return NULL;
}

static bool inline_tag_ok(const char *name)
{
	for (size_t i = 0; i < sizeof(inline_tags) / sizeof(inline_tags[0]); i++)
		if (!strcmp(inline_tags[i], name))
			return true;
	return false;
}

#define MAX_TOK 16

/* Splits a directive line as braidd's reader does: whitespace, "..." with \ escapes, '...' verbatim. */
static int tokenize(char *s, char **tok, int *ntok)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '#' || *s == ';')
			break;
		if (n == MAX_TOK)
			return -E2BIG;
		char *out = s, *start = s;
		while (*s && *s != ' ' && *s != '\t') {
			if (*s == '"' || *s == '\'') {
				char q = *s++;
				while (*s && *s != q) {
					if (q == '"' && *s == '\\' && s[1])
						s++;
					*out++ = *s++;
				}
				if (!*s)
					return -EINVAL;
				s++;
			} else {
				*out++ = *s++;
			}
		}
		bool more = *s != '\0';
		*out = '\0';
		tok[n++] = start;
		if (!more)
			break;
		s++;	/* the separator (the terminator may have overwritten it) */
	}
	*ntok = n;
	return 0;
}

static int refuse(struct bh_check_err *err, unsigned line, int rc, const char *fmt, const char *a,
		  const char *b)
{
	char what[360], sa[100], sb[100];	/* user text is cut to 99 bytes */

	snprintf(sa, sizeof(sa), "%s", a);
	snprintf(sb, sizeof(sb), "%s", b);
	snprintf(what, sizeof(what), fmt, sa, sb);
	err->line = line;
	snprintf(err->msg, sizeof(err->msg), "line %u: %s", line, what);
	return rc;
}

static bool is_inline_arg(const char *a)
{
	return !strcmp(a, "[inline]");
}

static int check_directive(char **tok, int ntok, unsigned line, struct bh_check_err *err)
{
	const char *name = tok[0];
	const struct rule *r;

	if (name[0] == '-' && name[1] == '-')
		name += 2;
	/* "setenv opt X ..." is directive X marked optional (braidd reads it so): check X itself */
	if (!strcmp(name, "setenv") && ntok >= 3 && !strcmp(tok[1], "opt"))
		return check_directive(tok + 2, ntok - 2, line, err);
	r = rule_find(name);
	if (!r && !strncmp(name, "management", 10))
		r = &management_rule;
	if (!r)
		return refuse(err, line, -EPERM,
			      "'%s' is not on braid-helper's list of allowed directives (docs/gui.md, Privileges)",
			      name, "");
	switch (r->kind) {
	case K_ALLOW:
		return 0;
	case K_RUNS:
		return refuse(err, line, -EPERM,
			      "'%s' runs a program or loads code as root: refused by braid-helper "
			      "(a profile started through the helper runs no scripts or plugins)%s", name, "");
	case K_WRITES:
		return refuse(err, line, -EPERM,
			      "'%s' writes a file as root: refused by braid-helper (the GUI shows the log and "
			      "status over the management socket)%s", name, "");
	case K_HELPER:
		return refuse(err, line, -EPERM,
			      "'%s' is braid-helper's own setting: refused (the helper sets braidd's process, "
			      "user, directory and management socket)%s", name, "");
	case K_FILE:
		if (ntok < 2 || is_inline_arg(tok[1]))
			return 0;
		return refuse(err, line, -EPERM,
			      "'%s %s' names a file: braid-helper reads no file for you (braid-gui inlines the "
			      "file's content, read as you, when it connects through the helper)", name, tok[1]);
	case K_SPECIAL:
		break;
	}
	if (!strcmp(name, "dns-updown")) {	/* disable|force; anything else is a command */
		if (ntok == 2 && (!strcmp(tok[1], "disable") || !strcmp(tok[1], "force")))
			return 0;
		return refuse(err, line, -EPERM,
			      "'%s %s' runs a program as root: refused by braid-helper (only 'disable' or "
			      "'force')", name, ntok >= 2 ? tok[1] : "");
	}
	if (!strcmp(name, "setenv"))
		return 0;
	/* http-proxy HOST PORT [AUTHFILE|auto|auto-nct] [METHOD]; socks-proxy HOST PORT [AUTHFILE] */
	int fa = 3;
	if (ntok <= fa || is_inline_arg(tok[fa]) ||
	    (!strcmp(name, "http-proxy") && (!strcmp(tok[fa], "auto") || !strcmp(tok[fa], "auto-nct"))))
		return 0;
	return refuse(err, line, -EPERM,
		      "'%s ... %s' names a credentials file: braid-helper reads no file for you (use an "
		      "inline block)", name, tok[fa]);
}

int bh_profile_check(const char *text, size_t len, struct bh_check_err *err)
{
	char buf[BH_LINE_MAX + 1], block[64] = "";
	unsigned line = 0, block_line = 0;
	bool in_connection = false;
	size_t pos = 0;

	err->line = 0;
	err->msg[0] = '\0';
	if (len > BH_PROFILE_MAX)
		return refuse(err, 0, -E2BIG, "the profile is over %s bytes%s", "1048576", "");
	if (memchr(text, '\0', len)) {
		size_t at = (const char *)memchr(text, '\0', len) - text;
		unsigned l = 1;
		for (size_t i = 0; i < at; i++)
			l += text[i] == '\n';
		return refuse(err, l, -EINVAL, "a NUL byte%s%s", "", "");
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = (nl ? (size_t)(nl - text) : len) - pos;
		char *s, *tok[MAX_TOK];
		int ntok, rc;

		line++;
		if (n > BH_LINE_MAX)
			return refuse(err, line, -EINVAL, "line longer than %s bytes%s", "8192", "");
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos += n + (nl ? 1 : 0);
		if (n && buf[n - 1] == '\r')
			buf[n - 1] = '\0';
		s = buf;
		while (*s == ' ' || *s == '\t')
			s++;
		if (block[0]) {	/* inside a data block: only its closing tag matters */
			char close[80];
			snprintf(close, sizeof(close), "</%s>", block);
			if (!strncmp(s, close, strlen(close)))
				block[0] = '\0';
			else if (s[0] == '<' && s[1] == '/')
				return refuse(err, line, -EINVAL, "%s closes <%s> opened earlier", s, block);
			continue;
		}
		if (s[0] == '<') {
			char *end = strchr(s, '>');
			bool closing = s[1] == '/';
			char *name = s + (closing ? 2 : 1);
			if (!end || end - name <= 0 || end - name >= (long)sizeof(block))
				return refuse(err, line, -EINVAL, "a malformed tag '%s'%s", s, "");
			*end = '\0';
			if (!strcmp(name, "connection")) {
				if (closing != in_connection)
					return refuse(err, line, -EINVAL, "a misplaced <%s%s>",
						      closing ? "/" : "", name);
				in_connection = !closing;
				continue;
			}
			if (closing)
				return refuse(err, line, -EINVAL, "</%s> closes no open block%s", name, "");
			if (!inline_tag_ok(name))
				return refuse(err, line, -EPERM,
					      "inline <%s> is not on braid-helper's list of allowed blocks%s", name, "");
			snprintf(block, sizeof(block), "%s", name);
			block_line = line;
			continue;
		}
		rc = tokenize(s, tok, &ntok);
		if (rc == -EINVAL)
			return refuse(err, line, rc, "an unterminated quote%s%s", "", "");
		if (rc)
			return refuse(err, line, -EINVAL, "more than 16 arguments%s%s", "", "");
		if (ntok == 0)
			continue;
		rc = check_directive(tok, ntok, line, err);
		if (rc)
			return rc;
	}
	if (block[0]) {
		char l[16];
		snprintf(l, sizeof(l), "%u", block_line);
		return refuse(err, line, -EINVAL, "<%s> opened on line %s is never closed", block, l);
	}
	if (in_connection)
		return refuse(err, line, -EINVAL, "<connection> is never closed%s%s", "", "");
	return 0;
}
