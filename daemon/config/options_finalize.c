// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_finalize.c - the post-parse checks that span areas: the role (client,
 * server, mode, tls-client/-server, secret), options that need mode server, the
 * transport (proto tcp, remotes, <connection> blocks), the data cipher default
 * and addresses, and the order in which each area's own checks (options_*.c) run.
 * Messages name the location, the option and the problem.
 */
#include "config/options_finalize.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dc/static_key.h"
#include "util/log.h"
#include "config/options_check.h"
#include "config/options_int.h"
#include "config/options_mp.h"
#include "config/options_mptcp.h"
#include "config/options_parse.h"
#include "config/options_cluster.h"
#include "config/options_metrics.h"
#include "config/options_mgmt.h"
#include "config/options_process.h"
#include "config/options_server.h"
#include "config/options_table.h"
#include "config/options_tls.h"

/* `client`, `server`, `mode`, tls-client/-server and `secret`: OpenVPN's helper + checks. */
static int finalize_role(struct braid_options *o, char *err, size_t err_len)
{
	bool secret = o->secret.path || o->secret.inline_text;

	if (o->client) {
		if (o->has_server)
			return opt_lfail(o, err, err_len, "server",
					 "'server' and 'client' cannot be used together");
		o->pull = true;
		o->opt_tls_client = true;
	}
	if (o->has_server) {
		if (secret)
			return opt_lfail(o, err, err_len, "server",
					 "'server' and 'secret' cannot be used together "
					 "(you must use SSL/TLS keys)");
		if (o->has_ifconfig_pool && !o->server_nopool)
			return opt_lfail(o, err, err_len, "ifconfig-pool",
					 "'server' already defines an ifconfig-pool, "
					 "so you can't also specify 'ifconfig-pool' explicitly (or add "
					 "'nopool' to 'server')");
		o->mode = BRAID_MODE_SERVER;
		o->opt_tls_server = true;
	}
	if ((int)o->opt_tls_client + (int)o->opt_tls_server + (int)secret > 1)
		return opt_lfail(o, err, err_len, secret ? "secret" : "tls-server",
				 "specify only one of 'tls-server', 'tls-client' (or 'client'), or "
				 "'secret'");
	o->tls = o->opt_tls_client ? BRAID_TLS_CLIENT
		 : o->opt_tls_server ? BRAID_TLS_SERVER : BRAID_TLS_OFF;
	return 0;
}

/* Options that only make sense in mode server, named as OpenVPN names them. */
static int finalize_not_server(const struct braid_options *o, char *err, size_t err_len)
{
	const char *bad = NULL;

	if (o->has_ifconfig_pool || o->ifconfig_pool_persist)
		bad = "ifconfig-pool";
	else if (o->client_connect)
		bad = "client-connect";
	else if (o->client_disconnect)
		bad = "client-disconnect";
	else if (o->client_config_dir || o->ccd_exclusive)
		bad = "client-config-dir";
	else if (o->client_to_client)
		bad = "client-to-client";
	else if (o->duplicate_cn)
		bad = "duplicate-cn";
	else if (o->connect_freq_n)
		bad = "connect-freq";
	else if (o->has_vcc_opt)
		bad = "verify-client-cert";
	else if (o->username_as_common_name)
		bad = "username-as-common-name";
	else if (o->auth_user_pass_optional)
		bad = "auth-user-pass-optional";
	else if (o->auth_user_pass_verify)
		bad = "auth-user-pass-verify";
	else if (o->has_server6)
		bad = "server-ipv6";
	else if (o->n_push)
		bad = "push";
	if (bad)
		return opt_lfail(o, err, err_len, bad, "requires 'mode server' (or 'server')");
	return 0;
}

