// SPDX-License-Identifier: GPL-2.0-only
/*
 * dc-bench.c - encrypt+decrypt throughput of the data channel per cipher and
 * backend (not a ctest: timings belong to benchmarks). Runs ~0.2 s per row.
 *   dc-bench [packet_size]
 */
#include "dc.h"
#include "dclog.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void quiet(int level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

int main(int argc, char **argv)
{
	static const char *ciphers[] = { "AES-256-GCM", "AES-128-GCM", "CHACHA20-POLY1305" };
	static const char *bnames[] = { "auto", "sodium", "openssl" };
	size_t size = argc > 1 ? (size_t)atoi(argv[1]) : 1400;
	static uint8_t pt[65536], pkt[65600], out[65600];
	struct braid_key2 k2;

	if (size > sizeof(pt))
		return 2;
	for (int i = 0; i < 256; i++)
		k2.k[i] = (uint8_t)(i * 13 + 1);
	braid_dc_log_set(quiet, NULL);
	printf("%-18s %-8s %6s %10s %10s\n", "cipher", "backend", "bytes", "Mpkt/s", "Gbit/s");
	for (int c = 0; c < 3; c++) {
		for (int b = 0; b < 3; b++) {
			struct braid_dc_config cfg = { .peer_id = 1, .replay_window = 4096,
						       .backend = (enum braid_aead_backend)b };
			struct braid_dc *tx, *rx;
			double t0, dt;
			long n = 0;
			size_t l, m;

			if (braid_dc_new(&tx, &cfg) || braid_dc_new(&rx, &cfg))
				return 1;
			if (braid_dc_key_install(tx, 0, ciphers[c], &k2, 0) ||
			    braid_dc_key_install(rx, 0, ciphers[c], &k2, 1)) {
				braid_dc_free(tx);
				braid_dc_free(rx);
				continue; /* backend cannot do this cipher */
			}
			t0 = now_s();
			do {
				for (int i = 0; i < 256; i++, n++) {
					if (braid_dc_encrypt(tx, pt, size, pkt, sizeof(pkt), &l, NULL) ||
					    braid_dc_decrypt(rx, pkt, l, 0, out, sizeof(out), &m, NULL))
						return 1;
				}
				dt = now_s() - t0;
			} while (dt < 0.2);
			printf("%-18s %-8s %6zu %10.3f %10.3f\n", ciphers[c], bnames[b], size,
			       n / dt / 1e6, n * (double)size * 8 / dt / 1e9);
			braid_dc_free(tx);
			braid_dc_free(rx);
		}
	}
	return 0;
}
