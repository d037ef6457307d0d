// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_option_classes.c - no accepted option is silently ignored (issue 8).
 *
 * Walks the whole directive table and the list of options a server may push
 * against daemon/config/options_class.c, and fails on any option that has no effect,
 * no refusal and no documented no-op entry:
 *   - every table row has a class, every class row names a table row;
 *   - applied: the directive with valid arguments changes the finalized result
 *     (braid_options_dump), AND each field named in its class entry is read
 *     by the run time: the sources under daemon/ other than options*.c
 *     contain "o->FIELD" / "o.FIELD" (".FIELD": any "->FIELD"/".FIELD";
 *     BRAID_*: the identifier);
 *   - checked: valid arguments accepted, the bad sample refused with its line;
 *   - no-op: accepted and the dump does not change (nothing is stored);
 *   - refused / ccd-only: an error naming file, line and the option; a ccd-only one is
 *     accepted by the client-config-dir parser (ccd.c) and changes its result;
 *   - pushed options: the names push.c compares are exactly the classified
 *     ones; an applied one changes the parsed struct braid_pushed (and its
 *     fields are read outside push.c's parser), a no-op only counts;
 *   - docs/braidd.md "Options without effect": its two tables list exactly the
 *     no-op and checked directives and the no-op pushed options, with the same
 *     reasons.
 * Usage: test_option_classes SOURCE_DIR (the repository root).
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gateway/ccd.h"
#include "check.h"
#include "config/config.h"
#include "util/log.h"
#include "config/options.h"
#include "config/options_dump.h"
#include "config/options_class.h"
#include "session/push.h"

/* ---- the configs ---- */

enum base { P2P, CLI, SRV, SRV_NOPOOL, MP, NO_ROLE_CLI, NO_ROLE_SRV, NO_ROLE_MODE };

static const char *const bases[] = {
	[P2P] = "dev tun\nsecret s.key\nkey-direction 0\n",
	[CLI] = "client\ndev tun\nremote 192.0.2.1\nca ca.crt\ncert c.crt\nkey c.key\n",
	[SRV] = "dev tun\nserver 10.8.0.0 255.255.255.0\nca ca.crt\ncert s.crt\nkey s.key\ndh none\n",
	[SRV_NOPOOL] = "dev tun\nserver 10.8.0.0 255.255.255.0 nopool\nca ca.crt\ncert s.crt\n"
		       "key s.key\ndh none\ntopology subnet\n",
	[MP] = "dev tun\nsecret s.key\nkey-direction 0\nmp-path 127.0.0.1 127.0.0.2\n",
	[NO_ROLE_CLI] = "dev tun\nremote 192.0.2.1\nca ca.crt\ncert c.crt\nkey c.key\n",
	[NO_ROLE_SRV] = "dev tun\nca ca.crt\ncert s.crt\nkey s.key\ndh none\n",
	[NO_ROLE_MODE] = "dev tun\ntls-server\nca ca.crt\ncert s.crt\nkey s.key\ndh none\n"
			 "topology subnet\nifconfig 10.8.0.1 255.255.255.0\n"
			 "ifconfig-pool 10.8.0.10 10.8.0.20 255.255.255.0\n",
};

/* One directive: the base config, valid text (appended), and for checked ones a bad text. */
struct sample {
	const char *name;
	enum base base;
	const char *text;
	const char *bad;
};

static const struct sample samples[] = {
	{ "dev", P2P, "dev tun7", NULL },
	{ "dev-type", P2P, "dev-type tun", NULL },
	{ "proto", CLI, "proto tcp-client", NULL },
	{ "remote", CLI, "remote 192.0.2.2 1195", NULL },
	{ "local", P2P, "local 127.0.0.1", NULL },
	{ "lport", P2P, "lport 2000", NULL },
	{ "rport", P2P, "rport 2001", NULL },
	{ "port", P2P, "port 2002", NULL },
	{ "nobind", CLI, "nobind", NULL },
	{ "float", P2P, "float", NULL },
	{ "multihome", SRV, "multihome", NULL },
	{ "mptcp", CLI, "mptcp auto", NULL },
	{ "mptcp-pm", CLI, "mptcp-pm userspace", NULL },
	{ "ifconfig", P2P, "ifconfig 10.4.0.1 10.4.0.2", NULL },
	{ "ifconfig-ipv6", P2P, "ifconfig-ipv6 fd00::1/64 fd00::2", NULL },
	{ "route", P2P, "route 10.9.0.0 255.255.0.0", NULL },
	{ "route-ipv6", P2P, "route-ipv6 fd01::/64", NULL },
	{ "tun-mtu", P2P, "tun-mtu 1400", NULL },
	{ "topology", SRV, "topology subnet", NULL },
	{ "cipher", P2P, "cipher AES-128-GCM", NULL },
	{ "data-ciphers", CLI, "data-ciphers AES-128-GCM", NULL },
	{ "ncp-ciphers", CLI, "ncp-ciphers AES-128-GCM", NULL },
	{ "secret", P2P, "secret s2.key", NULL },
	{ "key-direction", P2P, "key-direction 1", NULL },
	{ "keepalive", P2P, "keepalive 7 40", NULL },
	{ "ping", P2P, "ping 7", NULL },
	{ "ping-restart", P2P, "ping-restart 40", NULL },
	{ "ping-exit", P2P, "ping-exit 50", NULL },
	{ "verb", P2P, "verb 5", NULL },
	{ "replay-window", P2P, "replay-window 128", NULL },
	{ "peer-id", P2P, "peer-id 5", NULL },
	{ "mssfix", P2P, "mssfix 1300", NULL },
	{ "writepid", P2P, "writepid /tmp/x.pid", NULL },
	{ "log", P2P, "log /tmp/x.log", NULL },
	{ "log-append", P2P, "log-append /tmp/x.log", NULL },
	{ "daemon", P2P, "daemon vpn-x", NULL },
	{ "syslog", P2P, "syslog", NULL },
	{ "cd", P2P, "cd .", NULL },
	{ "suppress-timestamps", P2P, "suppress-timestamps", NULL },
	{ "machine-readable-output", P2P, "machine-readable-output", NULL },
	{ "genkey", P2P, "genkey tls-crypt /tmp/x.key", NULL },
	{ "ignore-unknown-option", P2P, "ignore-unknown-option bogus-x\nbogus-x 1", NULL },
	{ "setenv", P2P, "setenv FOO bar", NULL },
	{ "status", P2P, "status /tmp/s.json 5", NULL },
	{ "status-json", P2P, "status-json /tmp/s2.json 3", NULL },
	{ "control-socket", P2P, "control-socket /tmp/c.sock", NULL },
	{ "persist-key", P2P, "persist-key", NULL },
	{ "persist-tun", P2P, "persist-tun", NULL },
	{ "user", SRV, "user nobody", NULL },
	{ "group", SRV, "group nogroup", NULL },
	{ "chroot", SRV, "chroot /", NULL },
	{ "multipath", P2P, "remote 192.0.2.9\nmultipath on", NULL },
	{ "mp-path", MP, "mp-path 127.0.0.3 127.0.0.4", NULL },
	{ "mp-backup", MP, "mp-backup 127.0.0.1", NULL },
	{ "mp-cap", MP, "mp-cap 127.0.0.1 10", NULL },
	{ "mp-auto-include", MP, "mp-path auto\nmp-auto-include eth* wlan*", NULL },
	{ "mp-auto-exclude", MP, "mp-path auto\nmp-auto-exclude docker*", NULL },
	{ "mp-scheduler", MP, "mp-scheduler rtt", NULL },
	{ "mp-reorder-ms", MP, "mp-reorder-ms 50", NULL },
	{ "mp-path-timeout", MP, "mp-path-timeout 10", NULL },
	{ "mp-class", MP, "mp-class port 22 lowest-delay", NULL },
	{ "mode", NO_ROLE_MODE, "mode server", NULL },
	{ "client", NO_ROLE_CLI, "client", NULL },
	{ "tls-client", NO_ROLE_CLI, "pull\ntls-client", NULL },
	{ "tls-server", NO_ROLE_SRV, "mode server\ntopology subnet\nifconfig 10.8.0.1 "
				     "255.255.255.0\nifconfig-pool 10.8.0.10 10.8.0.20 "
				     "255.255.255.0\ntls-server", NULL },
	{ "pull", NO_ROLE_CLI, "tls-client\npull", "tls-client" },
	{ "remote-random", CLI, "remote-random", NULL },
	{ "resolv-retry", CLI, "resolv-retry 5", NULL },
	{ "connect-retry", CLI, "connect-retry 7 70", NULL },
	{ "connect-retry-max", CLI, "connect-retry-max 3", NULL },
	{ "server-poll-timeout", CLI, "server-poll-timeout 9", NULL },
	{ "connect-timeout", CLI, "connect-timeout 9", NULL },
	{ "auth", CLI, "auth SHA256", NULL },
	{ "tls-version-min", CLI, "tls-version-min 1.3", NULL },
	{ "tls-version-max", CLI, "tls-version-max 1.2", NULL },
	{ "tls-cipher", CLI, "tls-cipher ECDHE-RSA-AES256-GCM-SHA384", NULL },
	{ "tls-ciphersuites", CLI, "tls-ciphersuites TLS_AES_256_GCM_SHA384", NULL },
	{ "tls-groups", CLI, "tls-groups X25519", NULL },
	{ "remote-cert-tls", CLI, "remote-cert-tls server", NULL },
	{ "verify-x509-name", CLI, "verify-x509-name srv name", NULL },
	{ "verify-client-cert", SRV, "auth-user-pass-verify /bin/true via-env\n"
				     "verify-client-cert optional", NULL },
	{ "client-cert-not-required", SRV, "auth-user-pass-verify /bin/true via-env\n"
					   "client-cert-not-required", NULL },
	{ "hand-window", CLI, "hand-window 30", NULL },
	{ "tls-timeout", CLI, "tls-timeout 4", NULL },
	{ "tran-window", CLI, "tran-window 60", NULL },
	{ "reneg-sec", CLI, "reneg-sec 600", NULL },
	{ "reneg-bytes", CLI, "reneg-bytes 1000", NULL },
	{ "reneg-pkts", CLI, "reneg-pkts 1000", NULL },
	{ "key-method", CLI, "key-method 2", "key-method 1" },
	{ "data-ciphers-fallback", CLI, "data-ciphers-fallback AES-128-GCM", NULL },
	{ "tls-exit", CLI, "tls-exit", NULL },
	{ "auth-retry", CLI, "auth-retry nointeract", NULL },
	{ "auth-nocache", CLI, "auth-nocache", NULL },
	{ "route-nopull", CLI, "route-nopull", NULL },
	{ "pull-filter", CLI, "pull-filter ignore \"route\"", NULL },
	{ "dns-updown", CLI, "dns-updown disable", NULL },
	{ "redirect-gateway", CLI, "redirect-gateway def1", NULL },
	{ "redirect-private", CLI, "redirect-private", NULL },
	{ "dhcp-option", CLI, "dhcp-option DNS 10.0.0.1", NULL },
	{ "up", CLI, "up /bin/true", NULL },
	{ "down", CLI, "down /bin/true", NULL },
	{ "script-security", CLI, "script-security 2", NULL },
	{ "route-gateway", CLI, "route-gateway 10.8.0.1", NULL },
	{ "explicit-exit-notify", CLI, "explicit-exit-notify 2", NULL },
	{ "push-peer-info", CLI, "push-peer-info", NULL },
	{ "compress", CLI, "compress stub", NULL },
	{ "comp-lzo", CLI, "comp-lzo no", NULL },
	{ "allow-compression", CLI, "allow-compression no", "allow-compression yes" },
	{ "server", NO_ROLE_SRV, "server 10.8.0.0 255.255.255.0", NULL },
	{ "server-ipv6", SRV, "server-ipv6 fd00:8::/64", NULL },
	{ "ifconfig-pool", SRV_NOPOOL, "ifconfig-pool 10.8.0.50 10.8.0.60 255.255.255.0", NULL },
	{ "push", SRV, "push \"route 10.1.0.0 255.255.0.0\"", NULL },
	{ "client-config-dir", SRV, "client-config-dir /tmp/ccd", NULL },
	{ "ccd-exclusive", SRV, "client-config-dir /tmp/ccd\nccd-exclusive", NULL },
	{ "client-to-client", SRV, "client-to-client", NULL },
	{ "duplicate-cn", SRV, "duplicate-cn", NULL },
	{ "username-as-common-name", SRV, "auth-user-pass-verify /bin/true via-env\n"
					  "username-as-common-name", NULL },
	{ "auth-user-pass-optional", SRV, "auth-user-pass-verify /bin/true via-env\n"
					  "auth-user-pass-optional", NULL },
	{ "max-clients", SRV, "max-clients 10", NULL },
	{ "auth-user-pass-verify", SRV, "auth-user-pass-verify /bin/true via-env", NULL },
	{ "status-version", SRV, "status-version 2", NULL },
	{ "ifconfig-pool-persist", SRV, "ifconfig-pool-persist /tmp/ipp.txt", NULL },
	{ "connect-freq", SRV, "connect-freq 5 10", NULL },
	{ "connect-freq-initial", SRV, "connect-freq-initial 100 10", NULL },
	{ "workers", SRV, "workers auto", NULL },
	{ "client-connect", SRV, "client-connect /bin/true", NULL },
	{ "client-disconnect", SRV, "client-disconnect /bin/true", NULL },
	{ "management", SRV, "management 127.0.0.1 7505", NULL },
	{ "management-hold", SRV, "management 127.0.0.1 7505\nmanagement-hold", NULL },
	{ "management-client-auth", SRV, "management 127.0.0.1 7505\nmanagement-client-auth", NULL },
	{ "management-query-passwords", CLI, "management 127.0.0.1 7505\nmanagement-query-passwords",
	  NULL },
	{ "management-query-remote", CLI, "management 127.0.0.1 7505\nmanagement-query-remote", NULL },
	{ "management-log-cache", CLI, "management 127.0.0.1 7505\nmanagement-log-cache 50", NULL },
	{ "management-client-user", CLI, "management /tmp/m.sock unix\nmanagement-client-user root",
	  NULL },
	{ "management-client-group", CLI, "management /tmp/m.sock unix\nmanagement-client-group root",
	  NULL },
	{ "management-up-down", CLI, "management 127.0.0.1 7505\nmanagement-up-down", NULL },
	{ "management-client", CLI, "management 127.0.0.1 7505\nmanagement-client", NULL },
	{ "metrics", SRV, "metrics 127.0.0.1 9446", NULL },
	{ "metrics-max-clients", SRV, "metrics\nmetrics-max-clients 10", NULL },
	{ "cluster-etcd", SRV, "cluster-etcd http://127.0.0.1:2379", NULL },
	{ "cluster-prefix", SRV, "cluster-etcd http://127.0.0.1:2379\ncluster-prefix b/", NULL },
	{ "cluster-ttl", SRV, "cluster-etcd http://127.0.0.1:2379\ncluster-ttl 5", NULL },
	{ "cluster-gateway-id", SRV, "cluster-etcd http://127.0.0.1:2379\ncluster-gateway-id 3", NULL },
	{ "tun-ipv6", P2P, "tun-ipv6", NULL },
	{ "fast-io", P2P, "fast-io", NULL },
	{ "tun-mtu-extra", P2P, "tun-mtu-extra 32", NULL },
	{ "comp-noadapt", CLI, "comp-noadapt", NULL },
	{ "disable-dco", CLI, "disable-dco", NULL },
	{ "dco", CLI, "dco off", NULL },
	{ "dco-scheduler", CLI, "dco-scheduler /usr/lib/braid/sched.bpf.o act_weighted:paths=0+1", NULL },
	{ "mute-replay-warnings", P2P, "mute-replay-warnings", NULL },
	{ "mute", P2P, "mute 20", NULL },
	{ "sndbuf", P2P, "sndbuf 393216", NULL },
	{ "rcvbuf", P2P, "rcvbuf 393216", NULL },
	{ "ping-timer-rem", P2P, "ping-timer-rem", NULL },
	{ "route-delay", CLI, "route-delay 2", NULL },
	{ "route-metric", CLI, "route-metric 50", NULL },
	{ "route-noexec", CLI, "route-noexec", NULL },
	{ "ifconfig-noexec", CLI, "ifconfig-noexec", NULL },
	{ "inactive", CLI, "inactive 3600", NULL },
	{ "disable-occ", CLI, "disable-occ", NULL },
	{ "block-ipv6", CLI, "block-ipv6", NULL },
	{ "ns-cert-type", CLI, "ns-cert-type server", NULL },
	{ "remote-cert-ku", CLI, "remote-cert-ku a0 88", NULL },
	{ "remote-cert-eku", CLI, "remote-cert-eku \"TLS Web Server Authentication\"", NULL },
	{ "tls-cert-profile", CLI, "tls-cert-profile preferred", "tls-cert-profile suiteb" },
	{ "static-challenge", CLI, "static-challenge \"OTP\" 1", NULL },
	{ "ifconfig-push", SRV, "ifconfig-push 10.8.0.5 255.255.255.0", NULL },
	{ "ifconfig-ipv6-push", SRV, "ifconfig-ipv6-push fd00::5/64", NULL },
	{ "iroute", SRV, "iroute 10.20.0.0 255.255.0.0", NULL },
	{ "iroute-ipv6", SRV, "iroute-ipv6 fd01::/64", NULL },
	{ "push-reset", SRV, "push-reset", NULL },
	{ "push-remove", SRV, "push-remove route", NULL },
	{ "disable", SRV, "disable", NULL },
	{ "route-method", P2P, "route-method exe", NULL },
	{ "fragment", P2P, "fragment 1300", NULL },
	{ "http-proxy", CLI, "http-proxy proxy.example 8080", NULL },
	{ "socks-proxy", CLI, "socks-proxy proxy.example 1080", NULL },
	{ "plugin", SRV, "plugin /usr/lib/openvpn/plugins/x.so", NULL },
	{ "server-bridge", SRV, "server-bridge", NULL },
	{ "ca", CLI, "ca ca2.crt", NULL },
	{ "cert", CLI, "cert c2.crt", NULL },
	{ "key", CLI, "key c2.key", NULL },
	{ "extra-certs", CLI, "extra-certs chain.pem", NULL },
	{ "dh", SRV, "dh dh2048.pem", "dh sample-server.conf" },
	{ "tls-auth", CLI, "tls-auth ta.key 1", NULL },
	{ "tls-crypt", CLI, "tls-crypt tc.key", NULL },
	{ "tls-crypt-v2", CLI, "tls-crypt-v2 v2.key", NULL },
	{ "crl-verify", SRV, "crl-verify crl.pem", NULL },
	{ "pkcs12", CLI, "pkcs12 c.p12", NULL },
	{ "auth-user-pass", CLI, "auth-user-pass up.txt", NULL },
	{ "http-proxy-user-pass", CLI, "http-proxy-user-pass hp.txt", NULL },
	{ "peer-fingerprint", CLI, "peer-fingerprint AB:CD", NULL },
};

static const struct sample *sample_of(const char *name)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		if (!strcmp(samples[i].name, name))
			return &samples[i];
	return NULL;
}

