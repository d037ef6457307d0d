// SPDX-License-Identifier: GPL-2.0-only
/*
 * braid_flood - spoofed UDP packets at a fixed rate, for the handshake-flood
 * test (tests/daemon/adv_flood.sh, docs/adversarial.md). Python reaches a few
 * thousand packets a second; this reaches the 10,000+/s the test needs on one
 * core of the CI machine.
 *
 *   braid_flood [options] DST_IP DST_PORT
 *     -r RATE      packets per second (default 10000)
 *     -t SECONDS   how long (default 30)
 *     -s CIDR      spoofed source addresses, random in this IPv4 prefix
 *                  (default 198.18.0.0/15); source ports random too
 *     -p FILE      also send FILE's bytes as a payload (e.g. a captured real
 *                  reset); payloads alternate with the synthetic reset
 *     -P           only the -p payloads, no synthetic reset
 *
 * The synthetic payload is a P_CONTROL_HARD_RESET_CLIENT_V2 without
 * tls-auth/tls-crypt (14 bytes) with a new random session id each time.
 * Packets leave on a raw socket (IP_HDRINCL) in batches of 64 (sendmmsg),
 * paced against the monotonic clock. At the end one line:
 *   "braid_flood: sent N packets in T s: R pps (wanted W)"
 * Exit 0, or 1 on a set-up or send error.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE	/* sendmmsg */
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH 64
#define MAX_PAYLOAD 1400
#define MAX_FILES 4

