// SPDX-License-Identifier: GPL-2.0-only
/*
 * etcd.c - a small etcd v3 client over its JSON gateway (etcd.h). The
 * replies are read by http_resp.c and json_get.c, both bounded.
 */
#include "cluster/etcd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cluster/json_get.h"

int braid_etcd_init(struct braid_etcd *e, const char *url)
{
	const char *h, *colon;
	size_t hl;
	long port;
	char *end;

	memset(e, 0, sizeof(*e));
	if (strncmp(url, "http://", 7))
		return -EINVAL;
	h = url + 7;
	colon = strchr(h, ':');
	if (!colon || colon == h || (size_t)(colon - h) >= sizeof(e->host))
		return -EINVAL;
	hl = (size_t)(colon - h);
	memcpy(e->host, h, hl);
	e->host[hl] = 0;
	port = strtol(colon + 1, &end, 10);
	if (port < 1 || port > 65535 || (*end && strcmp(end, "/")))
		return -EINVAL;
	e->addr.sin_family = AF_INET;
	e->addr.sin_port = htons((uint16_t)port);
	if (!strcmp(e->host, "localhost"))
		e->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else if (inet_pton(AF_INET, e->host, &e->addr.sin_addr) != 1)
		return -EINVAL;
	return 0;
}

int braid_etcd_request(const struct braid_etcd *e, const char *path, const char *json, char *buf,
		       size_t cap, size_t *len)
{
	size_t jl = strlen(json);
	int n = snprintf(buf, cap,
			 "POST %s HTTP/1.1\r\nHost: %s:%u\r\nContent-Type: application/json\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
			 path, e->host, ntohs(e->addr.sin_port), jl, json);

	if (n < 0 || (size_t)n >= cap)
		return -EMSGSIZE;
	*len = (size_t)n;
	return 0;
}

int braid_etcd_reply(const char *buf, size_t len, char *body, size_t cap, size_t *body_len)
{
	int status, r = braid_http_resp_parse(buf, len, &status, body, cap, body_len);

	if (r == -EAGAIN)	/* at EOF: cut short */
		return -EBADMSG;
	if (r)
		return r;
	return status == 200 ? 0 : -EPROTO;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for ev on fd until the deadline: 0, -ETIMEDOUT, -errno. */
static int wait_fd(int fd, short ev, int64_t deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = ev };
		int64_t left = deadline - now_ms();
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)left);
		if (r > 0)
			return 0;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

int braid_etcd_call(const struct braid_etcd *e, const char *path, const char *json,
		    int timeout_ms, char *body, size_t cap, size_t *body_len)
{
	int64_t deadline = now_ms() + timeout_ms;
	char req[BRAID_ETCD_REQ_MAX];
	char *resp = NULL;
	size_t rl, off = 0, got = 0;
	int fd, r;

	r = braid_etcd_request(e, path, json, req, sizeof(req), &rl);
	if (r)
		return r;
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)&e->addr, sizeof(e->addr)) && errno != EINPROGRESS) {
		r = -errno;
		goto out;
	}
	while (off < rl) {
		ssize_t n;

		r = wait_fd(fd, POLLOUT, deadline);
		if (r)
			goto out;
		n = send(fd, req + off, rl - off, MSG_NOSIGNAL);
		if (n < 0 && errno != EAGAIN && errno != EINTR) {
			r = -errno;
			goto out;
		}
		if (n > 0)
			off += (size_t)n;
	}
	resp = malloc(BRAID_HTTP_RESP_MAX);
	if (!resp) {
		r = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t n;

		if (got == BRAID_HTTP_RESP_MAX) {
			r = -EMSGSIZE;
			goto out;
		}
		r = wait_fd(fd, POLLIN, deadline);
		if (r)
			goto out;
		n = recv(fd, resp + got, BRAID_HTTP_RESP_MAX - got, 0);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			r = -errno;
			goto out;
		}
		got += (size_t)n;
	}
	r = braid_etcd_reply(resp, got, body, cap, body_len);
out:
	free(resp);
	close(fd);
	return r;
}

/* base64 (standard alphabet, as etcd's gateway wants bytes) of s. */
static int b64(char *out, size_t cap, const char *s)
{
	size_t n = strlen(s);

	if (sodium_base64_encoded_len(n, sodium_base64_VARIANT_ORIGINAL) > cap)
		return -EMSGSIZE;
	sodium_bin2base64(out, cap, (const unsigned char *)s, n, sodium_base64_VARIANT_ORIGINAL);
	return 0;
}

static int fit(int n, size_t cap)
{
	return n < 0 || (size_t)n >= cap ? -EMSGSIZE : 0;
}

int braid_etcd_json_grant(char *buf, size_t cap, int ttl)
{
	return fit(snprintf(buf, cap, "{\"TTL\":\"%d\"}", ttl), cap);
}

int braid_etcd_json_id(char *buf, size_t cap, uint64_t lease)
{
	return fit(snprintf(buf, cap, "{\"ID\":\"%" PRIu64 "\"}", lease), cap);
}

int braid_etcd_json_create(char *buf, size_t cap, const char *key, const char *value,
			   uint64_t lease)
{
	char k[BRAID_ETCD_KEY_MAX * 2], v[512];

	if (b64(k, sizeof(k), key) || b64(v, sizeof(v), value))
		return -EMSGSIZE;
	return fit(snprintf(buf, cap,
			    "{\"compare\":[{\"key\":\"%s\",\"target\":\"CREATE\",\"result\":\"EQUAL\","
			    "\"create_revision\":\"0\"}],\"success\":[{\"request_put\":{\"key\":\"%s\","
			    "\"value\":\"%s\",\"lease\":\"%" PRIu64 "\"}}]}",
			    k, k, v, lease), cap);
}

