// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_parser.c - braidd's config parser: tokenizer, files, inline blocks,
 * command line, and the exact text of every error.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "config/config.h"
#include "util/log.h"
#include "config/options.h"
#include "config/options_dump.h"


static const char KEY[] =
	"-----BEGIN OpenVPN Static key V1-----\n"
	"000102030405060708090a0b0c0d0e0f\n101112131415161718191a1b1c1d1e1f\n"
	"202122232425262728292a2b2c2d2e2f\n303132333435363738393a3b3c3d3e3f\n"
	"404142434445464748494a4b4c4d4e4f\n505152535455565758595a5b5c5d5e5f\n"
	"606162636465666768696a6b6c6d6e6f\n707172737475767778797a7b7c7d7e7f\n"
	"808182838485868788898a8b8c8d8e8f\n909192939495969798999a9b9c9d9e9f\n"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf\nb0b1b2b3b4b5b6b7b8b9babbbcbdbebf\n"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecf\nd0d1d2d3d4d5d6d7d8d9dadbdcdddedf\n"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeef\nf0f1f2f3f4f5f6f7f8f9fafbfcfdfeff\n"
	"-----END OpenVPN Static key V1-----\n";

/* ---- tokenizer ---- */

static void tok_expect(const char *line, int n, const char *const *want)
{
	char *tok[BRAID_CONFIG_MAX_PARMS];
	char err[256] = "";
	int got, r;

	r = braid_config_tokenize(line, tok, BRAID_CONFIG_MAX_PARMS, &got, err, sizeof(err));
	CHECKM(r == 0, "tokenize [%s]: %d %s", line, r, err);
	if (r)
		return;
	CHECKM(got == n, "tokenize [%s]: %d tokens, want %d", line, got, n);
	for (int i = 0; i < got && i < n; i++)
		CHECKM(!strcmp(tok[i], want[i]), "tokenize [%s]: token %d is [%s], want [%s]", line, i,
		      tok[i], want[i]);
	braid_config_free_tokens(tok, got);
}

static void tok_error(const char *line, const char *want)
{
	char *tok[BRAID_CONFIG_MAX_PARMS];
	char err[256] = "";
	int got = -1, r;

	r = braid_config_tokenize(line, tok, BRAID_CONFIG_MAX_PARMS, &got, err, sizeof(err));
	CHECKM(r == -EINVAL, "tokenize [%s]: returned %d, want -EINVAL", line, r);
	CHECKM(got == 0, "tokenize [%s]: %d tokens on error", line, got);
	CHECK_STR(err, want);
}

static void test_tokenizer(void)
{
	tok_expect("remote host 1194", 3, (const char *[]){ "remote", "host", "1194" });
	tok_expect("  \t remote\thost   ", 2, (const char *[]){ "remote", "host" });
	tok_expect("", 0, NULL);
	tok_expect("   ", 0, NULL);
	tok_expect("# comment", 0, NULL);
	tok_expect("; comment", 0, NULL);
	tok_expect("   # indented comment", 0, NULL);
	/* a comment starts only at a token start */
	tok_expect("verb 3 # trailing", 2, (const char *[]){ "verb", "3" });
	tok_expect("verb 3;x", 2, (const char *[]){ "verb", "3;x" });
	tok_expect("a#b c", 2, (const char *[]){ "a#b", "c" });
	/* double quotes group, backslash escapes \\ \" and space */
	tok_expect("x \"a b  c\" d", 3, (const char *[]){ "x", "a b  c", "d" });
	tok_expect("x \"say \\\"hi\\\"\"", 2, (const char *[]){ "x", "say \"hi\"" });
	tok_expect("x \"c:\\\\dir\"", 2, (const char *[]){ "x", "c:\\dir" });
	tok_expect("x a\\ b", 2, (const char *[]){ "x", "a b" });
	tok_expect("x \\\"q", 2, (const char *[]){ "x", "\"q" });
	tok_expect("x \"\"", 2, (const char *[]){ "x", "" });
	tok_expect("x \"# not a comment\"", 2, (const char *[]){ "x", "# not a comment" });
	/* single quotes are literal: no escapes inside */
	tok_expect("x 'a\\b \"c\"'", 2, (const char *[]){ "x", "a\\b \"c\"" });
	tok_expect("x 'it''s'", 3, (const char *[]){ "x", "it", "s" });
	/* a quote ends its token */
	tok_expect("x \"a\"b", 3, (const char *[]){ "x", "a", "b" });
	tok_expect("x\r", 1, (const char *[]){ "x" }); /* CR is whitespace */

	tok_error("x \"open", "no closing quotation (\")");
	tok_error("x 'open", "no closing single quotation (')");
	tok_error("x a\\b", "bad backslash ('\\') usage: only \\\\, \\\" and \\<space> are escapes "
			   "(write \\\\ for a backslash)");
	tok_error("x a\\", "backslash at the end of the line");
	tok_error("a b c d e f g h i j k l m n o p q", "too many parameters (max 16)");
	{
		char line[400];

		memset(line, 'a', 300);
		line[300] = '\0';
		tok_error(line, "parameter is too long (255 chars max)");
	}
}

/* ---- whole configs ---- */