/* Both modes: data cipher default, addresses, keepalive sanity. */
static int finalize_common(struct braid_options *o, char *err, size_t err_len)
{
	if (!o->cipher[0]) {
		if (o->data_ciphers[0]) {
			size_t n = strcspn(o->data_ciphers, ":");

			memcpy(o->cipher, o->data_ciphers, n);
			o->cipher[n] = '\0';
		} else {
			strcpy(o->cipher, "AES-256-GCM");
		}
	}
	if (o->has_ifconfig) {
		bool netmask;

		if (o->has_topology)
			netmask = o->topology == BRAID_TOPO_SUBNET;
		else	/* no topology: a second argument like 255.x.x.x is a netmask */
			netmask = (ntohl(o->ifc_remote.s_addr) >> 24) == 255 &&
				  opt_mask_to_prefix(o->ifc_remote) >= 0;
		if (netmask && opt_mask_to_prefix(o->ifc_remote) < 0) {
			char m[INET_ADDRSTRLEN];

			inet_ntop(AF_INET, &o->ifc_remote, m, sizeof(m));
			return opt_ffail(err, err_len,
					 "option 'ifconfig': '%s' is not a valid netmask (topology subnet)",
					 m);
		}
		o->ifc_is_netmask = netmask;
	}
	if (o->has_ifconfig6 && o->tun_mtu < 1280)
		return opt_ffail(err, err_len,
				 "option 'ifconfig-ipv6': IPv6 needs tun-mtu >= 1280 (tun-mtu is %d)",
				 o->tun_mtu);
	if (o->nobind && !o->n_remotes && !opt_mp_has_remote(o))
		return opt_ffail(err, err_len,
				 "option 'nobind' without 'remote': the peer could never reach us");
	if (o->ping_restart && o->ping && o->ping_restart < o->ping)
		braid_warn("ping-restart %d is shorter than the ping interval %d", o->ping_restart,
			   o->ping);
	return 0;
}

