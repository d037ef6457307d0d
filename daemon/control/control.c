// SPDX-License-Identifier: GPL-2.0-only
/*
 * control.c - control socket server (see control.h).
 */
#include "control/control.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/log.h"

struct client {
	struct braid_control *c;
	int fd;
	ev_io r, w;
	ev_timer idle;
	char in[BRAID_CTL_LINE_MAX];
	size_t in_len;
	char *out;		/* reply being written */
	size_t out_len, out_off;
	bool closing;		/* close once out is written */
	bool eof;		/* the peer shut its side: answer what is read, then close */
};

struct braid_control {
	struct ev_loop *loop;
	struct braid_control_ops ops;
	char *path;
	int fd;
	ev_io accept_w;
	struct client *cl[BRAID_CONTROL_MAX_CLIENTS];
	unsigned long refused;
};

/* A payload command: "ok" and what op wrote, or the error alone. */
static void payload_reply(FILE *f, int r, char *buf, size_t len, const char *err)
{
	if (r) {
		fprintf(f, "error: %s\n\n", err[0] ? err : strerror(-r));
	} else {
		fputs("ok\n", f);
		fwrite(buf, 1, len, f);
		fputc('\n', f);
	}
	free(buf);
}

/* NULL op: the role has no such thing ("... here"). */
static int absent(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
	return -EOPNOTSUPP;
}

void braid_control_answer(const struct braid_control_ops *ops, const char *line, size_t len,
			  FILE *f)
{
	struct braid_ctl_req req;
	char err[BRAID_CTL_ERR_MAX], *buf = NULL;
	const char *who;
	size_t blen = 0;
	unsigned n = 0;
	FILE *pf;
	int r;

	err[0] = '\0';
	if (braid_ctl_parse(line, len, &req, err, sizeof(err))) {
		fprintf(f, "error: %s\n\n", err);
		return;
	}
	who = req.client[0] ? req.client : NULL;
	switch (req.cmd) {
	case BRAID_CTL_STATUS:
		fputs("ok\n", f);
		ops->status(ops->user, f);	/* one line ending in LF */
		fputc('\n', f);
		return;
	case BRAID_CTL_VERSION:
		fprintf(f, "ok\nprotocol %d\nbraidd %s\n\n", BRAID_CTL_PROTO_VERSION,
			ops->version ? ops->version : "?");
		return;
	case BRAID_CTL_PATHS:
	case BRAID_CTL_CLIENTS:
		pf = open_memstream(&buf, &blen);
		if (!pf) {
			fputs("error: out of memory\n\n", f);
			return;
		}
		if (req.cmd == BRAID_CTL_PATHS)
			r = ops->paths ? ops->paths(ops->user, who, pf, err, sizeof(err)) :
				absent(err, sizeof(err), "paths: not available here");
		else
			r = ops->clients ? ops->clients(ops->user, pf, err, sizeof(err)) :
				absent(err, sizeof(err), "clients: no clients here (not a gateway)");
		if (fclose(pf) && !r)
			r = -ENOMEM;
		payload_reply(f, r, buf, blen, err);
		return;
	case BRAID_CTL_KILL:
		r = ops->kill ? ops->kill(ops->user, who, &n, err, sizeof(err)) :
			absent(err, sizeof(err), "kill: no clients here (not a gateway)");
		if (!r) {
			fprintf(f, "ok\nkilled %u\n\n", n);
			return;
		}
		break;
	case BRAID_CTL_SET_SCHED:
		if (who)
			r = ops->client_set_sched ?
				ops->client_set_sched(ops->user, who, req.sched, err, sizeof(err)) :
				absent(err, sizeof(err), "set client: no clients here (not a gateway)");
		else
			r = ops->set_sched(ops->user, req.sched, err, sizeof(err));
		break;
	case BRAID_CTL_SET_PATH:
		if (who)
			r = ops->client_set_path ?
				ops->client_set_path(ops->user, who, req.path, req.op, req.cap_bps,
						     err, sizeof(err)) :
				absent(err, sizeof(err), "set client: no clients here (not a gateway)");
		else
			r = ops->set_path(ops->user, req.path, req.op, req.cap_bps, err,
					  sizeof(err));
		break;
	default:
		r = -EINVAL;
		snprintf(err, sizeof(err), "internal: unhandled command");
		break;
	}
	if (r)
		fprintf(f, "error: %s\n\n", err[0] ? err : strerror(-r));
	else
		fputs("ok\n\n", f);
}

