// SPDX-License-Identifier: GPL-2.0-only
/* cookie.c - skeleton; the implementation follows. */
#include "cookie.h"

#include <errno.h>
#include <string.h>

int braid_ctls_cookie_new(struct braid_ctls_cookie **out, const struct braid_ctls_config *cfg,
			  const uint8_t secret[BRAID_COOKIE_SECRET_LEN], char *err, size_t errlen)
{ (void)cfg; (void)secret; (void)err; (void)errlen; *out = NULL; return -ENOSYS; }
void braid_ctls_cookie_free(struct braid_ctls_cookie *c) { (void)c; }
int braid_ctls_cookie_reply(struct braid_ctls_cookie *c, const uint8_t *pkt, size_t len,
			    const void *addr, size_t addrlen, int64_t now_s, uint8_t *out,
			    size_t cap, size_t *olen, const char **why)
{ (void)c; (void)pkt; (void)len; (void)addr; (void)addrlen; (void)now_s; (void)out; (void)cap; *olen = 0; if (why) *why = "not implemented"; return -ENOSYS; }
int braid_ctls_new_from_cookie(struct braid_ctls **out, struct braid_ctls_cookie *c,
			       const uint8_t *pkt, size_t len, const void *addr, size_t addrlen,
			       int64_t now_s, int64_t now_ms, const char **why)
{ (void)c; (void)pkt; (void)len; (void)addr; (void)addrlen; (void)now_s; (void)now_ms; *out = NULL; if (why) *why = "not implemented"; return -ENOSYS; }
bool braid_ctls_cookie_is_reset(const uint8_t *pkt, size_t len)
{ return len >= 1 && (pkt[0] >> 3) == 7; }
void braid_ctls_cookie_stats(const struct braid_ctls_cookie *c, struct braid_ctls_cookie_stats *st)
{ (void)c; memset(st, 0, sizeof(*st)); }
