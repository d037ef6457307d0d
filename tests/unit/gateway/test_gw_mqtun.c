// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_gw_mqtun.c - the gateway's multiqueue TUN in a fresh network
 * namespace: two queues of one device; 40 UDP flows (one source port each,
 * 5 packets each) routed into it; every packet is read exactly once, all
 * packets of a flow from one queue, and (40 flows) both queues carry some:
 * the kernel spreads by flow, which is why a worker must pass packets of
 * another worker's session on (gw_xq). Then, for every flow, its reply is
 * written from the other queue, and the flow's next packet is read from
 * that queue (the kernel's automq remembers the queue a flow was written
 * from): all 40 move. Then a third queue attaches by the device's name and
 * 1..64 is enforced. Needs root (exit 77, a skip).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "check.h"
#include "gateway/gw_mqtun.h"

#define NFLOW 40
#define NPER 5

static uint16_t ip_csum(const uint8_t *p, size_t n)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* The flow's reply (10.99.0.2:9000 -> 10.99.0.1:sport) written from queue fd. */
static int write_reply(int fd, unsigned sport)
{
	uint8_t p[29] = { 0x45, 0, 0, 29, 0, 0, 0x40, 0, 64, IPPROTO_UDP, 0, 0, 10, 99, 0, 2, 10, 99, 0, 1,
			  9000 >> 8, 9000 & 0xff, 0, 0, 0, 9, 0, 0, 'r' };
	uint16_t c;

	p[22] = (uint8_t)(sport >> 8);
	p[23] = (uint8_t)sport;
	c = ip_csum(p, 20);
	p[10] = (uint8_t)(c >> 8);
	p[11] = (uint8_t)c;
	return write(fd, p, sizeof(p)) == (ssize_t)sizeof(p) ? 0 : -errno;
}

/* Reads both queues; each UDP packet to port 9000 of a known flow: its queue in got[flow] (a flow
 * seen on both: *split), counted in per_q. Returns the packets of known flows. */
static unsigned read_flows(const int *q, const unsigned *ports, int *got, unsigned *per_q, unsigned *split,
			   unsigned *foreign)
{
	uint8_t pkt[2048];
	unsigned total = 0, k;

	usleep(200 * 1000);
	for (k = 0; k < 2; k++) {
		ssize_t n;

		while ((n = read(q[k], pkt, sizeof(pkt))) > 0) {
			unsigned ihl = (pkt[0] & 0xf) * 4u, sport, j;

			/* IPv6 router solicitations and the like may come too: UDP to 9000 only */
			if (n < 28 || (pkt[0] >> 4) != 4 || pkt[9] != IPPROTO_UDP || (size_t)n < ihl + 8 ||
			    (pkt[ihl + 2] << 8 | pkt[ihl + 3]) != 9000)
				continue;
			sport = (unsigned)(pkt[ihl] << 8 | pkt[ihl + 1]);
			for (j = 0; j < NFLOW && ports[j] != sport; j++)
				;
			if (j == NFLOW) {
				(*foreign)++;
				continue;
			}
			total++;
			per_q[k]++;
			if (got[j] >= 0 && got[j] != (int)k)
				(*split)++;
			got[j] = (int)k;
		}
	}
	return total;
}

static int if_conf(const char *name, const char *addr)
{
	struct ifreq ifr;
	struct sockaddr_in *sa = (struct sockaddr_in *)&ifr.ifr_addr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0), r = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	if (addr) {
		sa->sin_family = AF_INET;
		inet_pton(AF_INET, addr, &sa->sin_addr);
		if (ioctl(fd, SIOCSIFADDR, &ifr) < 0)
			r = -errno;
		inet_pton(AF_INET, "255.255.255.0", &sa->sin_addr);
		if (!r && ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
			r = -errno;
	}
	if (!r && ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		r = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!r && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		r = -errno;
	close(fd);
	return r;
}

int main(void)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(9000) };
	unsigned ports[NFLOW], per_q[2] = { 0 }, total = 0, split = 0, foreign = 0, i, k, used;
	int q[3], srcs[NFLOW], owner[NFLOW];
	char name[IFNAMSIZ], n3[IFNAMSIZ];

	if (geteuid()) {
		fprintf(stderr, "SKIP: needs root (unshare, /dev/net/tun)\n");
		return 77;
	}
	if (unshare(CLONE_NEWNET) || if_conf("lo", NULL)) {
		fprintf(stderr, "FAIL: no network namespace: %s\n", strerror(errno));
		return 1;
	}
	CHECK_EQ(braid_gw_mqtun_open("brmq%d", 0, q, name), -EINVAL);
	CHECK_EQ(braid_gw_mqtun_open("brmq%d", 65, q, name), -EINVAL);
	CHECK_EQ(braid_gw_mqtun_open("brmq%d", 2, q, name), 0);
	CHECK_STR(name, "brmq0");
	CHECK_EQ(if_conf(name, "10.99.0.1"), 0);
	inet_pton(AF_INET, "10.99.0.2", &to.sin_addr);
	for (i = 0; i < NFLOW; i++) {
		struct sockaddr_in a;
		socklen_t al = sizeof(a);

		srcs[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		CHECK(srcs[i] >= 0);
		CHECK_EQ(connect(srcs[i], (struct sockaddr *)&to, sizeof(to)), 0);
		getsockname(srcs[i], (struct sockaddr *)&a, &al);
		ports[i] = ntohs(a.sin_port);
		owner[i] = -1;
	}
	for (k = 0; k < NPER; k++)
		for (i = 0; i < NFLOW; i++)
			CHECK_EQ(send(srcs[i], "flow", 4, 0), 4);
	total = read_flows(q, ports, owner, per_q, &split, &foreign);
	used = (per_q[0] > 0) + (per_q[1] > 0);
	printf("gw_mqtun: %u packets of %u flows read, queue 0: %u, queue 1: %u\n", total, NFLOW, per_q[0], per_q[1]);
	CHECK_EQ(total, NFLOW * NPER);
	CHECK_EQ(foreign, 0);
	CHECK_EQ(split, 0);
	CHECK_EQ(used, 2);
	/* automq: a flow's reply written from the other queue draws the flow there */
	for (i = 0; i < NFLOW; i++)
		if (owner[i] >= 0)
			CHECK_EQ(write_reply(q[owner[i] ^ 1], ports[i]), 0);
	usleep(100 * 1000);
	for (i = 0; i < NFLOW; i++)
		CHECK_EQ(send(srcs[i], "next", 4, 0), 4);
	{
		unsigned moved = 0, pq2[2] = { 0 }, split2 = 0;
		int now[NFLOW];

		for (i = 0; i < NFLOW; i++)
			now[i] = -1;
		CHECK_EQ(read_flows(q, ports, now, pq2, &split2, &foreign), NFLOW);
		CHECK_EQ(split2, 0);
		for (i = 0; i < NFLOW; i++)
			moved += owner[i] >= 0 && now[i] == (owner[i] ^ 1);
		printf("gw_mqtun: %u of %u flows followed their reply to the other queue\n", moved, NFLOW);
		CHECK_EQ(moved, NFLOW);
		CHECK_EQ(foreign, 0);
	}
	/* a third queue attaches to the same device by name */
	CHECK_EQ(braid_gw_mqtun_open(name, 1, &q[2], n3), 0);
	CHECK_STR(n3, name);
	close(q[2]);
	for (i = 0; i < NFLOW; i++)
		close(srcs[i]);
	close(q[0]);
	close(q[1]);
	CHECK_DONE();
}
