// SPDX-License-Identifier: GPL-2.0-only
/*
 * dco_nl_drive.c - braidd's braid_dco client (daemon/dataplane/dco_nl.c) and
 * hand-up reader (dco_up.c) driven from the VM tests (tests/kmod/dco_interop.sh),
 * the commands as tests/kmod/dco_ctl.py's:
 *   up DEV PEER_ID LOCAL_IP:PORT REMOTE_IP:PORT KEY_ID KEY2 DIRECTION
 *        device, p2p peer, primary key (AES-256-GCM) from a 256-byte key2 (hex) as daemon/dc installs it
 *        (direction 0: TLS client, 1: server), path 0; with HOLD=N in the environment it keeps the
 *        path socket, prints "held", then for each of N datagrams read: its hex, and the parsed hand-up
 *        ("up peer_id=P key_id=K packet_id=I payload=HEX" or "not-up ERR")
 *   send DEV PEER_ID PATH_ID HEX     "packet_id=N" or "refused ERRNO extack"
 *   show DEV PEER_ID                 counters as key=value lines
 *   cost                             STATS_GET's cost counters (module parameter cost_stats) as key=value
 * IPv4 only. Exit status 0, or 1 on a failed request (its errno and extack on stderr).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "dataplane/dco_nl.h"
#include "dataplane/dco_up.h"
#include "dc/static_key.h"

static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (s[0] && s[1] && n < max && sscanf(s, "%2x", &b) == 1) {
		out[n++] = (uint8_t)b;
		s += 2;
	}
	return n;
}

static void hex(const uint8_t *p, size_t n)
{
	while (n--)
		printf("%02x", *p++);
}

static int endpoint(const char *s, struct sockaddr_in *sa)
{
	char ip[64];
	const char *c = strrchr(s, ':');

	if (!c || (size_t)(c - s) >= sizeof(ip))
		return -1;
	memcpy(ip, s, (size_t)(c - s));
	ip[c - s] = '\0';
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)atoi(c + 1));
	return inet_pton(AF_INET, ip, &sa->sin_addr) == 1 ? 0 : -1;
}

static int fail(struct braid_dco_nl *d, const char *what, int r)
{
	fprintf(stderr, "%s: %s (%s)\n", what, strerror(-r), braid_dco_nl_error(d));
	return 1;
}

static void hold(int fd, int n)
{
	struct timeval tv = { .tv_sec = 120 };
	struct braid_dco_up u;
	uint8_t b[4096];
	ssize_t len;
	int r;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	printf("held\n");
	fflush(stdout);
	while (n-- > 0 && (len = recv(fd, b, sizeof(b), 0)) >= 0) {
		hex(b, (size_t)len);
		r = braid_dco_up_parse(b, (size_t)len, &u);
		if (r) {
			printf("\nnot-up %d\n", r);
		} else {
			printf("\nup peer_id=%u key_id=%u packet_id=%u payload=", u.peer_id, u.key_id,
			       u.packet_id);
			hex(u.payload, u.len);
			printf("\n");
		}
		fflush(stdout);
	}
}

static int up(struct braid_dco_nl *d, char **a)
{
	struct sockaddr_in local, remote;
	const char *h = getenv("HOLD");
	uint32_t peer = (uint32_t)atoi(a[1]);
	struct braid_key2 k2;
	int ifindex, fd, r;

	if (endpoint(a[2], &local) || endpoint(a[3], &remote) ||
	    unhex(a[5], k2.k, sizeof(k2.k)) != sizeof(k2.k))
		return fprintf(stderr, "up: bad arguments\n"), 2;
	r = braid_dco_nl_link_new(d, a[0], false, &ifindex);
	if (r)
		return fail(d, "link new", r);
	r = braid_dco_nl_peer_new(d, ifindex, peer, NULL);
	if (r)
		return fail(d, "peer new", r);
	r = braid_dco_nl_key_install(d, ifindex, peer, 0, atoi(a[4]), "AES-256-GCM", &k2, atoi(a[6]));
	braid_key2_wipe(&k2);
	if (r)
		return fail(d, "key new", r);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&local, sizeof(local)))
		return fprintf(stderr, "bind: %s\n", strerror(errno)), 1;
	r = braid_dco_nl_path_add(d, ifindex, peer, 0, fd, (struct sockaddr *)&remote, NULL);
	if (r)
		return fail(d, "path add", r);
	if (h)
		hold(fd, atoi(h));
	close(fd);	/* the module keeps its reference */
	return 0;
}

