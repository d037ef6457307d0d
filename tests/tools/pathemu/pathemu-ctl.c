// SPDX-License-Identifier: GPL-2.0-only
/*
 * pathemu-ctl.c - send one control command to a pathemu and print its reply.
 *   pathemu-ctl CTLSOCK CMD [ARGS...]
 * Exit 0 on "ok ...", 1 on "error: ...", 2 on usage or communication failure.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MSG_MAX 2048
#define TIMEOUT_MS 3000

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char req[MSG_MAX], reply[MSG_MAX];
	struct pollfd pfd;
	size_t len = 0, l;
	ssize_t n;
	int fd, i, ret = 2;

	if (argc < 3) {
		fprintf(stderr, "usage: pathemu-ctl CTLSOCK CMD [ARGS...]\n"
				"  CMD: set key=value... | down | blackhole | up | stats | quit\n");
		return 2;
	}
	if (strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "pathemu-ctl: socket path too long: '%s'\n", argv[1]);
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);
	for (i = 2; i < argc; i++) {
		l = strlen(argv[i]);
		if (len + l + 2 > sizeof(req)) {
			fprintf(stderr, "pathemu-ctl: command too long\n");
			return 2;
		}
		if (len)
			req[len++] = ' ';
		memcpy(req + len, argv[i], l);
		len += l;
	}
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		perror("pathemu-ctl: socket");
		return 2;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "pathemu-ctl: cannot reach '%s': %s\n", argv[1], strerror(errno));
		goto out;
	}
	if (send(fd, req, len, 0) < 0) {
		fprintf(stderr, "pathemu-ctl: send to '%s': %s\n", argv[1], strerror(errno));
		goto out;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, TIMEOUT_MS) <= 0) {
		fprintf(stderr, "pathemu-ctl: no reply from '%s' within %d ms\n", argv[1], TIMEOUT_MS);
		goto out;
	}
	n = recv(fd, reply, sizeof(reply) - 1, 0);
	if (n <= 0) {
		fprintf(stderr, "pathemu-ctl: receive: %s\n", n ? strerror(errno) : "connection closed");
		goto out;
	}
	reply[n] = '\0';
	printf("%s\n", reply);
	ret = strncmp(reply, "error:", 6) ? 0 : 1;
out:
	close(fd);
	return ret;
}
