// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_profile_check.c - braid-helper's allow list: a real client profile
 * passes; every refused directive is refused with its exact message naming
 * the line and the directive; malformed profiles are refused with the line.
 */
#include "check.h"
#include "profile_check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char base[] =
	"client\n"
	"dev tun\n"
	"proto udp\n"
	"remote vpn.example.org 1194\n"
	"<connection>\nremote backup.example.org 443 tcp\n</connection>\n"
	"nobind\npersist-key\npersist-tun\nremote-cert-tls server\n"
	"cipher AES-256-GCM\nauth SHA256\nverb 3\nauth-user-pass\n"
	"static-challenge \"Enter OTP\" 1\n"
	"mp-path auto\nmp-scheduler minrtt\n"
	"setenv CLIENT_CERT 0\n"
	"dns-updown disable\n"
	"http-proxy proxy.example.org 3128 auto\n"
	"# a comment\n; another\n"
	"<ca>\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n</ca>\n"
	"key-direction 1\n"
	"<tls-auth>\n-----BEGIN OpenVPN Static key V1-----\nabcd\n-----END OpenVPN Static key V1-----\n</tls-auth>\n"
	"ca [inline]\n";

/* base plus LINE at the end: LINE is line 36 */
static int check_extra(const char *line, struct bh_check_err *e)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%s%s\n", base, line);
	return bh_profile_check(buf, strlen(buf), e);
}

#define RUNS " runs a program or loads code as root: refused by braid-helper (a profile started through the " \
	"helper runs no scripts or plugins)"
#define WRITES " writes a file as root: refused by braid-helper (the GUI shows the log and status over the " \
	"management socket)"
#define HELPER " is braid-helper's own setting: refused (the helper sets braidd's process, user, directory and " \
	"management socket)"
#define FILEREF " names a file: braid-helper reads no file for you (braid-gui inlines the file's content, " \
	"read as you, when it connects through the helper)"

static const struct { const char *line, *msg; } refused[] = {
	{ "up /etc/openvpn/update-resolv-conf", "line 36: 'up'" RUNS },
	{ "down /tmp/x", "line 36: 'down'" RUNS },
	{ "down-pre", "line 36: 'down-pre'" RUNS },
	{ "up-restart", "line 36: 'up-restart'" RUNS },
	{ "route-up \"/bin/sh -c id\"", "line 36: 'route-up'" RUNS },
	{ "route-pre-down /x", "line 36: 'route-pre-down'" RUNS },
	{ "ipchange /x", "line 36: 'ipchange'" RUNS },
	{ "tls-verify /x", "line 36: 'tls-verify'" RUNS },
	{ "client-connect /x", "line 36: 'client-connect'" RUNS },
	{ "client-disconnect /x", "line 36: 'client-disconnect'" RUNS },
	{ "learn-address /x", "line 36: 'learn-address'" RUNS },
	{ "auth-user-pass-verify /x via-env", "line 36: 'auth-user-pass-verify'" RUNS },
	{ "plugin /usr/lib/openvpn/plugin.so", "line 36: 'plugin'" RUNS },
	{ "script-security 2", "line 36: 'script-security'" RUNS },
	{ "iproute /bin/evil", "line 36: 'iproute'" RUNS },
	{ "setcon x", "line 36: 'setcon'" RUNS },
	{ "providers legacy", "line 36: 'providers'" RUNS },
	{ "engine dynamic", "line 36: 'engine'" RUNS },
	{ "--up /x", "line 36: 'up'" RUNS },
	{ "setenv opt up /x", "line 36: 'up'" RUNS },
	{ "  up\t'/bin/x y'  # comment", "line 36: 'up'" RUNS },
	{ "log /etc/passwd", "line 36: 'log'" WRITES },
	{ "log-append /etc/shadow", "line 36: 'log-append'" WRITES },
	{ "status /etc/x 10", "line 36: 'status'" WRITES },
	{ "status-version 2", "line 36: 'status-version'" WRITES },
	{ "writepid /etc/x", "line 36: 'writepid'" WRITES },
	{ "replay-persist /etc/x", "line 36: 'replay-persist'" WRITES },
	{ "tmp-dir /etc", "line 36: 'tmp-dir'" WRITES },
	{ "ifconfig-pool-persist /etc/x", "line 36: 'ifconfig-pool-persist'" WRITES },
	{ "tls-export-cert /etc", "line 36: 'tls-export-cert'" WRITES },
	{ "genkey secret /etc/x", "line 36: 'genkey'" WRITES },
	{ "control-socket /etc/x", "line 36: 'control-socket'" WRITES },
	{ "management 127.0.0.1 7505", "line 36: 'management'" HELPER },
	{ "management-client-user root", "line 36: 'management-client-user'" HELPER },
	{ "management-client-group root", "line 36: 'management-client-group'" HELPER },
	{ "management-hold", "line 36: 'management-hold'" HELPER },
	{ "config /root/other.conf", "line 36: 'config'" HELPER },
	{ "cd /etc", "line 36: 'cd'" HELPER },
	{ "chroot /", "line 36: 'chroot'" HELPER },
	{ "daemon", "line 36: 'daemon'" HELPER },
	{ "user root", "line 36: 'user'" HELPER },
	{ "group root", "line 36: 'group'" HELPER },
	{ "syslog x", "line 36: 'syslog'" HELPER },
	{ "dev-node /dev/sda", "line 36: 'dev-node'" HELPER },
	{ "machine-readable-output", "line 36: 'machine-readable-output'" HELPER },
	{ "mlock", "line 36: 'mlock'" HELPER },
	{ "nice -20", "line 36: 'nice'" HELPER },
	{ "ca /root/ca.crt", "line 36: 'ca /root/ca.crt'" FILEREF },
	{ "cert client.crt", "line 36: 'cert client.crt'" FILEREF },
	{ "key /etc/shadow", "line 36: 'key /etc/shadow'" FILEREF },
	{ "pkcs12 a.p12", "line 36: 'pkcs12 a.p12'" FILEREF },
	{ "tls-auth ta.key 1", "line 36: 'tls-auth ta.key'" FILEREF },
	{ "tls-crypt tc.key", "line 36: 'tls-crypt tc.key'" FILEREF },
	{ "tls-crypt-v2 v2.key", "line 36: 'tls-crypt-v2 v2.key'" FILEREF },
	{ "crl-verify /etc/crl.pem", "line 36: 'crl-verify /etc/crl.pem'" FILEREF },
	{ "secret static.key", "line 36: 'secret static.key'" FILEREF },
	{ "auth-user-pass /root/creds", "line 36: 'auth-user-pass /root/creds'" FILEREF },
	{ "extra-certs /x", "line 36: 'extra-certs /x'" FILEREF },
	{ "dns-updown /bin/x", "line 36: 'dns-updown /bin/x' runs a program as root: refused by braid-helper "
	  "(only 'disable' or 'force')" },
	{ "http-proxy p 3128 /root/creds", "line 36: 'http-proxy ... /root/creds' names a credentials file: "
	  "braid-helper reads no file for you (use an inline block)" },
	{ "socks-proxy p 1080 /root/creds", "line 36: 'socks-proxy ... /root/creds' names a credentials file: "
	  "braid-helper reads no file for you (use an inline block)" },
	{ "mode server", "line 36: 'mode' is not on braid-helper's list of allowed directives (docs/gui.md, "
	  "Privileges)" },
	{ "no-such-thing 1", "line 36: 'no-such-thing' is not on braid-helper's list of allowed directives "
	  "(docs/gui.md, Privileges)" },
	{ "<script>\nx\n</script>", "line 36: inline <script> is not on braid-helper's list of allowed blocks" },
};

