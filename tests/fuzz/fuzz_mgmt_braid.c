// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_mgmt_braid.c - the management interface's braid extension
 * (daemon/control/mgmt_braid.c, mgmt_braid_json.c): untrusted command lines
 * against a data plane and clients whose strings and numbers are fuzzed
 * too (a hostile CN, interface names, addresses).
 *
 * Input: chunk 0 is the world (flags: gateway or own session, multipath or
 * not; the paths' fields; the clients' CNs), every further chunk is a line
 * given as "braid <chunk>" to the command parser; after each line the
 * event poll runs once. The reply bytes go through a socketpair.
 *
 * Asserts: every line written ends in CRLF, is at most 8192 bytes and has
 * no other control byte; every line that starts with '{' (or follows
 * ">BRAID-PATH:") is one well-formed JSON object; a reply is SUCCESS/ERROR
 * or ends in END.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "control/mgmt_braid.h"
#include "control/mgmt_line.h"
#include "dataplane/backend.h"
#include "util/log.h"
#include "fuzz_common.h"

#define NPATHS 8
#define NCLIENTS 6

static struct world {
	bool gateway, no_dp;
	int n;
	struct braid_mpath_path_info p[NPATHS];
	char sched[96];
	int nc;
	struct braid_mgmt_client c[NCLIENTS];
	struct fz rng;		/* state changes between polls */
	int err;		/* what the changing ops answer */
} W;

static struct braid_dp fake_dp;

static void fstr(struct fz *f, char *dst, size_t cap)
{
	size_t n = fz_u8(f) % cap;

	for (size_t i = 0; i < n; i++)
		dst[i] = (char)fz_u8(f);
	dst[n] = '\0';
}

static int f_paths(const struct braid_dp *dp, struct braid_mpath_path_info *out, int max)
{
	(void)dp;
	for (int i = 0; i < W.n && i < max; i++) {
		out[i] = W.p[i];
		if (fz_u8(&W.rng) & 1)	/* the detector changes its mind */
			out[i].mp.state = (enum braid_mp_path_state)(fz_u8(&W.rng) % 7);
		W.p[i] = out[i];
	}
	return W.n;
}

static const char *f_sched_name(const struct braid_dp *dp)
{
	(void)dp;
	return W.sched;
}

static int f_set_sched(struct braid_dp *dp, const char *spec)
{
	(void)dp;
	FZ_ASSERT(strlen(spec) < BRAID_MGMT_LINE_MAX);
	if (W.err)
		return W.err;
	snprintf(W.sched, sizeof(W.sched), "%s", spec);
	return 0;
}

static int f_path_set(struct braid_dp *dp, int path, unsigned int flags, uint64_t cap)
{
	(void)dp;
	for (int i = 0; i < W.n; i++)
		if (W.p[i].index == path && !W.err) {
			W.p[i].mp.flags = flags;
			W.p[i].mp.cap_bps = cap;
		}
	return W.err;
}

static int f_path_enable(struct braid_dp *dp, int path, bool on)
{
	(void)dp;
	for (int i = 0; i < W.n; i++)
		if (W.p[i].index == path && !W.err)
			W.p[i].disabled = !on;
	return W.err;
}

static int f_cfg_add(struct braid_dp *dp, const struct braid_opt_mp_path *p, char *err, size_t n)
{
	(void)dp;
	FZ_ASSERT(p->local && strlen(p->local) < BRAID_MGMT_LINE_MAX);
	if (W.err)
		snprintf(err, n, "refused");
	return W.err;
}

static int f_cfg_remove(struct braid_dp *dp, const char *local, char *err, size_t n)
{
	(void)dp;
	(void)local;
	if (W.err)
		snprintf(err, n, "refused");
	else if (W.n)
		W.n--;	/* a path goes: the next poll reports it removed */
	return W.err;
}

static const struct braid_dp_ops fake_ops = {
	.name = "fuzz",
	.paths = f_paths,
	.sched_name = f_sched_name,
	.set_sched = f_set_sched,
	.path_set = f_path_set,
	.path_enable = f_path_enable,
	.path_cfg_add = f_cfg_add,
	.path_cfg_remove = f_cfg_remove,
};

