/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * etcd.h - a small etcd v3 client over its JSON gateway (etcd.c): plain
 * HTTP/1.1 POSTs to /v3/lease/grant, /v3/lease/keepalive, /v3/lease/revoke,
 * /v3/kv/range, /v3/kv/txn and /v3/kv/deleterange, keys and values base64. One request
 * per connection (`Connection: close`), so a reply ends at EOF.
 *
 * Two ways to call: braid_etcd_call() blocks (bounded by a timeout; used at
 * start and for the short requests of a claim, against a store on a local or
 * private network), and the builders + braid_etcd_reply() for callers that
 * drive the socket from an event loop (cluster.c's keepalive).
 */
#ifndef BRAID_ETCD_H
#define BRAID_ETCD_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cluster/http_resp.h"

#define BRAID_ETCD_REQ_MAX 2048
#define BRAID_ETCD_KEY_MAX 160

struct braid_etcd {
	struct sockaddr_in addr;
	char host[64];			/* for the Host header */
};

/* From "http://HOST:PORT" (as options_cluster.c checked it). -EINVAL. */
int braid_etcd_init(struct braid_etcd *e, const char *url);

/* A POST of json to path: the whole request into buf. -EMSGSIZE. */
int braid_etcd_request(const struct braid_etcd *e, const char *path, const char *json, char *buf,
		       size_t cap, size_t *len);

/*
 * The reply in buf[0..len) (read to EOF): its status and body. A status
 * other than 200 gives -EPROTO (the body, etcd's error, still in body).
 */
int braid_etcd_reply(const char *buf, size_t len, char *body, size_t cap, size_t *body_len);

/* Blocking: connect, send, read to EOF; everything within timeout_ms. */
int braid_etcd_call(const struct braid_etcd *e, const char *path, const char *json,
		    int timeout_ms, char *body, size_t cap, size_t *body_len);

/* The JSON bodies; -EMSGSIZE if they do not fit. */
int braid_etcd_json_grant(char *buf, size_t cap, int ttl);
int braid_etcd_json_id(char *buf, size_t cap, uint64_t lease);	/* keepalive, revoke */
/* txn: create key=value under lease only if the key does not exist. */
int braid_etcd_json_create(char *buf, size_t cap, const char *key, const char *value,
			   uint64_t lease);
int braid_etcd_json_delete(char *buf, size_t cap, const char *key);
/* range of one key (its value, if it exists). */
int braid_etcd_json_range(char *buf, size_t cap, const char *key);

/* Requests that block (braid_etcd_call) with their answers. */
int braid_etcd_grant(const struct braid_etcd *e, int ttl, int timeout_ms, uint64_t *lease);
/* 0 and *created (false: another holder has the key). */
int braid_etcd_create(const struct braid_etcd *e, const char *key, const char *value,
		      uint64_t lease, int timeout_ms, bool *created);
int braid_etcd_delete(const struct braid_etcd *e, const char *key, int timeout_ms);
int braid_etcd_revoke(const struct braid_etcd *e, uint64_t lease, int timeout_ms);

/*
 * Blocking read of one key: 0 and *found; when found, its value decoded into
 * val[0..cap) with a NUL (*vlen bytes; a value with a NUL byte is -EBADMSG).
 * -EMSGSIZE if the value does not fit.
 */
int braid_etcd_get(const struct braid_etcd *e, const char *key, int timeout_ms, char *val,
		   size_t cap, size_t *vlen, bool *found);

/* A range reply's body: its one value as braid_etcd_get gives it. */
int braid_etcd_range_value(const char *body, size_t len, char *val, size_t cap, size_t *vlen,
			   bool *found);

/* A txn (braid_etcd_json_create) reply's body: did it create the key? */
int braid_etcd_txn_created(const char *body, size_t len, bool *created);

/* A keepalive reply's body: the remaining TTL (0: the lease is gone). */
int braid_etcd_keepalive_ttl(const char *body, size_t len, long *ttl);

#endif /* BRAID_ETCD_H */
