// SPDX-License-Identifier: GPL-2.0-only
/*
 * dns.c - the tunnel's DNS settings into the host's resolver and out again
 * (dns.h): the backend choice, resolvconf, systemd-resolved through
 * resolvectl, and /etc/resolv.conf rewritten in place with a backup.
 */
#include "os/dns.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/log.h"

#define MARKER "# braidd "

bool braid_dns_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > BRAID_DNS_NAME_MAX || s[0] == '-' || s[0] == '~')
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		      ch == '-' || ch == '_' || ch == '.'))
			return false;
	}
	return true;
}

const char *braid_dns_backend_name(enum braid_dns_backend be)
{
	switch (be) {
	case BRAID_DNS_RESOLVCONF: return "resolvconf";
	case BRAID_DNS_RESOLVED: return "systemd-resolved";
	case BRAID_DNS_FILE: return BRAID_DNS_RESOLV_CONF;
	default: return "none";
	}
}

int braid_dns_format(const struct braid_dns_conf *c, const char *ifname, char *buf, size_t len)
{
	size_t off = 0;
	int n;

#define PUT(...)                                                                                   \
	do {                                                                                       \
		n = snprintf(buf + off, len - off, __VA_ARGS__);                                   \
		if (n < 0 || (size_t)n >= len - off)                                               \
			return -ENOSPC;                                                            \
		off += (size_t)n;                                                                  \
	} while (0)
	if (!len)
		return -ENOSPC;
	PUT(MARKER "%s: written by braidd for the tunnel, restored when it ends\n", ifname);
	if (c->n_search) {
		PUT("search");
		for (unsigned int i = 0; i < c->n_search; i++)
			PUT(" %s", c->search[i]);
		PUT("\n");
	}
	for (unsigned int i = 0; i < c->n_servers; i++)
		PUT("nameserver %s\n", c->servers[i]);
#undef PUT
	return (int)off;
}

/* ---- running resolvconf / resolvectl ---- */

static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[512];

	if (!path)
		path = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		if (n && n < sizeof(buf) - strlen(prog) - 2) {
			snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog);
			if (!access(buf, X_OK))
				return true;
		}
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