static struct braid_dp *op_dp(void *user)
{
	(void)user;
	return W.no_dp ? NULL : &fake_dp;
}

static int op_clients(void *user, struct braid_mgmt_client *out, int max)
{
	(void)user;
	for (int i = 0; i < W.nc && i < max; i++)
		out[i] = W.c[i];
	return W.nc;
}

static void world(const uint8_t *d, size_t len)
{
	struct fz f = { d, len };
	uint8_t flags = fz_u8(&f);

	memset(&W, 0, sizeof(W));
	W.gateway = flags & 1;
	W.no_dp = flags & 2;
	W.err = flags & 4 ? -EINVAL : 0;
	W.n = fz_u8(&f) % (NPATHS + 1);
	for (int i = 0; i < W.n; i++) {
		struct braid_mpath_path_info *p = &W.p[i];

		p->index = fz_u8(&f) % NPATHS;
		fstr(&f, p->dev, sizeof(p->dev));
		fstr(&f, p->local, sizeof(p->local));
		fstr(&f, p->remote, sizeof(p->remote));
		p->mp.state = (enum braid_mp_path_state)(fz_u8(&f) % 7);
		p->mp.flags = fz_u8(&f);
		p->mp.slot = (int8_t)fz_u8(&f);
		p->mp.srtt_us = (uint64_t)fz_u16(&f) << (fz_u8(&f) % 40);
		p->mp.cap_bps = (uint64_t)fz_u16(&f) << (fz_u8(&f) % 48);
		p->rtt_fresh = fz_u8(&f) & 1;
		p->disabled = fz_u8(&f) & 1;
		p->iv_loss_pm = (int16_t)fz_u16(&f);
		p->iv_tx_bps = (uint64_t)fz_u16(&f) << (fz_u8(&f) % 50);
		p->iv_rx_bps = (uint64_t)fz_u16(&f) << (fz_u8(&f) % 50);
		p->wire_tx_bytes = (uint64_t)fz_u16(&f) << (fz_u8(&f) % 50);
		p->wire_rx_bytes = UINT64_MAX - fz_u16(&f);
	}
	fstr(&f, W.sched, sizeof(W.sched));
	if (W.gateway) {
		W.nc = fz_u8(&f) % (NCLIENTS + 1);
		for (int i = 0; i < W.nc; i++) {
			W.c[i].cid = fz_u8(&f);
			fstr(&f, W.c[i].cn, sizeof(W.c[i].cn));
			fstr(&f, W.c[i].real, sizeof(W.c[i].real));
			W.c[i].tx_bytes = fz_u16(&f);
			W.c[i].dp = fz_u8(&f) & 1 ? &fake_dp : NULL;
		}
	}
	W.rng = f;
}

/* ---- a small JSON checker: one object, nothing after it ---- */

static const char *j_value(const char *s, int depth);

static const char *j_ws(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

static const char *j_string(const char *s)
{
	if (*s++ != '"')
		return NULL;
	while (*s && *s != '"') {
		if ((unsigned char)*s < 0x20)
			return NULL;
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
						return NULL;
				s += 4;
			} else if (!*s || !strchr("\"\\/bfnrt", *s)) {
				return NULL;
			}
		}
		s++;
	}
	return *s == '"' ? s + 1 : NULL;
}

