// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_reload.c - braid_reload_merge (config/options_reload.c): which changed
 * options a live reload takes over into the running options, which it names
 * as needing a restart, and that the new values really land in the running
 * model (and the old ones in the model that is freed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "config/config.h"
#include "config/options_reload.h"

static int fails;

#define CHECK(c, ...)                                                                            \
	do {                                                                                      \
		if (!(c)) {                                                                       \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                       \
			fprintf(stderr, __VA_ARGS__);                                             \
			fputc('\n', stderr);                                                      \
			fails++;                                                                  \
		}                                                                                 \
	} while (0)

static const char *const gw =
	"dev tun\ntopology subnet\nserver 10.8.0.0 255.255.255.0\nca ca.crt\ncert s.crt\nkey s.key\n"
	"dh none\nkeepalive 10 60\nmultipath on\nverb 3\n";
static const char *const cl =
	"client\ndev tun\nremote gw 1194\nca ca.crt\ncert c.crt\nkey c.key\n"
	"mp-path 10.0.0.1\nmp-path 10.0.1.1\nverb 3\n";

static void parse(struct braid_options *o, const char *base, const char *extra)
{
	char text[2048], err[512];

	snprintf(text, sizeof(text), "%s%s", base, extra);
	braid_options_init(o);
	o->tls_mode_supported = true;
	if (braid_config_parse_text(o, "t.conf", text, err, sizeof(err)) ||
	    braid_options_finalize(o, err, sizeof(err))) {
		fprintf(stderr, "parse failed: %s\n", err);
		exit(1);
	}
}

/* merge base+a (running) with base+b (new); d filled, both freed */
static void run(const char *base, const char *a, const char *b, struct braid_reload_diff *d,
		void (*check)(const struct braid_options *cur, const struct braid_options *n))
{
	struct braid_options cur, n;

	parse(&cur, base, a);
	parse(&n, base, b);
	CHECK(braid_reload_merge(&cur, &n, d) == 0, "merge");
	if (check)
		check(&cur, &n);
	braid_options_free(&cur);
	braid_options_free(&n);
}

static void push_check(const struct braid_options *cur, const struct braid_options *n)
{
	CHECK(cur->n_push == 2 && !strcmp(cur->push[1], "route 10.2.0.0 255.255.0.0"), "new push");
	CHECK(n->n_push == 1 && !strcmp(n->push[0], "route 10.1.0.0 255.255.0.0"), "old push moved");
	CHECK(cur->verb == 5, "verb %d", cur->verb);
	CHECK(!strcmp(cur->mp_sched, "lowest-rtt"), "sched %s", cur->mp_sched);
	CHECK(cur->client_config_dir && !strcmp(cur->client_config_dir, "ccd2"), "ccd");
	CHECK(cur->keepalive_ping == 10 && cur->keepalive_restart == 60, "keepalive left alone");
}

static void path_check(const struct braid_options *cur, const struct braid_options *n)
{
	(void)n;
	CHECK(cur->mp_paths[1].backup && cur->mp_paths[0].cap_bps == 5000000, "backup/cap moved");
}

static void added_check(const struct braid_options *cur, const struct braid_options *n)
{
	(void)n;
	CHECK(cur->n_mp_paths == 3 && !strcmp(cur->mp_paths[2].local, "10.0.2.1") &&
	      cur->mp_paths[2].backup, "added line in cur");
}

static void removed_check(const struct braid_options *cur, const struct braid_options *n)
{
	(void)n;
	CHECK(cur->n_mp_paths == 2 && !strcmp(cur->mp_paths[0].local, "10.0.0.1") &&
	      !strcmp(cur->mp_paths[1].local, "10.0.1.1"), "removed line gone from cur");
}

int main(void)
{
	struct braid_reload_diff d;

	if (sodium_init() < 0)
		return 1;
	/* the same config: nothing */
	run(gw, "", "", &d, NULL);
	CHECK(d.changed == 0 && d.n_restart == 0, "same: changed %#x restart %u", d.changed, d.n_restart);
	/* gateway: push, verb, scheduler, ccd live; keepalive (and its derived ping lines) needs a restart */
	run(gw, "push \"route 10.1.0.0 255.255.0.0\"\nclient-config-dir ccd1\n",
	    "push \"route 10.1.0.0 255.255.0.0\"\npush \"route 10.2.0.0 255.255.0.0\"\n"
	    "client-config-dir ccd2\nverb 5\nmp-scheduler lowest-rtt\nkeepalive 10 61\n",
	    &d, push_check);
	CHECK(d.changed == (BRAID_RELOAD_PUSH | BRAID_RELOAD_CCD | BRAID_RELOAD_VERB | BRAID_RELOAD_SCHED),
	      "gateway: changed %#x", d.changed);
	CHECK(d.n_restart >= 1, "gateway: keepalive not reported (%u)", d.n_restart);
	/* crl-verify added */
	run(gw, "", "crl-verify crl.pem\n", &d, NULL);
	CHECK(d.changed == BRAID_RELOAD_CRL && d.n_restart == 0, "crl: %#x %u", d.changed, d.n_restart);
	/* client: backup/cap of kept paths live */
	run(cl, "", "mp-backup 10.0.1.1\nmp-cap 10.0.0.1 5\n", &d, path_check);
	CHECK(d.changed == BRAID_RELOAD_PATHS && d.paths_changed == 3 && d.paths_backup_changed == 2 &&
	      d.paths_cap_changed == 1 && d.n_restart == 0,
	      "paths: %#x %#x %u", d.changed, d.paths_changed, d.n_restart);
	/* a path added: live, the new line at its index */
	run(cl, "", "mp-path 10.0.2.1\nmp-backup 10.0.2.1\n", &d, added_check);
	CHECK(d.changed == BRAID_RELOAD_PATHS && d.paths_added == 4 && d.n_paths_removed == 0 &&
	      d.paths_changed == 0 && d.n_restart == 0,
	      "path added: %#x %#x %u %u", d.changed, d.paths_added, d.n_paths_removed, d.n_restart);
	/* a path removed: live; its LOCAL outlives both option sets (a data path may point at it) */
	run(cl, "mp-path 10.0.2.1\n", "", &d, removed_check);
	CHECK(d.changed == BRAID_RELOAD_PATHS && d.paths_added == 0 && d.n_paths_removed == 1 &&
	      !strcmp(d.paths_removed[0], "10.0.2.1") && d.n_restart == 0,
	      "path removed: %#x %u %u", d.changed, d.n_paths_removed, d.n_restart);
	/* re-ordered only: nothing to do on the data path */
	run("client\ndev tun\nremote gw 1194\nca ca.crt\ncert c.crt\nkey c.key\n",
	    "mp-path 10.0.0.1\nmp-path 10.0.1.1\n", "mp-path 10.0.1.1\nmp-path 10.0.0.1\n", &d, NULL);
	CHECK(d.changed == BRAID_RELOAD_PATHS && d.paths_added == 0 && d.n_paths_removed == 0 &&
	      d.n_restart == 0, "re-ordered: %#x %#x %u", d.changed, d.paths_added, d.n_paths_removed);
	/* two lines of one LOCAL (static-key peer): a change of one of them needs a restart */
	run("dev tun\nsecret k 0\n", "mp-path 10.0.0.1 10.1.0.1\nmp-path 10.0.0.1 10.1.0.2\n",
	    "mp-path 10.0.0.1 10.1.0.1\nmp-path 10.0.0.1 10.1.0.3\n", &d, NULL);
	CHECK(d.changed == 0 && d.n_restart == 1, "two lines of a LOCAL: %#x %u", d.changed, d.n_restart);
	/* a restart-only option alone */
	run(cl, "", "cipher AES-128-GCM\n", &d, NULL);
	CHECK(d.changed == 0 && d.n_restart >= 1, "cipher: %#x %u", d.changed, d.n_restart);
	if (fails)
		return 1;
	printf("PASS: config_reload\n");
	return 0;
}
