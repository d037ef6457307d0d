// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dco_nl.c - braid_dco_nl_parse (daemon/dataplane/dco_nl.c), the reader of
 * braid_dco's netlink answers: an ack; PACKET_SEND's packet id; PEER_GET's peer
 * counters, key ids and two paths; a refusal with its extack text (capped and
 * uncapped); another sequence number skipped; a path id out of range and every
 * truncation refused or incomplete, never read past.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <string.h>

#include "../../kmod/uapi/linux/braid_dco.h"
#include "check.h"
#include "dataplane/dco_nl.h"

#define SEQ 7
#define FAM 30

static uint8_t b[2048] __attribute__((aligned(8)));
static size_t blen;

static void *put(const void *p, size_t n)
{
	uint8_t *at = b + blen;

	memcpy(at, p, n);
	blen += NLMSG_ALIGN(n);
	return at;
}

static void attr(uint16_t t, const void *p, size_t n)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + n), .nla_type = t };

	put(&a, sizeof(a));
	memcpy(b + blen, p, n);
	blen += NLA_ALIGN(n);
}

static void u32(uint16_t t, uint32_t v) { attr(t, &v, 4); }
static void u64(uint16_t t, uint64_t v) { attr(t, &v, 8); }

static struct nlattr *nest_start(uint16_t t)
{
	struct nlattr a = { .nla_len = 0, .nla_type = t | NLA_F_NESTED };

	return put(&a, sizeof(a));
}

static void nest_end(struct nlattr *n) { n->nla_len = (uint16_t)(b + blen - (uint8_t *)n); }

static struct nlmsghdr *msg_start(uint16_t type, uint16_t flags, uint32_t seq)
{
	struct nlmsghdr h = { .nlmsg_type = type, .nlmsg_flags = flags, .nlmsg_seq = seq };

	return put(&h, sizeof(h));
}

static void msg_end(struct nlmsghdr *h) { h->nlmsg_len = (uint32_t)(b + blen - (uint8_t *)h); }

static void genl(uint8_t cmd)
{
	struct genlmsghdr g = { .cmd = cmd, .version = 1 };

	put(&g, sizeof(g));
}

/* NLMSG_ERROR: err, the echoed request header (capped) or header + 8 bytes, then the extack text */
static void error(int err, bool capped, const char *text)
{
	struct nlmsghdr *h = msg_start(NLMSG_ERROR, (uint16_t)((text ? NLM_F_ACK_TLVS : 0) |
						   (capped ? NLM_F_CAPPED : 0)), SEQ);
	struct nlmsghdr req = { .nlmsg_len = capped ? 40 : 24, .nlmsg_type = FAM, .nlmsg_seq = SEQ };
	uint8_t body[8] = { 0 };

	put(&err, 4);
	put(&req, sizeof(req));
	if (!capped)
		put(body, sizeof(body));
	if (text)
		attr(NLMSGERR_ATTR_MSG, text, strlen(text) + 1);
	msg_end(h);
}

static int parse(struct braid_dco_reply *r, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->primary_key_id = r->secondary_key_id = -1;
	return braid_dco_nl_parse(b, len, SEQ, FAM, r);
}

static void path(uint32_t id)
{
	struct nlattr *n = nest_start(BRAID_DCO_A_PEER_PATH);
	uint8_t down = id == 5, backup = id == 0, failing = id == 0;

	u32(BRAID_DCO_A_PATH_ID, id);
	u64(BRAID_DCO_A_PATH_RX_BYTES, 1000 + id);
	u64(BRAID_DCO_A_PATH_RX_PACKETS, 10 + id);
	u64(BRAID_DCO_A_PATH_TX_BYTES, 2000 + id);
	u64(BRAID_DCO_A_PATH_TX_PACKETS, 20 + id);
	u32(BRAID_DCO_A_PATH_RX_LAST_PKTID, 7000 + id);
	u64(BRAID_DCO_A_PATH_RX_SPAN_PACKETS, 30 + id);
	u64(BRAID_DCO_A_PATH_RX_SPAN_BYTES, 40000 + id);
	u64(BRAID_DCO_A_PATH_RX_SPAN_NS, 5000000000ull + id);	/* above 32 bits */
	attr(BRAID_DCO_A_PATH_DOWN, &down, 1);
	attr(BRAID_DCO_A_PATH_BACKUP, &backup, 1);
	attr(BRAID_DCO_A_PATH_TX_FAILING, &failing, 1);
	nest_end(n);
}