static const struct { const char *text, *msg; int rc; } malformed[] = {
	{ "client\n<ca>\nx\n", "line 3: <ca> opened on line 2 is never closed", -EINVAL },
	{ "client\n<ca>\nx\n</cert>\n", "line 4: </cert> closes <ca> opened earlier", -EINVAL },
	{ "client\n</ca>\n", "line 2: </ca> closes no open block", -EINVAL },
	{ "<connection>\nremote a\n", "line 2: <connection> is never closed", -EINVAL },
	{ "<connection>\nup /x\n</connection>\n", "line 2: 'up'" RUNS, -EPERM },
	{ "client\nremote \"a b\n", "line 2: an unterminated quote", -EINVAL },
	{ "client\nremote a\0\n", "line 2: a NUL byte", -EINVAL },
	{ "client\r\nup x\r\n", "line 2: 'up'" RUNS, -EPERM },
};

/* test_helper_profile_check FILE: check one file, print "ok" or the refusal (system_bus.sh, by hand) */
static int check_file(const char *path)
{
	static char buf[(1u << 20) + 1];
	struct bh_check_err e;
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return perror(path), 2;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (bh_profile_check(buf, n, &e))
		return printf("%s\n", e.msg), 1;
	return printf("ok\n"), 0;
}

int main(int argc, char **argv)
{
	struct bh_check_err e;
	static char big[(1u << 20) + 2];

	if (argc == 2)
		return check_file(argv[1]);

	CHECK_EQ(bh_profile_check(base, strlen(base), &e), 0);
	CHECKM(e.msg[0] == '\0', "%s", e.msg);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		int rc = check_extra(refused[i].line, &e);
		CHECKM(rc == -EPERM, "%s: rc %d", refused[i].line, rc);
		CHECKM(!strcmp(e.msg, refused[i].msg), "%s:\n  got  %s\n  want %s", refused[i].line, e.msg,
		       refused[i].msg);
		CHECK_EQ(e.line, 36u);
	}
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		size_t len = strlen(malformed[i].text);
		if (strstr(malformed[i].msg, "NUL"))
			len += 2;	/* the text holds a NUL and a newline after it */
		int rc = bh_profile_check(malformed[i].text, len, &e);
		CHECKM(rc == malformed[i].rc, "case %zu: rc %d", i, rc);
		CHECKM(!strcmp(e.msg, malformed[i].msg), "case %zu:\n  got  %s\n  want %s", i, e.msg,
		       malformed[i].msg);
	}
	memset(big, '#', sizeof(big));
	CHECK_EQ(bh_profile_check(big, sizeof(big), &e), -E2BIG);
	CHECK_EQ(bh_profile_check(big, 9000, &e), -EINVAL);	/* one 9000-byte line */
	CHECK_STR(e.msg, "line 1: line longer than 8192 bytes");
	CHECK_DONE();
}
