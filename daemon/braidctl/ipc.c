// SPDX-License-Identifier: GPL-2.0-only
/*
 * ipc.c - one request over braidd's control socket.
 */
#include "ipc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "braidctl.h"

#define REPLY_MAX (4u << 20)

static int send_all(int fd, const char *b, size_t len)
{
	while (len) {
		ssize_t n = send(fd, b, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

int ipc_request(const char *path, const char *request, int *ok, char **payload)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 10 };
	size_t len = 0, cap = 4096;
	char *buf = NULL, *end, *nl;
	int fd, r;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "%s: socket path '%s' too long\n", braidctl_prog, path);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		r = -errno;
		fprintf(stderr, "%s: cannot connect to %s: %s (is braidd running with "
			"'control-socket %s'?)\n", braidctl_prog, path, strerror(-r), path);
		goto out;
	}
	r = send_all(fd, request, strlen(request));
	if (!r)
		r = send_all(fd, "\n", 1);
	if (r) {
		fprintf(stderr, "%s: cannot send to %s: %s\n", braidctl_prog, path, strerror(-r));
		goto out;
	}
	shutdown(fd, SHUT_WR);
	buf = malloc(cap);
	if (!buf) {
		r = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *nb;

			if (cap >= REPLY_MAX) {
				fprintf(stderr, "%s: reply from %s too large\n", braidctl_prog, path);
				r = -EMSGSIZE;
				goto out;
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				r = -ENOMEM;
				goto out;
			}
			buf = nb;
			cap *= 2;
		}
		n = recv(fd, buf + len, cap - 1 - len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			fprintf(stderr, "%s: reading from %s: %s\n", braidctl_prog, path,
				strerror(-r));
			goto out;
		}
		len += (size_t)n;
		buf[len] = '\0';
		end = strstr(buf, "\n\n");
		if (end || n == 0)
			break;
	}
	end = strstr(buf, "\n\n");
	nl = strchr(buf, '\n');
	if (!end || !nl) {
		fprintf(stderr, "%s: incomplete reply from %s\n", braidctl_prog, path);
		r = -EPROTO;
		goto out;
	}
	end[1] = '\0';	/* payload lines keep their LF */
	if (!strncmp(buf, "ok\n", 3)) {
		*ok = 1;
		*payload = strdup(buf + 3);
	} else if (!strncmp(buf, "error: ", 7)) {
		*ok = 0;
		*nl = '\0';
		*payload = strdup(buf + 7);
	} else {
		fprintf(stderr, "%s: unexpected reply from %s: '%.*s'\n", braidctl_prog, path,
			(int)(nl - buf), buf);
		r = -EPROTO;
		goto out;
	}
	r = *payload ? 0 : -ENOMEM;
out:
	free(buf);
	close(fd);
	return r;
}
