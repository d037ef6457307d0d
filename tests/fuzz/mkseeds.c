// SPDX-License-Identifier: GPL-2.0-only
/*
 * mkseeds.c - the seed maker of make-corpus.sh: what cannot be captured in
 * the clear, made with the library's own encoders and the harnesses' fixed
 * keys (fuzz_setup.h), so that the seeds pass the harnesses' crypto.
 *
 *   fuzz_mkseeds keyfile SEED          an OpenVPN static key file of fz_key2(SEED)
 *   fuzz_mkseeds dc DIR INNER...       sealed data packets (mkseeds_dc.c)
 *   fuzz_mkseeds cookie DIR            reset, cookie reply, third packet and the
 *                                      TLS start of a real client session, each wrap
 *   fuzz_mkseeds km2 DIR               key-method-2 messages as braidd and stock send them
 *   fuzz_mkseeds mp_msg DIR            one multipath control message of each type
 */
#include <errno.h>
#include <fcntl.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_setup.h"
#include "km2.h"
#include "mkseeds.h"
#include "mp_msg.h"

void seed_start(struct seed *s, int flags)
{
	s->n = 0;
	if (flags >= 0)
		s->b[s->n++] = (uint8_t)flags;
}

void seed_raw(struct seed *s, const void *p, size_t len)
{
	if (s->n + len > sizeof(s->b))
		len = sizeof(s->b) - s->n;
	memcpy(s->b + s->n, p, len);
	s->n += len;
}

void seed_chunk(struct seed *s, const void *p, size_t len)
{
	uint8_t l[2] = { (uint8_t)(len >> 8), (uint8_t)len };

	if (s->n + 2 + len > sizeof(s->b))
		return;
	seed_raw(s, l, 2);
	seed_raw(s, p, len);
}

void seed_write(const struct seed *s, const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(s->b, 1, s->n, f) != s->n || fclose(f)) {
		perror(path);
		exit(1);
	}
}

long read_file(const char *path, uint8_t *buf, size_t cap)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, cap);
	close(fd);
	return n;
}

static int keyfile(int seed)
{
	struct braid_key2 k;

	fz_key2(&k, (uint8_t)seed);
	printf("#\n# braid fuzz test key fz_key2(%d): public, never use it\n#\n", seed);
	printf("-----BEGIN OpenVPN Static key V1-----\n");
	for (size_t i = 0; i < sizeof(k.k); i++)
		printf("%02x%s", k.k[i], i % 16 == 15 ? "\n" : "");
	printf("-----END OpenVPN Static key V1-----\n");
	return 0;
}

/* A real client session against the cookie: what the harness sees from it. */
static void cookie_flow(const char *dir, int wrap, SSL_CTX *sctx, SSL_CTX *cctx)
{
	struct braid_ctls_config scfg, ccfg;
	struct braid_ctls_cookie *ck;
	struct braid_ctls *cli;
	struct braid_key2 key;
	uint8_t pkt[2048], rep[2048];
	size_t len, rlen;
	int64_t now = FZ_NOW_MS;
	char err[256], name[64];
	const char *why;
	struct seed s;

	fz_key2(&key, wrap == BRAID_CTLS_WRAP_CRYPT ? 4 : 3);
	fz_ctls_cfg(&scfg, true, wrap, sctx, &key);
	fz_ctls_cfg(&ccfg, false, wrap, cctx, &key);
	if (braid_ctls_cookie_new(&ck, &scfg, fz_cookie_secret, err, sizeof(err)) ||
	    braid_ctls_new(&cli, &ccfg, now, err, sizeof(err))) {
		fprintf(stderr, "cookie %d: %s\n", wrap, err);
		exit(1);
	}
	seed_start(&s, wrap);
	if (braid_ctls_output(cli, now, pkt, sizeof(pkt), &len) || !len)
		exit(1);
	seed_chunk(&s, pkt, len);		/* the client's hard reset */
	if (braid_ctls_cookie_reply(ck, pkt, len, fz_addr, sizeof(fz_addr), FZ_NOW_S, rep,
				    sizeof(rep), &rlen, &why)) {
		fprintf(stderr, "cookie %d: reply: %s\n", wrap, why);
		exit(1);
	}
	braid_ctls_input(cli, rep, rlen, now + 10);
	for (int i = 0; i < 6; i++) {	/* the third packet and what follows */
		now += 10;
		if (braid_ctls_output(cli, now, pkt, sizeof(pkt), &len) || !len)
			break;
		seed_chunk(&s, pkt, len);
	}
	snprintf(name, sizeof(name), "flow-wrap%d", wrap);
	seed_write(&s, dir, name);
	s.b[0] = (uint8_t)(wrap | 4);	/* same packets, checked for another address */
	snprintf(name, sizeof(name), "flow-wrap%d-otheraddr", wrap);
	seed_write(&s, dir, name);
	braid_ctls_free(cli);
	braid_ctls_cookie_free(ck);
}

