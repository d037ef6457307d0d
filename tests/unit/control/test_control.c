// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_control.c - the control protocol: request parser (every command and
 * every refusal, exact messages), replies, and the real server on a libev
 * loop with several clients: pipelining, partial writes of a request, an
 * over-long line, a client that leaves, the client limit, socket mode and
 * stale/live socket files.
 */
#include <errno.h>
#include <ev.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "control/control.h"
#include "control/ctlproto.h"


/* ---- parser ---- */

static void parser(void)
{
	static const struct {
		const char *line, *err;
	} bad[] = {
		{ "", "empty request" },
		{ "   \t ", "empty request" },
		{ "stat", "unknown command 'stat' (status, paths, clients, kill, version, set)" },
		{ "status now", "status: unexpected argument 'now'" },
		{ "version 2", "version: unexpected argument '2'" },
		{ "set", "set: missing what to set (scheduler or path)" },
		{ "set mtu 1400", "set: unknown setting 'mtu' (scheduler or path)" },
		{ "clients all", "clients: unexpected argument 'all'" },
		{ "kill", "kill: missing the client (common name or ID)" },
		{ "kill a b", "kill: unexpected argument 'b'" },
		{ "paths a b", "paths: unexpected argument 'b'" },
		{ "set client", "set client: missing the client (common name or ID)" },
		{ "set client c1", "set: missing what to set (scheduler or path)" },
		{ "set client c1 mtu 1", "set: unknown setting 'mtu' (scheduler or path)" },
		{ "set client c1 path 1 fly", "set path: unknown action 'fly' (backup, active, cap "
					      "MBIT, nocap)" },
		{ "set scheduler", "set scheduler: missing scheduler (edf, rtt, ratio A:B, mpip, "
				   "lowest-rtt, backup, redundant)" },
		{ "set scheduler fastest", "set scheduler: unknown scheduler 'fastest' (edf, rtt, "
					   "ratio A:B, mpip, lowest-rtt, backup, redundant)" },
		{ "set scheduler edf now", "set scheduler: unexpected argument 'now'" },
		{ "set scheduler ratio", "set scheduler: ratio needs weights A:B (by path index)" },
		{ "set scheduler ratio 1:x", "set scheduler: bad ratio '1:x' (weights A:B:... by "
					     "path index, at most 8)" },
		{ "set scheduler ratio 1:2:3:4:5:6:7:8:9", "set scheduler: bad ratio "
		  "'1:2:3:4:5:6:7:8:9' (weights A:B:... by path index, at most 8)" },
		{ "set scheduler ratio 0:0", "set scheduler: ratio '0:0' has no nonzero weight" },
		{ "set scheduler ratio 1:0 x", "set scheduler: unexpected argument 'x'" },
		{ "set path", "set path: missing path (index or local address)" },
		{ "set path 1", "set path: missing action (backup, active, cap MBIT, nocap)" },
		{ "set path 1 standby", "set path: unknown action 'standby' (backup, active, cap "
					"MBIT, nocap)" },
		{ "set path 1 cap", "set path: cap needs a rate in Mbit/s" },
		{ "set path 1 cap 0", "set path: bad cap '0' (Mbit/s, > 0, <= 1000000)" },
		{ "set path 1 cap -5", "set path: bad cap '-5' (Mbit/s, > 0, <= 1000000)" },
		{ "set path 1 cap 10M", "set path: bad cap '10M' (Mbit/s, > 0, <= 1000000)" },
		{ "set path 1 cap nan", "set path: bad cap 'nan' (Mbit/s, > 0, <= 1000000)" },
		{ "set path 1 cap 2000000", "set path: bad cap '2000000' (Mbit/s, > 0, <= 1000000)" },
		{ "set path 1 backup now", "set path: unexpected argument 'now'" },
		{ "set path 1 cap 5 now", "set path: unexpected argument 'now'" },
		{ "set path 0123456789012345678901234567890123456789012345678901234567890123 backup",
		  "set path: path name too long (max 63 bytes)" },
		{ "a b c d e f g h i", "too many words in the request (max 8)" },
		{ "status\x01", "request contains control character 0x01 at byte 7" },
		{ "status\x7f", "request contains control character 0x7f at byte 7" },
	};
	struct braid_ctl_req req;
	char err[BRAID_CTL_ERR_MAX], big[BRAID_CTL_LINE_MAX + 8];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		CHECK_EQ(braid_ctl_parse(bad[i].line, strlen(bad[i].line), &req, err, sizeof(err)),
			 -EINVAL);
		CHECK_STR(err, bad[i].err);
	}
	/* a NUL inside the line is a control character too */
	CHECK_EQ(braid_ctl_parse("sta\0tus", 7, &req, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "request contains control character 0x00 at byte 4");
	memset(big, 'a', sizeof(big));
	CHECK_EQ(braid_ctl_parse(big, BRAID_CTL_LINE_MAX, &req, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "request line too long (max 511 bytes)");
	CHECK_EQ(braid_ctl_parse(big, BRAID_CTL_LINE_MAX - 1, &req, err, sizeof(err)), -EINVAL);
	CHECKM(!strncmp(err, "unknown command 'aaaa", 21), "%s", err);

	CHECK_EQ(braid_ctl_parse("status", 6, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.cmd, BRAID_CTL_STATUS);
	CHECK_EQ(braid_ctl_parse("  version\r", 10, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.cmd, BRAID_CTL_VERSION);
	CHECK_EQ(braid_ctl_parse("paths", 5, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.cmd, BRAID_CTL_PATHS);
	CHECK_STR(req.client, "");
	CHECK_EQ(braid_ctl_parse("kill 17", 7, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.cmd, BRAID_CTL_KILL);
	CHECK_STR(req.client, "17");
	CHECK_EQ(braid_ctl_parse("clients", 7, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.cmd, BRAID_CTL_CLIENTS);
	CHECK_EQ(braid_ctl_parse("set client c1 path 1 cap 5", 26, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.cmd, BRAID_CTL_SET_PATH);
	CHECK_STR(req.client, "c1");
	CHECK_STR(req.path, "1");
	CHECK_EQ(req.op, BRAID_CTL_PATH_CAP);
	CHECK_EQ(req.cap_bps, 5000000);
	CHECK_EQ(braid_ctl_parse("set scheduler  ratio\t1:0", 24, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.cmd, BRAID_CTL_SET_SCHED);
	CHECK_STR(req.sched, "ratio 1:0");
	CHECK_EQ(braid_ctl_parse("set scheduler lowest-rtt", 24, &req, err, sizeof(err)), 0);
	CHECK_STR(req.sched, "lowest-rtt");
	CHECK_EQ(braid_ctl_parse("set path 10.0.2.1 backup", 24, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.cmd, BRAID_CTL_SET_PATH);
	CHECK_STR(req.path, "10.0.2.1");
	CHECK_EQ(req.op, BRAID_CTL_PATH_BACKUP);
	CHECK_EQ(braid_ctl_parse("set path 1 active", 17, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.op, BRAID_CTL_PATH_ACTIVE);
	CHECK_EQ(braid_ctl_parse("set path 1 nocap", 16, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.op, BRAID_CTL_PATH_NOCAP);
	CHECK_EQ(braid_ctl_parse("set path 0 cap 2.5", 18, &req, err, sizeof(err)), 0);
	CHECK_EQ(req.op, BRAID_CTL_PATH_CAP);
	CHECK_EQ(req.cap_bps, 2500000);
}

/* ---- replies, through ops that record what they were asked ---- */

struct rec {
	char sched[96], path[64];
	int op;
	uint64_t cap;
	int calls;
};

static void t_status(void *user, FILE *f)
{
	(void)user;
	fputs("{\"version\":1,\"paths\":[]}\n", f);
}

static int t_set_sched(void *user, const char *spec, char *err, size_t errlen)
{
	struct rec *r = user;

	r->calls++;
	snprintf(r->sched, sizeof(r->sched), "%s", spec);
	if (!strcmp(spec, "ratio 1:0:1")) {
		snprintf(err, errlen, "set scheduler: ratio has 3 weights but there are 2 paths");
		return -EINVAL;
	}
	return 0;
}

static int t_set_path(void *user, const char *path, enum braid_ctl_path_op op, uint64_t cap,
		      char *err, size_t errlen)
{
	struct rec *r = user;

	r->calls++;
	snprintf(r->path, sizeof(r->path), "%s", path);
	r->op = (int)op;
	r->cap = cap;
	if (!strcmp(path, "9")) {
		snprintf(err, errlen, "set path: no path '9'");
		return -ENOENT;
	}
	if (!strcmp(path, "8"))
		return -EIO;	/* no reason given: strerror */
	return 0;
}

static struct rec rec;
static const struct braid_control_ops ops = {
	.status = t_status, .set_sched = t_set_sched, .set_path = t_set_path,
	.version = "0.1.0", .user = &rec,
};

static void answer(const char *line, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	braid_control_answer(&ops, line, strlen(line), f);
	fclose(f);
	CHECK_STR(buf, want);
	free(buf);
}

static void replies(void)
{
	answer("status", "ok\n{\"version\":1,\"paths\":[]}\n\n");
	answer("version", "ok\nprotocol 1\nbraidd 0.1.0\n\n");
	/* a role without clients (the test ops have no optional ones) */
	answer("paths", "error: paths: not available here\n\n");
	answer("clients", "error: clients: no clients here (not a gateway)\n\n");
	answer("kill c1", "error: kill: no clients here (not a gateway)\n\n");
	answer("set client c1 path 1 backup", "error: set client: no clients here (not a "
	       "gateway)\n\n");
	answer("bogus", "error: unknown command 'bogus' (status, paths, clients, kill, version, set)\n\n");
	CHECK_EQ(rec.calls, 0);
	answer("set scheduler ratio 1:0", "ok\n\n");
	CHECK_STR(rec.sched, "ratio 1:0");
	answer("set scheduler ratio 1:0:1",
	       "error: set scheduler: ratio has 3 weights but there are 2 paths\n\n");
	answer("set path 1 cap 10", "ok\n\n");
	CHECK_STR(rec.path, "1");
	CHECK_EQ(rec.op, BRAID_CTL_PATH_CAP);
	CHECK_EQ(rec.cap, 10000000);
	answer("set path 9 backup", "error: set path: no path '9'\n\n");
	answer("set path 8 backup", "error: Input/output error\n\n");
	CHECK_EQ(rec.calls, 5);
}

/* ---- the server ---- */

static struct ev_loop *loop;

static int cli_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	/* non-blocking: a full backlog is EAGAIN, and the server accepts in the loop */
	for (int i = 0; fd >= 0 && i < 1000; i++) {
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		if (errno != EAGAIN)
			break;
		ev_run(loop, EVRUN_NOWAIT);
	}
	perror("connect");
	if (fd >= 0)
		close(fd);
	return -1;
}

static void cli_send(int fd, const char *s)
{
	CHECK_EQ(send(fd, s, strlen(s), MSG_NOSIGNAL), (long long)strlen(s));
}

/* Run the loop until fd has `blanks` complete replies (or EOF); returns what came. */
static char *cli_read(int fd, int blanks, int *eof)
{
	static char buf[65536];
	size_t len = 0;

	*eof = 0;
	for (int i = 0; i < 2000; i++) {
		ssize_t n;
		int got = 0;

		ev_run(loop, EVRUN_NOWAIT);
		n = recv(fd, buf + len, sizeof(buf) - 1 - len, 0);
		if (n == 0) {
			*eof = 1;
			break;
		}
		if (n > 0)
			len += (size_t)n;
		buf[len] = '\0';
		for (char *p = buf; (p = strstr(p, "\n\n")); p += 2)
			got++;
		if (got >= blanks && blanks > 0)
			break;
		if (n < 0)
			nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	buf[len] = '\0';
	return buf;
}

static void server(void)
{
	char path[108], *s;
	struct braid_control *c = NULL, *c2 = NULL;
	struct stat st;
	int a, b, eof, fds[BRAID_CONTROL_MAX_CLIENTS + 1];

	loop = ev_loop_new(EVFLAG_AUTO);
	snprintf(path, sizeof(path), "/tmp/braid-ctl-test-%d.sock", (int)getpid());
	unlink(path);
	CHECK_EQ(braid_control_new(&c, loop, path, &ops), 0);
	if (!c)
		return;
	CHECK_EQ(stat(path, &st), 0);
	CHECKM(S_ISSOCK(st.st_mode), "not a socket");
	CHECK_EQ(st.st_mode & 0777, 0600);
	/* a second daemon on the same path is refused */
	CHECK_EQ(braid_control_new(&c2, loop, path, &ops), -EADDRINUSE);

	/* two clients, interleaved; the request of a arrives in two pieces */
	a = cli_connect(path);
	b = cli_connect(path);
	cli_send(a, "vers");
	cli_send(b, "status\n");
	s = cli_read(b, 1, &eof);
	CHECK_STR(s, "ok\n{\"version\":1,\"paths\":[]}\n\n");
	cli_send(a, "ion\n");
	s = cli_read(a, 1, &eof);
	CHECK_STR(s, "ok\nprotocol 1\nbraidd 0.1.0\n\n");
	/* pipelined requests on one connection are answered in order */
	cli_send(a, "version\nnope\r\nset path 1 backup\n");
	s = cli_read(a, 3, &eof);
	CHECK_STR(s, "ok\nprotocol 1\nbraidd 0.1.0\n\n"
		     "error: unknown command 'nope' (status, paths, clients, kill, version, set)\n\nok\n\n");
	CHECK_EQ(rec.op, BRAID_CTL_PATH_BACKUP);
	/* shut-down write side: the last request is still answered, then EOF */
	cli_send(a, "version\n");
	shutdown(a, SHUT_WR);
	s = cli_read(a, 2, &eof);
	CHECK_STR(s, "ok\nprotocol 1\nbraidd 0.1.0\n\n");
	CHECK_EQ(eof, 1);
	close(a);

	/* an over-long line: error, then the server closes */
	{
		char big[BRAID_CTL_LINE_MAX + 100];

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		cli_send(b, big);
		s = cli_read(b, 2, &eof);
		CHECK_STR(s, "error: request line too long (max 511 bytes)\n\n");
		CHECK_EQ(eof, 1);
		close(b);
	}

	/* a client that sends and leaves without reading does not hurt the others */
	a = cli_connect(path);
	cli_send(a, "status\nstatus\nstatus\n");
	close(a);
	b = cli_connect(path);
	cli_send(b, "status\n");
	s = cli_read(b, 1, &eof);
	CHECK_STR(s, "ok\n{\"version\":1,\"paths\":[]}\n\n");
	close(b);

	/* the client limit: one more than allowed is told so */
	for (int i = 0; i <= BRAID_CONTROL_MAX_CLIENTS; i++)
		fds[i] = cli_connect(path);
	s = cli_read(fds[BRAID_CONTROL_MAX_CLIENTS], 1, &eof);
	CHECK_STR(s, "error: too many control clients\n\n");
	cli_send(fds[0], "version\n");
	s = cli_read(fds[0], 1, &eof);
	CHECK_STR(s, "ok\nprotocol 1\nbraidd 0.1.0\n\n");
	for (int i = 0; i <= BRAID_CONTROL_MAX_CLIENTS; i++)
		close(fds[i]);
	for (int i = 0; i < 20; i++)
		ev_run(loop, EVRUN_NOWAIT);

	braid_control_free(c);
	CHECKM(access(path, F_OK) && errno == ENOENT, "socket file left behind");

	/* a stale socket file (nobody listening) is replaced; a regular file is not */
	{
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
		CHECK_EQ(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
		close(fd);
		c = NULL;
		CHECK_EQ(braid_control_new(&c, loop, path, &ops), 0);
		braid_control_free(c);
		fd = open(path, O_CREAT | O_WRONLY, 0600);
		close(fd);
		CHECK_EQ(braid_control_new(&c, loop, path, &ops), -EEXIST);
		unlink(path);
	}
	ev_loop_destroy(loop);
}

int main(void)
{
	parser();
	replies();
	server();
	CHECK_DONE();
}
