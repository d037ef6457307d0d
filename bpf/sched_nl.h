/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A minimal generic netlink client for braid_dco's scheduler operations (prog-attach, prog-detach,
 * prog-get), used by braid-sched-attach; refusals come back as -errno with the kernel's extack text.
 */
#ifndef BRAID_BPF_SCHED_NL_H
#define BRAID_BPF_SCHED_NL_H

#include <stddef.h>
#include <stdint.h>

struct sched_nl_info {
	uint32_t prog_id; /* 0: none attached */
	uint64_t runs, fallbacks, copies;
};

int sched_nl_attach(unsigned int ifindex, int prog_fd, char *err, unsigned int errlen);
int sched_nl_detach(unsigned int ifindex, char *err, unsigned int errlen);
int sched_nl_get(unsigned int ifindex, struct sched_nl_info *out, char *err, unsigned int errlen);
/* the parsers of what the kernel answers (exposed for tests/fuzz/fuzz_sched_nl.c) */
int sched_nl_parse_reply(const void *buf, size_t n, uint32_t seq, size_t *replen, char *err,
			 unsigned int errlen);
int sched_nl_parse_get(const void *rep, size_t len, struct sched_nl_info *out);

#endif /* BRAID_BPF_SCHED_NL_H */