/* base + the sample's lines before its last one: what the last line is compared against. */
static char *prefix_of(const char *base, const char *text)
{
	const char *nl = strrchr(text, '\n');
	size_t n = strlen(base) + strlen(text) + 2;
	char *s = malloc(n);

	snprintf(s, n, "%s%.*s%s", base, nl ? (int)(nl - text) : 0, text, nl ? "\n" : "");
	return s;
}

/* The finalized result of a config text: the dump, or "error: MESSAGE". */
static char *result_of(const char *text, bool *ok)
{
	struct braid_options o;
	char err[1024] = "", *out;
	size_t n;
	int r;

	braid_options_init(&o);
	o.tls_mode_supported = true;
	r = braid_config_parse_text(&o, "t.conf", text, err, sizeof(err));
	if (!r)
		r = braid_options_finalize(&o, err, sizeof(err));
	*ok = !r;
	if (r) {
		n = strlen(err) + 8;
		out = malloc(n);
		snprintf(out, n, "error: %s", err);
	} else {
		n = braid_options_dump(&o, NULL, 0) + 1;
		out = malloc(n);
		braid_options_dump(&o, out, n);
	}
	braid_options_free(&o);
	return out;
}

static char *concat(const char *a, const char *b)
{
	size_t n = strlen(a) + strlen(b) + 2;
	char *s = malloc(n);

	snprintf(s, n, "%s%s\n", a, b);
	return s;
}

