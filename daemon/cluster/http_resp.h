/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * http_resp.h - a minimal HTTP/1.1 response reader for the etcd client
 * (http_resp.c): the request goes out with `Connection: close`, the reply
 * is read to EOF into a bounded buffer, then this parses it whole: the
 * status line, Content-Length or chunked transfer encoding, the body.
 */
#ifndef BRAID_HTTP_RESP_H
#define BRAID_HTTP_RESP_H

#include <stddef.h>

#define BRAID_HTTP_RESP_MAX 16384	/* the whole reply, headers included */

/*
 * buf/len: the reply (not NUL-terminated). On 0: *status (100..599) and the
 * decoded body in body[0..*body_len) plus a NUL (body_cap includes it).
 * -EAGAIN: incomplete (headers or body cut short), -EBADMSG: malformed,
 * -EMSGSIZE: the body does not fit body_cap.
 */
int braid_http_resp_parse(const char *buf, size_t len, int *status, char *body, size_t body_cap,
			  size_t *body_len);

#endif /* BRAID_HTTP_RESP_H */
