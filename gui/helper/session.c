// SPDX-License-Identifier: GPL-2.0-only
/*
 * session.c - starting, tracking and reaping the braidd processes of
 * braid-helper. Each session gets RUNDIR/ID/ (root, 0711) holding profile.conf
 * (root, 0600: the user's checked profile plus the helper's own management
 * lines), braidd.log (root, 0600) and mgmt.sock (braidd makes it 0666 and
 * accepts only management-client-user = the caller, by peer credentials).
 */
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct bh_config *cfg;
static sd_event *loop;
static bh_session_ended_fn on_ended;
static void *on_ended_arg;
static struct bh_session *sessions;
static unsigned long next_id = 1;

void bh_sessions_init(const struct bh_config *c, sd_event *ev, bh_session_ended_fn ended, void *arg)
{
	cfg = c;
	loop = ev;
	on_ended = ended;
	on_ended_arg = arg;
}

struct bh_session *bh_session_first(void)
{
	return sessions;
}

struct bh_session *bh_session_find(const char *id)
{
	for (struct bh_session *s = sessions; s; s = s->next)
		if (!strcmp(s->id, id))
			return s;
	return NULL;
}

unsigned bh_sessions_of(uid_t uid)
{
	unsigned n = 0;

	for (struct bh_session *s = sessions; s; s = s->next)
		n += s->uid == uid;
	return n;
}

static void rm_session_dir(const struct bh_session *s)
{
	static const char *const files[] = { "profile.conf", "braidd.log", "mgmt.sock" };
	char p[320];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", s->dir, files[i]);
		unlink(p);
	}
	rmdir(s->dir);
}