static int cookie(const char *dir)
{
	SSL_CTX *sctx = SSL_CTX_new(TLS_server_method()), *cctx = SSL_CTX_new(TLS_client_method());

	if (!sctx || !cctx)
		return 1;
	for (int wrap = 0; wrap < 3; wrap++)
		cookie_flow(dir, wrap, sctx, cctx);
	SSL_CTX_free(sctx);
	SSL_CTX_free(cctx);
	return 0;
}

static void km2_one(const char *dir, const char *name, bool client, const char *opts,
		    const char *user, const char *pass, const char *pi)
{
	struct braid_km2 m;
	struct seed s;
	size_t len;
	uint8_t buf[BRAID_KM2_MSG_MAX * 3];

	memset(&m, 0, sizeof(m));
	m.from_client = client;
	fz_fill(m.pre_master, sizeof(m.pre_master), 9);
	fz_fill(m.random1, sizeof(m.random1), 10);
	fz_fill(m.random2, sizeof(m.random2), 11);
	snprintf(m.options, sizeof(m.options), "%s", opts);
	snprintf(m.username, sizeof(m.username), "%s", user);
	snprintf(m.password, sizeof(m.password), "%s", pass);
	snprintf(m.peer_info, sizeof(m.peer_info), "%s", pi);
	if (braid_km2_build(&m, buf, sizeof(buf), &len))
		exit(1);
	seed_start(&s, client);
	seed_raw(&s, buf, len);
	seed_write(&s, dir, name);
}

static int km2(const char *dir)
{
	const char *copt = "V4,dev-type tun,link-mtu 1559,tun-mtu 1500,proto UDPv4,cipher AES-256-CBC,"
			   "auth SHA1,keysize 256,tls-auth,key-method 2,tls-client";
	const char *sopt = "V4,dev-type tun,link-mtu 1559,tun-mtu 1500,proto UDPv4,cipher AES-256-CBC,"
			   "auth SHA1,keysize 256,tls-auth,key-method 2,tls-server";
	/* peer-info as stock 2.6.14 and braidd send it (docs/fact sheet §3) */
	const char *stock_pi = "IV_VER=2.6.14\nIV_PLAT=linux\nIV_TCPNL=1\nIV_MTU=1600\nIV_NCP=2\n"
			       "IV_CIPHERS=AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305\nIV_PROTO=990\n"
			       "IV_LZO_STUB=1\nIV_COMP_STUB=1\nIV_COMP_STUBv2=1\nIV_SSL=OpenSSL_3.0.17\n";
	const char *braid_pi = "IV_VER=2.6.14\nIV_PLAT=linux\nIV_TCPNL=1\nIV_PROTO=414\n"
			       "IV_CIPHERS=AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305\nIV_BRAID_MP=1\n"
			       "IV_SSL=OpenSSL\nUV_TEAM=blue\n";

	km2_one(dir, "client-stock", true, copt, "", "", stock_pi);
	km2_one(dir, "client-braidd", true, copt, "", "", braid_pi);
	km2_one(dir, "client-userpass", true, copt, "alice", "s3cret", braid_pi);
	km2_one(dir, "client-token", true, copt, "alice", "SESS_ID_AT_0123456789abcdef", stock_pi);
	km2_one(dir, "server-stock", false, sopt, "", "", "");
	km2_one(dir, "server-empty", false, "", "", "", "");
	return 0;
}