static void client_free(struct client *k)
{
	struct braid_control *c = k->c;

	ev_io_stop(c->loop, &k->r);
	ev_io_stop(c->loop, &k->w);
	ev_timer_stop(c->loop, &k->idle);
	close(k->fd);
	for (int i = 0; i < BRAID_CONTROL_MAX_CLIENTS; i++)
		if (c->cl[i] == k)
			c->cl[i] = NULL;
	free(k->out);
	free(k);
}

/* Write what is pending; true if the client was freed. */
static bool flush_out(struct client *k);

/* Answer the first complete line in k->in, if any. */
static void next_request(struct client *k)
{
	struct braid_control *c = k->c;
	char *nl;
	size_t ll;
	FILE *f;

	if (k->out || k->closing)
		return;
	nl = memchr(k->in, '\n', k->in_len);
	if (!nl) {
		if (k->in_len == sizeof(k->in)) {
			/* no LF in a full buffer: refuse, close after the reply */
			if (asprintf(&k->out, "error: request line too long (max %d bytes)\n\n",
				     BRAID_CTL_LINE_MAX - 1) < 0) {
				k->out = NULL;
				client_free(k);
				return;
			}
			k->out_len = strlen(k->out);
			k->out_off = 0;
			k->closing = true;
		} else if (k->eof) {
			k->closing = true;	/* an unterminated tail is dropped */
			if (!k->out) {
				client_free(k);
				return;
			}
		}
		goto send;
	}
	ll = (size_t)(nl - k->in);
	f = open_memstream(&k->out, &k->out_len);
	if (!f) {
		client_free(k);
		return;
	}
	braid_control_answer(&c->ops, k->in, ll, f);
	if (fclose(f) || !k->out) {
		free(k->out);
		k->out = NULL;
		client_free(k);
		return;
	}
	if (k->out_len > BRAID_CONTROL_REPLY_MAX) {
		free(k->out);
		k->out = strdup("error: reply too large\n\n");
		if (!k->out) {
			client_free(k);
			return;
		}
		k->out_len = strlen(k->out);
	}
	k->out_off = 0;
	memmove(k->in, nl + 1, k->in_len - ll - 1);
	k->in_len -= ll + 1;
send:
	if (k->out) {
		ev_io_stop(c->loop, &k->r);	/* one request at a time */
		flush_out(k);
	}
}

static bool flush_out(struct client *k)
{
	struct braid_control *c = k->c;

	while (k->out_off < k->out_len) {
		ssize_t n = send(k->fd, k->out + k->out_off, k->out_len - k->out_off, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				ev_io_start(c->loop, &k->w);
				return false;
			}
			client_free(k);	/* peer gone */
			return true;
		}
		k->out_off += (size_t)n;
	}
	ev_io_stop(c->loop, &k->w);
	free(k->out);
	k->out = NULL;
	k->out_len = k->out_off = 0;
	if (k->closing) {
		client_free(k);
		return true;
	}
	/* more pipelined requests may be buffered already */
	if (memchr(k->in, '\n', k->in_len) || k->eof) {
		next_request(k);
		return false;
	}
	ev_io_start(c->loop, &k->r);
	return false;
}

static void client_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct client *k = w->data;
	ssize_t n;

	(void)revents;
	ev_timer_again(loop, &k->idle);
	n = recv(k->fd, k->in + k->in_len, sizeof(k->in) - k->in_len, 0);
	if (n < 0) {
		if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		client_free(k);
		return;
	}
	if (n == 0) {
		k->eof = true;
		ev_io_stop(loop, &k->r);
	}
	k->in_len += (size_t)n;
	next_request(k);
}

static void client_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct client *k = w->data;

	(void)revents;
	ev_timer_again(loop, &k->idle);
	flush_out(k);
}

static void client_idle_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	client_free(w->data);
}

