// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policies of kmod/braid_dco.yaml, written out by hand (the 6.1 tree has no YNL
 * generator): one nested policy per use, so an attribute an operation does not take is rejected.
 */
#include "nl_policy.h"

static struct netlink_range_validation braid_peer_id_range = {
	.min = 0,
	.max = BRAID_DCO_PEER_ID_MAX,
};

static struct netlink_range_validation braid_ifindex_range = {
	.min = 1,
	.max = S32_MAX,
};

#define BRAID_POLICY_PEER_ID NLA_POLICY_FULL_RANGE(NLA_U32, &braid_peer_id_range)
#define BRAID_POLICY_IFINDEX NLA_POLICY_FULL_RANGE(NLA_U32, &braid_ifindex_range)

const struct nla_policy braid_peer_new_nl_policy[BRAID_DCO_A_PEER_MAX + 1] = {
	[BRAID_DCO_A_PEER_ID] = BRAID_POLICY_PEER_ID,
	[BRAID_DCO_A_PEER_VPN_IPV4] = NLA_POLICY_EXACT_LEN(4),
	[BRAID_DCO_A_PEER_VPN_IPV6] = NLA_POLICY_EXACT_LEN(16),
};

const struct nla_policy braid_peer_id_nl_policy[BRAID_DCO_A_PEER_MAX + 1] = {
	[BRAID_DCO_A_PEER_ID] = BRAID_POLICY_PEER_ID,
};

const struct nla_policy braid_keydir_nl_policy[BRAID_DCO_A_KEYDIR_MAX + 1] = {
	[BRAID_DCO_A_KEYDIR_CIPHER_KEY] = { .type = NLA_BINARY, .len = BRAID_DCO_CIPHER_KEY_MAX },
	[BRAID_DCO_A_KEYDIR_NONCE_TAIL] = NLA_POLICY_EXACT_LEN(BRAID_DCO_NONCE_TAIL_SIZE),
};

const struct nla_policy braid_keyconf_new_nl_policy[BRAID_DCO_A_KEYCONF_MAX + 1] = {
	[BRAID_DCO_A_KEYCONF_PEER_ID] = BRAID_POLICY_PEER_ID,
	[BRAID_DCO_A_KEYCONF_SLOT] = NLA_POLICY_MAX(NLA_U32, BRAID_DCO_KEY_SLOT_SECONDARY),
	[BRAID_DCO_A_KEYCONF_KEY_ID] = NLA_POLICY_MAX(NLA_U32, BRAID_DCO_KEY_ID_MAX),
	[BRAID_DCO_A_KEYCONF_CIPHER_ALG] = NLA_POLICY_MAX(NLA_U32,
							  BRAID_DCO_CIPHER_ALG_CHACHA20_POLY1305),
	[BRAID_DCO_A_KEYCONF_ENCRYPT_DIR] = NLA_POLICY_NESTED(braid_keydir_nl_policy),
	[BRAID_DCO_A_KEYCONF_DECRYPT_DIR] = NLA_POLICY_NESTED(braid_keydir_nl_policy),
};

const struct nla_policy braid_keyconf_swap_nl_policy[BRAID_DCO_A_KEYCONF_MAX + 1] = {
	[BRAID_DCO_A_KEYCONF_PEER_ID] = BRAID_POLICY_PEER_ID,
};

const struct nla_policy braid_keyconf_del_nl_policy[BRAID_DCO_A_KEYCONF_MAX + 1] = {
	[BRAID_DCO_A_KEYCONF_PEER_ID] = BRAID_POLICY_PEER_ID,
	[BRAID_DCO_A_KEYCONF_SLOT] = NLA_POLICY_MAX(NLA_U32, BRAID_DCO_KEY_SLOT_SECONDARY),
};