int braid_etcd_json_delete(char *buf, size_t cap, const char *key)
{
	char k[BRAID_ETCD_KEY_MAX * 2];

	if (b64(k, sizeof(k), key))
		return -EMSGSIZE;
	return fit(snprintf(buf, cap, "{\"key\":\"%s\"}", k), cap);
}

int braid_etcd_json_range(char *buf, size_t cap, const char *key)
{
	return braid_etcd_json_delete(buf, cap, key);	/* the same body: {"key": ...} */
}

#define BODY_MAX 4096

int braid_etcd_grant(const struct braid_etcd *e, int ttl, int timeout_ms, uint64_t *lease)
{
	char j[64], body[BODY_MAX];
	unsigned long long id;
	size_t bl;
	int r = braid_etcd_json_grant(j, sizeof(j), ttl);

	r = r ?: braid_etcd_call(e, "/v3/lease/grant", j, timeout_ms, body, sizeof(body), &bl);
	r = r ?: braid_json_get_u64(body, bl, "ID", &id);
	if (r)
		return r == -ENOENT ? -EBADMSG : r;
	*lease = id;
	return 0;
}

int braid_etcd_create(const struct braid_etcd *e, const char *key, const char *value,
		      uint64_t lease, int timeout_ms, bool *created)
{
	char j[BRAID_ETCD_REQ_MAX - 256], body[BODY_MAX];
	size_t bl;
	int r = braid_etcd_json_create(j, sizeof(j), key, value, lease);

	r = r ?: braid_etcd_call(e, "/v3/kv/txn", j, timeout_ms, body, sizeof(body), &bl);
	return r ?: braid_etcd_txn_created(body, bl, created);
}

int braid_etcd_txn_created(const char *body, size_t len, bool *created)
{
	char v[8];
	int r = braid_json_get(body, len, "succeeded", v, sizeof(v));	/* false is omitted */

	if (r && r != -ENOENT)
		return r;
	*created = !r && !strcmp(v, "true");
	return 0;
}

int braid_etcd_delete(const struct braid_etcd *e, const char *key, int timeout_ms)
{
	char j[BRAID_ETCD_KEY_MAX * 2 + 32], body[BODY_MAX];
	size_t bl;
	int r = braid_etcd_json_delete(j, sizeof(j), key);

	return r ?: braid_etcd_call(e, "/v3/kv/deleterange", j, timeout_ms, body, sizeof(body), &bl);
}

int braid_etcd_revoke(const struct braid_etcd *e, uint64_t lease, int timeout_ms)
{
	char j[64], body[BODY_MAX];
	size_t bl;
	int r = braid_etcd_json_id(j, sizeof(j), lease);

	return r ?: braid_etcd_call(e, "/v3/lease/revoke", j, timeout_ms, body, sizeof(body), &bl);
}

int braid_etcd_range_value(const char *body, size_t len, char *val, size_t cap, size_t *vlen,
			   bool *found)
{
	unsigned long long count = 0;
	char *b64v;
	size_t b64cap = cap / 3 * 4 + 8, n = 0;
	int r = braid_json_get_u64(body, len, "count", &count);

	if (r && r != -ENOENT)	/* a count of zero is omitted */
		return r;
	*found = false;
	*vlen = 0;
	if (!cap)
		return -EMSGSIZE;
	val[0] = 0;
	if (!count)
		return 0;
	if (count > 1)
		return -EBADMSG;	/* one key was asked for */
	b64v = malloc(b64cap);
	if (!b64v)
		return -ENOMEM;
	r = braid_json_get(body, len, "value", b64v, b64cap);
	if (r == -ENOENT) {	/* an empty value is omitted */
		r = 0;
		b64v[0] = 0;
	}
	if (!r && sodium_base642bin((unsigned char *)val, cap - 1, b64v, strlen(b64v), NULL, &n,
				    NULL, sodium_base64_VARIANT_ORIGINAL))
		r = strlen(b64v) / 4 * 3 >= cap - 1 ? -EMSGSIZE : -EBADMSG;
	free(b64v);
	if (r)
		return r;
	if (memchr(val, 0, n))
		return -EBADMSG;
	val[n] = 0;
	*vlen = n;
	*found = true;
	return 0;
}

int braid_etcd_get(const struct braid_etcd *e, const char *key, int timeout_ms, char *val,
		   size_t cap, size_t *vlen, bool *found)
{
	char j[BRAID_ETCD_KEY_MAX * 2 + 32];
	size_t bcap = cap / 3 * 4 + 1024, bl;
	char *body = malloc(bcap);
	int r;

	if (!body)
		return -ENOMEM;
	r = braid_etcd_json_range(j, sizeof(j), key);
	r = r ?: braid_etcd_call(e, "/v3/kv/range", j, timeout_ms, body, bcap, &bl);
	r = r ?: braid_etcd_range_value(body, bl, val, cap, vlen, found);
	free(body);
	return r;
}

int braid_etcd_keepalive_ttl(const char *body, size_t len, long *ttl)
{
	unsigned long long t;
	int r = braid_json_get_u64(body, len, "TTL", &t);

	if (r == -ENOENT) {	/* zero is omitted: the lease is gone */
		*ttl = 0;
		return 0;
	}
	if (r)
		return r;
	*ttl = t > 1000000 ? 1000000 : (long)t;
	return 0;
}