static int lines_of(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* ---- the sources: is a field read outside the parser? ---- */

struct source {
	char *text;
	char path[512];
};

static struct source *srcs;
static size_t n_srcs;

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = calloc(1, (size_t)len + 1);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	return buf;
}

static void load_dir(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		struct source *s;

		if (de->d_type == DT_DIR && de->d_name[0] != '.') {	/* every folder of daemon/ */
			char sub[1024];

			snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
			load_dir(sub);
			continue;
		}
		if (l < 3 || strcmp(de->d_name + l - 2, ".c"))
			continue;
		srcs = realloc(srcs, (n_srcs + 1) * sizeof(*srcs));
		s = &srcs[n_srcs];
		snprintf(s->path, sizeof(s->path), "%s/%s", dir, de->d_name);
		s->text = read_all(s->path);
		if (s->text)
			n_srcs++;
	}
	closedir(d);
}

static bool ident(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_';
}

/*
 * Does text use the token? strict: "o->TOK" or "o.TOK" (the options object, also as
 * c->o->TOK); weak: "->TOK" or ".TOK" after any object; word: TOK itself.
 */
enum how { STRICT, WEAK, WORD };

static bool uses(const char *text, const char *tok, size_t tl, enum how how)
{
	for (const char *p = text; (p = strstr(p, tok)); p++) {
		const char *q = p;

		if (ident(p[tl]))
			continue;
		if (how == WORD) {
			if (p == text || !ident(p[-1]))
				return true;
			continue;
		}
		if (q - text >= 1 && q[-1] == '.')
			q -= 1;
		else if (q - text >= 2 && q[-1] == '>' && q[-2] == '-')
			q -= 2;
		else
			continue;
		if (how == WEAK)
			return true;
		if (q - text >= 1 && q[-1] == 'o' && (q - text == 1 || !ident(q[-2])))
			return true;
	}
	return false;
}