static struct nlattr *cost_nest;

/*
 * a STATS_GET answer from the start: the balance nest (not read by dco_nl.c), then the cost nest
 * opened (cost_nest) with its u8 switch
 */
static struct nlmsghdr *stats_cost(bool enabled)
{
	struct nlmsghdr *h;
	struct nlattr *n;
	uint8_t on = enabled;

	blen = 0;
	h = msg_start(FAM, 0, SEQ);
	genl(BRAID_DCO_CMD_STATS_GET);
	n = nest_start(BRAID_DCO_A_STATS);
	u64(BRAID_DCO_A_STATS_DEVS_CREATED, 2);
	nest_end(n);
	cost_nest = nest_start(BRAID_DCO_A_COST);
	attr(BRAID_DCO_A_COST_ENABLED, &on, 1);
	return h;
}

int main(void)
{
	struct braid_dco_reply r;
	struct nlmsghdr *h;
	struct nlattr *n;
	size_t full, k;

	/* an ack */
	blen = 0;
	error(0, true, NULL);
	CHECK_EQ(parse(&r, blen), 1);
	CHECK(r.acked && r.err == 0 && !r.msg[0]);

	/* PACKET_SEND: the reply, then the ack */
	blen = 0;
	h = msg_start(FAM, 0, SEQ);
	genl(BRAID_DCO_CMD_PACKET_SEND);
	u32(BRAID_DCO_A_IFINDEX, 3);
	n = nest_start(BRAID_DCO_A_SEND);
	u32(BRAID_DCO_A_SEND_PACKET_ID, 4);
	nest_end(n);
	msg_end(h);
	CHECK_EQ(parse(&r, blen), 0);	/* no ack yet: more to read */
	CHECK_EQ(r.packet_id, 4);
	error(0, true, NULL);
	CHECK_EQ(parse(&r, blen), 1);
	CHECK_EQ(r.packet_id, 4);

	/* PEER_GET with two paths (0 and 5) */
	blen = 0;
	h = msg_start(FAM, 0, SEQ);
	genl(BRAID_DCO_CMD_PEER_GET);
	n = nest_start(BRAID_DCO_A_PEER);
	u32(BRAID_DCO_A_PEER_ID, 5);
	u32(BRAID_DCO_A_PEER_PRIMARY_KEY_ID, 1);
	u32(BRAID_DCO_A_PEER_SECONDARY_KEY_ID, 2);
	u64(BRAID_DCO_A_PEER_VPN_RX_BYTES, 100);
	u64(BRAID_DCO_A_PEER_VPN_RX_PACKETS, 2);
	u64(BRAID_DCO_A_PEER_VPN_TX_BYTES, 300);
	u64(BRAID_DCO_A_PEER_VPN_TX_PACKETS, 4);
	u64(BRAID_DCO_A_PEER_CTL_TX_PACKETS, 6);
	u64(BRAID_DCO_A_PEER_CTL_RX_PACKETS, 7);
	path(0);
	path(5);
	nest_end(n);
	msg_end(h);
	error(0, true, NULL);
	full = blen;
	CHECK_EQ(parse(&r, full), 1);
	CHECK(r.vpn_rx_bytes == 100 && r.vpn_rx_packets == 2 && r.vpn_tx_bytes == 300 && r.vpn_tx_packets == 4);
	CHECK(r.ctl_tx_packets == 6 && r.ctl_rx_packets == 7);
	CHECK(r.primary_key_id == 1 && r.secondary_key_id == 2);
	CHECK_EQ(r.path_mask, 0x21);
	CHECK(r.path_rx_packets[5] == 15 && r.path_tx_packets[5] == 25 && r.path_rx_bytes[0] == 1000 &&
	      r.path_tx_bytes[5] == 2005);
	CHECK(r.path_rx_last_pktid[0] == 7000 && r.path_rx_last_pktid[5] == 7005);
	CHECK(r.path_rx_span_packets[5] == 35 && r.path_rx_span_bytes[0] == 40000 &&
	      r.path_rx_span_ns[5] == 5000000005ull);
	CHECK_EQ(r.path_down_mask, 0x20);	/* path 5 down (u8 1), path 0 up (u8 0) */
	CHECK_EQ(r.path_backup_mask, 0x01);
	CHECK_EQ(r.path_tx_failing_mask, 0x01);	/* path 0's sends fail (u8 1), path 5's work (u8 0) */
	/* every truncation: refused, never past the length (ASan build) */
	for (k = 1; k < full; k++)
		CHECK(parse(&r, k) <= 0);

	/*
	 * STATS_GET: the balance nest (not read) and the cost nest, its u8 switch and u64
	 * counters, an attribute of a later version skipped
	 */
	h = stats_cost(true);
	u64(BRAID_DCO_A_COST_ENCRYPT_PACKETS, 6113);
	u64(BRAID_DCO_A_COST_ENCRYPT_NS, 61130000);
	u64(BRAID_DCO_A_COST_DECRYPT_PACKETS, 6114);
	u64(BRAID_DCO_A_COST_DECRYPT_NS, 91710000);
	u64(BRAID_DCO_A_COST_SCHED_PACKETS, 6115);
	u64(BRAID_DCO_A_COST_SCHED_NS, 611500);
	u64(BRAID_DCO_A_COST_MAX + 1, 77);
	nest_end(cost_nest);
	msg_end(h);
	error(0, true, NULL);
	full = blen;
	CHECK_EQ(parse(&r, full), 1);
	CHECK(r.cost.present && r.cost.enabled);
	CHECK(r.cost.encrypt_packets == 6113 && r.cost.encrypt_ns == 61130000);
	CHECK(r.cost.decrypt_packets == 6114 && r.cost.decrypt_ns == 91710000);
	CHECK(r.cost.sched_packets == 6115 && r.cost.sched_ns == 611500);
	CHECK(r.vpn_rx_packets == 0 && r.path_mask == 0);
	for (k = 1; k < full; k++)
		CHECK(parse(&r, k) <= 0);
	/* the switch off: the nest present, not enabled, counters 0 */
	h = stats_cost(false);
	u64(BRAID_DCO_A_COST_ENCRYPT_PACKETS, 0);
	nest_end(cost_nest);
	msg_end(h);
	CHECK_EQ(parse(&r, blen), 0);
	CHECK(r.cost.present && !r.cost.enabled && r.cost.encrypt_packets == 0);
	/* a cost nest that overruns its message */
	h = stats_cost(true);
	u64(BRAID_DCO_A_COST_ENCRYPT_NS, 1);
	nest_end(cost_nest);
	cost_nest->nla_len = (uint16_t)(cost_nest->nla_len - 4);
	msg_end(h);
	CHECK_EQ(parse(&r, blen), -EBADMSG);

	/* a path id out of range */
	blen = 0;
	h = msg_start(FAM, 0, SEQ);
	genl(BRAID_DCO_CMD_PEER_GET);
	n = nest_start(BRAID_DCO_A_PEER);
	path(BRAID_DCO_NL_PATHS);
	nest_end(n);
	msg_end(h);
	CHECK_EQ(parse(&r, blen), -EBADMSG);

	/* refusals: their errno and extack text, capped and not */
	blen = 0;
	error(-ENOENT, true, "the peer has no path with this id");
	CHECK_EQ(parse(&r, blen), 1);
	CHECK_EQ(r.err, -ENOENT);
	CHECK_STR(r.msg, "the peer has no path with this id");
	blen = 0;
	error(-EINVAL, false, "an empty payload");
	CHECK_EQ(parse(&r, blen), 1);
	CHECK_EQ(r.err, -EINVAL);
	CHECK_STR(r.msg, "an empty payload");

	/* another request's answer is skipped */
	blen = 0;
	h = msg_start(FAM, 0, SEQ + 1);
	genl(BRAID_DCO_CMD_PACKET_SEND);
	n = nest_start(BRAID_DCO_A_SEND);
	u32(BRAID_DCO_A_SEND_PACKET_ID, 99);
	nest_end(n);
	msg_end(h);
	CHECK_EQ(parse(&r, blen), 0);
	CHECK_EQ(r.packet_id, 0);
	CHECK_DONE();
}
