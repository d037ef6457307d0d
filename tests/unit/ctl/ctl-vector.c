// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl-vector.c - command-line access to the ctl library for the Python
 * interop tests (hex in, hex out). Not a user tool.
 *
 *   ctl-vector auth-wrap DIR DIGEST KEY PID TIME PLAIN
 *   ctl-vector auth-unwrap DIR DIGEST KEY WIRE
 *   ctl-vector crypt-wrap server|client KEY PID TIME PLAIN
 *   ctl-vector crypt-unwrap server|client KEY WIRE       (prints the plain packet)
 *   ctl-vector crypt-unwrap server|client KEY - WIRE...  (decodes each, one line per packet)
 *   ctl-vector prf SECRET SEED LEN
 *   ctl-vector ovpn-prf PRE_MASTER CR1 SR1 CR2 SR2 CSID SSID
 *   ctl-vector decode PLAIN
 * DIR: 0, 1, none. Errors print "ERR <errno> <why>" and exit 2.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdf.h"
#include "pkt.h"
#include "tls_auth.h"
#include "tls_crypt.h"

static size_t unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = strlen(s) / 2;

	if (strlen(s) % 2 || n > cap) {
		fprintf(stderr, "bad hex argument\n");
		exit(64);
	}
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1) {
			fprintf(stderr, "bad hex argument\n");
			exit(64);
		}
		out[i] = (uint8_t)v;
	}
	return n;
}

static void hex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
	printf("\n");
}

static int err(int e, const char *why)
{
	printf("ERR %d %s\n", -e, why ? why : "");
	return 2;
}

static void print_pkt(const uint8_t *plain, size_t n)
{
	struct braid_ctl_pkt p;
	const char *why = NULL;
	int r = braid_ctl_pkt_decode(plain, n, &p, &why);

	if (r) {
		printf("ERR %d %s\n", -r, why);
		return;
	}
	printf("OK op=%u kid=%u sid=", p.opcode, p.key_id);
	for (int i = 0; i < 8; i++)
		printf("%02x", p.sid[i]);
	printf(" acks=");
	for (unsigned i = 0; i < p.n_acks; i++)
		printf("%s%u", i ? "," : "", p.acks[i]);
	printf(" ack_sid=");
	for (int i = 0; i < 8 && p.n_acks; i++)
		printf("%02x", p.ack_sid[i]);
	if (p.has_msg_pid)
		printf(" pid=%u", p.msg_pid);
	else
		printf(" pid=-");
	printf(" len=%zu\n", p.payload_len);
}

int main(int argc, char **argv)
{
	static uint8_t a[4096], b[4096], c[4096];
	struct braid_key2 k;
	size_t n, on;
	int r;

	if (argc < 2)
		return 64;
	if (!strcmp(argv[1], "auth-wrap") || !strcmp(argv[1], "auth-unwrap")) {
		struct braid_tls_auth ta;
		int dir;
		bool wrap = !strcmp(argv[1], "auth-wrap");

		if (argc != (wrap ? 8 : 6) || braid_key_direction_parse(argv[2], &dir) ||
		    unhex(argv[4], k.k, sizeof(k.k)) != sizeof(k.k))
			return 64;
		r = braid_tls_auth_init(&ta, &k, dir, argv[3], 64, 15);
		if (r)
			return err(r, "init");
		if (wrap) {
			braid_tls_auth_set_tx(&ta, (uint32_t)strtoul(argv[5], NULL, 0),
					      (uint32_t)strtoul(argv[6], NULL, 0));
			n = unhex(argv[7], a, sizeof(a));
			r = braid_tls_auth_wrap(&ta, a, n, 0, b, sizeof(b), &on);
		} else {
			n = unhex(argv[5], a, sizeof(a));
			r = braid_tls_auth_unwrap(&ta, a, n, 0, BRAID_UNWRAP_NO_REPLAY, b, sizeof(b), &on);
		}
		if (r) {
			int rc = err(r, ta.why);

			braid_tls_auth_free(&ta);
			return rc;
		}
		hex(b, on);
		braid_tls_auth_free(&ta);
		return 0;
	}
	if (!strcmp(argv[1], "crypt-wrap") || !strcmp(argv[1], "crypt-unwrap")) {
		struct braid_tls_crypt tc;
		bool wrap = !strcmp(argv[1], "crypt-wrap");
		int rc = 0;

		if (argc < (wrap ? 7 : 5) || unhex(argv[3], k.k, sizeof(k.k)) != sizeof(k.k))
			return 64;
		r = braid_tls_crypt_init(&tc, &k, !strcmp(argv[2], "server"), 64, 15);
		if (r)
			return err(r, "init");
		if (wrap) {
			braid_tls_crypt_set_tx(&tc, (uint32_t)strtoul(argv[4], NULL, 0),
					       (uint32_t)strtoul(argv[5], NULL, 0));
			n = unhex(argv[6], a, sizeof(a));
			r = braid_tls_crypt_wrap(&tc, a, n, 0, b, sizeof(b), &on);
			if (r)
				rc = err(r, tc.why);
			else
				hex(b, on);
		} else {
			/* each packet: unwrap (with replay check, in order) and decode */
			bool decode = !strcmp(argv[4], "-");

			for (int i = decode ? 5 : 4; i < argc; i++) {
				n = unhex(argv[i], a, sizeof(a));
				r = braid_tls_crypt_unwrap(&tc, a, n, tc.rx_time ? tc.rx_time : 1, 0, c,
							   sizeof(c), &on);
				if (r) {
					printf("ERR %d %s\n", -r, tc.why ? tc.why : "");
					rc = 2;
					continue;
				}
				if (!decode)
					hex(c, on);
				else
					print_pkt(c, on);
			}
		}
		braid_tls_crypt_free(&tc);
		return rc;
	}
	if (!strcmp(argv[1], "prf") && argc == 5) {
		size_t sl = unhex(argv[2], a, sizeof(a)), dl = unhex(argv[3], b, sizeof(b));
		size_t ol = strtoul(argv[4], NULL, 0);

		if (ol > sizeof(c))
			return 64;
		r = braid_kdf_tls1_prf(a, sl, b, dl, c, ol);
		if (r)
			return err(r, "prf");
		hex(c, ol);
		return 0;
	}
	if (!strcmp(argv[1], "ovpn-prf") && argc == 9) {
		struct braid_kdf_prf_in in;

		if (unhex(argv[2], in.pre_master, 48) != 48 || unhex(argv[3], in.client_random1, 32) != 32 ||
		    unhex(argv[4], in.server_random1, 32) != 32 ||
		    unhex(argv[5], in.client_random2, 32) != 32 ||
		    unhex(argv[6], in.server_random2, 32) != 32 || unhex(argv[7], in.client_sid, 8) != 8 ||
		    unhex(argv[8], in.server_sid, 8) != 8)
			return 64;
		r = braid_kdf_openvpn_prf(&in, &k);
		if (r)
			return err(r, "ovpn-prf");
		hex(k.k, sizeof(k.k));
		return 0;
	}
	if (!strcmp(argv[1], "decode") && argc == 3) {
		n = unhex(argv[2], a, sizeof(a));
		print_pkt(a, n);
		return 0;
	}
	return 64;
}