static bool skip_file(const char *path, bool push)
{
	const char *b = strrchr(path, '/');

	b = b ? b + 1 : path;
	if (!strncmp(b, "options", 7))
		return true;	/* the parser itself */
	/* pushed options: the PUSH_REPLY parser (push.c) and message handling (push_msg.c) name every
	 * option; only what reads the parsed result (push_apply.c, the roles) counts as an effect */
	return push && (!strcmp(b, "push.c") || !strcmp(b, "push_msg.c"));
}

/* Each token of `what` is read outside the parser; returns the first one that is not. */
static const char *unread_token(const char *what, bool push, char *tok, size_t toklen)
{
	const char *p = what;

	while (*p) {
		size_t l = strcspn(p, " ");
		enum how how = push ? WEAK : STRICT;
		const char *t = p;
		bool found = false;

		if (*t == '.') {
			how = WEAK;
			t++, l--;
		}
		if (*t >= 'A' && *t <= 'Z')
			how = WORD;
		snprintf(tok, toklen, "%.*s", (int)l, t);
		for (size_t i = 0; i < n_srcs && !found; i++) {
			const char *text = srcs[i].text;

			if (skip_file(srcs[i].path, push)) {
				const char *apply;

				if (!push || strcmp(strrchr(srcs[i].path, '/') + 1, "push.c") ||
				    !(apply = strstr(text, "/* ---- apply ---- */")))
					continue;
				text = apply;
			}
			found = uses(text, tok, strlen(tok), how);
		}
		if (!found)
			return tok;
		p = t + l;
		while (*p == ' ')
			p++;
	}
	return NULL;
}

