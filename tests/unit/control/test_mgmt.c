// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mgmt.c - the management interface's parts: the word parser (quotes,
 * escapes, every refusal), the line splitter (CRLF, partial input, an
 * over-long line refused once), the history ring, and the real interface
 * on a libev loop over a unix socket: banner, password file, state history,
 * hold release and password query callbacks, >BYTECOUNT, the log hook,
 * rejection counters, the connection limit, quit.
 */
#include <errno.h>
#include <ev.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "control/mgmt.h"
#include "control/mgmt_hist.h"
#include "control/mgmt_line.h"
#include "util/log.h"

static void split(void)
{
	static const struct {
		const char *line;
		int argc;
		const char *w[4];
	} ok[] = {
		{ "state on all", 3, { "state", "on", "all" } },
		{ "  hold\trelease  ", 2, { "hold", "release" } },
		{ "username \"Auth\" user1", 3, { "username", "Auth", "user1" } },
		{ "password \"Auth\" \"p a\\\"s\\\\s\"", 3, { "password", "Auth", "p a\"s\\s" } },
		{ "needstr 'x y' a\\ b", 3, { "needstr", "x y", "a b" } },
		{ "", 0, { NULL } },
	};
	static const struct {
		const char *line;
		enum braid_mgmt_rej why;
	} bad[] = {
		{ "password \"Auth\" \"abc", BRAID_MGMT_REJ_QUOTE },
		{ "echo 'x", BRAID_MGMT_REJ_QUOTE },
		{ "log on\\", BRAID_MGMT_REJ_QUOTE },
		{ "state\x01", BRAID_MGMT_REJ_BAD_CHAR },
		{ "a b c d e f g h i j k l m n o p q", BRAID_MGMT_REJ_TOO_MANY },
	};
	struct braid_mgmt_argv a;
	enum braid_mgmt_rej why;
	char big[BRAID_MGMT_LINE_MAX + 8];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK_EQ(braid_mgmt_split(ok[i].line, strlen(ok[i].line), &a, &why), 0);
		CHECK_EQ(a.argc, ok[i].argc);
		for (int k = 0; k < ok[i].argc && k < a.argc; k++)
			CHECK_STR(a.argv[k], ok[i].w[k]);
		CHECK(a.argv[a.argc] == NULL);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why = BRAID_MGMT_REJ_N;
		CHECK_EQ(braid_mgmt_split(bad[i].line, strlen(bad[i].line), &a, &why), -EINVAL);
		CHECKM(why == bad[i].why, "'%s': why %d, want %d", bad[i].line, why, bad[i].why);
	}
	memset(big, 'a', sizeof(big));
	CHECK_EQ(braid_mgmt_split(big, BRAID_MGMT_LINE_MAX, &a, &why), -EINVAL);
	CHECK_EQ(why, BRAID_MGMT_REJ_TOO_LONG);
	CHECK_STR(braid_mgmt_rej_name(BRAID_MGMT_REJ_UNKNOWN), "unknown_command");
}

/* the challenge-response answer's bounds: cr-response B64 and the CR_RESPONSE control message */
static void cr_response(void)
{
	char big[BRAID_CR_RESPONSE_MAX + 16];
	const char *b64 = NULL;
	size_t bl = 0;

	CHECK_EQ(braid_cr_b64_check("dGVzdA==", 8), 0);
	CHECK_EQ(braid_cr_b64_check("", 0), -EINVAL);
	CHECK_EQ(braid_cr_b64_check("a,b", 3), -EINVAL);
	CHECK_EQ(braid_cr_b64_check("a b", 3), -EINVAL);
	CHECK_EQ(braid_cr_b64_check("ab\x01", 3), -EINVAL);
	CHECK_EQ(braid_cr_response_parse("CR_RESPONSE,dGVzdA==", 20, &b64, &bl), 0);
	CHECK(b64 && bl == 8 && !memcmp(b64, "dGVzdA==", 8));
	CHECK_EQ(braid_cr_response_parse("PUSH_REQUEST", 12, &b64, &bl), -ENOENT);
	CHECK_EQ(braid_cr_response_parse("CR_RESPONSE", 11, &b64, &bl), -ENOENT);
	CHECK_EQ(braid_cr_response_parse("CR_RESPONSE,", 12, &b64, &bl), -EINVAL);
	CHECK_EQ(braid_cr_response_parse("CR_RESPONSE,x,y", 15, &b64, &bl), -EINVAL);
	memcpy(big, "CR_RESPONSE,", 12);
	memset(big + 12, 'A', sizeof(big) - 12);
	CHECK_EQ(braid_cr_response_parse(big, 12 + BRAID_CR_RESPONSE_MAX, &b64, &bl), 0);
	CHECK_EQ(bl, BRAID_CR_RESPONSE_MAX);
	CHECK_EQ(braid_cr_response_parse(big, 12 + BRAID_CR_RESPONSE_MAX + 1, &b64, &bl), -EINVAL);
	CHECK_STR(braid_mgmt_rej_name(BRAID_MGMT_REJ_CR_RESPONSE), "bad_cr_response");
}

