// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_reject.c - daemon/session/reject.c: every rejection counted; at most
 * BRAID_REJECT_BURST lines per kind and window, then one "suppressed" summary
 * with the exact number; kinds are limited independently; mute counts only;
 * the stock lines' text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "ctl/session.h"
#include "util/log.h"
#include "session/reject.h"

static char logpath[] = "/tmp/braid-test-reject-XXXXXX";

static size_t count_lines(const char *needle)
{
	FILE *f = fopen(logpath, "r");
	char line[1024];
	size_t n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, needle))
			n++;
	fclose(f);
	return n;
}

int main(void)
{
	struct braid_reject r;
	const uint8_t pkt[] = { 0x20 };
	int fd = mkstemp(logpath);

	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ(braid_log_open_file(logpath, false), 0);
	braid_log_set_verb(4);
	memset(&r, 0, sizeof(r));

	/* 1000 HMAC failures within one window: 10 lines, all counted */
	for (int i = 0; i < 1000; i++)
		braid_reject_ctl(&r, BRAID_CTLS_R_WRAP, BRAID_CTLS_WRAP_AUTH, pkt, 1, "[AF_INET]10.0.0.9:4000",
				 "bad HMAC", 1000 + i);
	/* another kind is limited on its own */
	for (int i = 0; i < 3; i++)
		braid_reject_tcp_length(&r, "[AF_INET]10.0.0.9:4001", 65535, 9192, 2000);
	/* mute: counted, never logged */
	for (int i = 0; i < 5; i++)
		braid_reject_replay(&r, "client1", "[AF_INET]10.0.0.9:4002", (const uint8_t *)"\x48\0\0\0\0\0\0\x2a", 8,
				    1, 3000);
	braid_reject_replay(&r, "client1", "[AF_INET]10.0.0.9:4002", (const uint8_t *)"\x48\0\0\0\0\0\0\x2a", 8, 0,
			    3000);
	braid_reject_tick(&r, 1000 + BRAID_REJECT_WINDOW_MS - 1);	/* window still open */
	braid_reject_tick(&r, 1000 + BRAID_REJECT_WINDOW_MS);	/* closes: summary */
	braid_log_close();

	CHECK_EQ(r.count[BRAID_REJ_HMAC], 1000);
	CHECK_EQ(r.count[BRAID_REJ_TCP_LENGTH], 3);
	CHECK_EQ(r.count[BRAID_REJ_REPLAY], 6);
	CHECK_EQ(count_lines("TLS Error: incoming packet authentication failed from [AF_INET]10.0.0.9:4000"),
		 BRAID_REJECT_BURST);
	CHECK_EQ(count_lines("hmac failed: 990 similar messages suppressed in the last 10 s"), 1);
	CHECK_EQ(count_lines("[AF_INET]10.0.0.9:4001 WARNING: Bad encapsulated packet length from peer (65535), "
			     "which must be > 0 and <= 9192"), 3);
	CHECK_EQ(count_lines("tcp bad length:"), 0);
	CHECK_EQ(count_lines("client1/[AF_INET]10.0.0.9:4002 AEAD Decrypt error: bad packet ID (may be a "
			     "replay): [ #42 ]"), 1);
	CHECK_STR(braid_reject_name(BRAID_REJ_TCP_REFUSED), "tcp refused");
	unlink(logpath);
	CHECK_DONE();
}
