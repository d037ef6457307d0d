// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctlpeer - a minimal OpenVPN 2.6 peer built from the Braid control-channel
 * session (daemon/ctl/session.h, cookie.h) and data channel (daemon/dc), for
 * interop tests against a stock openvpn in network namespaces.
 *
 *   ctlpeer client --remote IP:PORT [options]   talk to `openvpn --server`
 *   ctlpeer server --local IP:PORT [options]    answer `openvpn --client` (stateless cookie)
 *
 * options:
 *   --ca F --cert F --key F              PEM files
 *   --wrap none|auth|crypt --wrap-key F  tls-auth (client key-direction 1, server 0) / tls-crypt
 *   --cipher NAME                        data cipher (client: the only one in IV_CIPHERS;
 *                                        server: pushed, must be in the client's IV_CIPHERS)
 *   --kdf ekm|prf                        client: announce IV_PROTO bit 3 or not and check
 *                                        the push agrees; server: push tls-ekm or not
 *   --reneg                              also wait for one renegotiation (started by the
 *                                        stock peer) and a ping decrypted on the new key_id
 *   --reneg-sec N                        we start that renegotiation after N s (implies --reneg)
 *   --timeout S                          give up after S seconds (default 20)
 *   --tcp                                TCP (u16 length framing); the server accepts one
 *                                        connection and keeps state from the first packet
 *                                        (as 2.6 TCP servers do: no cookie)
 *
 * Success: KEYS_READY, PUSH_REQUEST/PUSH_REPLY exchanged, keys installed in a
 * braid_dc, our keepalive ping sent, the peer's keepalive ping received and
 * decrypted (DATA_V2) -- and with --reneg the same on the next key_id. Prints
 * one "ctlpeer: OK ..." line and exits 0; otherwise "ctlpeer: FAIL: reason"
 * and exit 1.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cookie.h"
#include "dc.h"
#include "km2.h"
#include "payload.h"
#include "pkt.h"
#include "session.h"
#include "static_key.h"
#include "tls.h"

struct peer {
	bool server;
	int fd;
	struct sockaddr_in remote; /* client: the server; server: the client (once known) */
	bool have_remote;
	bool tcp;
	int lfd;                    /* TCP server: listening socket */
	uint8_t stream[8192];       /* TCP receive buffer */
	size_t stream_len;
	const char *cipher;
	bool ekm;
	bool want_reneg;
	struct braid_ctls *s;
	struct braid_ctls_cookie *cookie;
	struct braid_dc *dc;
	uint32_t peer_id;
	bool pushed;                /* client: PUSH_REPLY applied; server: PUSH_REPLY sent */
	bool use_ekm;               /* the method actually used */
	unsigned pings_rx[8];       /* decrypted keepalive pings per key_id */
	unsigned pings_tx;
	int keys_ready_max;
	int64_t next_ping;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ctlpeer: FAIL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void parse_addr(const char *s, struct sockaddr_in *a)
{
	char host[64];
	const char *c = strrchr(s, ':');

	if (!c || (size_t)(c - s) >= sizeof(host))
		die("bad address '%s' (want IP:PORT)", s);
	memcpy(host, s, (size_t)(c - s));
	host[c - s] = 0;
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)atoi(c + 1));
	if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
		die("bad IPv4 address '%s'", host);
}

static void send_pkt(struct peer *p, const uint8_t *b, size_t len)
{
	if (!p->have_remote)
		return;
	if (p->tcp) {
		uint8_t fr[2100];
		size_t flen, off = 0;
		if (braid_ctl_tcp_frame(b, len, fr, sizeof(fr), &flen))
			die("tcp frame");
		while (off < flen) {
			ssize_t n = write(p->fd, fr + off, flen - off);
			if (n <= 0)
				die("tcp write: %s", strerror(errno));
			off += (size_t)n;
		}
		return;
	}
	if (sendto(p->fd, b, len, 0, (struct sockaddr *)&p->remote, sizeof(p->remote)) < 0)
		fprintf(stderr, "ctlpeer: sendto: %s\n", strerror(errno));
}