static void lbuf(void)
{
	struct braid_mgmt_lbuf b = { 0 };
	const char *in = "stat", *line;
	size_t used, len, off;
	char big[BRAID_MGMT_LINE_MAX * 2 + 2];
	int r;

	CHECK_EQ(braid_mgmt_lbuf_take(&b, in, 4, &used, &line, &len), 0);
	CHECK_EQ(used, 4);
	r = braid_mgmt_lbuf_take(&b, "e\r\nhold\n", 8, &used, &line, &len);
	CHECK_EQ(r, 1);
	CHECK_EQ(used, 3);
	CHECK(len == 5 && !memcmp(line, "state", 5));
	r = braid_mgmt_lbuf_take(&b, "hold\n", 5, &used, &line, &len);
	CHECK(r == 1 && len == 4 && !memcmp(line, "hold", 4));
	/* an over-long line: refused once, its rest dropped, the next line fine */
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 2] = '\n';
	big[sizeof(big) - 1] = 'p';
	off = 0;
	int e2big = 0, lines = 0;

	while (off < sizeof(big)) {
		r = braid_mgmt_lbuf_take(&b, big + off, sizeof(big) - off, &used, &line, &len);
		off += used;
		e2big += r == -E2BIG;
		lines += r == 1;
	}
	CHECK_EQ(e2big, 1);
	CHECK_EQ(lines, 0);
	r = braid_mgmt_lbuf_take(&b, "id\n", 3, &used, &line, &len);
	CHECK(r == 1 && len == 3 && !memcmp(line, "pid", 3));
}

static void hist(void)
{
	struct braid_mgmt_hist h;
	char t[8];

	CHECK_EQ(braid_mgmt_hist_init(&h, 0), -EINVAL);
	CHECK_EQ(braid_mgmt_hist_init(&h, 3), 0);
	CHECK(braid_mgmt_hist_last(&h) == NULL);
	for (int i = 0; i < 5; i++) {
		snprintf(t, sizeof(t), "e%d", i);
		CHECK_EQ(braid_mgmt_hist_add(&h, i, t), 0);
	}
	CHECK_EQ(h.n, 3);
	CHECK_STR(braid_mgmt_hist_at(&h, 0)->text, "e2");
	CHECK_STR(braid_mgmt_hist_at(&h, 2)->text, "e4");
	CHECK(braid_mgmt_hist_at(&h, 3) == NULL);
	CHECK_STR(braid_mgmt_hist_last(&h)->text, "e4");
	braid_mgmt_hist_free(&h);
}

/* ---- the interface on a loop ---- */

struct role {
	int released, creds;
	char user[32], pass[32];
};

static void r_bytes(void *user, braid_mgmt_bytes_fn emit, void *ctx)
{
	(void)user;
	emit(ctx, -1, 1234, 5678);
}

static int r_status(void *user, int version, FILE *f)
{
	(void)user;
	fprintf(f, "OpenVPN STATISTICS\nversion,%d\n", version);
	return 0;
}

static void r_release(void *user)
{
	((struct role *)user)->released++;
}

static void r_creds(void *user, const char *type, const char *u, const char *p)
{
	struct role *r = user;

	CHECK_STR(type, "Auth");
	r->creds++;
	snprintf(r->user, sizeof(r->user), "%s", u);
	snprintf(r->pass, sizeof(r->pass), "%s", p);
}

static struct ev_loop *loop;

static int conn(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

/* Send cmd (if any), run the loop until the output read so far contains want (or 2 s). */
static char got[65536];

static bool xfer(int fd, const char *cmd, const char *want)
{
	size_t n = 0;
	struct timespec t0, t;

	got[0] = 0;
	if (cmd && (send(fd, cmd, strlen(cmd), 0) < 0 || send(fd, "\r\n", 2, 0) < 0))
		return false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ssize_t r;

		ev_run(loop, EVRUN_NOWAIT);
		r = recv(fd, got + n, sizeof(got) - 1 - n, 0);
		if (r > 0) {
			n += (size_t)r;
			got[n] = 0;
		}
		if (want && strstr(got, want))
			return true;
		if (r == 0 && !want)
			return true;	/* closed, as expected */
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec >= 2)
			return !want;
		usleep(2000);
	}
}

