// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sched.c - bpf/sched.bpf.c (braid_dco's path scheduler chain) with BPF_PROG_TEST_RUN on the
 * running kernel: crafted IPv4/IPv6 packets and map settings, the exact path each program returns
 * (selectors by 5-tuple, DSCP, length and mark; actors weighted 3:1, lowest RTT, primary/backup,
 * redundant copy; the default -1 when the chain has no answer). Then the ns/packet cost of a
 * 4-program chain (entry, sel_mark, sel_dscp, act_weighted) by test_run's repeat, written as JSON to
 * argv[2] (no threshold here: bench/bpf_sched_cost.sh holds it). argv[1]: the sched.bpf.o the VM
 * test attaches, which must be the skeleton's embedded object byte for byte. Needs root.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "braid_sched.h"
#include "sched.skel.h"

static int failures, checks;
static struct braid_sched *skel;

#define CHECK(cond, ...)                                       \
	do {                                                   \
		checks++;                                      \
		if (!(cond)) {                                 \
			failures++;                            \
			printf("not ok - " __VA_ARGS__);       \
			printf("\n");                          \
		}                                              \
	} while (0)

struct pkt_spec {
	int v6, proto, dscp, len; /* len: inner IP length */
	unsigned short sport, dport;
	const char *src, *dst;
	unsigned int mark;
};

/* Ethernet + IPv4/IPv6 + TCP/UDP header, padded to the inner length */
static size_t build(const struct pkt_spec *s, unsigned char *buf, size_t cap)
{
	size_t l3 = 14, l4, len = (size_t)s->len;

	memset(buf, 0, cap);
	if (len + 14 > cap)
		return 0;
	if (!s->v6) {
		buf[12] = 0x08;
		buf[13] = 0x00;
		buf[l3] = 0x45;
		buf[l3 + 1] = (unsigned char)(s->dscp << 2);
		buf[l3 + 2] = (unsigned char)(len >> 8);
		buf[l3 + 3] = (unsigned char)len;
		buf[l3 + 8] = 64;
		buf[l3 + 9] = (unsigned char)s->proto;
		inet_pton(AF_INET, s->src ? s->src : "10.0.0.1", buf + l3 + 12);
		inet_pton(AF_INET, s->dst ? s->dst : "10.0.0.2", buf + l3 + 16);
		l4 = l3 + 20;
	} else {
		buf[12] = 0x86;
		buf[13] = 0xdd;
		buf[l3] = (unsigned char)(0x60 | (s->dscp >> 2));
		buf[l3 + 1] = (unsigned char)((s->dscp & 3) << 6);
		buf[l3 + 4] = (unsigned char)((len - 40) >> 8);
		buf[l3 + 5] = (unsigned char)(len - 40);
		buf[l3 + 6] = (unsigned char)s->proto;
		buf[l3 + 7] = 64;
		inet_pton(AF_INET6, s->src ? s->src : "fd00::1", buf + l3 + 8);
		inet_pton(AF_INET6, s->dst ? s->dst : "fd00::2", buf + l3 + 24);
		l4 = l3 + 40;
	}
	buf[l4] = (unsigned char)(s->sport >> 8);
	buf[l4 + 1] = (unsigned char)s->sport;
	buf[l4 + 2] = (unsigned char)(s->dport >> 8);
	buf[l4 + 3] = (unsigned char)s->dport;
	return 14 + len;
}

/* run the entry program once (or @repeat times) on @s; returns the program's result */
static int run(const struct pkt_spec *s, int repeat, unsigned int *ns)
{
	unsigned char buf[2048];
	struct __sk_buff ctx = { .mark = s->mark };
	LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		    .repeat = repeat);
	int err;

	o.data_in = buf;
	o.data_size_in = (unsigned int)build(s, buf, sizeof(buf));
	err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.braid_sched), &o);
	if (err) {
		printf("not ok - test_run: %s\n", strerror(errno));
		failures++;
		return -1000;
	}
	if (ns)
		*ns = o.duration;
	return (int)o.retval;
}

static void set_prog(unsigned int step, struct bpf_program *prog)
{
	int fd = bpf_program__fd(prog);

	if (bpf_map_update_elem(bpf_map__fd(skel->maps.braid_sched_progs), &step, &fd, 0))
		printf("not ok - prog array %u: %s\n", step, strerror(errno)), failures++;
}