static void flush(struct peer *p)
{
	uint8_t buf[2048];
	size_t len;

	while (p->s && braid_ctls_output(p->s, now_ms(), buf, sizeof(buf), &len) == 0 && len)
		send_pkt(p, buf, len);
}

static void send_ping(struct peer *p)
{
	uint8_t pt[64], ct[128];
	size_t plen, clen;
	int ret;

	if (!p->dc || braid_dc_primary_key_id(p->dc) < 0)
		return;
	braid_payload_build_ping(BRAID_COMP_NONE, pt, sizeof(pt), &plen);
	ret = braid_dc_encrypt(p->dc, pt, plen, ct, sizeof(ct), &clen, NULL);
	if (ret)
		die("dc encrypt: %s", strerror(-ret));
	send_pkt(p, ct, clen);
	p->pings_tx++;
}

static void install_key(struct peer *p, unsigned kid)
{
	struct braid_key2 k2;
	int ret;

	ret = braid_ctls_derive(p->s, kid, p->use_ekm ? BRAID_CTLS_KDF_EKM : BRAID_CTLS_KDF_PRF, &k2);
	if (ret)
		die("derive key_id %u: %s", kid, strerror(-ret));
	if (!p->dc) {
		struct braid_dc_config dcfg = { .peer_id = p->peer_id };
		ret = braid_dc_new(&p->dc, &dcfg);
		if (ret)
			die("dc_new: %s", strerror(-ret));
	}
	ret = braid_dc_key_install(p->dc, kid, p->cipher, &k2,
				   p->server ? BRAID_KEY_DIR_INVERSE : BRAID_KEY_DIR_NORMAL);
	OPENSSL_cleanse(&k2, sizeof(k2));
	if (ret)
		die("dc key install key_id %u (%s): %s", kid, p->cipher, strerror(-ret));
	fprintf(stderr, "ctlpeer: key_id %u installed (%s, %s)\n", kid, p->cipher,
		p->use_ekm ? "EKM" : "PRF");
	send_ping(p);
}

/* Client: apply PUSH_REPLY (cipher, peer-id, tls-ekm). */
static void client_push(struct peer *p, const char *msg)
{
	char buf[BRAID_CTLS_TEXT_MAX + 1], *save = NULL, *opt;
	bool ekm = false, got_cipher = false;

	snprintf(buf, sizeof(buf), "%s", msg);
	p->peer_id = BRAID_DC_PEER_ID_NONE;
	for (opt = strtok_r(buf, ",", &save); opt; opt = strtok_r(NULL, ",", &save)) {
		if (strncmp(opt, "cipher ", 7) == 0) {
			if (strcmp(opt + 7, p->cipher) != 0)
				die("server pushed '%s', expected cipher %s", opt, p->cipher);
			got_cipher = true;
		} else if (strncmp(opt, "peer-id ", 8) == 0) {
			p->peer_id = (uint32_t)strtoul(opt + 8, NULL, 10);
		} else if (strncmp(opt, "protocol-flags ", 15) == 0 || strcmp(opt, "key-derivation tls-ekm") == 0) {
			if (strstr(opt, "tls-ekm"))
				ekm = true;
		}
	}
	if (!got_cipher)
		die("PUSH_REPLY without cipher: %s", msg);
	if (ekm != p->ekm)
		die("server %s tls-ekm, expected %s: %s", ekm ? "pushed" : "did not push",
		    p->ekm ? "EKM" : "PRF", msg);
	p->use_ekm = ekm;
	p->pushed = true;
	install_key(p, (unsigned)braid_ctls_current_key_id(p->s));
}