static int show(struct braid_dco_nl *d, int ifindex, uint32_t peer)
{
	struct braid_dco_reply r;
	int i, err = braid_dco_nl_peer_get(d, ifindex, peer, &r);

	if (err)
		return fail(d, "peer get", err);
	printf("vpn_rx_packets=%llu\nvpn_tx_packets=%llu\nctl_tx_packets=%llu\nctl_rx_packets=%llu\n"
	       "primary_key_id=%d\nsecondary_key_id=%d\n", (unsigned long long)r.vpn_rx_packets,
	       (unsigned long long)r.vpn_tx_packets, (unsigned long long)r.ctl_tx_packets,
	       (unsigned long long)r.ctl_rx_packets, r.primary_key_id, r.secondary_key_id);
	for (i = 0; i < BRAID_DCO_NL_PATHS; i++)
		if (r.path_mask & 1u << i)
			printf("path%d_rx_packets=%llu path%d_tx_packets=%llu\n", i,
			       (unsigned long long)r.path_rx_packets[i], i,
			       (unsigned long long)r.path_tx_packets[i]);
	return 0;
}

static int cost(struct braid_dco_nl *d)
{
	struct braid_dco_reply r;
	int err;

	memset(&r, 0, sizeof(r));
	err = braid_dco_nl_stats_get(d, &r);
	if (err)
		return fail(d, "stats get", err);
	if (!r.cost.present)
		return fprintf(stderr, "stats get: no cost nest\n"), 1;
	printf("cost_enabled=%d\nencrypt_packets=%llu\nencrypt_ns=%llu\ndecrypt_packets=%llu\n"
	       "decrypt_ns=%llu\nsched_packets=%llu\nsched_ns=%llu\n", r.cost.enabled,
	       (unsigned long long)r.cost.encrypt_packets, (unsigned long long)r.cost.encrypt_ns,
	       (unsigned long long)r.cost.decrypt_packets, (unsigned long long)r.cost.decrypt_ns,
	       (unsigned long long)r.cost.sched_packets, (unsigned long long)r.cost.sched_ns);
	return 0;
}

int main(int argc, char **argv)
{
	static uint8_t payload[BRAID_DCO_NL_SEND_MAX];
	struct braid_dco_nl *d;
	uint32_t pid;
	size_t n;
	int r, rc = 2;

	if (argc < 2)
		return fprintf(stderr, "usage: see the comment of tests/kmod/dco_nl_drive.c\n"), 2;
	r = braid_dco_nl_open(&d);
	if (r)
		return fprintf(stderr, "braid_dco: %s\n", strerror(-r)), 1;
	if (!strcmp(argv[1], "up") && argc == 9) {
		rc = up(d, argv + 2);
	} else if (!strcmp(argv[1], "send") && argc == 6) {
		n = unhex(argv[5], payload, sizeof(payload));
		r = braid_dco_nl_send(d, (int)if_nametoindex(argv[2]), (uint32_t)atoi(argv[3]),
				      atoi(argv[4]), payload, n, &pid);
		if (r)
			printf("refused %s %s\n", strerrorname_np(-r), braid_dco_nl_error(d));
		else
			printf("packet_id=%u\n", pid);
		rc = 0;
	} else if (!strcmp(argv[1], "cost") && argc == 2) {
		rc = cost(d);
	} else if (!strcmp(argv[1], "show") && argc == 4) {
		rc = show(d, (int)if_nametoindex(argv[2]), (uint32_t)atoi(argv[3]));
	}
	braid_dco_nl_close(d);
	return rc;
}