static void set_step(unsigned int step, struct braid_sched_step st)
{
	if (bpf_map_update_elem(bpf_map__fd(skel->maps.braid_sched_chain), &step, &st, 0))
		printf("not ok - chain %u: %s\n", step, strerror(errno)), failures++;
}

static void set_path(unsigned int id, unsigned int weight, unsigned int rtt, int up)
{
	struct braid_sched_path p = { weight, rtt, up ? BRAID_SCHED_PATH_UP : 0, 0 };

	bpf_map_update_elem(bpf_map__fd(skel->maps.braid_sched_paths), &id, &p, 0);
}

static void reset(void)
{
	unsigned int i, zero = 0;
	unsigned long long c = 0;
	struct braid_sched_step st = { .next = BRAID_SCHED_END, .miss = BRAID_SCHED_END };

	for (i = 0; i < BRAID_SCHED_STEPS; i++) {
		bpf_map_delete_elem(bpf_map__fd(skel->maps.braid_sched_progs), &i);
		set_step(i, st);
	}
	for (i = 0; i < BRAID_SCHED_PATHS; i++)
		set_path(i, 0, 0, 0);
	bpf_map_update_elem(bpf_map__fd(skel->maps.braid_sched_state), &zero, &c, 0);
}

static const struct pkt_spec tcp100 = { .proto = 6, .len = 100, .sport = 40000, .dport = 5001 };

static void test_actors(void)
{
	struct braid_sched_step st = { .next = BRAID_SCHED_END, .miss = BRAID_SCHED_END };
	char seq[32] = "", want[] = "00010001000100010001";
	int i, r;

	reset();
	CHECK(run(&tcp100, 1, NULL) == -1, "empty chain: -1 (the module's round robin)");
	/* weighted 3:1 */
	set_prog(0, skel->progs.act_weighted);
	set_step(0, st);
	CHECK(run(&tcp100, 1, NULL) == -1, "weighted, no weights published: -1");
	set_path(0, 3, 0, 1);
	set_path(1, 1, 0, 1);
	for (i = 0; i < 20; i++) {
		r = run(&tcp100, 1, NULL);
		seq[i] = (char)('0' + (r >= 0 && r < 10 ? r : 9));
	}
	/* the counter is global: the sequence is 0,0,0,1 repeated */
	for (i = 0; i < 20; i++)
		want[i] = (i % 4 == 3) ? '1' : '0';
	CHECK(!strcmp(seq, want), "weighted 3:1 sequence %s, want %s", seq, want);
	set_path(1, 1, 0, 0);
	r = run(&tcp100, 1, NULL);
	CHECK(r == 0, "weighted, path 1 down: %d, want 0", r);
	set_path(0, 0, 0, 1);
	r = run(&tcp100, 1, NULL);
	CHECK(r == -1, "weighted, no usable weight: %d, want -1", r);
	/* lowest RTT */
	reset();
	set_prog(0, skel->progs.act_lowrtt);
	set_step(0, st);
	set_path(0, 0, 30000, 1);
	set_path(1, 0, 10000, 1);
	set_path(2, 0, 20000, 1);
	r = run(&tcp100, 1, NULL);
	CHECK(r == 1, "lowrtt: %d, want 1", r);
	set_path(1, 0, 10000, 0);
	r = run(&tcp100, 1, NULL);
	CHECK(r == 2, "lowrtt, path 1 down: %d, want 2", r);
	st.paths = 1u << 0;
	set_step(0, st);
	r = run(&tcp100, 1, NULL);
	CHECK(r == 0, "lowrtt among path 0 only: %d, want 0", r);
	/* primary/backup */
	reset();
	set_prog(0, skel->progs.act_backup);
	st.paths = 1u << 0;
	st.backup = 1u << 1;
	set_step(0, st);
	set_path(0, 0, 50000, 1);
	set_path(1, 0, 1000, 1);
	r = run(&tcp100, 1, NULL);
	CHECK(r == 0, "backup, primary up: %d, want 0", r);
	set_path(0, 0, 50000, 0);
	r = run(&tcp100, 1, NULL);
	CHECK(r == 1, "backup, primary down: %d, want 1", r);
	set_path(1, 0, 1000, 0);
	r = run(&tcp100, 1, NULL);
	CHECK(r == -1, "backup, both down: %d, want -1", r);
	/* redundant: path 0, copy on path 2 */
	reset();
	set_prog(0, skel->progs.act_redundant);
	st.paths = 1u << 0;
	st.backup = 2;
	set_step(0, st);
	set_path(0, 0, 0, 1);
	set_path(2, 0, 0, 1);
	r = run(&tcp100, 1, NULL);
	CHECK(r == (0 | (3 << BRAID_SCHED_COPY_SHIFT)), "redundant: %#x, want 0x300", r);
	set_path(2, 0, 0, 0);
	r = run(&tcp100, 1, NULL);
	CHECK(r == 0, "redundant, copy path down: %#x, want 0", r);
}