unsigned mkseeds_mp_msgs(uint8_t msgs[MKSEEDS_MP_MAX][2048], size_t lens[MKSEEDS_MP_MAX])
{
	static struct braid_mp_msg m;
	unsigned n = 0;
	int r;

	for (int t = BRAID_MP_MSG_PROBE; t <= BRAID_MP_MSG_PATH_STATUS && n < MKSEEDS_MP_MAX; t++) {
		memset(&m, 0, sizeof(m));
		m.type = (enum braid_mp_msg_type)t;
		m.path_id = 2;
		switch (m.type) {
		case BRAID_MP_MSG_PROBE:
			m.u.probe.seq = 17, m.u.probe.tx_us = 123456789;
			break;
		case BRAID_MP_MSG_PROBE_ECHO:
			m.u.echo.seq = 17, m.u.echo.tx_us = 123456789, m.u.echo.hold_us = 150;
			m.u.echo.owd_us = -2500;
			break;
		case BRAID_MP_MSG_REPORT:
			m.u.report.n = 2;
			for (int i = 0; i < 2; i++) {
				m.u.report.e[i].path_id = (uint32_t)i + 1;
				m.u.report.e[i].rx_pkts = 1000u * (unsigned)(i + 1);
				m.u.report.e[i].rx_bytes = 1400000u;
				m.u.report.e[i].last_pid = 5000;
				m.u.report.e[i].owd_min_us = 10000;
				m.u.report.e[i].owd_last_us = 12000;
			}
			m.u.report.nack_hi = 5001;
			m.u.report.nack_bits = 16;
			m.u.report.nack[0] = 0x81;
			break;
		case BRAID_MP_MSG_PATH_CHALLENGE:
		case BRAID_MP_MSG_PATH_RESPONSE:
			memcpy(m.u.token, "\x01\x02\x03\x04\x05\x06\x07\x08", BRAID_MP_TOKEN_LEN);
			break;
		case BRAID_MP_MSG_PATH_CLOSE:
			m.u.close_reason = 1;
			break;
		case BRAID_MP_MSG_SKIP:
			m.u.skip_pid = 4242;
			break;
		case BRAID_MP_MSG_MTU_PROBE:
			m.u.mtu.seq = 3, m.u.mtu.size = 1200;
			break;
		case BRAID_MP_MSG_MTU_ACK:
			m.u.mtu.seq = 3, m.u.mtu.size = 1200;
			break;
		case BRAID_MP_MSG_PATH_STATUS:
			m.u.status.slot = 1, m.u.status.flags = BRAID_MP_STATUS_F_BACKUP;
			break;
		}
		r = braid_mp_msg_encode(&m, msgs[n], 2048);
		if (r <= 0) {
			fprintf(stderr, "mp_msg type %d: encode %d\n", t, r);
			exit(1);
		}
		lens[n++] = (size_t)r;
	}
	return n;
}

static int mp_msg(const char *dir)
{
	static uint8_t msgs[MKSEEDS_MP_MAX][2048];
	size_t lens[MKSEEDS_MP_MAX];
	unsigned n = mkseeds_mp_msgs(msgs, lens);
	struct seed s;
	char name[32];

	for (unsigned i = 0; i < n; i++) {
		seed_start(&s, -1);
		seed_raw(&s, msgs[i], lens[i]);
		snprintf(name, sizeof(name), "type-%u", msgs[i][BRAID_MP_MAGIC_LEN]);
		seed_write(&s, dir, name);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "keyfile"))
		return keyfile(atoi(argv[2]));
	if (argc >= 3 && !strcmp(argv[1], "dc"))
		return mkseeds_dc(argv[2], argc - 3, argv + 3);
	if (argc == 3 && !strcmp(argv[1], "cookie"))
		return cookie(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "km2"))
		return km2(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "mp_msg"))
		return mp_msg(argv[2]);
	fprintf(stderr, "usage: fuzz_mkseeds keyfile SEED | dc DIR INNER... | cookie DIR | km2 DIR | "
			"mp_msg DIR\n");
	return 2;
}