static void accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_control *c = w->data;
	struct client *k;
	int fd, slot;

	(void)revents;
	for (;;) {
		fd = accept4(c->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
			    errno != ECONNABORTED)
				braid_warn("control: accept: %s", strerror(errno));
			return;
		}
		for (slot = 0; slot < BRAID_CONTROL_MAX_CLIENTS && c->cl[slot]; slot++)
			;
		k = slot < BRAID_CONTROL_MAX_CLIENTS ? calloc(1, sizeof(*k)) : NULL;
		if (!k) {
			static const char busy[] = "error: too many control clients\n\n";

			if (send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
				(void)0;	/* best effort */
			close(fd);
			if (!c->refused++)
				braid_warn("control: too many clients (max %d); refusing",
					   BRAID_CONTROL_MAX_CLIENTS);
			continue;
		}
		k->c = c;
		k->fd = fd;
		ev_io_init(&k->r, client_read_cb, fd, EV_READ);
		ev_io_init(&k->w, client_write_cb, fd, EV_WRITE);
		ev_init(&k->idle, client_idle_cb);
		k->idle.repeat = BRAID_CONTROL_IDLE_S;
		k->r.data = k->w.data = k->idle.data = k;
		c->cl[slot] = k;
		ev_io_start(loop, &k->r);
		ev_timer_again(loop, &k->idle);
	}
}

/* A socket file at path: replace it if nobody listens, -EADDRINUSE if a daemon does. */
static int clear_stale(const struct sockaddr_un *sa)
{
	struct stat st;
	int fd, r;

	if (lstat(sa->sun_path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	r = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	close(fd);
	if (!r)
		return -EADDRINUSE;
	if (unlink(sa->sun_path) && errno != ENOENT)
		return -errno;
	return 0;
}

int braid_control_new(struct braid_control **out, struct ev_loop *loop, const char *path,
		      const struct braid_control_ops *ops)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct braid_control *c;
	mode_t old;
	int r;

	if (!ops->status || !ops->set_sched || !ops->set_path)
		return -EINVAL;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		braid_err("control: socket path '%s' too long (max %zu bytes)", path,
			  sizeof(sa.sun_path) - 1);
		return -ENAMETOOLONG;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->loop = loop;
	c->ops = *ops;
	c->fd = -1;
	c->path = strdup(path);
	if (!c->path) {
		r = -ENOMEM;
		goto err_free;
	}
	r = clear_stale(&sa);
	if (r) {
		braid_err("control: cannot use '%s': %s", path,
			  r == -EADDRINUSE ? "another daemon is listening on it"
			  : r == -EEXIST ? "it exists and is not a socket" : strerror(-r));
		goto err_free;
	}
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		r = -errno;
		braid_err("control: socket: %s", strerror(-r));
		goto err_free;
	}
	old = umask(0177);	/* the socket is created 0600, no window */
	r = bind(c->fd, (struct sockaddr *)&sa, sizeof(sa)) ? -errno : 0;
	umask(old);
	if (r) {
		braid_err("control: cannot bind '%s': %s", path, strerror(-r));
		goto err_close;
	}
	if (chmod(path, 0600) || listen(c->fd, 8)) {
		r = -errno;
		braid_err("control: cannot listen on '%s': %s", path, strerror(-r));
		goto err_unlink;
	}
	ev_io_init(&c->accept_w, accept_cb, c->fd, EV_READ);
	c->accept_w.data = c;
	ev_io_start(loop, &c->accept_w);
	braid_info("control: listening on %s (protocol %d)", path, BRAID_CTL_PROTO_VERSION);
	*out = c;
	return 0;

err_unlink:
	unlink(path);
err_close:
	close(c->fd);
err_free:
	free(c->path);
	free(c);
	return r;
}

void braid_control_free(struct braid_control *c)
{
	if (!c)
		return;
	for (int i = 0; i < BRAID_CONTROL_MAX_CLIENTS; i++)
		if (c->cl[i])
			client_free(c->cl[i]);
	ev_io_stop(c->loop, &c->accept_w);
	close(c->fd);
	unlink(c->path);
	free(c->path);
	free(c);
}
