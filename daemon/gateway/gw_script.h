/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_script.h - inside the gateway: the environment of client-connect /
 * client-disconnect (OpenVPN 2.6's variables) and the client-disconnect
 * scripts that outlive their client. Below the client table (gw_types.h).
 */
#ifndef BRAID_GW_SCRIPT_H
#define BRAID_GW_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "gateway/gw_types.h"

/*
 * The variables OpenVPN 2.6 gives client-connect / client-disconnect into v (malloc'ed strings,
 * NULL-terminated, at most max - 1); returns how many. disconnect adds the byte counts.
 */
size_t braid_gw_client_env(const struct gw_client *c, char **v, size_t max, bool disconnect);
void braid_gw_env_free(char **v, size_t n);

/*
 * A gateway script's whole environment as stock 2.6 gives it (besides script_type, username,
 * password, common_name, untrusted_ip/port, which authscript.c sets): for client-connect and
 * client-disconnect the client's variables above plus time_ascii, for auth-user-pass-verify its
 * IV_* lines; then the client's certificate chain (tls_id_N, X509_N_*, tls_serial_N, ...) and the
 * process and device variables: script_context, config, daemon, daemon_log_redirect,
 * daemon_start_time, daemon_pid, verb, dev, dev_type, tun_mtu, ifconfig_local/_netmask,
 * ifconfig_ipv6_local/_netbits/_remote, local_1, local_port_1, proto_1, remote_port_1, every setenv.
 */
#define BRAID_GW_SCRIPT_ENV_MAX 160
enum braid_gw_env { BRAID_GW_ENV_CONNECT, BRAID_GW_ENV_DISCONNECT, BRAID_GW_ENV_VERIFY };
size_t braid_gw_script_env(const struct gw_client *c, char **v, size_t max, enum braid_gw_env kind);
/*
 * The gateway's own `up` (after the TUN device and its addresses are set) / `down` (after it is
 * closed) script, as stock's server runs it: `CMD DEV TUN_MTU LINK_MTU IFCONFIG_LOCAL NETMASK init`
 * with script_type, the process and device variables above and, for down, signal. 0 (also without
 * the option), or the script's error (session/script.h).
 */
int braid_gw_updown_script(struct braid_gateway *g, bool up);
/* With management-up-down: >UPDOWN:UP / DOWN and its ENV block (the up/down script's variables but
 * script_type and signal, as stock), once each way. */
void braid_gw_updown_notify(struct braid_gateway *g, bool up);
/* client-disconnect for a client that was connected; runs on after the client is gone. */
void braid_gw_start_disconnect_script(struct gw_client *c);
/* Reap finished client-disconnect scripts (wait: until each has ended or timed out). */
void braid_gw_bg_poll(struct braid_gateway *g, bool wait);

#endif /* BRAID_GW_SCRIPT_H */