/* fixed-path actor for the selector tests: lowest RTT over one path */
static void actor_on(unsigned int step, unsigned int path)
{
	struct braid_sched_step st = { .next = BRAID_SCHED_END, .miss = BRAID_SCHED_END };

	st.paths = 1u << path;
	set_prog(step, skel->progs.act_lowrtt);
	set_step(step, st);
}

static void test_selectors(void)
{
	struct braid_sched_step st;
	struct pkt_spec p;
	unsigned int i;
	int r;

	reset();
	for (i = 0; i < 5; i++)
		set_path(i, 0, 0, 1);
	/* 0: mark 7/0xff -> 1 (path 2) | 2: dscp 46 -> 3 (path 1) | 4: UDP to port 53 -> 5 (path 3)
	 * | 6: length 0..200 -> 7 (path 4) | 8: path 0 */
	st = (struct braid_sched_step){ .next = 1, .miss = 2, .mark = 7, .mark_mask = 0xff };
	set_prog(0, skel->progs.sel_mark);
	set_step(0, st);
	actor_on(1, 2);
	st = (struct braid_sched_step){ .next = 3, .miss = 4, .dscp = 46 };
	set_prog(2, skel->progs.sel_dscp);
	set_step(2, st);
	actor_on(3, 1);
	st = (struct braid_sched_step){ .next = 5, .miss = 6, .proto = 17, .dport = 53 };
	set_prog(4, skel->progs.sel_tuple);
	set_step(4, st);
	actor_on(5, 3);
	st = (struct braid_sched_step){ .next = 7, .miss = 8, .len_min = 0, .len_max = 200 };
	set_prog(6, skel->progs.sel_len);
	set_step(6, st);
	actor_on(7, 4);
	actor_on(8, 0);

	p = tcp100;
	p.mark = 0x107;
	r = run(&p, 1, NULL);
	CHECK(r == 2, "mark 0x107 (& 0xff = 7): %d, want 2", r);
	p.mark = 0x8;
	p.dscp = 46;
	r = run(&p, 1, NULL);
	CHECK(r == 1, "DSCP 46 (EF): %d, want 1", r);
	p.v6 = 1;
	r = run(&p, 1, NULL);
	CHECK(r == 1, "IPv6 DSCP 46: %d, want 1", r);
	p = (struct pkt_spec){ .proto = 17, .len = 80, .sport = 5353, .dport = 53 };
	r = run(&p, 1, NULL);
	CHECK(r == 3, "UDP to port 53: %d, want 3", r);
	p.dport = 54;
	r = run(&p, 1, NULL);
	CHECK(r == 4, "UDP to port 54, 80 bytes: %d, want 4", r);
	p = tcp100;
	p.len = 200;
	r = run(&p, 1, NULL);
	CHECK(r == 4, "TCP 200 bytes: %d, want 4", r);
	p.len = 201;
	r = run(&p, 1, NULL);
	CHECK(r == 0, "TCP 201 bytes: %d, want 0", r);
	p.v6 = 1;
	p.len = 1200;
	r = run(&p, 1, NULL);
	CHECK(r == 0, "IPv6 TCP 1200 bytes: %d, want 0", r);
	/* addresses: 10.1.0.0/16 to 192.168.5.9/32 */
	st = (struct braid_sched_step){ .next = 1, .miss = 8 };
	inet_pton(AF_INET, "10.1.0.0", &st.saddr);
	inet_pton(AF_INET, "255.255.0.0", &st.smask);
	inet_pton(AF_INET, "192.168.5.9", &st.daddr);
	st.dmask = 0xffffffffu;
	set_prog(0, skel->progs.sel_tuple);
	set_step(0, st);
	p = (struct pkt_spec){ .proto = 6, .len = 60, .src = "10.1.200.3", .dst = "192.168.5.9" };
	r = run(&p, 1, NULL);
	CHECK(r == 2, "10.1.200.3 -> 192.168.5.9 in 10.1/16 -> /32: %d, want 2", r);
	p.src = "10.2.0.3";
	r = run(&p, 1, NULL);
	CHECK(r == 0, "10.2.0.3 outside 10.1/16: %d, want 0", r);
	p.v6 = 1;
	p.src = p.dst = NULL;
	r = run(&p, 1, NULL);
	CHECK(r == 0, "IPv6 against an IPv4 address match: %d, want 0", r);
	/* a chain step without a program ends at the default */
	st = (struct braid_sched_step){ .next = 9, .miss = 9, .mark_mask = 0 };
	set_prog(0, skel->progs.sel_mark);
	set_step(0, st);
	r = run(&tcp100, 1, NULL);
	CHECK(r == -1, "step 9 has no program: %d, want -1", r);
}