/* Parse text as file "t.conf"; returns the error ("" when it parsed). */
static const char *parse(struct braid_options *o, const char *text)
{
	static char err[1024];

	err[0] = '\0';
	braid_options_init(o);
	if (braid_config_parse_text(o, "t.conf", text, err, sizeof(err)) && !err[0])
		strcpy(err, "(error without a message)");
	return err;
}

static void expect_error(const char *text, const char *want)
{
	struct braid_options o;

	CHECK_STR(parse(&o, text), want);
	braid_options_free(&o);
}

static void expect_ok(const char *text)
{
	struct braid_options o;
	const char *e = parse(&o, text);

	CHECKM(!*e, "[%s] failed: %s", text, e);
	braid_options_free(&o);
}

static const char *finalize(struct braid_options *o, const char *text)
{
	static char err[1024];
	const char *e = parse(o, text);

	if (*e)
		return e;
	err[0] = '\0';
	braid_options_finalize(o, err, sizeof(err));
	return err;
}

static void expect_final_error(const char *text, const char *want)
{
	struct braid_options o;

	CHECK_STR(finalize(&o, text), want);
	braid_options_free(&o);
}

static void test_full_config(void)
{
	struct braid_options o;
	char a[INET6_ADDRSTRLEN];
	const char *e;
	char text[4096];

	snprintf(text, sizeof(text),
		 "# braid p2p\n"
		 "--dev tun\r\n"
		 "proto udp4\n"
		 "remote 10.1.2.2 1195\n"
		 "remote gw.example.org\n"
		 "port 1300\n"
		 "rport 1400\n"
		 "nobind\n"
		 "float\n"
		 "ifconfig 10.200.0.2 10.200.0.1\n"
		 "ifconfig-ipv6 fd00:200::2/64 fd00:200::1\n"
		 "route 10.50.0.0 255.255.0.0\n"
		 "route 10.60.0.0 255.255.255.0 10.200.0.1 7\n"
		 "route 192.168.1.1\n"
		 "route-ipv6 fd00:300::/48\n"
		 "tun-mtu 1400\n"
		 "data-ciphers CHACHA20-POLY1305:aes-128-gcm\n"
		 "key-direction 1\n"
		 "<secret>\n%s</secret>\n"
		 "keepalive 2 10\n"
		 "verb 5\n"
		 "replay-window 512 30\n"
		 "peer-id 77\n"
		 "mssfix 1450\n"
		 "writepid /run/x.pid\n"
		 "  <ca>\nCA DATA\n  </ca>\n"
		 "tls-auth ta.key 1\n",
		 KEY);
	e = finalize(&o, text);
	CHECKM(!*e, "full config: %s", e);
	CHECK_STR(o.dev, "tun");
	CHECKM(o.family == AF_INET, "family %d", o.family);
	CHECKM(o.n_remotes == 2, "%u remotes", o.n_remotes);
	CHECK_STR(o.remotes[0].host, "10.1.2.2");
	CHECKM(o.remotes[0].port == 1195, "port %u", o.remotes[0].port);
	CHECK_STR(o.remotes[1].host, "gw.example.org");
	CHECKM(o.remotes[1].port == 0, "port %u", o.remotes[1].port);
	CHECKM(o.lport == 1300 && o.rport == 1400, "lport %u rport %u", o.lport, o.rport);
	CHECKM(o.nobind && o.float_ok, "nobind/float");
	CHECKM(o.has_ifconfig && !o.ifc_is_netmask, "ifconfig p2p");
	CHECK_STR(inet_ntop(AF_INET, &o.ifc_remote, a, sizeof(a)), "10.200.0.1");
	CHECKM(o.has_ifconfig6 && o.ifc6_prefix == 64, "ifconfig-ipv6 /%u", o.ifc6_prefix);
	CHECKM(o.n_routes == 4, "%u routes", o.n_routes);
	CHECKM(o.routes[0].prefix == 16 && !o.routes[0].has_gw, "route 0");
	CHECKM(o.routes[1].prefix == 24 && o.routes[1].has_gw && o.routes[1].metric == 7, "route 1");
	CHECKM(o.routes[2].prefix == 32, "route 2 default mask: /%u", o.routes[2].prefix);
	CHECKM(o.routes[3].family == AF_INET6 && o.routes[3].prefix == 48, "route-ipv6");
	CHECKM(o.tun_mtu == 1400, "tun-mtu %d", o.tun_mtu);
	CHECK_STR(o.data_ciphers, "CHACHA20-POLY1305:AES-128-GCM");
	CHECK_STR(o.cipher, "CHACHA20-POLY1305");
	CHECKM(o.key_direction == 1, "key-direction %d", o.key_direction);
	CHECKM(o.secret.inline_text && !strcmp(o.secret.inline_text, KEY), "inline secret kept verbatim");
	CHECKM(o.ping == 2 && o.ping_restart == 10, "keepalive %d %d", o.ping, o.ping_restart);
	CHECKM(o.verb == 5, "verb");
	CHECKM(o.replay_window == 512 && o.replay_time == 30, "replay-window");
	CHECKM(o.peer_id == 77, "peer-id");
	CHECKM(o.mssfix == 1450, "mssfix");
	CHECK_STR(o.writepid, "/run/x.pid");
	CHECKM(o.blobs[BRAID_BLOB_CA].inline_text &&
		      !strcmp(o.blobs[BRAID_BLOB_CA].inline_text, "CA DATA\n"),
	      "inline <ca> with indented closing tag");
	CHECK_STR(o.blobs[BRAID_BLOB_TLS_AUTH].path, "ta.key");
	braid_options_free(&o);

	/* secret FILE DIR beats key-direction; cipher beats data-ciphers */
	e = finalize(&o, "dev tun\nkey-direction 1\nsecret k 0\ndata-ciphers AES-128-GCM\n"
			 "cipher aes-256-gcm\n");
	CHECKM(!*e, "%s", e);
	CHECKM(o.key_direction == 0, "secret FILE 0 direction: %d", o.key_direction);
	CHECK_STR(o.secret.path, "k");
	CHECK_STR(o.cipher, "AES-256-GCM");
	braid_options_free(&o);

	/* defaults */
	e = finalize(&o, "dev tun\nsecret k 1\n");
	CHECKM(!*e, "%s", e);
	CHECK_STR(o.cipher, "AES-256-GCM");
	CHECKM(o.family == AF_UNSPEC && o.lport == 1194 && o.rport == 1194 && o.tun_mtu == 1500 &&
		      o.mssfix == 1492 && o.verb == 3 && o.peer_id == 0,
	      "defaults");
	braid_options_free(&o);

	/* ifconfig: netmask by topology subnet or by the 255.x heuristic */
	e = finalize(&o, "dev tun\nsecret k 1\nifconfig 10.8.0.2 255.255.255.0\n");
	CHECKM(!*e && o.ifc_is_netmask, "heuristic netmask: %s", e);
	braid_options_free(&o);
	e = finalize(&o, "dev tun\nsecret k 1\nifconfig 10.8.0.2 255.255.255.0\ntopology p2p\n");
	CHECKM(!*e && !o.ifc_is_netmask, "topology p2p keeps a remote: %s", e);
	braid_options_free(&o);
	e = finalize(&o, "dev tun\nsecret k 1\ntopology subnet\nifconfig 10.8.0.2 255.255.0.0\n");
	CHECKM(!*e && o.ifc_is_netmask, "topology subnet: %s", e);
	braid_options_free(&o);

	/* named devices need dev-type tun */
	e = finalize(&o, "dev braid0\ndev-type tun\nsecret k 1\n");
	CHECKM(!*e, "%s", e);
	braid_options_free(&o);
	e = finalize(&o, "dev tun7\nsecret k 1\n");
	CHECKM(!*e && !strcmp(o.dev, "tun7"), "%s", e);
	braid_options_free(&o);

	/* proto udp6 / udp and remote with a proto */
	e = finalize(&o, "dev tun\nsecret k 1\nproto udp6\nremote ::1 1194 udp\n");
	CHECKM(!*e && o.family == AF_INET6, "%s", e);
	braid_options_free(&o);

	/* keepalive lines and explicit ping options */
	e = finalize(&o, "dev tun\nsecret k 1\nping 3\nping-restart 20\nping-exit 60\n");
	CHECKM(!*e && o.ping == 3 && o.ping_restart == 20 && o.ping_exit == 60, "%s", e);
	braid_options_free(&o);

	/* mssfix without argument = 1492, 0 = off */
	e = finalize(&o, "dev tun\nsecret k 1\nmssfix 0\n");
	CHECKM(!*e && o.mssfix == 0, "%s", e);
	braid_options_free(&o);
	e = finalize(&o, "dev tun\nsecret k 1\nmssfix\n");
	CHECKM(!*e && o.mssfix == 1492, "%s", e);
	braid_options_free(&o);

	/* UTF-8 BOM, log-append */
	e = finalize(&o, "\xef\xbb\xbf" "dev tun\nsecret k 1\nlog-append /tmp/x.log\n");
	CHECKM(!*e && o.log_append && !strcmp(o.log_path, "/tmp/x.log"), "%s", e);
	braid_options_free(&o);
}

