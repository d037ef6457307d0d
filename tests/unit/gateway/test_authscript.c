// SPDX-License-Identifier: GPL-2.0-only
/* test_authscript.c - auth-user-pass-verify via-file / via-env, exit codes, timeout. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gateway/authscript.h"
#include "check.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int run(const struct braid_authscript_req *req, struct braid_authscript *a)
{
	int r = braid_authscript_start(a, req, now_ms());

	if (r)
		return r;
	while ((r = braid_authscript_poll(a, now_ms())) == -EAGAIN)
		usleep(5000);
	return r;
}

static void script(const char *path, const char *body)
{
	FILE *f = fopen(path, "w");

	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	chmod(path, 0700);
}

int main(void)
{
	char dir[] = "/tmp/braid_auth_test_XXXXXX", sf[128], se[128], ss[128], cmd[300];
	struct braid_authscript a;
	struct braid_authscript_req req = { .username = "alice", .password = "s3cret",
					    .common_name = "client1", .untrusted_ip = "10.99.0.2",
					    .untrusted_port = "40000" };
	int64_t t0;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	req.tmpdir = dir;
	snprintf(sf, sizeof(sf), "%s/file.sh", dir);
	snprintf(se, sizeof(se), "%s/env.sh", dir);
	snprintf(ss, sizeof(ss), "%s/slow.sh", dir);
	/* via-file: line 1 user, line 2 password, file mode 0600; exit 3 on mismatch */
	script(sf, "[ \"$(stat -c %a \"$2\")\" = 600 ] || exit 4\n"
		   "u=$(sed -n 1p \"$2\"); p=$(sed -n 2p \"$2\")\n"
		   "[ \"$1\" = extra ] || exit 5\n"
		   "[ \"$script_type\" = user-pass-verify ] && [ \"$common_name\" = client1 ] || exit 6\n"
		   "[ \"$u\" = alice ] && [ \"$p\" = s3cret ] && exit 0; exit 3");
	script(se, "[ \"$untrusted_ip\" = 10.99.0.2 ] && [ \"$untrusted_port\" = 40000 ] || exit 6\n"
		   "[ \"$username\" = alice ] && [ \"$password\" = s3cret ] && exit 0; exit 3");
	script(ss, "sleep 5");

	snprintf(cmd, sizeof(cmd), "%s extra", sf);
	req.cmd = cmd;
	req.via_file = true;
	CHECK_EQ(run(&req, &a), 0);
	CHECK_EQ(braid_authscript_exit_code(&a), 0);
	CHECK(a.tmpfile[0] == 0);
	req.password = "wrong";
	CHECK_EQ(run(&req, &a), -EACCES);
	CHECK_EQ(braid_authscript_exit_code(&a), 3);

	req.cmd = se;
	req.via_file = false;
	req.password = "s3cret";
	CHECK_EQ(run(&req, &a), 0);
	req.username = "mallory";
	CHECK_EQ(run(&req, &a), -EACCES);
	CHECK_EQ(braid_authscript_exit_code(&a), 3);

	/* timeout: killed and reaped within the deadline, not after the script's 5 s */
	req.cmd = ss;
	req.timeout_ms = 300;
	t0 = now_ms();
	CHECK_EQ(run(&req, &a), -ETIMEDOUT);
	CHECK(now_ms() - t0 < 2000);
	CHECK_EQ(a.pid, 0);

	/* a missing program is a rejection (exit 127), never an accept */
	req.cmd = "/nonexistent/verify";
	req.timeout_ms = 0;
	CHECK_EQ(run(&req, &a), -EACCES);
	CHECK_EQ(braid_authscript_exit_code(&a), 127);
	req.cmd = "";
	CHECK_EQ(braid_authscript_start(&a, &req, 0), -EINVAL);

	/* client-connect style: own script_type, extra env, the config file as last argument,
	 * no password anywhere */
	{
		char sc[128], cfg[128], out[256] = "";
		const char *env[] = { "ifconfig_pool_remote_ip=10.8.0.2", "IV_VER=2.6.14", NULL };
		struct braid_authscript_req cc = { .username = "alice", .password = "s3cret",
						   .common_name = "client1",
						   .untrusted_ip = "10.99.0.2",
						   .untrusted_port = "40000",
						   .script_type = "client-connect", .env = env };
		FILE *f;

		snprintf(sc, sizeof(sc), "%s/cc.sh", dir);
		snprintf(cfg, sizeof(cfg), "%s/cc.conf", dir);
		script(sc, "[ \"$script_type\" = client-connect ] || exit 7\n"
			   "[ -z \"$password\" ] || exit 8\n"
			   "echo \"push \\\"echo $common_name $ifconfig_pool_remote_ip $IV_VER $#\\\"\" > \"$1\"");
		cc.cmd = sc;
		cc.extra_arg = cfg;
		CHECK_EQ(run(&cc, &a), 0);
		CHECK_EQ(braid_authscript_exit_code(&a), 0);
		f = fopen(cfg, "r");
		CHECK(f != NULL);
		if (f) {
			CHECK(fgets(out, sizeof(out), f) != NULL);
			fclose(f);
		}
		CHECK_STR(out, "push \"echo client1 10.8.0.2 2.6.14 1\"\n");
		unlink(cfg);
		unlink(sc);
	}

	/* no temp files left behind */
	unlink(sf);
	unlink(se);
	unlink(ss);
	CHECK_EQ(rmdir(dir), 0);
	CHECK(stat(dir, &st) != 0);
	CHECK_DONE();
}
