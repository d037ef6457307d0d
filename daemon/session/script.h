/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * script.h - `up` / `down` scripts with OpenVPN's arguments and environment.
 *
 * The command is split on blanks (no shell) and run as
 *   CMD... DEV TUN_MTU LINK_MTU IFCONFIG_LOCAL IFCONFIG_REMOTE_OR_NETMASK init
 * with the variables OpenVPN 2.6 sets for its scripts: script_type, dev,
 * dev_type, tun_mtu, link_mtu, ifconfig_local, ifconfig_netmask (subnet) or
 * ifconfig_remote (net30/p2p), ifconfig_ipv6_local/_netbits/_remote,
 * route_vpn_gateway, route_net_gateway, route_network_N / route_netmask_N /
 * route_gateway_N / route_metric_N, route_ipv6_network_N / route_ipv6_gateway_N,
 * foreign_option_N ("dhcp-option DNS 10.8.0.1"), trusted_ip, trusted_port,
 * remote_1, remote_port_1, proto_1, script_context, verb, daemon, config,
 * plus every `setenv NAME VALUE`, then braidd's own environment (PATH, ...) for
 * names not set above. Nothing is written to resolv.conf: DNS
 * servers reach the script as foreign_option_N only.
 *
 * Running an external program needs `script-security 2` or more (as in
 * OpenVPN); the call blocks until the script exits.
 */
#ifndef BRAID_SCRIPT_H
#define BRAID_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "config/options.h"
#include "session/push.h"
#include "os/sock.h"

struct braid_script_env {
	char **v;	/* "NAME=VALUE", NULL-terminated */
	size_t n, cap;
	size_t n_own;	/* v[0..n_own): braidd's variables (braid_script_env_finish) */
};

/* Add NAME=VALUE (printf-style value). 0, -ENOMEM. */
int braid_script_env_add(struct braid_script_env *e, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void braid_script_env_free(struct braid_script_env *e);

/*
 * Fill the environment for script_type ("up" / "down") from the device,
 * the pushed configuration and the server address; the caller may add
 * more, then calls braid_script_env_finish.
 */
int braid_script_env_tunnel(struct braid_script_env *e, const struct braid_options *o,
			    const char *script_type, const char *ifname, int tun_mtu,
			    const struct braid_pushed *p, const union braid_sockaddr *server);

/*
 * What every script of OpenVPN 2.6 gets about the process: config (the
 * configuration file's path, if any), daemon, daemon_log_redirect,
 * daemon_start_time, daemon_pid. 0, -ENOMEM.
 */
int braid_script_env_process(struct braid_script_env *e, const struct braid_options *o);
/* braidd's own environment (PATH, ...) after the variables set so far; n_own is set. */
int braid_script_env_finish(struct braid_script_env *e);

/*
 * Run cmd with the OpenVPN up/down arguments and env. 0 when it exited 0;
 * -EPERM (script-security < 2), -ECHILD (non-zero exit or killed: logged with
 * the status), -errno (cannot run it: logged).
 */
int braid_script_run(const char *what, const char *cmd, const struct braid_options *o,
		     const char *ifname, int tun_mtu, const struct braid_pushed *p,
		     struct braid_script_env *env);

/*
 * The static-key peer's `up` / `down` (up true/false): the device's addresses from the
 * configuration's ifconfig / ifconfig-ipv6, the tunnel, process and (down) signal variables,
 * then braid_script_run. 0 without the option, else braid_script_run's result.
 */
int braid_script_run_p2p(const struct braid_options *o, bool up, const char *ifname);
/* The same environment, finished, without running anything (>UPDOWN:ENV). 0, -errno. */
int braid_script_env_p2p(const struct braid_options *o, bool up, const char *ifname,
			 struct braid_script_env *env);

#endif /* BRAID_SCRIPT_H */