static void server(void)
{
	char dir[] = "/tmp/braid-mgmt-XXXXXX", path[128], pw[160];
	struct role role = { 0 };
	struct braid_mgmt_ops ops = { .user = &role, .status = r_status, .bytecount = r_bytes,
				      .hold_release = r_release, .credentials = r_creds };
	struct braid_mgmt_cfg cfg = { .unix_sock = true, .hold = true, .query_passwords = true,
				      .log_cache = 50 };
	struct braid_mgmt_state st = { .name = "CONNECTING" };
	struct braid_mgmt *m;
	int fd, fds[BRAID_MGMT_MAX_CONN];
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/m.sock", dir);
	snprintf(pw, sizeof(pw), "%s/pw", dir);
	f = fopen(pw, "w");
	fputs("s3cret\nignored\n", f);
	fclose(f);
	cfg.addr = path;
	cfg.pwfile = pw;
	braid_log_keep_early(4);
	braid_info("an early line");	/* before the interface: in its history all the same */
	loop = ev_loop_new(EVFLAG_AUTO);
	CHECK_EQ(braid_mgmt_new(&m, loop, &cfg, &ops), 0);
	braid_mgmt_set_state(m, &st);
	CHECK_STR(braid_mgmt_state_name(m), "CONNECTING");
	CHECK(braid_mgmt_hold(m, 3));

	fd = conn(path);
	CHECK(fd >= 0);
	CHECK(xfer(fd, NULL, "ENTER PASSWORD:"));
	CHECK(xfer(fd, "wrong", "ERROR: bad password\r\nENTER PASSWORD:"));
	CHECK_EQ(braid_mgmt_rejections(m, BRAID_MGMT_REJ_PASSWORD), 1);
	CHECK(xfer(fd, "s3cret", ">HOLD:Waiting for hold release:3\r\n"));
	CHECK(strstr(got, "SUCCESS: password is correct\r\n>INFO:OpenVPN Management Interface "
			  "Version 5 -- type 'help' for more info\r\n") != NULL);
	CHECK(xfer(fd, "state", "END\r\n"));
	CHECKM(strstr(got, ",CONNECTING,,,,,,\r\nEND\r\n") != NULL, "%s", got);
	CHECK(xfer(fd, "hold", "SUCCESS: hold=1\r\n"));
	CHECK(xfer(fd, "hold release", "SUCCESS: hold release succeeded\r\n"));
	CHECK_EQ(role.released, 1);
	braid_mgmt_need_password(m, "Auth");
	CHECK(xfer(fd, NULL, ">PASSWORD:Need 'Auth' username/password\r\n"));
	CHECK(xfer(fd, "username \"Auth\" user1",
		   "SUCCESS: 'Auth' username entered, but not yet verified\r\n"));
	CHECK_EQ(role.creds, 0);
	CHECK(xfer(fd, "password \"Auth\" \"p w\"",
		   "SUCCESS: 'Auth' password entered, but not yet verified\r\n"));
	CHECK_EQ(role.creds, 1);
	CHECK_STR(role.user, "user1");
	CHECK_STR(role.pass, "p w");
	CHECK(xfer(fd, "password Auth x", "ERROR: no password is currently needed at this time"));
	/* the log hook: a braid_log line is in the history, a password never */
	braid_info("hello from the test");
	CHECK(xfer(fd, "log all", "END\r\n"));
	CHECK(strstr(got, ",I,hello from the test\r\n") != NULL);
	CHECK(strstr(got, ",I,an early line\r\n") != NULL);
	CHECK(strstr(got, "MANAGEMENT: CMD 'password [...]'") != NULL);
	CHECK(strstr(got, "p w") == NULL);
	CHECK(xfer(fd, "status 2", "END\r\n"));
	CHECK(strstr(got, "OpenVPN STATISTICS\r\nversion,2\r\nEND\r\n") != NULL);
	CHECK(xfer(fd, "bytecount 1", ">BYTECOUNT:1234,5678\r\n"));
	CHECK(xfer(fd, "bytecount 0", "SUCCESS: bytecount interval changed\r\n"));
	CHECK(xfer(fd, "nosuch", "ERROR: unknown command, enter 'help' for more options\r\n"));
	CHECK_EQ(braid_mgmt_rejections(m, BRAID_MGMT_REJ_UNKNOWN), 1);
	{
		char line[BRAID_MGMT_LINE_MAX + 16];

		memset(line, 'x', sizeof(line) - 1);
		line[sizeof(line) - 1] = 0;
		CHECK(xfer(fd, line, "ERROR: command line too long"));
		CHECK_EQ(braid_mgmt_rejections(m, BRAID_MGMT_REJ_TOO_LONG), 1);
		CHECK(xfer(fd, "pid", "SUCCESS: pid="));
	}
	CHECK(xfer(fd, "kill x", "ERROR: The 'kill' command is not supported by the current "
				 "daemon mode\r\n"));
	CHECK(xfer(fd, "state on", "SUCCESS: real-time state notification set to ON\r\n"));
	st.name = "CONNECTED";
	st.desc = "SUCCESS";
	st.tun4 = "10.8.0.2";
	st.rip = "10.1.2.2";
	st.rport = "1194";
	st.tun6 = "fd00::2";
	braid_mgmt_set_state(m, &st);
	CHECK(xfer(fd, NULL, ",CONNECTED,SUCCESS,10.8.0.2,10.1.2.2,1194,,,fd00::2\r\n"));
	CHECK(strncmp(got, ">STATE:", 7) == 0);

	/* the connection limit: the extra one is told and closed */
	for (int i = 0; i < BRAID_MGMT_MAX_CONN - 1; i++) {
		fds[i] = conn(path);
		CHECK(xfer(fds[i], NULL, "ENTER PASSWORD:"));
	}
	fds[BRAID_MGMT_MAX_CONN - 1] = conn(path);
	CHECK(xfer(fds[BRAID_MGMT_MAX_CONN - 1], NULL, "ERROR: too many management clients"));
	CHECK_EQ(braid_mgmt_rejections(m, BRAID_MGMT_REJ_CONN), 1);
	for (int i = 0; i < BRAID_MGMT_MAX_CONN; i++)
		close(fds[i]);
	CHECK(xfer(fd, "state off", "SUCCESS: real-time state notification set to OFF"));

	/* a reload: the role ends, the next one (another loop) gets the same interface and connection */
	braid_mgmt_free(m);
	CHECKM(access(path, F_OK) == 0, "the kept interface's socket is gone");
	ev_loop_destroy(loop);
	loop = ev_loop_new(EVFLAG_AUTO);
	{
		struct braid_mgmt *m2 = NULL;

		CHECK_EQ(braid_mgmt_new(&m2, loop, &cfg, &ops), 0);
		CHECK(m2 == m);
		CHECK(xfer(fd, "state", "END\r\n"));
		CHECKM(strstr(got, ",CONNECTED,SUCCESS,10.8.0.2,10.1.2.2,1194,,,fd00::2\r\nEND") != NULL,
		       "the history is kept: %s", got);
		m = m2;
	}
	CHECK(xfer(fd, "quit", NULL));
	close(fd);
	braid_mgmt_free(m);
	braid_mgmt_shutdown();
	CHECKM(access(path, F_OK) && errno == ENOENT, "socket file left behind");
	unlink(pw);
	rmdir(dir);
	ev_loop_destroy(loop);
}

