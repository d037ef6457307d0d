// SPDX-License-Identifier: GPL-2.0-only
/*
 * dc-vector.c - drive the data channel from the command line for known-answer
 * tests against an independent implementation (test_vectors.py).
 *
 *   dc-vector encrypt KEYOPTS --key-id K --packet-id N --plaintext HEX
 *       prints the packet as hex
 *   dc-vector decrypt KEYOPTS --packet HEX [--packet HEX ...]
 *       prints "ok key_id=K packet_id=N opcode=O plaintext=HEX" or
 *       "error ENAME" per packet; exit 0 if all packets decrypted
 *   dc-vector reserved KEYOPTS --key-id K --packet-id N --reserve R --send S ...
 *       reserves R packet-ids starting at N, then per --send S prints the
 *       packet as hex or "error ENAME": S = I:HEX seals HEX with the reserved
 *       id N+I (braid_dc_encrypt_reserved), S = plain:HEX uses
 *       braid_dc_encrypt (the next fresh id)
 *   dc-vector keyfile PATH
 *       prints the 256-byte key2 of a static key file as hex, or the error
 *
 * KEYOPTS: --cipher NAME (--key2 HEX512 | --key-file PATH)
 *          --direction 0|1|none [--peer-id N|none] [--backend auto|sodium|openssl]
 *          [--window N]
 */
#include "dc.h"
#include "static_key.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PKT 70000

static const char *errname(int e)
{
	switch (e) {
	case EBADMSG: return "EBADMSG";
	case EPROTO: return "EPROTO";
	case ENOKEY: return "ENOKEY";
	case EALREADY: return "EALREADY";
	case ESTALE: return "ESTALE";
	case ENXIO: return "ENXIO";
	case EMSGSIZE: return "EMSGSIZE";
	case ENOBUFS: return "ENOBUFS";
	case EINVAL: return "EINVAL";
	case EOVERFLOW: return "EOVERFLOW";
	case ENOTSUP: return "ENOTSUP";
	default: return "E?";
	}
}

static int unhex(const char *s, uint8_t *out, size_t cap, size_t *n)
{
	size_t l = strlen(s);

	if (l % 2 || l / 2 > cap)
		return -EINVAL;
	for (size_t i = 0; i < l / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -EINVAL;
		out[i] = (uint8_t)v;
	}
	*n = l / 2;
	return 0;
}

static void puthex(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", p[i]);
}