static void test_errors(void)
{
	/* unknown options, as OpenVPN words it */
	expect_error("dev tun\n\nfoo-bar 1\n",
		     "Unrecognized option or missing or extra parameter(s) in t.conf:3: foo-bar");
	expect_error("clients\n", "Unrecognized option or missing or extra parameter(s) in t.conf:1: clients");
	/* ignore-unknown-option: later unknown options of those names are skipped */
	expect_ok("ignore-unknown-option foo-bar block-outside-dns\nfoo-bar 1 2\nblock-outside-dns\n");
	expect_error("ignore-unknown-option foo\nbar\n",
		     "Unrecognized option or missing or extra parameter(s) in t.conf:2: bar");
	/* setenv opt: ignore if unknown, apply if known */
	expect_ok("setenv opt frobnicate 3\n");
	{
		struct braid_options o;

		CHECKM(!*parse(&o, "setenv opt tun-mtu 1400\n") && o.tun_mtu == 1400, "setenv opt known");
		braid_options_free(&o);
	}
	expect_error("setenv opt tun-mtu x\n",
		     "t.conf:1: option 'tun-mtu': MTU 'x' is not a number");

	/* arity */
	expect_error("dev\n", "t.conf:1: option 'dev': expects 1 argument, got 0");
	expect_error("dev tun tap\n", "t.conf:1: option 'dev': expects 1 argument, got 2");
	expect_error("nobind 1\n", "t.conf:1: option 'nobind': expects 0 arguments, got 1");
	expect_error("remote a 1 udp x\n", "t.conf:1: option 'remote': expects 1 to 3 arguments, got 4");
	expect_error("keepalive 10\n", "t.conf:1: option 'keepalive': expects 2 arguments, got 1");
	expect_error("ignore-unknown-option\n",
		     "t.conf:1: option 'ignore-unknown-option': expects at least 1 argument, got 0");

	/* numbers */
	expect_error("tun-mtu 15x0\n", "t.conf:1: option 'tun-mtu': MTU '15x0' is not a number");
	expect_error("tun-mtu 100\n", "t.conf:1: option 'tun-mtu': MTU 100 is out of range (576..9000)");
	expect_error("tun-mtu -1500\n", "t.conf:1: option 'tun-mtu': MTU '-1500' is not a number");
	expect_error("lport 65536\n", "t.conf:1: option 'lport': port 65536 is out of range (0..65535)");
	{	/* lport 0 (OPNsense's export): an ephemeral port, as stock */
		struct braid_options o;

		CHECKM(!*parse(&o, "lport 0\n") && o.lport == 0 && o.rport == 1194, "lport 0 accepted");
		braid_options_free(&o);
	}
	expect_error("remote h 70000\n", "t.conf:1: option 'remote': port 70000 is out of range (1..65535)");
	expect_error("port abc\n", "t.conf:1: option 'port': port 'abc' is not a number");
	expect_error("verb 12\n", "t.conf:1: option 'verb': level 12 is out of range (0..11)");
	expect_error("peer-id 16777215\n",
		     "t.conf:1: option 'peer-id': peer-id 16777215 is out of range (0..16777214)");
	expect_error("replay-window 0\n",
		     "t.conf:1: option 'replay-window': a window of 0 (no reordering at all) is not "
		     "supported; use 1..65536");
	expect_error("replay-window 70000\n",
		     "t.conf:1: option 'replay-window': window 70000 is out of range (0..65536)");
	expect_error("replay-window 64 601\n",
		     "t.conf:1: option 'replay-window': time 601 is out of range (0..600)");
	expect_error("replay-window 64 0\n",
		     "t.conf:1: option 'replay-window': a time window of 0 (off) is not supported yet; "
		     "use 1..600");
	expect_error("keepalive 10 15\n",
		     "t.conf:1: option 'keepalive': restart timeout 15 must be at least twice the "
		     "ping interval 10");
	expect_error("keepalive 0 10\n",
		     "t.conf:1: option 'keepalive': ping interval 0 is out of range (1..86400)");
	expect_error("mssfix 100\n",
		     "t.conf:1: option 'mssfix': size 100 is too small (0 turns mssfix off, else >= 576)");
	expect_error("mssfix 1400 fixed\n",
		     "t.conf:1: option 'mssfix': unknown flag 'fixed' (only 'mtu' is supported)");

	/* addresses */
	expect_error("ifconfig 10.8.0.300 10.8.0.1\n",
		     "t.conf:1: option 'ifconfig': local address '10.8.0.300' is not a valid IPv4 address");
	expect_error("ifconfig 10.8.0.2 x\n",
		     "t.conf:1: option 'ifconfig': remote address or netmask 'x' is not a valid IPv4 "
		     "address");
	expect_error("ifconfig-ipv6 fd00::1/129 fd00::2\n",
		     "t.conf:1: option 'ifconfig-ipv6': prefix length 129 is out of range (0..128)");
	expect_error("ifconfig-ipv6 fd00::zz/64 fd00::2\n",
		     "t.conf:1: option 'ifconfig-ipv6': address 'fd00::zz' is not a valid IPv6 address");
	expect_error("ifconfig-ipv6 fd00::1/64 10.0.0.1\n",
		     "t.conf:1: option 'ifconfig-ipv6': remote address '10.0.0.1' is not a valid IPv6 "
		     "address");
	expect_error("route 10.1.2.0 255.0.255.0\n",
		     "t.conf:1: option 'route': netmask '255.0.255.0' is not a valid netmask");
	expect_error("route 10.1.2.3 255.255.255.0\n",
		     "t.conf:1: option 'route': network 10.1.2.3 is not aligned to its netmask (/24)");
	expect_error("route host.example 255.255.255.0\n",
		     "t.conf:1: option 'route': network 'host.example' is not a valid IPv4 address");
	expect_error("route 10.1.0.0 255.255.0.0 net_gateway\n",
		     "t.conf:1: option 'route': gateway 'net_gateway' is not supported yet");
	expect_error("route 10.1.0.0 255.255.0.0 10.0.0.1 x\n",
		     "t.conf:1: option 'route': metric 'x' is not a number");
	expect_error("route-ipv6 fd00:1::1/48\n",
		     "t.conf:1: option 'route-ipv6': network fd00:1::1/48 has bits set beyond its "
		     "prefix length");

	/* values */
	/* TCP parses; the static-key mode (finalize) still runs over UDP only */
	expect_final_error("dev tun\nproto tcp\n",
			   "t.conf:2: option 'proto': protocol 'tcp' is not supported yet (only udp, "
			   "udp4, udp6) in static-key mode");
	expect_final_error("dev tun\nsecret k 1\nproto tcp-client\nremote h\n",
			   "t.conf:3: option 'proto': protocol 'tcp-client' is not supported yet (only "
			   "udp, udp4, udp6) in static-key mode");
	expect_error("proto sctp\n",
		     "t.conf:1: option 'proto': unknown protocol 'sctp' (expected udp, udp4, udp6, tcp, "
		     "tcp4, tcp6, tcp-client, tcp-server or their 4/6 forms)");
	expect_final_error("dev tun\nsecret k 1\nremote h 1194 tcp\n",
			   "t.conf:3: option 'remote': 'h': only udp is supported in static-key mode");
	expect_error("dev tap0\n", "t.conf:1: option 'dev': tap devices are not supported yet (only tun)");
	expect_error("dev-type tap\n",
		     "t.conf:1: option 'dev-type': tap devices are not supported yet (only tun)");
	expect_error("dev-type ppp\n", "t.conf:1: option 'dev-type': unknown device type 'ppp' (expected tun)");
	expect_error("dev averyveryverylongname\n",
		     "t.conf:1: option 'dev': device name 'averyveryverylongname' is too long (max 15 "
		     "characters)");
	/* an unsupported cipher: an error in static-key mode, ignored (warning) in the TLS modes */
	expect_final_error("dev tun\nsecret k 1\ncipher BF-CBC\n",
			   "t.conf:3: option 'cipher': unsupported cipher 'BF-CBC' (supported: "
			   "AES-256-GCM, AES-128-GCM, CHACHA20-POLY1305)");
	expect_error("data-ciphers BF-CBC:AES-256-CBC\n",
		     "t.conf:1: option 'data-ciphers': no supported cipher in 'BF-CBC:AES-256-CBC' "
		     "(supported: AES-256-GCM, AES-128-GCM, CHACHA20-POLY1305)");
	expect_error("key-direction 2\n", "t.conf:1: option 'key-direction': key direction '2' is not 0 or 1");
	expect_error("secret k 3\n", "t.conf:1: option 'secret': key direction '3' is not 0 or 1");
	expect_error("topology star\n",
		     "t.conf:1: option 'topology': unknown topology 'star' (expected subnet, net30 or p2p)");
	expect_error("genkey tls-crypt-v2-server\n",
		     "t.conf:1: option 'genkey': key type 'tls-crypt-v2-server' is not supported by "
		     "braidd (no tls-crypt-v2, no auth-token); use 'openvpn --genkey "
		     "tls-crypt-v2-server'");
	expect_error("syslog \"\"\n", "t.conf:1: option 'syslog': empty program name");

	/* tokenizer errors carry the location */
	expect_error("dev tun\nremote \"a b\n", "t.conf:2: no closing quotation (\")");
	expect_error("remote 'a\n", "t.conf:1: no closing single quotation (')");

	/* inline blocks */
	expect_error("dev tun\n<secret>\nabc\n", "t.conf:2: inline block <secret> has no closing tag </secret>");
	expect_error("<dev>\ntun\n</dev>\n", "t.conf:1: option 'dev': does not take an inline <dev> block");
	expect_error("<frob>\nx\n</frob>\n",
		     "Unrecognized option or missing or extra parameter(s) in t.conf:1: frob");
	expect_error("<connection>\nproto tcp\n</connection>\n",
		     "t.conf:1: option 'connection': each <connection> block must contain exactly "
		     "one 'remote' directive");
	expect_error("dev tun\n<connection>\nremote a\nverb 3\n</connection>\n",
		     "t.conf:4: option 'verb': cannot be used inside a <connection> block (only "
		     "remote, proto, port, rport, lport, local, nobind, float, connect-retry[-max], "
		     "connect-timeout, server-poll-timeout, explicit-exit-notify, tun-mtu, mssfix, "
		     "key-direction, tls-auth, tls-crypt)");
	expect_error("<secret> x\n</secret>\n", "t.conf:1: unexpected text after <secret>");
	/* line numbers continue after a block */
	expect_error("<ca>\na\nb\n</ca>\n\nbogus\n",
		     "Unrecognized option or missing or extra parameter(s) in t.conf:6: bogus");

	/* finalize */
	expect_final_error("secret k 1\n", "option 'dev' is missing (e.g. 'dev tun')");
	expect_final_error("dev braid0\nsecret k 1\n",
			   "option 'dev': cannot tell the device type of 'braid0': add 'dev-type tun'");
	expect_final_error("dev tun\nca ca.crt\n",
			   "neither 'secret' nor a TLS role given (braidd never runs unencrypted): add "
			   "'client' (or 'tls-client' + 'pull'), 'server NET MASK', or 'secret FILE' for "
			   "the static-key point-to-point mode");
	expect_final_error("dev tun\nsecret k\n",
			   "option 'secret': an AEAD cipher needs a key direction: use 'key-direction 0' "
			   "on one end and 'key-direction 1' on the other (or 'secret FILE 0|1')");
	expect_final_error("dev tun\nsecret k\nkey-direction bidirectional\n",
			   "option 'secret': an AEAD cipher needs a key direction: use 'key-direction 0' "
			   "on one end and 'key-direction 1' on the other (or 'secret FILE 0|1')");
	expect_final_error("dev tun\nsecret k 0\ntun-mtu 1000\nifconfig-ipv6 fd00::1/64 fd00::2\n",
			   "option 'ifconfig-ipv6': IPv6 needs tun-mtu >= 1280 (tun-mtu is 1000)");
	expect_final_error("dev tun\nsecret k 0\nnobind\n",
			   "option 'nobind' without 'remote': the peer could never reach us");
	expect_final_error("dev tun\nsecret k 0\ntopology subnet\nifconfig 10.8.0.1 10.8.0.2\n",
			   "option 'ifconfig': '10.8.0.2' is not a valid netmask (topology subnet)");
}