static const char *j_number(const char *s)
{
	const char *b = s;

	if (*s == '-')
		s++;
	if (*s < '0' || *s > '9')
		return NULL;
	while ((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' || *s == 'E' || *s == '+' ||
	       (*s == '-' && s > b))
		s++;
	return s;
}

static const char *j_value(const char *s, int depth)
{
	s = j_ws(s);
	if (depth > 4)
		return NULL;
	if (*s == '"')
		return j_string(s);
	if (!strncmp(s, "true", 4) || !strncmp(s, "null", 4))
		return s + 4;
	if (!strncmp(s, "false", 5))
		return s + 5;
	if (*s == '{') {
		s = j_ws(s + 1);
		if (*s == '}')
			return s + 1;
		for (;;) {
			s = j_string(j_ws(s));
			if (!s || *(s = j_ws(s)) != ':')
				return NULL;
			s = j_value(s + 1, depth + 1);
			if (!s)
				return NULL;
			s = j_ws(s);
			if (*s == '}')
				return s + 1;
			if (*s++ != ',')
				return NULL;
		}
	}
	return j_number(s);
}

static void check_json(const char *s)
{
	const char *e = j_value(s, 0);

	if (!e || *e) {
		fprintf(stderr, "bad JSON: %s\n", s);
		FZ_ASSERT(0);
	}
}

/* Everything written so far, line by line. */
static void drain(int fd, struct mgmt_conn *k)
{
	static char buf[1 << 20];
	static size_t have;
	ssize_t r;

	FZ_ASSERT(k->out_len == k->out_off);	/* the socketpair took it all */
	while ((r = recv(fd, buf + have, sizeof(buf) - 1 - have, MSG_DONTWAIT)) > 0)
		have += (size_t)r;
	for (;;) {
		char *lf = memchr(buf, '\n', have);
		size_t n;

		if (!lf)
			break;
		n = (size_t)(lf - buf) + 1;
		FZ_ASSERT(n <= 8192 && n >= 2 && buf[n - 2] == '\r');
		buf[n - 2] = '\0';
		for (size_t i = 0; i + 2 < n; i++)
			if ((unsigned char)buf[i] < 0x20) {
				fprintf(stderr, "control byte in: %s\n", buf);
				FZ_ASSERT(0);
			}
		if (buf[0] == '{')
			check_json(buf);
		else if (!strncmp(buf, ">BRAID-PATH:", 12))
			check_json(buf + 12);
		memmove(buf, buf + n, have - n);
		have -= n;
	}
	FZ_ASSERT(have < 8192);
}

static void nop_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	(void)loop, (void)w, (void)revents;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ev_loop *loop;
	struct fz f = { data, size };
	struct braid_mgmt *m = calloc(1, sizeof(*m));
	struct mgmt_conn *k = calloc(1, sizeof(*k));
	struct braid_mgmt_argv *a = malloc(sizeof(*a));
	const uint8_t *c;
	size_t clen;
	int sv[2], sz = 1 << 20;

	if (!loop) {
		loop = ev_loop_new(EVFLAG_AUTO);
		braid_log_set_verb(0);
	}
	FZ_ASSERT(m && k && a && loop);
	FZ_ASSERT(!socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
	fake_dp.ops = &fake_ops;
	if (fz_chunk(&f, &c, &clen))
		world(c, clen);
	else
		world(NULL, 0);
	m->loop = loop;
	m->ops.braid_dp = W.gateway ? NULL : op_dp;
	m->ops.braid_clients = W.gateway ? op_clients : NULL;
	k->m = m;
	k->fd = sv[0];
	k->authed = true;
	ev_io_init(&k->w, nop_cb, sv[0], EV_WRITE);
	ev_io_init(&k->r, nop_cb, sv[0], EV_READ);
	m->conn[0] = k;
	while (fz_chunk(&f, &c, &clen)) {
		char line[BRAID_MGMT_LINE_MAX];
		enum braid_mgmt_rej why;
		size_t n = clen < sizeof(line) - 7 ? clen : sizeof(line) - 7;

		memcpy(line, "braid ", 6);
		memcpy(line + 6, c, n);
		if (braid_mgmt_split(line, 6 + n, a, &why) || a->argc < 1 || strcmp(a->argv[0], "braid"))
			continue;
		mgmt_braid_cmd(k, a);
		if (ev_is_active(&m->braid_t))
			ev_invoke(loop, &m->braid_t, EV_TIMER);	/* one poll: events */
		drain(sv[1], k);
	}
	mgmt_braid_free(m);
	ev_io_stop(loop, &k->w);
	close(sv[0]);
	close(sv[1]);
	free(k->out);
	free(k);
	free(m);
	free(a);
	return 0;
}