/* management-client-user: a peer with another uid is closed at once, the owner's is served */
static void peer_user(void)
{
	char dir[] = "/tmp/braid-mgmt-XXXXXX", path[128];
	struct braid_mgmt_ops ops = { 0 };
	struct braid_mgmt_cfg cfg = { .unix_sock = true, .client_user = "nobody" };
	struct braid_mgmt *m;
	int fd;

	if (getuid() != 0) {
		printf("skip peer_user: needs root (the socket's peer is another user then)\n");
		return;
	}
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/m.sock", dir);
	cfg.addr = path;
	loop = ev_loop_new(EVFLAG_AUTO);
	CHECK_EQ(braid_mgmt_new(&m, loop, &cfg, &ops), 0);
	fd = conn(path);
	CHECK(fd >= 0);
	CHECK(xfer(fd, NULL, NULL));	/* closed without a banner */
	CHECK(strstr(got, ">INFO:") == NULL);
	CHECK_EQ(braid_mgmt_rejections(m, BRAID_MGMT_REJ_CONN), 1);
	close(fd);
	braid_mgmt_free(m);
	cfg.client_user = "root";
	CHECK_EQ(braid_mgmt_new(&m, loop, &cfg, &ops), 0);
	fd = conn(path);
	CHECK(xfer(fd, NULL, ">INFO:OpenVPN Management Interface Version 5"));
	close(fd);
	braid_mgmt_free(m);
	cfg.client_user = "no-such-user-here";
	CHECK_EQ(braid_mgmt_new(&m, loop, &cfg, &ops), -EINVAL);
	braid_mgmt_shutdown();
	rmdir(dir);
	ev_loop_destroy(loop);
}

int main(void)
{
	split();
	cr_response();
	lbuf();
	hist();
	server();
	peer_user();
	CHECK_DONE();
}