static int usage(void)
{
	fprintf(stderr, "usage: dc-vector encrypt|decrypt|keyfile ... (see the source header)\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *cipher = NULL, *key2hex = NULL, *keyfile = NULL, *dir_s = NULL;
	const char *pt_hex = NULL, *pkts[256], *sends[256];
	struct braid_dc_config cfg = { .peer_id = 0 };
	unsigned key_id = 0;
	uint32_t packet_id = 1;
	int npkts = 0, nsends = 0, dir, ret, failed = 0;
	uint32_t nreserve = 0;
	struct braid_key2 k2;
	struct braid_dc *dc = NULL;
	char err[300];
	static uint8_t in[MAX_PKT], out[MAX_PKT + 64];
	size_t n, m;

	if (argc < 2)
		return usage();
	if (strcmp(argv[1], "keyfile") == 0) {
		if (argc != 3)
			return usage();
		ret = braid_static_key_load(argv[2], &k2, err, sizeof(err));
		if (ret) {
			printf("error %s\n", err);
			return 1;
		}
		puthex(k2.k, sizeof(k2.k));
		printf("\n");
		braid_key2_wipe(&k2);
		return 0;
	}
	for (int i = 2; i + 1 < argc; i += 2) {
		const char *o = argv[i], *v = argv[i + 1];

		if (!strcmp(o, "--cipher"))
			cipher = v;
		else if (!strcmp(o, "--key2"))
			key2hex = v;
		else if (!strcmp(o, "--key-file"))
			keyfile = v;
		else if (!strcmp(o, "--direction"))
			dir_s = v;
		else if (!strcmp(o, "--peer-id"))
			cfg.peer_id = strcmp(v, "none") ? (uint32_t)strtoul(v, NULL, 0) : BRAID_DC_PEER_ID_NONE;
		else if (!strcmp(o, "--backend"))
			cfg.backend = !strcmp(v, "sodium") ? BRAID_AEAD_BACKEND_SODIUM :
				      !strcmp(v, "openssl") ? BRAID_AEAD_BACKEND_OPENSSL :
				      BRAID_AEAD_BACKEND_AUTO;
		else if (!strcmp(o, "--window"))
			cfg.replay_window = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(o, "--key-id"))
			key_id = (unsigned)strtoul(v, NULL, 0);
		else if (!strcmp(o, "--packet-id"))
			packet_id = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(o, "--plaintext"))
			pt_hex = v;
		else if (!strcmp(o, "--packet") && npkts < 256)
			pkts[npkts++] = v;
		else if (!strcmp(o, "--reserve"))
			nreserve = (uint32_t)strtoul(v, NULL, 0);
		else if (!strcmp(o, "--send") && nsends < 256)
			sends[nsends++] = v;
		else
			return usage();
	}
	if (!cipher || !dir_s || !!key2hex == !!keyfile || braid_key_direction_parse(dir_s, &dir))
		return usage();
	if (keyfile) {
		ret = braid_static_key_load(keyfile, &k2, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
	} else if (unhex(key2hex, k2.k, sizeof(k2.k), &n) || n != sizeof(k2.k)) {
		fprintf(stderr, "--key2 needs 512 hex digits\n");
		return 2;
	}
	ret = braid_dc_new(&dc, &cfg);
	if (!ret)
		ret = braid_dc_key_install(dc, key_id, cipher, &k2, dir);
	braid_key2_wipe(&k2);
	if (ret) {
		fprintf(stderr, "setup: %s\n", errname(-ret));
		braid_dc_free(dc);
		return 1;
	}

	if (strcmp(argv[1], "encrypt") == 0) {
		if (!pt_hex || unhex(pt_hex, in, sizeof(in), &n))
			return usage();
		ret = braid_dc_key_set_next_tx_packet_id(dc, key_id, packet_id);
		if (!ret)
			ret = braid_dc_encrypt(dc, in, n, out, sizeof(out), &m, NULL);
		if (ret) {
			printf("error %s\n", errname(-ret));
			failed = 1;
		} else {
			puthex(out, m);
			printf("\n");
		}
	} else if (strcmp(argv[1], "decrypt") == 0) {
		for (int i = 0; i < npkts; i++) {
			struct braid_dc_rx_info info;

			if (unhex(pkts[i], in, sizeof(in), &n))
				return usage();
			ret = braid_dc_decrypt(dc, in, n, 0, out, sizeof(out), &m, &info);
			if (ret) {
				printf("error %s\n", errname(-ret));
				failed = 1;
				continue;
			}
			printf("ok key_id=%u packet_id=%u opcode=%u plaintext=", info.key_id,
			       info.packet_id, info.opcode);
			puthex(out, m);
			printf("\n");
		}
	} else if (strcmp(argv[1], "reserved") == 0) {
		ret = braid_dc_key_set_next_tx_packet_id(dc, key_id, packet_id);
		for (uint32_t i = 0; !ret && i < nreserve; i++) {
			uint8_t kid;
			uint32_t pid;

			ret = braid_dc_reserve_packet_id(dc, &kid, &pid);
		}
		if (ret) {
			fprintf(stderr, "reserve: %s\n", errname(-ret));
			braid_dc_free(dc);
			return 1;
		}
		for (int i = 0; i < nsends; i++) {
			const char *colon = strchr(sends[i], ':');

			if (!colon || unhex(colon + 1, in, sizeof(in), &n)) {
				braid_dc_free(dc);
				return usage();
			}
			if (!strncmp(sends[i], "plain:", 6))
				ret = braid_dc_encrypt(dc, in, n, out, sizeof(out), &m, NULL);
			else
				ret = braid_dc_encrypt_reserved(dc, key_id,
								packet_id + (uint32_t)strtoul(sends[i], NULL, 0),
								in, n, out, sizeof(out), &m);
			if (ret) {
				printf("error %s\n", errname(-ret));
				failed = 1;
				continue;
			}
			puthex(out, m);
			printf("\n");
		}
	} else {
		braid_dc_free(dc);
		return usage();
	}
	braid_dc_free(dc);
	return failed;
}