/* Server: answer PUSH_REQUEST. */
static void server_push(struct peer *p)
{
	char ciphers[256] = "", msg[512];
	const char *pi = braid_ctls_peer_info(p->s);
	uint32_t proto = 0;
	int ret;

	if (braid_peer_info_get(pi, "IV_CIPHERS", ciphers, sizeof(ciphers)) != 0 ||
	    !strstr(ciphers, p->cipher))
		die("client IV_CIPHERS '%s' lacks %s", ciphers, p->cipher);
	if (braid_peer_info_iv_proto(pi, &proto) != 0 || !(proto & BRAID_IV_PROTO_DATA_V2))
		die("client does not announce DATA_V2 (IV_PROTO %u)", proto);
	if (p->ekm && !(proto & BRAID_IV_PROTO_TLS_KEY_EXPORT))
		die("client does not announce tls-ekm (IV_PROTO %u)", proto);
	p->peer_id = 0;
	p->use_ekm = p->ekm;
	snprintf(msg, sizeof(msg),
		 "PUSH_REPLY,topology subnet,ping 1,ping-restart 10,ifconfig 10.8.0.2 255.255.255.0,"
		 "peer-id 0,cipher %s,protocol-flags cc-exit%s",
		 p->cipher, p->ekm ? " tls-ekm" : "");
	ret = braid_ctls_send_text(p->s, msg);
	if (ret)
		die("send PUSH_REPLY: %s", strerror(-ret));
	p->pushed = true;
	fprintf(stderr, "ctlpeer: sent %s\n", msg);
	install_key(p, (unsigned)braid_ctls_current_key_id(p->s));
}

static void events(struct peer *p)
{
	struct braid_ctls_event ev;

	while (p->s && braid_ctls_next_event(p->s, &ev) == 0) {
		switch (ev.type) {
		case BRAID_CTLS_EV_KEYS_READY:
			fprintf(stderr, "ctlpeer: KEYS_READY key_id %u (peer CN %s)\n", ev.key_id,
				braid_ctls_peer_cn(p->s));
			if ((int)ev.key_id > p->keys_ready_max)
				p->keys_ready_max = ev.key_id;
			if (ev.key_id == 0 && !p->server)
				braid_ctls_send_text(p->s, "PUSH_REQUEST");
			else if (ev.key_id > 0 && p->pushed)
				install_key(p, ev.key_id);
			break;
		case BRAID_CTLS_EV_TEXT:
			fprintf(stderr, "ctlpeer: text on key_id %u: %s\n", ev.key_id, ev.text);
			if (!p->server && strncmp(ev.text, "PUSH_REPLY", 10) == 0 && !p->pushed)
				client_push(p, ev.text);
			else if (p->server && strcmp(ev.text, "PUSH_REQUEST") == 0 && !p->pushed)
				server_push(p);
			else if (strncmp(ev.text, "AUTH_FAILED", 11) == 0)
				die("peer said %s", ev.text);
			break;
		case BRAID_CTLS_EV_KEY_EXPIRED:
			if (p->dc)
				braid_dc_key_remove(p->dc, ev.key_id);
			break;
		case BRAID_CTLS_EV_ERROR:
			if (ev.fatal)
				die("session error: %s", ev.text);
			fprintf(stderr, "ctlpeer: error: %s\n", ev.text);
			break;
		case BRAID_CTLS_EV_SOFT_RESET:
			fprintf(stderr, "ctlpeer: soft reset to key_id %u\n", ev.key_id);
			break;
		default:
			break;
		}
	}
}

static void data_in(struct peer *p, uint8_t *b, size_t len)
{
	uint8_t pt[2048];
	size_t plen;
	struct braid_dc_rx_info info;
	struct braid_payload pl;
	int ret;

	if (!p->dc)
		return;
	ret = braid_dc_decrypt(p->dc, b, len, now_ms() / 1000, pt, sizeof(pt), &plen, &info);
	if (ret) {
		fprintf(stderr, "ctlpeer: data packet dropped: %s\n", strerror(-ret));
		return;
	}
	braid_payload_classify(BRAID_COMP_NONE, pt, plen, &pl);
	if (pl.kind == BRAID_PAYLOAD_PING) {
		if (info.opcode != BRAID_OP_DATA_V2)
			die("ping arrived as P_DATA_V1, expected P_DATA_V2");
		if (!p->pings_rx[info.key_id])
			fprintf(stderr, "ctlpeer: keepalive ping decrypted on key_id %u (pkt-id %u)\n",
				info.key_id, info.packet_id);
		p->pings_rx[info.key_id]++;
	}
}

