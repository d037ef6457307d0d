// SPDX-License-Identifier: GPL-2.0-only
/*
 * authscript.c - auth-user-pass-verify runner (see authscript.h).
 */
#include "gateway/authscript.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sodium.h>

#include "config/config.h"

#define MAX_ARGS BRAID_CONFIG_MAX_PARMS
#define MAX_ENV 176	/* gw_script.h BRAID_GW_SCRIPT_ENV_MAX and the fixed ones */

extern char **environ;

static char *envvar(const char *name, const char *val)
{
	char *s = NULL;

	if (asprintf(&s, "%s=%s", name, val ? val : "") < 0)
		return NULL;
	return s;
}

static int write_creds(const char *path, const char *user, const char *pass)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	size_t ul = strlen(user), pl = strlen(pass);
	char *buf;
	int r = 0;

	if (fd < 0)
		return -errno;
	buf = malloc(ul + pl + 2);
	if (!buf) {
		close(fd);
		unlink(path);
		return -ENOMEM;
	}
	memcpy(buf, user, ul);
	buf[ul] = '\n';
	memcpy(buf + ul + 1, pass, pl);
	buf[ul + 1 + pl] = '\n';
	if (write(fd, buf, ul + pl + 2) != (ssize_t)(ul + pl + 2))
		r = -EIO;
	sodium_memzero(buf, ul + pl + 2);
	free(buf);
	if (close(fd) && !r)
		r = -errno;
	if (r)
		unlink(path);
	return r;
}

int braid_authscript_start(struct braid_authscript *a, const struct braid_authscript_req *req,
			   int64_t now_ms)
{
	char *tok[MAX_ARGS + 2] = { 0 };
	char *argv[MAX_ARGS + 3];
	bool upv = !req->script_type || !strcmp(req->script_type, "user-pass-verify");
	int argc;
	char *envp[MAX_ENV + 1] = { 0 };
	char err[128];
	int ntok = 0, nenv = 0, r;
	pid_t pid;

	memset(a, 0, sizeof(*a));
	if (!req->cmd || !*req->cmd)
		return -EINVAL;
	r = braid_config_tokenize(req->cmd, tok, MAX_ARGS, &ntok, err, sizeof(err));
	if (r)
		return r;
	if (ntok < 1) {
		r = -EINVAL;
		goto out_tok;
	}
	for (int i = 0; i < ntok; i++)
		argv[i] = tok[i];
	argc = ntok;
	if (upv && req->via_file) {
		static unsigned seq;

		snprintf(a->tmpfile, sizeof(a->tmpfile), "%s/braidd_up_%d_%u_%08x.tmp",
			 req->tmpdir ? req->tmpdir : "/tmp", (int)getpid(), ++seq,
			 randombytes_random());
		r = write_creds(a->tmpfile, req->username ? req->username : "",
				req->password ? req->password : "");
		if (r) {
			a->tmpfile[0] = 0;
			goto out_tok;
		}
		argv[argc++] = a->tmpfile;
	}
	if (req->extra_arg)
		argv[argc++] = (char *)req->extra_arg;
	argv[argc] = NULL;
	envp[nenv++] = envvar("script_type", upv ? "user-pass-verify" : req->script_type);
	envp[nenv++] = envvar("username", req->username);
	envp[nenv++] = envvar("common_name", req->common_name);
	envp[nenv++] = envvar("untrusted_ip", req->untrusted_ip);
	envp[nenv++] = envvar("untrusted_port", req->untrusted_port);
	envp[nenv++] = envvar("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
	if (upv && !req->via_file)
		envp[nenv++] = envvar("password", req->password);
	for (unsigned i = 0; req->env && req->env[i] && nenv < MAX_ENV; i++)
		envp[nenv++] = strdup(req->env[i]);
	for (int i = 0; i < nenv; i++)
		if (!envp[i]) {
			r = -ENOMEM;
			goto out_env;
		}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		goto out_env;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		if (fd >= 0)
			dup2(fd, 0);
		setpgid(0, 0);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	setpgid(pid, pid);
	a->pid = pid;
	a->deadline_ms = now_ms + (req->timeout_ms ? req->timeout_ms : 10000);
	r = 0;
out_env:
	for (int i = 0; i < nenv; i++)
		if (envp[i]) {
			sodium_memzero(envp[i], strlen(envp[i]));
			free(envp[i]);
		}
	if (r && a->tmpfile[0]) {
		unlink(a->tmpfile);
		a->tmpfile[0] = 0;
	}
out_tok:
	braid_config_free_tokens(tok, ntok);
	return r;
}

static void finish(struct braid_authscript *a)
{
	a->pid = 0;
	if (a->tmpfile[0]) {
		unlink(a->tmpfile);
		a->tmpfile[0] = 0;
	}
}

int braid_authscript_poll(struct braid_authscript *a, int64_t now_ms)
{
	int st;
	pid_t p;

	if (!a->pid)
		return -EINVAL;
	p = waitpid(a->pid, &st, WNOHANG);
	if (p == a->pid) {
		a->status = st;
		finish(a);
		return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EACCES;
	}
	if (p < 0 && errno != EINTR) {
		finish(a);
		return -EACCES;
	}
	if (now_ms < a->deadline_ms)
		return -EAGAIN;
	braid_authscript_cancel(a);
	return -ETIMEDOUT;
}

void braid_authscript_cancel(struct braid_authscript *a)
{
	if (a->pid > 0) {
		kill(-a->pid, SIGKILL);
		kill(a->pid, SIGKILL);
		while (waitpid(a->pid, &a->status, 0) < 0 && errno == EINTR)
			;
	}
	finish(a);
}

int braid_authscript_exit_code(const struct braid_authscript *a)
{
	return WIFEXITED(a->status) ? WEXITSTATUS(a->status) : -1;
}