static void test_argv_and_files(void)
{
	struct braid_options o;
	char err[1024], dir[] = "/tmp/braid-cfg-XXXXXX", p1[300], p2[300], p3[300];
	FILE *f;
	int r;

	/* command line: --name args… */
	{
		char *argv[] = { "braidd", "--dev", "tun", "--remote", "10.0.0.1", "1195",
				 "--nobind", "--secret", "k", "1", "--verb", "4", NULL };

		braid_options_init(&o);
		r = braid_config_parse_argv(&o, 12, argv, err, sizeof(err));
		CHECKM(r == 0, "argv: %s", err);
		CHECKM(o.n_remotes == 1 && o.remotes[0].port == 1195 && o.nobind && o.verb == 4 &&
			      o.secret_dir == 1,
		      "argv values");
		braid_options_free(&o);
	}
	{
		char *argv[] = { "braidd", "--dev", "tun", "--frob", "1", NULL };

		braid_options_init(&o);
		r = braid_config_parse_argv(&o, 5, argv, err, sizeof(err));
		CHECKM(r == -EINVAL, "argv unknown: %d", r);
		CHECK_STR(err, "Unrecognized option or missing or extra parameter(s): --frob");
		braid_options_free(&o);
	}
	{
		char *argv[] = { "braidd", "--tun-mtu", "x", NULL };

		braid_options_init(&o);
		braid_config_parse_argv(&o, 3, argv, err, sizeof(err));
		CHECK_STR(err, "command line: option 'tun-mtu': MTU 'x' is not a number");
		braid_options_free(&o);
	}
	{
		char *argv[] = { "braidd", "dev", "tun", NULL };

		braid_options_init(&o);
		braid_config_parse_argv(&o, 3, argv, err, sizeof(err));
		CHECK_STR(err, "command line: 'dev' is not an option (options start with '--')");
		braid_options_free(&o);
	}

	/* files: `braidd FILE`, --config, nesting, command line after the file overrides it */
	if (!mkdtemp(dir)) {
		CHECKM(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(p1, sizeof(p1), "%s/a.conf", dir);
	snprintf(p2, sizeof(p2), "%s/b.conf", dir);
	snprintf(p3, sizeof(p3), "%s/missing.conf", dir);
	f = fopen(p2, "w");
	fprintf(f, "tun-mtu 1300\n\nfrob\n");
	fclose(f);
	f = fopen(p1, "w");
	fprintf(f, "dev tun\nverb 2\n");
	fclose(f);
	{
		char *argv[] = { "braidd", p1, NULL };

		braid_options_init(&o);
		r = braid_config_parse_argv(&o, 2, argv, err, sizeof(err));
		CHECKM(r == 0 && o.verb == 2, "braidd FILE: %s", err);
		braid_options_free(&o);
	}
	{
		char *argv[] = { "braidd", "--config", p1, "--verb", "6", NULL };

		braid_options_init(&o);
		r = braid_config_parse_argv(&o, 5, argv, err, sizeof(err));
		CHECKM(r == 0 && o.verb == 6 && !strcmp(o.dev, "tun"), "--config then --verb: %s", err);
		braid_options_free(&o);
	}
	{
		char *argv[] = { "braidd", "--config", p2, NULL };
		char want[600];

		braid_options_init(&o);
		r = braid_config_parse_argv(&o, 3, argv, err, sizeof(err));
		snprintf(want, sizeof(want),
			 "Unrecognized option or missing or extra parameter(s) in %s:3: frob", p2);
		CHECKM(r == -EINVAL, "nested error %d", r);
		CHECK_STR(err, want);
		braid_options_free(&o);
	}
	{
		char *argv[] = { "braidd", "--config", p3, NULL };
		char want[600];

		braid_options_init(&o);
		r = braid_config_parse_argv(&o, 3, argv, err, sizeof(err));
		snprintf(want, sizeof(want), "cannot open config file '%s': No such file or directory",
			 p3);
		CHECKM(r == -ENOENT, "missing file %d", r);
		CHECK_STR(err, want);
		braid_options_free(&o);
	}
	{
		/* a file that includes itself stops at depth 10 */
		char want[600];

		f = fopen(p1, "w");
		fprintf(f, "dev tun\nconfig %s\n", p1);
		fclose(f);
		braid_options_init(&o);
		r = braid_config_parse_file(&o, p1, err, sizeof(err));
		snprintf(want, sizeof(want), "%s:2: option 'config': nested too deeply (max 10)", p1);
		CHECKM(r == -EINVAL, "self include %d", r);
		CHECK_STR(err, want);
		braid_options_free(&o);
	}
	unlink(p1);
	unlink(p2);
	rmdir(dir);
}


/* ---- TLS client / gateway fields (what client.c, gateway.c and ctl read) ---- */

static const char *finalize_tls(struct braid_options *o, const char *text)
{
	static char err[1024];
	const char *e = parse(o, text);

	if (*e)
		return e;
	err[0] = '\0';
	o->tls_mode_supported = true;
	braid_options_finalize(o, err, sizeof(err));
	return err;
}

static void test_tls_fields(void)
{
	struct braid_options o;
	char a[INET6_ADDRSTRLEN];
	const char *e;
	char err[512] = "";
	int r;

	/* command line: client over tcp, per-remote proto, tls-auth direction, user and group */
	char *argv[] = { "braidd", "--client", "--dev", "tun", "--proto", "tcp", "--remote", "a.example",
			 "443", "--remote", "b.example", "1194", "udp6", "--ca", "ca.crt", "--cert",
			 "c.crt", "--key", "c.key", "--tls-auth", "ta.key", "1", "--user",
			 "nobody", "--group", "nogroup", "--keepalive", "10", "60", "--auth-user-pass", "up.txt" };
	braid_options_init(&o);
	o.tls_mode_supported = true;
	r = braid_config_parse_argv(&o, (int)(sizeof(argv) / sizeof(argv[0])), argv, err, sizeof(err));
	if (!r)
		r = braid_options_finalize(&o, err, sizeof(err));
	CHECKM(r == 0, "argv client: %s", err);
	CHECK_EQ(o.tls, BRAID_TLS_CLIENT);
	CHECK_EQ(o.mode, BRAID_MODE_P2P);
	CHECK(o.pull && o.client && o.has_auth_user_pass);
	CHECK_EQ(o.proto, BRAID_PROTO_TCP_CLIENT);
	CHECK_EQ(o.n_remotes, 2);
	CHECK_EQ(o.remotes[0].proto, BRAID_PROTO_TCP_CLIENT);
	CHECK_EQ(o.remotes[0].port, 443);
	CHECK_EQ(o.remotes[1].proto, BRAID_PROTO_UDP);
	CHECK_EQ(o.remotes[1].family, AF_INET6);
	CHECK_EQ(o.tls_auth_dir, 1);
	CHECK_STR(o.blobs[BRAID_BLOB_TLS_AUTH].path, "ta.key");
	CHECK_STR(o.user, "nobody");
	CHECK_STR(o.group, "nogroup");
	CHECK(o.run_uid != 0 && o.run_gid != 0);	/* resolved by finalize */
	CHECK(o.keepalive_ping == 10 && o.keepalive_restart == 60 && o.ping_restart == 60);
	CHECK_EQ(o.topology, BRAID_TOPO_NET30);
	CHECK(o.reneg_sec == 3600 && o.reneg_sec_min == 3600 && o.tran_window == 3600);
	CHECK_STR(o.auth_digest, "SHA1");
	braid_options_free(&o);

	/* gateway: server implies mode server + tls-server; the server's own ping-restart is 2 x M */
	e = finalize_tls(&o, "dev tun\nserver 10.8.0.0 255.255.255.0\nca ca\ncert c\nkey k\ndh none\n"
			     "keepalive 10 60\npush \"route 10.1.0.0 255.255.0.0\"\npush \"ping-exit 90\"\n"
			     "proto tcp\nstatus-version 2\nauth-user-pass-verify /bin/v via-file\n"
			     "verify-client-cert optional\n");
	CHECKM(!*e, "server: %s", e);
	CHECK(o.mode == BRAID_MODE_SERVER && o.tls == BRAID_TLS_SERVER && !o.pull);
	CHECK(o.has_server && !o.server_nopool && o.dh_none);
	CHECK_STR(inet_ntop(AF_INET, &o.server_net, a, sizeof(a)), "10.8.0.0");
	CHECK_STR(inet_ntop(AF_INET, &o.server_mask, a, sizeof(a)), "255.255.255.0");
	CHECK_EQ(o.proto, BRAID_PROTO_TCP_SERVER);
	CHECK(o.ping == 10 && o.ping_restart == 120 && o.keepalive_restart == 60);
	CHECK_EQ(o.n_push, 2);
	CHECK_STR(o.push[0], "route 10.1.0.0 255.255.0.0");
	CHECK_STR(o.push[1], "ping-exit 90");
	CHECK_EQ(o.status_version, 2);
	CHECK_EQ(o.auth_user_pass_verify_method, BRAID_AUPV_VIA_FILE);
	CHECK_EQ(o.verify_client_cert, BRAID_VCC_OPTIONAL);
	CHECK_EQ(o.reneg_sec_min, 3240);
	CHECK_EQ(o.max_clients, 1024);
	braid_options_free(&o);

	/* <connection>: a block starts from the proto above it; its own lines win */
	e = finalize_tls(&o, "client\ndev tun\nca ca\ncert c\nkey k\nproto tcp-client\nport 1000\n"
			     "<connection>\nremote a\n</connection>\n"
			     "<connection>\nremote b 2000\nproto udp4\nnobind\n</connection>\n"
			     "remote ignored.example\n");
	CHECKM(!*e, "connection: %s", e);
	CHECK_EQ(o.n_remotes, 2);
	CHECK_STR(o.remotes[0].host, "a");
	CHECK(o.remotes[0].proto == BRAID_PROTO_TCP_CLIENT && o.remotes[0].port == 0 &&
	      !o.remotes[0].nobind && o.remotes[0].from_connection);
	CHECK_STR(o.remotes[1].host, "b");
	CHECK(o.remotes[1].proto == BRAID_PROTO_UDP && o.remotes[1].family == AF_INET &&
	      o.remotes[1].port == 2000 && o.remotes[1].nobind);
	CHECK_EQ(o.rport, 1000);
	braid_options_free(&o);
	expect_error("client\n<connection>\nremote a\nconfig other.conf\n</connection>\n",
		     "t.conf:4: option 'config': cannot be used inside a <connection> block");
	/* an unknown option inside a block is unknown (ignore-unknown-option still applies) */
	expect_error("client\n<connection>\nremote a\nfrob 1\n</connection>\n",
		     "Unrecognized option or missing or extra parameter(s) in t.conf:4: frob");
	expect_ok("ignore-unknown-option frob\n<connection>\nremote a\nfrob 1\n</connection>\n");
	/* errors inside a block keep the file's line numbers */
	expect_error("client\n<connection>\nremote a\nproto sctp\n</connection>\n",
		     "t.conf:4: option 'proto': unknown protocol 'sctp' (expected udp, udp4, udp6, tcp, "
		     "tcp4, tcp6, tcp-client, tcp-server or their 4/6 forms)");

	/* inline auth-user-pass is kept verbatim; pull-filter order; redirect flags */
	e = finalize_tls(&o, "client\ndev tun\nremote a\nca ca\n<auth-user-pass>\nuser\npa ss\n"
			     "</auth-user-pass>\npull-filter ignore \"route \"\npull-filter accept x\n"
			     "redirect-gateway def1 !ipv4 ipv6\nexplicit-exit-notify\n"
			     "setenv opt block-outside-dns\n");
	CHECKM(!*e, "auth-user-pass: %s", e);
	CHECK_STR(o.blobs[BRAID_BLOB_AUTH_USER_PASS].inline_text, "user\npa ss\n");
	CHECK(o.n_pull_filters == 2 && o.pull_filters[0].action == BRAID_PF_IGNORE &&
	      o.pull_filters[1].action == BRAID_PF_ACCEPT);
	CHECK_STR(o.pull_filters[0].text, "route ");
	CHECK_EQ(o.redirect_gw, BRAID_RG_DEF1 | BRAID_RG_NOT_IPV4 | BRAID_RG_IPV6);
	CHECK_EQ(o.explicit_exit_notify, 1);
	CHECK_EQ(o.n_ignored, 1);
	braid_options_free(&o);

	/* without tls_mode_supported the TLS modes stop at finalize, with a clear message */
	expect_final_error("client\ndev tun\nremote a\nca ca\ncert c\nkey k\n",
			   "t.conf:1: option 'client': TLS mode is parsed, but this braidd cannot run "
			   "it yet");
	/* keepalive and an explicit ping option conflict (OpenVPN's helper_keepalive) */
	expect_final_error("dev tun\nsecret k 1\nkeepalive 10 60\nping-restart 30\n",
			   "t.conf:3: option 'keepalive': conflicts with 'ping-restart': keepalive sets "
			   "ping and ping-restart, use one or the other");
}

/* mp-class: redundant accepted, dumped in its canonical form, the dump's rules parse back
 * to the same dump; a bad rule refused with file, line and the rule's message */
static void test_mp_class(void)
{
	static const char *const want[] = { "mp-class[0] proto udp port 5060 redundant\n",
					    "mp-class[1] dscp 46 redundant\n",
					    "mp-class[2] proto tcp bulk\n" };
	struct braid_options o;
	static char d1[65536], d2[65536], again[512];
	const char *e;
	size_t k, n = 0;

	e = parse(&o, "dev tun\nmp-class port 5060 proto udp redundant\nmp-class dscp ef redundant\n"
		      "mp-class proto tcp bulk\n");
	CHECKM(!*e, "%s", e);
	CHECK_EQ(o.mp_classes.n, 3);
	braid_options_dump(&o, d1, sizeof(d1));
	braid_options_free(&o);
	n = (size_t)snprintf(again, sizeof(again), "dev tun\n");
	for (k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		const char *at = strstr(d1, want[k]);

		CHECKM(at != NULL, "dump lacks %s", want[k]);
		if (at) {	/* "mp-class[K] RULE" -> "mp-class RULE" */
			const char *rule = strchr(at, ' ') + 1;

			n += (size_t)snprintf(again + n, sizeof(again) - n, "mp-class %.*s\n",
					      (int)(strchr(rule, '\n') - rule), rule);
		}
	}
	e = parse(&o, again);
	CHECKM(!*e, "%s", e);
	braid_options_dump(&o, d2, sizeof(d2));
	braid_options_free(&o);
	CHECK_STR(d2, d1);
	expect_error("dev tun\nmp-class port 5060 fast\n",
		     "t.conf:2: option 'mp-class': unknown policy 'fast' (lowest-delay, bulk or redundant)");
	expect_error("dev tun\nmp-class proto udp redundant x\n",
		     "t.conf:2: option 'mp-class': unknown policy 'x' (lowest-delay, bulk or redundant)");
}

int main(void)
{
	braid_log_set_verb(0); /* the warnings the parser logs are not part of the checks */
	test_tokenizer();
	test_full_config();
	test_errors();
	test_argv_and_files();
	test_tls_fields();
	test_mp_class();
	CHECK_DONE();
}