static void packet_in(struct peer *p, uint8_t *b, size_t len, const struct sockaddr_in *from)
{
	const char *why = NULL;
	int ret;

	if (len < 1)
		return;
	if ((b[0] >> 3) == BRAID_OP_DATA_V2 || (b[0] >> 3) == BRAID_OP_DATA_V1) {
		data_in(p, b, len);
		return;
	}
	if (p->server && !p->s && p->tcp) {
		die("TCP: no session");
	}
	if (p->server && !p->s) {
		uint8_t out[2048];
		size_t olen;
		int64_t unix_s = (int64_t)time(NULL);
		if (braid_ctls_cookie_is_reset(b, len)) {
			ret = braid_ctls_cookie_reply(p->cookie, b, len, from, sizeof(*from), unix_s,
						      out, sizeof(out), &olen, &why);
			if (ret) {
				fprintf(stderr, "ctlpeer: reset rejected: %s\n", why);
				return;
			}
			p->remote = *from;
			p->have_remote = true;
			send_pkt(p, out, olen);
			fprintf(stderr, "ctlpeer: stateless server reset sent (no session yet: %lu live)\n",
				braid_ctls_live_sessions());
			return;
		}
		ret = braid_ctls_new_from_cookie(&p->s, p->cookie, b, len, from, sizeof(*from), unix_s,
						 now_ms(), &why);
		if (ret) {
			fprintf(stderr, "ctlpeer: no session: %s\n", why);
			return;
		}
		p->remote = *from;
		p->have_remote = true;
		fprintf(stderr, "ctlpeer: session created from the cookie\n");
		return;
	}
	ret = braid_ctls_input(p->s, b, len, now_ms());
	if (ret)
		fprintf(stderr, "ctlpeer: control packet dropped: %s\n", braid_ctls_last_error(p->s));
}