/* ---- the directive table ---- */

static void test_table_complete(void)
{
	size_t n, nt = braid_options_table_size();
	const struct braid_opt_class_entry *cl = braid_options_classes(&n);

	CHECKM(nt > 100, "the directive table has %zu rows", nt);
	for (size_t i = 0; i < nt; i++) {
		const char *name = braid_options_table_name(i);
		const struct braid_opt_class_entry *e = braid_options_class(name);

		CHECKM(e && e->cls != BRAID_OPTC_NONE, "directive '%s' has no class", name);
		CHECKM(sample_of(name), "directive '%s' has no sample in this test", name);
	}
	for (size_t i = 0; i < n; i++) {
		bool in_table = false;

		for (size_t k = 0; k < nt; k++)
			in_table |= !strcmp(braid_options_table_name(k), cl[i].name);
		CHECKM(in_table, "class entry '%s' is not a directive", cl[i].name);
		if (cl[i].cls == BRAID_OPTC_APPLIED || cl[i].cls == BRAID_OPTC_NOOP ||
		    cl[i].cls == BRAID_OPTC_CHECKED)
			CHECKM(cl[i].what && *cl[i].what, "'%s' (%s) needs its fields or reason",
			       cl[i].name, braid_options_class_name(cl[i].cls));
	}
}

static void check_located_error(const char *name, const char *res, int line)
{
	char want[128];

	snprintf(want, sizeof(want), "error: t.conf:%d: option '%s': ", line, name);
	CHECKM(!strncmp(res, want, strlen(want)), "%s: want an error starting '%s', got '%s'", name,
	       want, res);
}