struct payload {
	uint8_t b[MAX_PAYLOAD];
	size_t len;
	int synthetic;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	/* xorshift64*: fast, and unpredictability does not matter here */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint16_t ip_csum(const uint8_t *p, size_t len)
{
	uint32_t s = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static int parse_cidr(const char *s, uint32_t *base, uint32_t *span)
{
	char buf[64];
	char *slash;
	struct in_addr a;
	int bits = 32;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		bits = atoi(slash + 1);
	}
	if (bits < 8 || bits > 32 || inet_pton(AF_INET, buf, &a) != 1)
		return -EINVAL;
	*span = bits == 32 ? 1 : 1u << (32 - bits);
	*base = ntohl(a.s_addr) & ~(*span - 1);
	return 0;
}

static int load_payload(const char *path, struct payload *p)
{
	FILE *f = fopen(path, "rb");

	if (!f)
		return -errno;
	p->len = fread(p->b, 1, sizeof(p->b), f);
	fclose(f);
	p->synthetic = 0;
	return p->len ? 0 : -EINVAL;
}

/* One IPv4+UDP packet into pkt; returns its length. */
static size_t build(uint8_t *pkt, const struct payload *pl, uint32_t src, uint32_t dst, uint16_t dport,
		    uint16_t id)
{
	size_t n = pl->len, tot = 28 + n;
	uint16_t sport = (uint16_t)(1024 + rnd() % 64511);
	uint16_t c;

	memset(pkt, 0, 28);
	pkt[0] = 0x45;
	pkt[2] = (uint8_t)(tot >> 8);
	pkt[3] = (uint8_t)tot;
	pkt[4] = (uint8_t)(id >> 8);
	pkt[5] = (uint8_t)id;
	pkt[8] = 64;
	pkt[9] = IPPROTO_UDP;
	memcpy(pkt + 12, &src, 4);
	memcpy(pkt + 16, &dst, 4);
	c = ip_csum(pkt, 20);
	pkt[10] = (uint8_t)(c >> 8);
	pkt[11] = (uint8_t)c;
	pkt[20] = (uint8_t)(sport >> 8);
	pkt[21] = (uint8_t)sport;
	pkt[22] = (uint8_t)(dport >> 8);
	pkt[23] = (uint8_t)dport;
	pkt[24] = (uint8_t)((8 + n) >> 8);
	pkt[25] = (uint8_t)(8 + n);
	/* UDP checksum 0: none (allowed for IPv4) */
	memcpy(pkt + 28, pl->b, n);
	if (pl->synthetic) {
		uint64_t sid = rnd();

		memcpy(pkt + 29, &sid, 8);	/* a new random session id */
	}
	return tot;
}

static void usage(void)
{
	fprintf(stderr, "usage: braid_flood [-r RATE] [-t SECONDS] [-s CIDR] [-p FILE]... [-P] DST_IP DST_PORT\n");
	exit(1);
}

int main(int argc, char **argv)
{
	static uint8_t pkts[BATCH][28 + MAX_PAYLOAD];
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	struct payload pl[MAX_FILES + 1];
	struct sockaddr_in to = { .sin_family = AF_INET };
	uint32_t base = 0, span = 0, dst;
	double rate = 10000, secs = 30, t0, t;
	const char *cidr = "198.18.0.0/15";
	unsigned npl = 0, next_pl = 0;
	int only_files = 0, one = 1, fd, c;
	uint64_t sent = 0;
	uint16_t id = 0;

	memset(&pl[0], 0, sizeof(pl[0]));
	pl[0].b[0] = 7 << 3;	/* P_CONTROL_HARD_RESET_CLIENT_V2, key-id 0 */
	pl[0].len = 14;		/* op, session id, ack count 0, packet-id 0 */
	pl[0].synthetic = 1;
	npl = 1;
	while ((c = getopt(argc, argv, "r:t:s:p:P")) != -1) {
		switch (c) {
		case 'r': rate = atof(optarg); break;
		case 't': secs = atof(optarg); break;
		case 's': cidr = optarg; break;
		case 'p':
			if (npl > MAX_FILES || load_payload(optarg, &pl[npl])) {
				fprintf(stderr, "braid_flood: cannot load payload %s\n", optarg);
				return 1;
			}
			npl++;
			break;
		case 'P': only_files = 1; break;
		default: usage();
		}
	}
	if (argc - optind != 2 || rate <= 0 || secs <= 0)
		usage();
	if (only_files && npl < 2)
		usage();
	if (parse_cidr(cidr, &base, &span) || inet_pton(AF_INET, argv[optind], &to.sin_addr) != 1) {
		fprintf(stderr, "braid_flood: bad address\n");
		return 1;
	}
	dst = to.sin_addr.s_addr;
	rng_state ^= (uint64_t)getpid() << 32 ^ (uint64_t)time(NULL);
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_HDRINCL, &one, sizeof(one))) {
		perror("braid_flood: raw socket");
		return 1;
	}
	memset(msgs, 0, sizeof(msgs));
	t0 = now_s();
	for (;;) {
		double due;
		int n;

		t = now_s() - t0;
		if (t >= secs)
			break;
		due = (double)sent / rate;	/* when the next batch is due */
		if (due > t) {
			struct timespec ts = { 0, (long)((due - t) * 1e9) };

			nanosleep(&ts, NULL);
			continue;
		}
		for (int i = 0; i < BATCH; i++) {
			const struct payload *p;
			uint32_t src = htonl(base + (uint32_t)(rnd() % span));

			if (only_files)
				next_pl = next_pl % (npl - 1) + 1;
			else
				next_pl = (next_pl + 1) % npl;
			p = &pl[next_pl];
			iov[i].iov_base = pkts[i];
			iov[i].iov_len = build(pkts[i], p, src, dst, (uint16_t)atoi(argv[optind + 1]), id++);
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
			msgs[i].msg_hdr.msg_name = &to;
			msgs[i].msg_hdr.msg_namelen = sizeof(to);
		}
		n = sendmmsg(fd, msgs, BATCH, 0);
		if (n < 0) {
			if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR)
				continue;
			perror("braid_flood: sendmmsg");
			return 1;
		}
		sent += (uint64_t)n;
	}
	t = now_s() - t0;
	printf("braid_flood: sent %llu packets in %.2f s: %.0f pps (wanted %.0f)\n", (unsigned long long)sent, t,
	       (double)sent / t, rate);
	close(fd);
	return 0;
}
