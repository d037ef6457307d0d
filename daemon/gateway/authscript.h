/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * authscript.h - the gateway's per-client scripts, run without blocking the
 * event loop: `auth-user-pass-verify CMD via-file|via-env`, and (with
 * script_type, env and extra_arg) `client-connect` / `client-disconnect`.
 *
 * CMD is split like a config line (quotes allowed) and run directly (no
 * shell), in a new process group, with stdin on /dev/null.
 *   via-file: the last argument is a temporary file (mode 0600, in tmpdir)
 *             holding "username\npassword\n"; removed when the script ends.
 *   via-env:  environment variables username and password.
 * Both get script_type=user-pass-verify, common_name, untrusted_ip,
 * untrusted_port (and username) in the environment, as OpenVPN sets them.
 * Other scripts: script_type as given, the same names plus req->env, and
 * extra_arg (if any) as the last argument; the password is never passed.
 * Exit status 0 accepts; anything else, a signal or the timeout (the process
 * group is killed) rejects. The password is wiped from our memory as soon
 * as the child has it.
 */
#ifndef BRAID_AUTHSCRIPT_H
#define BRAID_AUTHSCRIPT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct braid_authscript {
	pid_t pid;		/* 0 = not running */
	char tmpfile[256];	/* via-file: "" once removed */
	int64_t deadline_ms;
	int status;		/* waitpid status once ended */
};

struct braid_authscript_req {
	const char *cmd;
	bool via_file;
	const char *tmpdir;	/* NULL = /tmp */
	const char *username, *password;
	const char *common_name;
	const char *untrusted_ip, *untrusted_port;
	unsigned timeout_ms;	/* 0 = 10 s */
	const char *script_type;	/* NULL = "user-pass-verify" */
	const char *const *env;		/* more "NAME=VALUE" strings, NULL-terminated; NULL = none */
	const char *extra_arg;		/* last argument (client-connect: the config file), NULL = none */
};

/* Start. -EINVAL (empty/unparsable command), -errno (fork, tmp file). */
int braid_authscript_start(struct braid_authscript *a, const struct braid_authscript_req *req,
			   int64_t now_ms);
/*
 * Non-blocking check: -EAGAIN (still running), 0 (exit 0: accepted),
 * -EACCES (non-zero exit or killed by a signal), -ETIMEDOUT (deadline
 * passed: killed and reaped).
 */
int braid_authscript_poll(struct braid_authscript *a, int64_t now_ms);
/* Kill and reap if running; remove the tmp file. */
void braid_authscript_cancel(struct braid_authscript *a);

/* Exit code of a finished script (-1 if it was killed by a signal). */
int braid_authscript_exit_code(const struct braid_authscript *a);

#endif /* BRAID_AUTHSCRIPT_H */