static void test_each_directive(void)
{
	size_t n;
	const struct braid_opt_class_entry *cl = braid_options_classes(&n);
	unsigned int counts[BRAID_OPTC_PARSER + 1] = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct braid_opt_class_entry *e = &cl[i];
		const struct sample *s = sample_of(e->name);
		char *full, *base_res, *res, tok[64];
		const char *miss;
		bool base_ok, ok;

		if (!s)
			continue;
		counts[e->cls]++;
		full = concat(bases[s->base], s->text);
		{
			char *pre = prefix_of(bases[s->base], s->text);

			base_res = result_of(pre, &base_ok);
			free(pre);
		}
		res = result_of(full, &ok);
		switch (e->cls) {
		case BRAID_OPTC_APPLIED:
			CHECKM(ok, "applied '%s': '%s' is refused: %s", e->name, s->text, res);
			CHECKM(strcmp(res, base_res), "applied '%s': '%s' changes nothing in the dump",
			       e->name, s->text);
			miss = unread_token(e->what, false, tok, sizeof(tok));
			CHECKM(!miss, "applied '%s': field '%s' is never read outside options*.c",
			       e->name, miss ? miss : "");
			break;
		case BRAID_OPTC_CHECKED: {
			char *bad = concat(bases[s->base], s->bad ? s->bad : "");
			char *bad_res;
			bool bad_ok;

			CHECKM(ok, "checked '%s': '%s' is refused: %s", e->name, s->text, res);
			CHECKM(s->bad, "checked '%s': the test needs a bad sample", e->name);
			bad_res = result_of(bad, &bad_ok);
			CHECKM(!bad_ok && strstr(bad_res, "t.conf:"),
			       "checked '%s': '%s' must be refused with its location: %s", e->name,
			       s->bad ? s->bad : "", bad_res);
			free(bad_res);
			free(bad);
			break;
		}
		case BRAID_OPTC_NOOP:
			CHECKM(ok, "no-op '%s': '%s' is refused: %s", e->name, s->text, res);
			CHECKM(!strcmp(res, base_res), "no-op '%s': '%s' changes the dump (it stores "
			       "something: apply it or drop the field)", e->name, s->text);
			break;
		case BRAID_OPTC_REFUSED:
		case BRAID_OPTC_CCD:
			CHECKM(!ok, "refused '%s': '%s' is accepted", e->name, s->text);
			check_located_error(e->name, res, lines_of(full));
			if (e->cls == BRAID_OPTC_CCD) {
				struct braid_ccd empty, ccd;
				char cerr[256] = "";
				int cr;

				CHECKM(strstr(res, "client-config-dir") != NULL, "%s: %s", e->name, res);
				braid_ccd_parse(&empty, "ccd", "", cerr, sizeof(cerr));
				cr = braid_ccd_parse(&ccd, "ccd", s->text, cerr, sizeof(cerr));
				CHECKM(cr == 0, "ccd '%s': the client-config-dir parser refuses '%s': %s",
				       e->name, s->text, cerr);
				CHECKM(cr || memcmp(&ccd, &empty, sizeof(ccd)),
				       "ccd '%s': '%s' changes nothing in the client-config-dir result",
				       e->name, s->text);
				braid_ccd_free(&ccd);
				braid_ccd_free(&empty);
			}
			break;
		case BRAID_OPTC_PARSER: {
			char *without = concat(bases[s->base], strchr(s->text, '\n') + 1);
			char *wres;
			bool wok;

			wres = result_of(without, &wok);
			CHECKM(ok && !wok, "parser '%s': with it '%s' (%d), without it '%s' (%d)",
			       e->name, res, ok, wres, wok);
			free(wres);
			free(without);
			break;
		}
		case BRAID_OPTC_NONE:
			break;
		}
		free(res);
		free(base_res);
		free(full);
	}
	fprintf(stderr, "directives: %u applied, %u checked, %u no-op, %u refused, %u ccd, %u parser\n",
		counts[BRAID_OPTC_APPLIED], counts[BRAID_OPTC_CHECKED], counts[BRAID_OPTC_NOOP],
		counts[BRAID_OPTC_REFUSED], counts[BRAID_OPTC_CCD], counts[BRAID_OPTC_PARSER]);
}

/* The source check can fail: a field nobody reads, and one only the parser reads. */
static void test_source_check_bites(void)
{
	char tok[64];

	CHECK(unread_token("braid_no_such_field", false, tok, sizeof(tok)) != NULL);
	CHECK(unread_token("has_vcc_opt", false, tok, sizeof(tok)) != NULL);	/* options*.c only */
	CHECK(unread_token("tun_mtu", false, tok, sizeof(tok)) == NULL);
}

/* ---- pushed options ---- */