int braid_options_finalize(struct braid_options *o, char *err, size_t err_len)
{
	int dir, r;

	r = opt_finalize_mgmt(o, err, err_len);	/* first: its errors name the line */
	if (!r)
		r = opt_finalize_metrics(o, err, err_len);
	if (r)
		return r;
	if (!o->dev[0])
		return opt_ffail(err, err_len, "option 'dev' is missing (e.g. 'dev tun')");
	if (strncmp(o->dev, "tun", 3) && !o->has_dev_type)
		return opt_ffail(err, err_len,
				 "option 'dev': cannot tell the device type of '%s': add 'dev-type tun'",
				 o->dev);
	if (o->keepalive_ping && o->ping_opt)
		return opt_lfail(o, err, err_len, "keepalive",
				 "conflicts with '%s': keepalive sets ping and ping-restart, use one or "
				 "the other",
				 o->ping_opt);
	r = finalize_role(o, err, err_len);
	if (!r)
		r = opt_finalize_process(o, err, err_len);
	if (r)
		return r;
	if (o->tls == BRAID_TLS_OFF && o->proto != BRAID_PROTO_UDP)
		return opt_lfail(o, err, err_len, "proto",
				 "protocol '%s' is not supported yet (only udp, udp4, udp6) in static-key "
				 "mode",
				 o->proto_name);
	/* `tcp` is tcp-server with `server`, tcp-client with `client`, else ambiguous (OpenVPN) */
	if (o->proto_tcp_generic) {
		if (o->has_server)
			o->proto = BRAID_PROTO_TCP_SERVER;
		else if (o->client)
			o->proto = BRAID_PROTO_TCP_CLIENT;
		else
			return opt_lfail(o, err, err_len, "proto",
					 "'tcp' is ambiguous in this context: use 'tcp-server' or "
					 "'tcp-client'");
		o->proto_tcp_generic = false;
	}
	for (unsigned int i = 0; i < o->n_remotes; i++) {
		struct braid_opt_remote *rm = &o->remotes[i];

		if (!rm->proto_tcp_generic || o->tls == BRAID_TLS_OFF)
			continue;	/* static-key: refused below */
		if (!o->client)
			return opt_lfail(o, err, err_len, "remote",
					 "'%s': 'tcp' is ambiguous in this context: use 'tcp-client'",
					 rm->host);
		rm->proto = BRAID_PROTO_TCP_CLIENT;
		rm->proto_tcp_generic = false;
	}
	if (o->mode == BRAID_MODE_SERVER) {
		r = opt_finalize_server(o, err, err_len);
	} else {
		r = finalize_not_server(o, err, err_len);
	}
	if (!r)
		r = opt_finalize_cluster(o, err, err_len);
	if (r)
		return r;
	if (o->multihome && (o->mode != BRAID_MODE_SERVER || o->proto != BRAID_PROTO_UDP))
		braid_warn("option 'multihome': only a UDP gateway (mode server) answers from the "
			   "address a packet came to; ignored here");
	if (o->had_connection) {	/* OpenVPN uses only the blocks then */
		unsigned int k = 0;

		for (unsigned int i = 0; i < o->n_remotes; i++) {
			if (o->remotes[i].from_connection) {
				o->remotes[k++] = o->remotes[i];
				continue;
			}
			braid_warn("option 'remote %s' is ignored: <connection> blocks are used",
				   o->remotes[i].host);
			free(o->remotes[i].host);
		}
		o->n_remotes = k;
	}
	for (unsigned int i = 0; i < o->n_remotes; i++) {
		struct braid_opt_remote *rm = &o->remotes[i];

		if (!rm->has_proto) {
			rm->proto = o->proto;
			rm->family = o->family;
		}
		if (!rm->from_connection)
			rm->nobind = o->nobind;
		if (rm->proto == BRAID_PROTO_TCP_SERVER && o->n_remotes > 1)
			return opt_lfail(o, err, err_len, "remote",
					 "TCP server mode allows at most one 'remote' address");
	}
	if (o->proto == BRAID_PROTO_TCP_CLIENT && !o->n_remotes)
		return opt_lfail(o, err, err_len, "proto", "'remote' MUST be used in TCP client mode");
	if (o->client && !o->n_remotes)
		return opt_lfail(o, err, err_len, "client", "needs at least one 'remote'");
	if (o->cipher_unsupported[0] && o->tls == BRAID_TLS_OFF)
		return opt_lfail(o, err, err_len, "cipher",
				 "unsupported cipher '%s' (supported: AES-256-GCM, AES-128-GCM, "
				 "CHACHA20-POLY1305)",
				 o->cipher_unsupported);
	if (o->cipher_unsupported[0])
		braid_warn("option 'cipher': '%s' is ignored: braidd uses the AEAD ciphers of "
			   "data-ciphers (the server pushes one)",
			   o->cipher_unsupported);
	if (o->tls == BRAID_TLS_OFF) {
		if (!o->secret.path && !o->secret.inline_text)
			return opt_ffail(err, err_len,
					 "neither 'secret' nor a TLS role given (braidd never runs "
					 "unencrypted): add 'client' (or 'tls-client' + 'pull'), 'server "
					 "NET MASK', or 'secret FILE' for the static-key point-to-point mode");
		r = opt_finalize_static(o, braid_options_blob_name, err, err_len);
		if (r)
			return r;
		if (o->compress != BRAID_OPT_COMP_NONE)
			return opt_lfail(o, err, err_len, "compress",
					 "compression framing is not supported in "
					 "static-key mode yet");
	} else {
		r = opt_finalize_tls(o, err, err_len);
		if (r)
			return r;
		r = opt_finalize_mptcp(o, err, err_len);
		if (r)
			return r;
		r = opt_finalize_mp_tls(o, err, err_len);
		if (r)
			return r;
		if (o->tls == BRAID_TLS_SERVER && o->mode != BRAID_MODE_SERVER)
			return opt_lfail(o, err, err_len, "tls-server",
					 "TLS point-to-point mode ('tls-server' without 'mode server' or "
					 "'server') is not supported by braidd yet");
		if (o->tls == BRAID_TLS_CLIENT && !o->pull)	/* the client always pulls */
			return opt_lfail(o, err, err_len, "tls-client",
					 "TLS point-to-point mode ('tls-client' without 'pull') is not "
					 "supported by braidd yet: add 'pull' (or use 'client') against a "
					 "server that pushes the addresses");
		if (!o->tls_mode_supported)
			return opt_lfail(o, err, err_len, opt_role_opt(o),
					 "TLS mode is parsed, but this braidd cannot run it yet");
		return finalize_common(o, err, err_len);
	}
	dir = o->secret_dir != KEY_DIR_UNSET ? o->secret_dir : o->key_direction;
	if (dir == KEY_DIR_UNSET || dir == BRAID_KEY_DIR_BIDIRECTIONAL)
		return opt_ffail(err, err_len,
				 "option 'secret': an AEAD cipher needs a key direction: use "
				 "'key-direction 0' on one end and 'key-direction 1' on the other "
				 "(or 'secret FILE 0|1')");
	o->key_direction = dir;
	r = finalize_common(o, err, err_len);
	if (r)
		return r;
	return opt_finalize_mp(o, err, err_len);
}