const struct nla_policy braid_path_add_nl_policy[BRAID_DCO_A_PATH_MAX + 1] = {
	[BRAID_DCO_A_PATH_PEER_ID] = BRAID_POLICY_PEER_ID,
	[BRAID_DCO_A_PATH_ID] = NLA_POLICY_MAX(NLA_U32, BRAID_DCO_PATHS_MAX - 1),
	[BRAID_DCO_A_PATH_SOCKET] = { .type = NLA_U32 },
	[BRAID_DCO_A_PATH_REMOTE_IPV4] = NLA_POLICY_EXACT_LEN(4),
	[BRAID_DCO_A_PATH_REMOTE_IPV6] = NLA_POLICY_EXACT_LEN(16),
	[BRAID_DCO_A_PATH_REMOTE_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
	[BRAID_DCO_A_PATH_LOCAL_IPV4] = NLA_POLICY_EXACT_LEN(4),
	[BRAID_DCO_A_PATH_LOCAL_IPV6] = NLA_POLICY_EXACT_LEN(16),
	[BRAID_DCO_A_PATH_LOCAL_PORT] = NLA_POLICY_MIN(NLA_U16, 1),
};

const struct nla_policy braid_path_del_nl_policy[BRAID_DCO_A_PATH_MAX + 1] = {
	[BRAID_DCO_A_PATH_PEER_ID] = BRAID_POLICY_PEER_ID,
	[BRAID_DCO_A_PATH_ID] = NLA_POLICY_MAX(NLA_U32, BRAID_DCO_PATHS_MAX - 1),
};

const struct nla_policy braid_path_set_nl_policy[BRAID_DCO_A_PATH_MAX + 1] = {
	[BRAID_DCO_A_PATH_PEER_ID] = BRAID_POLICY_PEER_ID,
	[BRAID_DCO_A_PATH_ID] = NLA_POLICY_MAX(NLA_U32, BRAID_DCO_PATHS_MAX - 1),
	[BRAID_DCO_A_PATH_DOWN] = NLA_POLICY_MAX(NLA_U8, 1),
	[BRAID_DCO_A_PATH_BACKUP] = NLA_POLICY_MAX(NLA_U8, 1),
};

const struct nla_policy braid_sched_attach_nl_policy[BRAID_DCO_A_SCHED_MAX + 1] = {
	[BRAID_DCO_A_SCHED_PROG_FD] = { .type = NLA_U32 },
};

const struct nla_policy braid_send_nl_policy[BRAID_DCO_A_SEND_MAX + 1] = {
	[BRAID_DCO_A_SEND_PEER_ID] = BRAID_POLICY_PEER_ID,
	[BRAID_DCO_A_SEND_PATH_ID] = NLA_POLICY_MAX(NLA_U32, BRAID_DCO_PATHS_MAX - 1),
	[BRAID_DCO_A_SEND_PAYLOAD] = { .type = NLA_BINARY, .len = BRAID_DCO_SEND_PAYLOAD_MAX },
};

const struct nla_policy braid_peer_new_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_PEER] = NLA_POLICY_NESTED(braid_peer_new_nl_policy),
};

const struct nla_policy braid_peer_del_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_PEER] = NLA_POLICY_NESTED(braid_peer_id_nl_policy),
};

const struct nla_policy braid_peer_get_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_PEER] = NLA_POLICY_NESTED(braid_peer_id_nl_policy),
};

const struct nla_policy braid_key_new_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_KEYCONF] = NLA_POLICY_NESTED(braid_keyconf_new_nl_policy),
};

const struct nla_policy braid_key_swap_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_KEYCONF] = NLA_POLICY_NESTED(braid_keyconf_swap_nl_policy),
};

const struct nla_policy braid_key_del_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_KEYCONF] = NLA_POLICY_NESTED(braid_keyconf_del_nl_policy),
};

const struct nla_policy braid_path_add_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_PATH] = NLA_POLICY_NESTED(braid_path_add_nl_policy),
};

const struct nla_policy braid_path_del_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_PATH] = NLA_POLICY_NESTED(braid_path_del_nl_policy),
};

const struct nla_policy braid_path_set_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_PATH] = NLA_POLICY_NESTED(braid_path_set_nl_policy),
};

/* takes no attribute: every one is refused */
const struct nla_policy braid_stats_get_policy[BRAID_DCO_A_MAX + 1] = {
};

const struct nla_policy braid_prog_attach_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_SCHED] = NLA_POLICY_NESTED(braid_sched_attach_nl_policy),
};

const struct nla_policy braid_prog_detach_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
};

const struct nla_policy braid_prog_get_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
};

const struct nla_policy braid_packet_send_policy[BRAID_DCO_A_MAX + 1] = {
	[BRAID_DCO_A_IFINDEX] = BRAID_POLICY_IFINDEX,
	[BRAID_DCO_A_SEND] = NLA_POLICY_NESTED(braid_send_nl_policy),
};
