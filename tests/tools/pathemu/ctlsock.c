// SPDX-License-Identifier: GPL-2.0-only
/* ctlsock.c - UNIX seqpacket control socket of pathemu. */
#include "ctlsock.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int fill_addr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	strcpy(sa->sun_path, path);
	return 0;
}

int ctlsock_open(const char *path)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd, probe, rc;

	rc = fill_addr(path, &sa);
	if (rc)
		return rc;
	if (lstat(path, &st) == 0) {
		if (!S_ISSOCK(st.st_mode))
			return -EEXIST;
		/* a stale socket is removed; a live one belongs to another emulator */
		probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (probe < 0)
			return -errno;
		rc = connect(probe, (struct sockaddr *)&sa, sizeof(sa));
		close(probe);
		if (rc == 0)
			return -EADDRINUSE;
		if (unlink(path) < 0)
			return -errno;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		goto err_close;
	}
	if (chmod(path, 0600) < 0 || listen(fd, 16) < 0) {
		rc = -errno;
		goto err_unlink;
	}
	return fd;

err_unlink:
	unlink(path);
err_close:
	close(fd);
	return rc;
}

int ctlsock_accept(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	if (fd < 0)
		return errno == EAGAIN || errno == EINTR || errno == ECONNABORTED ? 0 : -errno;
	return fd;
}

int ctlsock_recv(int cfd, char *text, int size)
{
	ssize_t n = recv(cfd, text, (size_t)size - 1, MSG_DONTWAIT);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (n == 0)
		return -ECONNRESET;
	text[n] = '\0';
	return 1;
}

int ctlsock_send(int cfd, const char *reply)
{
	if (send(cfd, reply, strlen(reply), MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		return -errno;
	return 0;
}

void ctlsock_close(int lfd, const char *path)
{
	if (lfd >= 0)
		close(lfd);
	if (path)
		unlink(path);
}