static bool done(const struct peer *p)
{
	if (!p->pushed || !p->pings_rx[0] || !p->pings_tx)
		return false;
	if (p->want_reneg) {
		int k = p->dc ? braid_dc_primary_key_id(p->dc) : -1;
		return k > 0 && p->pings_rx[k] > 0;
	}
	return true;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *b;
	long n;

	if (!f)
		die("%s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = calloc(1, (size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		die("%s: read failed", path);
	fclose(f);
	return b;
}

int main(int argc, char **argv)
{
	struct peer p = { .fd = -1, .cipher = "AES-256-GCM", .ekm = true };
	struct braid_tls_config tc = { 0 };
	struct braid_ctls_config cc = { 0 };
	struct braid_key2 wkey;
	struct sockaddr_in local = { 0 };
	const char *wrap = "none", *wrap_key = NULL, *local_s = NULL, *remote_s = NULL;
	char err[256], peer_info[512] = "", opts[256];
	SSL_CTX *ctx = NULL;
	int timeout_s = 20, ret;
	unsigned reneg_sec = UINT32_MAX; /* by default the stock peer renegotiates */

	if (argc < 2 || (strcmp(argv[1], "client") && strcmp(argv[1], "server")))
		die("usage: ctlpeer client|server [--remote|--local IP:PORT] --ca F --cert F --key F "
		    "[--wrap none|auth|crypt --wrap-key F] [--cipher C] [--kdf ekm|prf] [--reneg] "
		    "[--timeout S]");
	p.server = strcmp(argv[1], "server") == 0;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--reneg")) {
			p.want_reneg = true;
			continue;
		}
		if (!strcmp(a, "--tcp")) {
			p.tcp = true;
			continue;
		}
		if (!v)
			die("option %s needs a value", a);
		i++;
		if (!strcmp(a, "--ca"))
			tc.ca_file = v;
		else if (!strcmp(a, "--cert"))
			tc.cert_file = v;
		else if (!strcmp(a, "--key"))
			tc.key_file = v;
		else if (!strcmp(a, "--wrap"))
			wrap = v;
		else if (!strcmp(a, "--wrap-key"))
			wrap_key = v;
		else if (!strcmp(a, "--cipher"))
			p.cipher = v;
		else if (!strcmp(a, "--kdf"))
			p.ekm = strcmp(v, "ekm") == 0;
		else if (!strcmp(a, "--local"))
			local_s = v;
		else if (!strcmp(a, "--remote"))
			remote_s = v;
		else if (!strcmp(a, "--timeout"))
			timeout_s = atoi(v);
		else if (!strcmp(a, "--reneg-sec")) {
			reneg_sec = (unsigned)atoi(v);
			p.want_reneg = true;
		}
		else
			die("unknown option %s", a);
	}

	tc.server = p.server;
	tc.remote_cert_tls = p.server ? BRAID_REMOTE_CERT_CLIENT : BRAID_REMOTE_CERT_SERVER;
	ret = braid_tls_ctx_new(&ctx, &tc, err, sizeof(err));
	if (ret)
		die("%s", err);

	cc.server = p.server;
	cc.ssl_ctx = ctx;
	cc.reneg_sec = reneg_sec;
	cc.hand_window_s = 10;
	if (!strcmp(wrap, "auth") || !strcmp(wrap, "crypt")) {
		char *txt;
		if (!wrap_key)
			die("--wrap %s needs --wrap-key", wrap);
		txt = slurp(wrap_key);
		if (braid_static_key_parse(txt, strlen(txt), &wkey, err, sizeof(err)))
			die("%s: %s", wrap_key, err);
		free(txt);
		cc.wrap = !strcmp(wrap, "auth") ? BRAID_CTLS_WRAP_AUTH : BRAID_CTLS_WRAP_CRYPT;
		cc.wrap_key = &wkey;
		cc.key_direction = p.server ? BRAID_KEY_DIR_NORMAL : BRAID_KEY_DIR_INVERSE;
	} else if (strcmp(wrap, "none")) {
		die("--wrap: none, auth or crypt");
	}
	snprintf(opts, sizeof(opts),
		 "V4,dev-type tun,link-mtu 1541,tun-mtu 1500,proto %s,%sauth SHA1,keysize 128,%skey-method 2,%s",
		 !p.tcp ? "UDPv4" : p.server ? "TCPv4_SERVER" : "TCPv4_CLIENT", cc.wrap == BRAID_CTLS_WRAP_AUTH ? (p.server ? "keydir 0," : "keydir 1,") : "",
		 cc.wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth," : "",
		 p.server ? "tls-server" : "tls-client");
	cc.options_string = opts;
	if (!p.server) {
		/* 990 = stock 2.6.14 minus dyn-tls-crypt (not supported); without bit 3
		 * (tls-ekm) the server derives by PRF */
		unsigned proto = 990 & ~BRAID_IV_PROTO_DYN_TLS_CRYPT;
		if (!p.ekm)
			proto &= ~BRAID_IV_PROTO_TLS_KEY_EXPORT;
		snprintf(peer_info, sizeof(peer_info),
			 "IV_VER=2.6.14\nIV_PLAT=linux\nIV_TCPNL=1\nIV_MTU=1600\nIV_CIPHERS=%s\nIV_PROTO=%u\n",
			 p.cipher, proto);
		braid_peer_info_add_braid_mp(peer_info, sizeof(peer_info));
		cc.peer_info = peer_info;
	}

	cc.tcp = p.tcp;
	p.lfd = -1;
	p.fd = socket(AF_INET, (p.tcp ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
	if (p.fd < 0)
		die("socket: %s", strerror(errno));
	if (p.server) {
		if (!local_s)
			die("server needs --local IP:PORT");
		parse_addr(local_s, &local);
		setsockopt(p.fd, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int));
		if (bind(p.fd, (struct sockaddr *)&local, sizeof(local)) < 0)
			die("bind %s: %s", local_s, strerror(errno));
		if (p.tcp) {
			struct pollfd lp = { .fd = p.fd, .events = POLLIN };
			socklen_t sl = sizeof(p.remote);
			if (listen(p.fd, 1) < 0)
				die("listen: %s", strerror(errno));
			if (poll(&lp, 1, timeout_s * 1000) != 1)
				die("no TCP connection within %d s", timeout_s);
			p.lfd = p.fd;
			p.fd = accept(p.lfd, (struct sockaddr *)&p.remote, &sl);
			if (p.fd < 0)
				die("accept: %s", strerror(errno));
			p.have_remote = true;
			ret = braid_ctls_new(&p.s, &cc, now_ms(), err, sizeof(err));
			if (ret)
				die("session: %s", err);
		} else {
			ret = braid_ctls_cookie_new(&p.cookie, &cc, NULL, err, sizeof(err));
			if (ret)
				die("cookie: %s", err);
		}
	} else {
		if (!remote_s)
			die("client needs --remote IP:PORT");
		parse_addr(remote_s, &p.remote);
		p.have_remote = true;
		if (p.tcp && connect(p.fd, (struct sockaddr *)&p.remote, sizeof(p.remote)) < 0)
			die("connect %s: %s", remote_s, strerror(errno));
		ret = braid_ctls_new(&p.s, &cc, now_ms(), err, sizeof(err));
		if (ret)
			die("session: %s", err);
	}

	int64_t end = now_ms() + timeout_s * 1000LL;
	p.next_ping = now_ms() + 1000;
	while (!done(&p)) {
		int64_t now = now_ms(), d = end;
		if (now >= end)
			die("timeout after %d s: pushed=%d pings_tx=%u pings_rx[0]=%u keys_ready_max=%d "
			    "dc key %d; last error: %s",
			    timeout_s, p.pushed, p.pings_tx, p.pings_rx[0], p.keys_ready_max,
			    p.dc ? braid_dc_primary_key_id(p.dc) : -1,
			    p.s ? braid_ctls_last_error(p.s) : "(no session)");
		flush(&p);
		events(&p);
		flush(&p);
		if (now >= p.next_ping) {
			send_ping(&p);
			p.next_ping = now + 1000;
		}
		if (p.s && braid_ctls_deadline(p.s) < d)
			d = braid_ctls_deadline(p.s);
		if (p.next_ping < d)
			d = p.next_ping;
		int wait = d <= now ? 0 : (int)(d - now);
		struct pollfd pfd = { .fd = p.fd, .events = POLLIN };
		if (poll(&pfd, 1, wait) > 0 && p.tcp) {
			const uint8_t *pk;
			size_t pl, used;
			const char *why = NULL;
			ssize_t n = read(p.fd, p.stream + p.stream_len, sizeof(p.stream) - p.stream_len);
			if (n <= 0)
				die("TCP connection closed by the peer");
			p.stream_len += (size_t)n;
			while ((ret = braid_ctl_tcp_next(p.stream, p.stream_len, 2048, &pk, &pl, &used,
							 &why)) == 0) {
				uint8_t b[2048];
				memcpy(b, pk, pl);
				packet_in(&p, b, pl, &p.remote);
				memmove(p.stream, p.stream + used, p.stream_len - used);
				p.stream_len -= used;
			}
			if (ret != -EAGAIN)
				die("TCP stream: %s", why ? why : "bad framing");
		} else if (pfd.revents & POLLIN) {
			uint8_t b[2048];
			struct sockaddr_in from;
			socklen_t fl = sizeof(from);
			ssize_t n = recvfrom(p.fd, b, sizeof(b), 0, (struct sockaddr *)&from, &fl);
			if (n > 0) {
				memset(from.sin_zero, 0, sizeof(from.sin_zero));
				packet_in(&p, b, (size_t)n, &from);
			}
		}
	}
	/* let the last ACKs out */
	flush(&p);
	printf("ctlpeer: OK %s%s wrap=%s cipher=%s kdf=%s key_id=%d peer_cn=%s pings_rx=%u/%u pings_tx=%u%s\n",
	       p.server ? "server" : "client", p.tcp ? " tcp" : "", wrap, p.cipher, p.use_ekm ? "EKM" : "PRF",
	       braid_dc_primary_key_id(p.dc), braid_ctls_peer_cn(p.s), p.pings_rx[0],
	       p.want_reneg ? p.pings_rx[braid_dc_primary_key_id(p.dc)] : 0, p.pings_tx,
	       p.want_reneg ? " (after renegotiation)" : "");
	braid_dc_free(p.dc);
	braid_ctls_free(p.s);
	braid_ctls_cookie_free(p.cookie);
	braid_tls_ctx_free(ctx);
	close(p.fd);
	if (p.lfd >= 0)
		close(p.lfd);
	return 0;
}