/* the 4-program chain: entry -> sel_mark (miss) -> sel_dscp (miss) -> act_weighted */
static void cost(const char *json)
{
	struct braid_sched_step st;
	unsigned int ns4 = 0, ns1 = 0, n = 1000000;
	FILE *f;
	int r;

	reset();
	set_path(0, 3, 0, 1);
	set_path(1, 1, 0, 1);
	st = (struct braid_sched_step){ .next = 3, .miss = 1, .mark = 1, .mark_mask = 1 };
	set_prog(0, skel->progs.sel_mark);
	set_step(0, st);
	st = (struct braid_sched_step){ .next = 3, .miss = 2, .dscp = 46 };
	set_prog(1, skel->progs.sel_dscp);
	set_step(1, st);
	st = (struct braid_sched_step){ .next = BRAID_SCHED_END, .miss = BRAID_SCHED_END };
	set_prog(2, skel->progs.act_weighted);
	set_step(2, st);
	set_prog(3, skel->progs.act_lowrtt);
	set_step(3, st);
	/* packet n of the run goes to path (n % 4 == 3): the last of 1,000,000 (n = 999999) to path 1 */
	r = run(&tcp100, n, &ns4);
	CHECK(r == 1, "4-program chain, last of %u runs: %d, want 1", n, r);
	reset();
	set_path(0, 3, 0, 1);
	set_prog(0, skel->progs.act_weighted);
	set_step(0, st);
	run(&tcp100, n, &ns1);
	printf("cost: 4-program chain %u ns/packet, entry + actor %u ns/packet (%u runs each)\n", ns4,
	       ns1, n);
	f = json ? fopen(json, "w") : NULL;
	if (f) {
		fprintf(f, "{\"bench\": \"bpf_sched_chain\", \"runs\": %u, \"chain4_ns_per_packet\": %u, "
			"\"entry_actor_ns_per_packet\": %u, \"chain\": \"braid_sched > sel_mark > sel_dscp > "
			"act_weighted\", \"packet\": \"IPv4 TCP 100 bytes\"}\n", n, ns4, ns1);
		fclose(f);
	}
}

static int same_object(const char *path)
{
	size_t sz, n;
	const void *emb = braid_sched__elf_bytes(&sz);
	unsigned char *buf = malloc(sz + 1);
	FILE *f = fopen(path, "rb");
	int same;

	n = f && buf ? fread(buf, 1, sz + 1, f) : 0;
	same = n == sz && !memcmp(buf, emb, sz);
	if (f)
		fclose(f);
	free(buf);
	return same;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s sched.bpf.o [cost.json]\n", argv[0]);
		return 2;
	}
	libbpf_set_strict_mode(LIBBPF_STRICT_ALL);
	skel = braid_sched__open_and_load();
	if (!skel) {
		printf("not ok - sched.bpf.o does not load: %s\n", strerror(errno));
		return 1;
	}
	CHECK(same_object(argv[1]), "%s is the skeleton's object", argv[1]);
	test_actors();
	test_selectors();
	cost(argc > 2 ? argv[2] : NULL);
	braid_sched__destroy(skel);
	printf("bpf.sched: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