static const struct { const char *name, *text; } push_samples[] = {
	{ "topology", "topology subnet" },
	{ "ifconfig", "ifconfig 10.8.0.6 10.8.0.5" },
	{ "ifconfig-ipv6", "ifconfig-ipv6 fd00::6/64 fd00::1" },
	{ "route-gateway", "route-gateway 10.8.0.1" },
	{ "route", "route 10.9.0.0 255.255.0.0" },
	{ "route-ipv6", "route-ipv6 fd01::/64" },
	{ "redirect-gateway", "redirect-gateway def1" },
	{ "redirect-private", "redirect-private" },
	{ "dhcp-option", "dhcp-option DNS 10.8.0.1" },
	{ "peer-id", "peer-id 3" },
	{ "braid-mp", "braid-mp 1 1024" },
	{ "braid-tcp-super", "braid-tcp-super 1" },
	{ "cipher", "cipher AES-256-GCM" },
	{ "protocol-flags", "protocol-flags cc-exit tls-ekm" },
	{ "key-derivation", "key-derivation tls-ekm" },
	{ "tun-mtu", "tun-mtu 1400" },
	{ "ping", "ping 5" },
	{ "ping-restart", "ping-restart 30" },
	{ "explicit-exit-notify", "explicit-exit-notify 2" },
	{ "comp-lzo", "comp-lzo no" },
	{ "compress", "compress stub-v2" },
	{ "auth-token", "auth-token SESS_ID" },
	{ "echo", "echo hello" },
	{ "block-outside-dns", "block-outside-dns" },
	{ "register-dns", "register-dns" },
	{ "dns", "dns server 1 address 10.8.0.1" },
	{ "auth-token-user", "auth-token-user dXNlcg==" },
	{ "inactive", "inactive 60" },
	{ "route-metric", "route-metric 5" },
	{ "setenv", "setenv X 1" },
	{ "setenv-safe", "setenv-safe X 1" },
	{ "ping-exit", "ping-exit 60" },
	{ "route-delay", "route-delay 2" },
	{ "tun-ipv6", "tun-ipv6" },
};

static int parse_pushed(const char *opt, struct braid_pushed *p)
{
	struct braid_push_list l;
	char msg[600], err[256];
	int r;

	memset(&l, 0, sizeof(l));
	snprintf(msg, sizeof(msg), "PUSH_REPLY%s%s", opt ? "," : "", opt ? opt : "");
	r = braid_push_accumulate(&l, msg, err, sizeof(err));
	if (r >= 0)	/* 1: complete */
		r = braid_push_parse(&l, p, err, sizeof(err));
	braid_push_list_clear(&l);
	return r;
}

/* The names push.c's parser compares argv[0] with (its source is the list). */
static void test_push_names(const char *push_c)
{
	size_t n;
	const struct braid_opt_class_entry *pc = braid_push_classes(&n);
	const char *pat = "strcmp(argv[0], \"";
	unsigned int seen = 0;

	CHECKM(push_c != NULL, "cannot read daemon/session/push.c");
	if (!push_c)
		return;
	for (const char *p = push_c; (p = strstr(p, pat)); p++) {
		char name[64];
		const char *q = p + strlen(pat);
		size_t l = strcspn(q, "\"");

		snprintf(name, sizeof(name), "%.*s", (int)l, q);
		seen++;
		CHECKM(braid_push_class(name) != NULL, "pushed option '%s' (push.c) has no class",
		       name);
	}
	CHECKM(seen >= 30, "push.c compares %u names", seen);
	for (size_t i = 0; i < n; i++) {
		char quoted[80];

		snprintf(quoted, sizeof(quoted), "%s%s\")", pat, pc[i].name);
		CHECKM(strstr(push_c, quoted) != NULL, "classified pushed option '%s' is not in push.c",
		       pc[i].name);
	}
}

static void test_each_pushed(void)
{
	size_t n;
	const struct braid_opt_class_entry *pc = braid_push_classes(&n);
	struct braid_pushed base, p;

	CHECK(parse_pushed(NULL, &base) == 0);
	for (size_t i = 0; i < n; i++) {
		const char *text = NULL;
		char tok[64];
		const char *miss;
		int r;

		for (size_t k = 0; k < sizeof(push_samples) / sizeof(push_samples[0]); k++)
			if (!strcmp(push_samples[k].name, pc[i].name))
				text = push_samples[k].text;
		CHECKM(text, "pushed '%s' has no sample in this test", pc[i].name);
		if (!text)
			continue;
		r = parse_pushed(text, &p);
		CHECKM(r == 0, "pushed '%s': parse failed (%d)", text, r);
		if (r)
			continue;
		switch (pc[i].cls) {
		case BRAID_OPTC_APPLIED:
			CHECKM(p.n_ignored == 0, "applied pushed '%s' was ignored", text);
			CHECKM(memcmp(&p, &base, sizeof(p)), "applied pushed '%s' changes nothing",
			       text);
			miss = unread_token(pc[i].what, true, tok, sizeof(tok));
			CHECKM(!miss, "applied pushed '%s': field '%s' is never read", pc[i].name,
			       miss ? miss : "");
			break;
		case BRAID_OPTC_NOOP:
			CHECKM(p.n_ignored == 1, "no-op pushed '%s': n_ignored %u", text, p.n_ignored);
			p.n_ignored = 0;
			CHECKM(!memcmp(&p, &base, sizeof(p)), "no-op pushed '%s' changes the result",
			       text);
			break;
		default:
			CHECKM(0, "pushed '%s': class %s is not expected", pc[i].name,
			       braid_options_class_name(pc[i].cls));
		}
		braid_pushed_free(&p);
	}
	/* an unknown pushed option is skipped and counted, as OpenVPN does (with a warning) */
	CHECK(parse_pushed("braid-no-such-option 1", &p) == 0 && p.n_ignored == 1);
	braid_pushed_free(&p);
	braid_pushed_free(&base);
}