static void unlink_session(struct bh_session *s)
{
	for (struct bh_session **pp = &sessions; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	sd_event_source_unref(s->child);
	rm_session_dir(s);
	free(s);
}

static int on_child(sd_event_source *src, const siginfo_t *si, void *userdata)
{
	struct bh_session *s = userdata;
	int status = si->si_code == CLD_EXITED ? si->si_status : 128 + si->si_status;

	(void)src;
	fprintf(stderr, "braid-helper: session %s (uid %u): braidd %d ended, status %d\n", s->id,
		(unsigned)s->uid, (int)s->pid, status);
	if (on_ended)
		on_ended(s, status, on_ended_arg);
	unlink_session(s);
	return 0;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -errno;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int write_profile(const struct bh_session *s, const char *user, const char *profile, size_t len)
{
	char path[320], tail[700];
	int fd, rc;

	snprintf(path, sizeof(path), "%s/profile.conf", s->dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	snprintf(tail, sizeof(tail),
		 "\n# added by braid-helper: the management socket only %s may open\n"
		 "management %s unix\nmanagement-client-user %s\nmanagement-hold\n"
		 "management-query-passwords\n", user, s->sock, user);
	rc = write_all(fd, profile, len);
	if (!rc)
		rc = write_all(fd, tail, strlen(tail));
	close(fd);
	return rc;
}

/* braidd's last "[error]" log line (else its last line), for the error when braidd exits at once. */
static void last_log_line(const struct bh_session *s, char *why, size_t whylen)
{
	char path[320], buf[4096], *pick = NULL;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/braidd.log", s->dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	off_t end = lseek(fd, 0, SEEK_END);
	lseek(fd, end > (off_t)sizeof(buf) - 1 ? end - (off_t)sizeof(buf) + 1 : 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	for (char *l = strtok(buf, "\r\n"); l; l = strtok(NULL, "\r\n")) {
		if (strstr(l, "[error]") || !pick || !strstr(pick, "[error]"))
			pick = l;
	}
	if (pick)
		snprintf(why, whylen, "braidd exited at once: %s", pick);
}

static void child_exec(const struct bh_session *s)
{
	char conf[320], log[320];
	int fd;

	snprintf(conf, sizeof(conf), "%s/profile.conf", s->dir);
	snprintf(log, sizeof(log), "%s/braidd.log", s->dir);
	setsid();
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, 0);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	if (chdir(s->dir))
		_exit(127);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execl(cfg->braidd, "braidd", "--config", conf, (char *)NULL);
	dprintf(2, "braid-helper: exec %s: %s\n", cfg->braidd, strerror(errno));
	_exit(127);
}

static int wait_socket(struct bh_session *s, char *why, size_t whylen)
{
	struct timespec step = { 0, 50 * 1000 * 1000 };
	struct stat st;
	int status;

	for (int i = 0; i < 200; i++) {	/* 10 s */
		if (!lstat(s->sock, &st) && S_ISSOCK(st.st_mode))
			return 0;
		pid_t r = waitpid(s->pid, &status, WNOHANG);
		if (r == s->pid) {
			snprintf(why, whylen, "braidd exited at once (status %d)",
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
			last_log_line(s, why, whylen);
			return -ECHILD;
		}
		nanosleep(&step, NULL);
	}
	snprintf(why, whylen, "braidd made no management socket within 10 s");
	kill(s->pid, SIGKILL);
	waitpid(s->pid, &status, 0);
	return -ETIMEDOUT;
}

int bh_session_start(uid_t uid, const char *name, const char *profile, size_t len,
		     struct bh_session **out, char *why, size_t whylen)
{
	struct passwd *pw = getpwuid(uid);
	struct bh_session *s;
	int rc;

	if (!pw) {
		snprintf(why, whylen, "uid %u has no user name (management-client-user needs one)", (unsigned)uid);
		return -ENOENT;
	}
	if (mkdir(cfg->rundir, 0711) && errno != EEXIST) {
		snprintf(why, whylen, "mkdir %s: %s", cfg->rundir, strerror(errno));
		return -errno;
	}
	chmod(cfg->rundir, 0711);	/* the helper's umask is 0077: users must pass through to mgmt.sock */
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->uid = uid;
	snprintf(s->id, sizeof(s->id), "%lu", next_id++);
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->dir, sizeof(s->dir), "%s/%s", cfg->rundir, s->id);
	snprintf(s->sock, sizeof(s->sock), "%s/mgmt.sock", s->dir);
	if (mkdir(s->dir, 0711)) {
		rc = -errno;
		snprintf(why, whylen, "mkdir %s: %s", s->dir, strerror(errno));
		free(s);
		return rc;
	}
	chmod(s->dir, 0711);	/* whatever the umask: the user must reach mgmt.sock */
	rc = write_profile(s, pw->pw_name, profile, len);
	if (rc) {
		snprintf(why, whylen, "writing the profile: %s", strerror(-rc));
		rm_session_dir(s);
		free(s);
		return rc;
	}
	s->pid = fork();
	if (s->pid < 0) {
		rc = -errno;
		rm_session_dir(s);
		free(s);
		return rc;
	}
	if (s->pid == 0)
		child_exec(s);
	rc = wait_socket(s, why, whylen);
	if (!rc)
		rc = sd_event_add_child(loop, &s->child, s->pid, WEXITED, on_child, s);
	if (rc) {
		if (rc != -ECHILD && rc != -ETIMEDOUT) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, NULL, 0);
		}
		rm_session_dir(s);
		free(s);
		return rc;
	}
	s->next = sessions;
	sessions = s;
	fprintf(stderr, "braid-helper: session %s for %s (uid %u): braidd %d, %s\n", s->id, pw->pw_name,
		(unsigned)uid, (int)s->pid, s->sock);
	*out = s;
	return 0;
}

int bh_session_stop(struct bh_session *s)
{
	return kill(s->pid, SIGTERM) ? -errno : 0;
}

void bh_sessions_stop_all(void)
{
	struct timespec step = { 0, 50 * 1000 * 1000 };

	for (struct bh_session *s = sessions; s; s = s->next)
		kill(s->pid, SIGTERM);
	while (sessions) {
		struct bh_session *s = sessions;
		int i;
		for (i = 0; i < 100 && waitpid(s->pid, NULL, WNOHANG) == 0; i++)
			nanosleep(&step, NULL);
		if (i == 100) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, NULL, 0);
		}
		unlink_session(s);
	}
}