/* Run argv (PATH lookup) with in (may be NULL) on its stdin; 0 if it exited 0. */
static int run(char *const *argv, const char *in, bool quiet)
{
	int p[2] = { -1, -1 }, status, r;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(p[0]);
		close(p[1]);
		return r;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(p[0], 0);
		if (quiet && null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[0]);
	if (in) {
		size_t len = strlen(in), off = 0;
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);

		while (off < len) {
			ssize_t w = write(p[1], in + off, len - off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			off += (size_t)w;
		}
		signal(SIGPIPE, old);
	}
	close(p[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (!quiet)
		braid_err("DNS: '%s' %s %d", argv[0], WIFEXITED(status) ? "exited with status" :
			  "killed by signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return -ECHILD;
}

static void log_argv(const char *what, char *const *argv)
{
	char line[1024];
	size_t off = 0;

	line[0] = '\0';
	for (int i = 0; argv[i] && off < sizeof(line) - 1; i++) {
		int n = snprintf(line + off, sizeof(line) - off, "%s%s", i ? " " : "", argv[i]);

		if (n < 0)
			break;
		off += (size_t)n;
	}
	braid_info("DNS %s: %s", what, line);
}

static bool resolved_runs(void)
{
	char *argv[] = { "resolvectl", "status", NULL };

	if (!on_path("resolvectl"))
		return false;
	if (!access("/run/systemd/resolve/io.systemd.Resolve", F_OK))
		return true;
	return run(argv, NULL, true) == 0;
}

static int resolvconf_apply(struct braid_dns *d, const char *text)
{
	char rec[IF_NAMESIZE + 8];
	char *argv[] = { "resolvconf", "-a", rec, NULL };

	snprintf(rec, sizeof(rec), "%s.braidd", d->ifname);
	log_argv("apply", argv);
	return run(argv, text, false);
}

static int resolved_apply(struct braid_dns *d, const struct braid_dns_conf *c)
{
	char *argv[3 + 2 * BRAID_DNS_MAX_DOMAINS + BRAID_DNS_MAX_SERVERS + 2];
	char route[BRAID_DNS_MAX_DOMAINS][BRAID_DNS_NAME_MAX + 2];
	int argc = 0, r = 0;

	argv[argc++] = "resolvectl";
	argv[argc++] = "dns";
	argv[argc++] = d->ifname;
	for (unsigned int i = 0; i < c->n_servers; i++)
		argv[argc++] = (char *)c->servers[i];
	argv[argc] = NULL;
	if (c->n_servers) {
		log_argv("apply", argv);
		r = run(argv, NULL, false);
	}
	if (r || (!c->n_search && !c->n_route))
		return r;
	argc = 1;
	argv[argc++] = "domain";
	argv[argc++] = d->ifname;
	for (unsigned int i = 0; i < c->n_search; i++)
		argv[argc++] = (char *)c->search[i];
	for (unsigned int i = 0; i < c->n_route; i++) {
		snprintf(route[i], sizeof(route[i]), "~%s", c->route[i]);
		argv[argc++] = route[i];
	}
	argv[argc] = NULL;
	log_argv("apply", argv);
	return run(argv, NULL, false);
}

/* ---- /etc/resolv.conf in place ---- */

static int read_all(int fd, char **out, size_t *len)
{
	struct stat st;
	char *b;
	size_t off = 0;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size < 0 || st.st_size > BRAID_DNS_FILE_MAX)
		return -EFBIG;
	b = malloc((size_t)st.st_size + 1);
	if (!b)
		return -ENOMEM;
	while (off < (size_t)st.st_size) {
		ssize_t n = pread(fd, b + off, (size_t)st.st_size - off, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	b[off] = '\0';
	*out = b;
	*len = off;
	return 0;
}

static int write_all(int fd, const char *b, size_t len)
{
	size_t off = 0;

	while (off < len) {
		ssize_t n = pwrite(fd, b + off, len - off, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		off += (size_t)n;
	}
	if (ftruncate(fd, (off_t)len))
		return -errno;
	return fsync(fd) && errno != EINVAL ? -errno : 0;
}

static int write_file(const char *path, const char *b, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	int r;

	if (fd < 0)
		return -errno;
	r = write_all(fd, b, len);
	close(fd);
	return r;
}

/* A backup left by a killed braidd for this interface: put it back if the file is still ours. */
static void recover_stale(int fd, const char *cur, const char *backup, const char *ifname)
{
	char mark[64], *old = NULL;
	size_t old_len = 0;
	int bfd;

	snprintf(mark, sizeof(mark), MARKER "%s:", ifname);
	bfd = open(backup, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (bfd < 0)
		return;
	if (!strncmp(cur, mark, strlen(mark)) && !read_all(bfd, &old, &old_len) &&
	    !write_all(fd, old, old_len))
		braid_warn("DNS: %s still had braidd's settings for %s from an earlier run: restored "
			   "from %s", BRAID_DNS_RESOLV_CONF, ifname, backup);
	free(old);
	close(bfd);
	unlink(backup);
}

static int file_apply(struct braid_dns *d, const char *text)
{
	int fd = d->fd, r;

	if (!d->fd_open) {
		fd = open(BRAID_DNS_RESOLV_CONF, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			r = -errno;
			braid_err("DNS: cannot open %s: %s", BRAID_DNS_RESOLV_CONF, strerror(-r));
			return r;
		}
		d->fd = fd;
		d->fd_open = true;
	}
	snprintf(d->backup, sizeof(d->backup), "%s/resolv.conf.%s", BRAID_DNS_BACKUP_DIR, d->ifname);
	r = read_all(fd, &d->orig, &d->orig_len);
	if (!r && !access(d->backup, F_OK)) {
		recover_stale(fd, d->orig, d->backup, d->ifname);
		free(d->orig);
		d->orig = NULL;
		r = read_all(fd, &d->orig, &d->orig_len);
	}
	if (r) {
		braid_err("DNS: cannot read %s: %s", BRAID_DNS_RESOLV_CONF, strerror(-r));
		return r;
	}
	if (mkdir(BRAID_DNS_BACKUP_DIR, 0700) && errno != EEXIST)
		braid_warn("DNS: cannot create %s: %s (no backup file)", BRAID_DNS_BACKUP_DIR,
			   strerror(errno));
	else if ((r = write_file(d->backup, d->orig, d->orig_len)))
		braid_warn("DNS: cannot write the backup %s: %s", d->backup, strerror(-r));
	r = write_all(fd, text, strlen(text));
	if (r) {
		braid_err("DNS: cannot write %s: %s", BRAID_DNS_RESOLV_CONF, strerror(-r));
		write_all(fd, d->orig, d->orig_len);
		unlink(d->backup);
		free(d->orig);
		d->orig = NULL;
		return r;
	}
	return 0;
}

/* ---- apply / restore ---- */

int braid_dns_apply(struct braid_dns *d, const char *ifname, const struct braid_dns_conf *c)
{
	char text[4096];
	enum braid_dns_backend be;
	int r;

	braid_dns_restore(d);
	if (!c->n_servers && !c->n_search && !c->n_route)
		return 0;
	r = braid_dns_format(c, ifname, text, sizeof(text));
	if (r < 0)
		return r;
	snprintf(d->ifname, sizeof(d->ifname), "%s", ifname);
	be = on_path("resolvconf") ? BRAID_DNS_RESOLVCONF :
	     resolved_runs()      ? BRAID_DNS_RESOLVED :
				    BRAID_DNS_FILE;
	r = be == BRAID_DNS_RESOLVCONF ? resolvconf_apply(d, text) :
	    be == BRAID_DNS_RESOLVED   ? resolved_apply(d, c) :
					 file_apply(d, text);
	if (r) {
		braid_err("DNS: applying the pushed DNS settings through %s failed (%s): the host's "
			  "resolver is unchanged", braid_dns_backend_name(be), strerror(-r));
		if (be == BRAID_DNS_RESOLVED) {	/* the first resolvectl call may have worked */
			d->be = be;
			braid_dns_restore(d);
		}
		return r;
	}
	d->be = be;
	braid_info("DNS: %u server(s), %u search domain(s) applied through %s", c->n_servers,
		   c->n_search, braid_dns_backend_name(be));
	return 0;
}

void braid_dns_restore(struct braid_dns *d)
{
	char rec[IF_NAMESIZE + 8];
	char *del[] = { "resolvconf", "-d", rec, "-f", NULL };
	char *revert[] = { "resolvectl", "revert", d->ifname, NULL };
	int r = 0;

	switch (d->be) {
	case BRAID_DNS_RESOLVCONF:
		snprintf(rec, sizeof(rec), "%s.braidd", d->ifname);
		log_argv("restore", del);
		r = run(del, NULL, false);
		break;
	case BRAID_DNS_RESOLVED:
		log_argv("restore", revert);
		r = run(revert, NULL, false);
		break;
	case BRAID_DNS_FILE:
		r = write_all(d->fd, d->orig, d->orig_len);
		if (!r)
			unlink(d->backup);
		braid_info("DNS: %s restored (%zu bytes)%s", BRAID_DNS_RESOLV_CONF, d->orig_len,
			   r ? ": failed" : "");
		free(d->orig);
		d->orig = NULL;
		break;
	default:
		return;
	}
	if (r)
		braid_err("DNS: restoring the resolver through %s failed: %s",
			  braid_dns_backend_name(d->be), strerror(-r));
	d->be = BRAID_DNS_NONE;
}

void braid_dns_close(struct braid_dns *d)
{
	braid_dns_restore(d);
	if (d->fd_open)
		close(d->fd);
	d->fd_open = false;
}