/* ---- docs/braidd.md: the two no-op tables ---- */

/* Rows "| `name` | class | reason |" of the table after the line containing `heading`. */
static unsigned int doc_rows(const char *doc, const char *heading, char names[][64],
			     char classes[][16], char reasons[][400], unsigned int max)
{
	const char *p = strstr(doc, heading);
	unsigned int n = 0;

	if (!p)
		return 0;
	p = strstr(p, "\n|");
	if (!p)
		return 0;
	p++;
	for (int row = 0; *p == '|' && n < max; row++) {
		const char *eol = strchr(p, '\n'), *col[4];
		int nc = 0;

		if (!eol)
			break;
		for (const char *q = p; q < eol && nc < 4; q++)
			if (*q == '|')
				col[nc++] = q;
		if (row >= 2 && nc == 4) {	/* (after the header and separator rows) */
			const char *a = memchr(col[0], '`', (size_t)(col[1] - col[0]));
			const char *b = a ? memchr(a + 1, '`', (size_t)(col[1] - a - 1)) : NULL;
			const char *f[2][2] = { { col[1] + 1, col[2] }, { col[2] + 1, col[3] } };
			char *dst[2] = { classes[n], reasons[n] };
			size_t dl[2] = { 16, 400 };

			snprintf(names[n], 64, "%.*s", a && b ? (int)(b - a - 1) : 0, a ? a + 1 : "");
			for (int k = 0; k < 2; k++) {
				const char *x = f[k][0], *y = f[k][1];

				while (x < y && *x == ' ')
					x++;
				while (y > x && y[-1] == ' ')
					y--;
				snprintf(dst[k], dl[k], "%.*s", (int)(y - x), x);
			}
			n++;
		}
		p = eol + 1;
	}
	return n;
}

static void check_doc_table(const char *doc, const char *heading,
			    const struct braid_opt_class_entry *cl, size_t n, bool with_checked)
{
	static char names[128][64], classes[128][16], reasons[128][400];
	unsigned int rows = doc_rows(doc, heading, names, classes, reasons, 128), want = 0;

	CHECKM(rows > 0, "docs/braidd.md: no table under '%s'", heading);
	for (size_t i = 0; i < n; i++) {
		bool in_doc = false;

		if (cl[i].cls != BRAID_OPTC_NOOP && !(with_checked && cl[i].cls == BRAID_OPTC_CHECKED))
			continue;
		want++;
		for (unsigned int k = 0; k < rows; k++) {
			if (strcmp(names[k], cl[i].name))
				continue;
			in_doc = true;
			CHECKM(!strcmp(classes[k], braid_options_class_name(cl[i].cls)),
			       "docs/braidd.md '%s': class '%s', the code says '%s'", cl[i].name,
			       classes[k], braid_options_class_name(cl[i].cls));
			CHECKM(!strcmp(reasons[k], cl[i].what),
			       "docs/braidd.md '%s': the reason differs from options_class.c:\n  doc:  "
			       "%s\n  code: %s",
			       cl[i].name, reasons[k], cl[i].what);
		}
		CHECKM(in_doc, "docs/braidd.md '%s' table lacks '%s'", heading, cl[i].name);
	}
	CHECKM(rows == want, "docs/braidd.md '%s': %u rows, the code has %u no-op%s", heading, rows,
	       want, with_checked ? "/checked options" : "s");
}

static void test_docs(const char *root)
{
	char path[600];
	size_t n;
	const struct braid_opt_class_entry *cl;
	char *doc;

	snprintf(path, sizeof(path), "%s/docs/braidd.md", root);
	doc = read_all(path);
	CHECKM(doc != NULL, "cannot read %s", path);
	if (!doc)
		return;
	cl = braid_options_classes(&n);
	check_doc_table(doc, "Directives accepted without effect", cl, n, true);
	cl = braid_push_classes(&n);
	check_doc_table(doc, "Pushed options accepted without effect", cl, n, false);
	free(doc);
}

int main(int argc, char **argv)
{
	char dir[600];
	char *push_c;

	if (argc < 2) {
		fprintf(stderr, "usage: test_option_classes SOURCE_DIR\n");
		return 2;
	}
	braid_log_set_verb(0);
	snprintf(dir, sizeof(dir), "%s/daemon", argv[1]);
	load_dir(dir);
	CHECKM(n_srcs > 40, "read %zu daemon sources from %s", n_srcs, argv[1]);
	snprintf(dir, sizeof(dir), "%s/daemon/session/push.c", argv[1]);
	push_c = read_all(dir);
	/* the corpus holds dh2048.pem and a non-DH file for the dh samples */
	snprintf(dir, sizeof(dir), "%s/tests/unit/config/corpus", argv[1]);
	if (chdir(dir)) {
		fprintf(stderr, "cannot enter %s: %s\n", dir, strerror(errno));
		return 2;
	}
	test_table_complete();
	test_source_check_bites();
	test_each_directive();
	test_push_names(push_c);
	test_each_pushed();
	test_docs(argv[1]);
	free(push_c);
	for (size_t i = 0; i < n_srcs; i++)
		free(srcs[i].text);
	free(srcs);
	CHECK_DONE();
}
