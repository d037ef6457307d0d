// SPDX-License-Identifier: GPL-2.0-only
/* session.c - skeleton; the implementation follows. */
#include "session.h"

#include <errno.h>
#include <string.h>

int braid_ctls_new(struct braid_ctls **out, const struct braid_ctls_config *cfg, int64_t now_ms,
		   char *err, size_t errlen)
{
	(void)cfg; (void)now_ms;
	*out = NULL;
	if (err && errlen)
		strncpy(err, "control-channel session not implemented yet", errlen - 1);
	return -ENOSYS;
}
void braid_ctls_free(struct braid_ctls *s) { (void)s; }
int braid_ctls_input(struct braid_ctls *s, const uint8_t *pkt, size_t len, int64_t now_ms)
{ (void)s; (void)pkt; (void)len; (void)now_ms; return -ENOSYS; }
int braid_ctls_output(struct braid_ctls *s, int64_t now_ms, uint8_t *buf, size_t cap, size_t *len)
{ (void)s; (void)now_ms; (void)buf; (void)cap; *len = 0; return -ENOSYS; }
int64_t braid_ctls_deadline(const struct braid_ctls *s) { (void)s; return BRAID_CTLS_NEVER; }
int braid_ctls_next_event(struct braid_ctls *s, struct braid_ctls_event *ev) { (void)s; (void)ev; return -EAGAIN; }
int braid_ctls_send_text(struct braid_ctls *s, const char *msg) { (void)s; (void)msg; return -ENOSYS; }
int braid_ctls_derive(struct braid_ctls *s, unsigned key_id, enum braid_ctls_kdf method, struct braid_key2 *out)
{ (void)s; (void)key_id; (void)method; (void)out; return -ENOSYS; }
int braid_ctls_renegotiate(struct braid_ctls *s, int64_t now_ms) { (void)s; (void)now_ms; return -ENOSYS; }
void braid_ctls_data_counters(struct braid_ctls *s, uint64_t bytes, uint64_t pkts) { (void)s; (void)bytes; (void)pkts; }
int braid_ctls_current_key_id(const struct braid_ctls *s) { (void)s; return -ENOKEY; }
const char *braid_ctls_peer_options(const struct braid_ctls *s) { (void)s; return ""; }
const char *braid_ctls_peer_info(const struct braid_ctls *s) { (void)s; return ""; }
const char *braid_ctls_peer_username(const struct braid_ctls *s) { (void)s; return ""; }
const char *braid_ctls_peer_password(const struct braid_ctls *s) { (void)s; return ""; }
const char *braid_ctls_peer_cn(const struct braid_ctls *s) { (void)s; return ""; }
const char *braid_ctls_peer_serial(const struct braid_ctls *s) { (void)s; return ""; }
void braid_ctls_session_ids(const struct braid_ctls *s, uint8_t local[BRAID_CTL_SID_LEN], uint8_t remote[BRAID_CTL_SID_LEN])
{ (void)s; memset(local, 0, BRAID_CTL_SID_LEN); memset(remote, 0, BRAID_CTL_SID_LEN); }
const char *braid_ctls_last_error(const struct braid_ctls *s) { (void)s; return "not implemented"; }
void braid_ctls_stats(const struct braid_ctls *s, struct braid_ctls_stats *st) { (void)s; memset(st, 0, sizeof(*st)); }
unsigned long braid_ctls_live_sessions(void) { return 0; }
