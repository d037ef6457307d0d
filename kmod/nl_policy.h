/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The attribute policies of every braid_dco netlink operation, as specified in
 * kmod/braid_dco.yaml (each operation lists exactly the attributes it accepts; strict validation
 * rejects everything else with an extack message).
 */
#ifndef _BRAID_DCO_NL_POLICY_H_
#define _BRAID_DCO_NL_POLICY_H_

#include <net/netlink.h>

#include "uapi/linux/braid_dco.h"

extern const struct nla_policy braid_peer_new_nl_policy[BRAID_DCO_A_PEER_MAX + 1];
extern const struct nla_policy braid_peer_id_nl_policy[BRAID_DCO_A_PEER_MAX + 1];
extern const struct nla_policy braid_keyconf_new_nl_policy[BRAID_DCO_A_KEYCONF_MAX + 1];
extern const struct nla_policy braid_keyconf_swap_nl_policy[BRAID_DCO_A_KEYCONF_MAX + 1];
extern const struct nla_policy braid_keyconf_del_nl_policy[BRAID_DCO_A_KEYCONF_MAX + 1];
extern const struct nla_policy braid_keydir_nl_policy[BRAID_DCO_A_KEYDIR_MAX + 1];
extern const struct nla_policy braid_path_add_nl_policy[BRAID_DCO_A_PATH_MAX + 1];
extern const struct nla_policy braid_path_del_nl_policy[BRAID_DCO_A_PATH_MAX + 1];
extern const struct nla_policy braid_path_set_nl_policy[BRAID_DCO_A_PATH_MAX + 1];
extern const struct nla_policy braid_sched_attach_nl_policy[BRAID_DCO_A_SCHED_MAX + 1];
extern const struct nla_policy braid_send_nl_policy[BRAID_DCO_A_SEND_MAX + 1];

extern const struct nla_policy braid_peer_new_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_peer_del_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_peer_get_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_key_new_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_key_swap_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_key_del_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_path_add_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_path_del_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_path_set_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_stats_get_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_prog_attach_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_prog_detach_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_prog_get_policy[BRAID_DCO_A_MAX + 1];
extern const struct nla_policy braid_packet_send_policy[BRAID_DCO_A_MAX + 1];

#endif /* _BRAID_DCO_NL_POLICY_H_ */
