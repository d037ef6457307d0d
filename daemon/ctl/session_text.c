// SPDX-License-Identifier: GPL-2.0-only
/*
 * session_text.c - NUL-terminated control-channel text messages (PUSH_REQUEST,
 * PUSH_REPLY, AUTH_FAILED, ...): records from the peer split into TEXT events,
 * and one message written as a TLS record (session_text.h). Below
 * session_key.c: it knows nothing of which key is the primary.
 */
#include "session_text.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <openssl/crypto.h>

#include "session_event.h"
#include "tls.h"

int ctls_text_split(char *rec, size_t len, void (*cb)(void *arg, const char *msg), void *arg)
{
	size_t i = 0;
	int bad = 0;

	rec[len] = 0;
	while (i < len) {
		size_t j = i, n;
		bool invalid = false;

		while (j < len && rec[j])
			j++;
		n = j - i;
		while (n && (rec[i + n - 1] == '\r' || rec[i + n - 1] == '\n'))
			n--;
		for (size_t k = 0; k < n; k++) {
			unsigned char c = (unsigned char)rec[i + k];
			if (c < 0x20 || c == 0x7f)
				invalid = true;
		}
		if (invalid) {
			bad++;
		} else if (n) {
			rec[i + n] = 0;
			cb(arg, rec + i);
		}
		i = j + 1;
	}
	return bad;
}

struct text_ctx {
	struct braid_ctls *s;
	uint8_t key_id;
};

static void text_cb(void *arg, const char *msg)
{
	struct text_ctx *t = arg;

	ctls_push_event(t->s, BRAID_CTLS_EV_TEXT, t->key_id, false, msg);
}

/* One record: NUL-separated messages, trailing CR/LF stripped, other control chars rejected. */
void ctls_record_to_text(struct braid_ctls *s, struct key_state *ks, char *rec, size_t len)
{
	struct text_ctx t = { s, ks->key_id };

	if (ctls_text_split(rec, len, text_cb, &t) > 0)
		ctls_set_error(s, "key_id %u: control message with invalid characters ignored",
			  ks->key_id);
}

int ctls_text_write(struct key_state *ks, const char *msg)
{
	size_t n = strlen(msg);
	uint8_t rec[BRAID_CTLS_TEXT_MAX];
	int ret;

	if (n + 1 > BRAID_CTLS_TEXT_MAX)
		return -EMSGSIZE;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
			return -EINVAL;
	memcpy(rec, msg, n + 1);
	ret = braid_tls_write_record(ks->tls, rec, n + 1);
	OPENSSL_cleanse(rec, n + 1);
	return ret;
}
