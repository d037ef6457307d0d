// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_dump.c - braid_options_dump(): the parsed model in canonical form, one
 * "name value" line each, key material as its length only.
 */
#include "config/options_dump.h"

#include "config/options.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "config/options_int.h"

struct dumpbuf {
	char *p;
	size_t len;	/* capacity */
	size_t used;	/* bytes that would have been written */
};

__attribute__((format(printf, 2, 3))) static void out(struct dumpbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->used < b->len ? b->p + b->used : NULL,
		      b->used < b->len ? b->len - b->used : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->used += (size_t)n;
}

static const char *yn(bool v)
{
	return v ? "yes" : "no";
}

static const char *fam_name(int f)
{
	return f == AF_INET ? "4" : f == AF_INET6 ? "6" : "any";
}

static const char *str_or(const char *s)
{
	return s ? s : "-";
}

static void out_ip4(struct dumpbuf *b, const char *name, struct in_addr a)
{
	char t[INET_ADDRSTRLEN];

	out(b, "%s %s\n", name, inet_ntop(AF_INET, &a, t, sizeof(t)));
}

static void out_source(struct dumpbuf *b, const char *name, const struct braid_opt_source *s)
{
	if (s->inline_text)
		out(b, "%s inline %zu bytes\n", name, s->inline_len);
	else if (s->path)
		out(b, "%s file %s\n", name, s->path);
}

static const char *const rg_names[] = { "enable", "def1", "bypass-dhcp", "bypass-dns", "local",
					"ipv6", "!ipv4", "block-local", "autolocal", "reroute-gw" };

size_t braid_options_dump(const struct braid_options *o, char *buf, size_t len)
{
	static const char *const topo[] = { "p2p", "net30", "subnet" };
	static const char *const rct[] = { "none", "server", "client" };
	static const char *const vcc[] = { "require", "optional", "none" };
	static const char *const x509[] = { "subject", "name", "name-prefix" };
	static const char *const ar[] = { "none", "nointeract", "interact" };
	static const char *const comp[] = { "none", "stub", "stub-v2", "lzo-no", "migrate" };
	static const char *const pf[] = { "accept", "ignore", "reject" };
	struct dumpbuf b = { buf, len, 0 };
	char t[INET6_ADDRSTRLEN];
	unsigned int i;

	if (len)
		buf[0] = '\0';
	/* role */
	out(&b, "mode %s\n", o->mode == BRAID_MODE_SERVER ? "server" : "p2p");
	out(&b, "tls %s\n", o->tls == BRAID_TLS_CLIENT ? "client"
			    : o->tls == BRAID_TLS_SERVER ? "server" : "off");
	out(&b, "pull %s\n", yn(o->pull));
	/* device */
	out(&b, "dev %s\n", o->dev);
	out(&b, "topology %s%s\n", topo[o->topology], o->has_topology ? "" : " (default)");
	out(&b, "tun-mtu %d\n", o->tun_mtu);
	out(&b, "mssfix %d\n", o->mssfix);
	if (o->has_ifconfig) {
		char l[INET_ADDRSTRLEN], r[INET_ADDRSTRLEN];

		out(&b, "ifconfig %s %s%s\n", inet_ntop(AF_INET, &o->ifc_local, l, sizeof(l)),
		    inet_ntop(AF_INET, &o->ifc_remote, r, sizeof(r)),
		    o->ifc_is_netmask ? " (netmask)" : "");
	}
	if (o->has_ifconfig6) {
		char r[INET6_ADDRSTRLEN];

		out(&b, "ifconfig-ipv6 %s/%u %s\n", inet_ntop(AF_INET6, &o->ifc6_local, t, sizeof(t)),
		    o->ifc6_prefix, inet_ntop(AF_INET6, &o->ifc6_remote, r, sizeof(r)));
	}
	for (i = 0; i < o->n_routes; i++) {
		const struct braid_opt_route *r = &o->routes[i];
		char g[INET6_ADDRSTRLEN] = "-";

		if (r->has_gw)
			inet_ntop(r->family, r->gw, g, sizeof(g));
		out(&b, "route[%u] %s/%u gw %s metric %u\n", i,
		    inet_ntop(r->family, r->dst, t, sizeof(t)), r->prefix, g, r->metric);
	}
	/* transport */
	out(&b, "proto %s\n", braid_options_proto_name(o->proto));
	out(&b, "family %s\n", fam_name(o->family));
	for (i = 0; i < o->n_remotes; i++) {
		const struct braid_opt_remote *r = &o->remotes[i];

		out(&b, "remote[%u] %s port %u proto %s family %s nobind %s%s\n", i, r->host,
		    r->port ? r->port : o->rport, braid_options_proto_name(r->proto),
		    fam_name(r->family), yn(r->nobind), r->from_connection ? " (connection)" : "");
	}
	out(&b, "remote-random %s\n", yn(o->remote_random));
	out(&b, "connect-retry %d %d\n", o->connect_retry, o->connect_retry_max_backoff);
	out(&b, "connect-retry-max %d\n", o->connect_retry_max);
	out(&b, "server-poll-timeout %d\n", o->server_poll_timeout);
	out(&b, "local %s\n", str_or(o->local));
	out(&b, "lport %u\nrport %u\n", o->lport, o->rport);
	out(&b, "nobind %s\nfloat %s\n", yn(o->nobind), yn(o->float_ok));
	if (o->multihome)	/* only when set: the golden dumps stay as they were */
		out(&b, "multihome yes%s\n", o->multihome_same_if ? " same-interface" : "");
	if (o->mptcp)	/* these three only when set, as multihome */
		out(&b, "mptcp %s%s\n", o->mptcp == BRAID_OPT_MPTCP_ON ? "on" : "auto",
		    o->mptcp_paths ? " (mp-path lines: MPTCP endpoints)" : "");
	if (o->mptcp_pm)
		out(&b, "mptcp-pm %s\n", o->mptcp_pm == 2 ? "userspace" : "kernel");
	if (o->sndbuf || o->rcvbuf)
		out(&b, "sndbuf %d\nrcvbuf %d\n", o->sndbuf, o->rcvbuf);
	/* data channel */
	out(&b, "cipher %s\n", o->cipher[0] ? o->cipher : "-");
	out(&b, "data-ciphers %s\n", o->data_ciphers[0] ? o->data_ciphers : "-");
	out(&b, "data-ciphers-fallback %s\n", str_or(o->data_ciphers_fallback));
	out_source(&b, "secret", &o->secret);
	out(&b, "key-direction %d\n", o->key_direction);
	out(&b, "peer-id %u\n", o->peer_id);
	out(&b, "replay-window %u\n", o->replay_window);
	out(&b, "compress %s\n", comp[o->compress]);
	/* TLS */
	for (i = 0; i < BRAID_BLOB_COUNT; i++)
		out_source(&b, braid_options_blob_name((enum braid_opt_blob)i), &o->blobs[i]);
	out(&b, "tls-auth-dir %d\n", o->tls_auth_dir);
	out(&b, "dh-none %s\n", yn(o->dh_none));
	out(&b, "auth %s\n", o->auth_digest);
	out(&b, "tls-version-min %s%s\n", o->tls_version_min[0] ? o->tls_version_min : "-",
	    o->tls_version_min_or_highest ? " or-highest" : "");
	out(&b, "tls-version-max %s\n", o->tls_version_max[0] ? o->tls_version_max : "-");
	out(&b, "tls-cipher %s\n", str_or(o->tls_cipher));
	out(&b, "tls-ciphersuites %s\n", str_or(o->tls_ciphersuites));
	out(&b, "tls-groups %s\n", str_or(o->tls_groups));
	out(&b, "remote-cert-tls %s\n", rct[o->remote_cert_tls]);
	out(&b, "verify-x509-name %s %s\n", str_or(o->verify_x509_name),
	    x509[o->verify_x509_type]);
	out(&b, "verify-client-cert %s\n", vcc[o->verify_client_cert]);
	out(&b, "hand-window %d\ntls-timeout %d\n", o->hand_window, o->tls_timeout);
	out(&b, "reneg-sec %d %d\n", o->reneg_sec, o->reneg_sec_min);
	out(&b, "tran-window %d\n", o->tran_window);
	out(&b, "reneg-bytes %llu\nreneg-pkts %llu\n", (unsigned long long)o->reneg_bytes,
	    (unsigned long long)o->reneg_pkts);
	out(&b, "tls-exit %s\n", yn(o->tls_exit));
	/* client */
	out(&b, "auth-user-pass %s\n", yn(o->has_auth_user_pass));
	out(&b, "auth-retry %s\n", ar[o->auth_retry]);
	out(&b, "route-nopull %s\n", yn(o->route_nopull));
	if (o->dns_updown != BRAID_DNS_UPDOWN_AUTO)	/* only when set: the goldens predate it */
		out(&b, "dns-updown %s\n",
		    o->dns_updown == BRAID_DNS_UPDOWN_DISABLE ? "disable" : "force");
	for (i = 0; i < o->n_pull_filters; i++)
		out(&b, "pull-filter[%u] %s \"%s\"\n", i, pf[o->pull_filters[i].action],
		    o->pull_filters[i].text);
	out(&b, "redirect-gateway");
	for (i = 0; i < sizeof(rg_names) / sizeof(rg_names[0]); i++)
		if (o->redirect_gw & (1u << i))
			out(&b, " %s", rg_names[i]);
	out(&b, o->redirect_gw ? "\n" : " -\n");
	for (i = 0; i < o->n_dhcp_options; i++)
		out(&b, "dhcp-option[%u] %s %s\n", i, o->dhcp_options[i].type,
		    str_or(o->dhcp_options[i].value));
	out(&b, "up %s\ndown %s\n", str_or(o->up), str_or(o->down));
	out(&b, "script-security %d\n", o->script_security);
	if (o->has_route_gateway)
		out_ip4(&b, "route-gateway", o->route_gateway);
	else
		out(&b, "route-gateway %s\n", o->route_gateway_dhcp ? "dhcp" : "-");
	out(&b, "explicit-exit-notify %d\n", o->explicit_exit_notify);
	for (i = 0; i < o->n_setenv; i++)
		out(&b, "setenv[%u] %s \"%s\"\n", i, o->setenv[i].name, o->setenv[i].value);
	out(&b, "push-peer-info %s\n", yn(o->push_peer_info));
	/* gateway */
	if (o->has_server) {
		char m[INET_ADDRSTRLEN];

		out(&b, "server %s %s%s\n", inet_ntop(AF_INET, &o->server_net, t, sizeof(t)),
		    inet_ntop(AF_INET, &o->server_mask, m, sizeof(m)),
		    o->server_nopool ? " nopool" : "");
	}
	if (o->has_server6)
		out(&b, "server-ipv6 %s/%u\n", inet_ntop(AF_INET6, &o->server6_net, t, sizeof(t)),
		    o->server6_prefix);
	if (o->has_ifconfig_pool) {
		char e[INET_ADDRSTRLEN], m[INET_ADDRSTRLEN];

		out(&b, "ifconfig-pool %s %s %s\n",
		    inet_ntop(AF_INET, &o->ifconfig_pool_start, t, sizeof(t)),
		    inet_ntop(AF_INET, &o->ifconfig_pool_end, e, sizeof(e)),
		    o->ifconfig_pool_mask.s_addr
			    ? inet_ntop(AF_INET, &o->ifconfig_pool_mask, m, sizeof(m)) : "-");
	}
	for (i = 0; i < o->n_push; i++)
		out(&b, "push[%u] \"%s\"\n", i, o->push[i]);
	out(&b, "client-config-dir %s\n", str_or(o->client_config_dir));
	out(&b, "ccd-exclusive %s\nclient-to-client %s\nduplicate-cn %s\n", yn(o->ccd_exclusive),
	    yn(o->client_to_client), yn(o->duplicate_cn));
	out(&b, "username-as-common-name %s\nauth-user-pass-optional %s\n",
	    yn(o->username_as_common_name), yn(o->auth_user_pass_optional));
	out(&b, "max-clients %d\n", o->max_clients);
	out(&b, "auth-user-pass-verify %s %s\n", str_or(o->auth_user_pass_verify),
	    o->auth_user_pass_verify_method == BRAID_AUPV_VIA_FILE ? "via-file" : "via-env");
	out(&b, "status %s %d\n", str_or(o->status_path), o->status_interval);
	out(&b, "status-version %d\n", o->status_version);
	out(&b, "status-json %s %d\n", str_or(o->status_json_path), o->status_json_interval);
	out(&b, "ifconfig-pool-persist %s %d\n", str_or(o->ifconfig_pool_persist),
	    o->ifconfig_pool_persist_sec);
	out(&b, "keepalive %d %d\n", o->keepalive_ping, o->keepalive_restart);
	out(&b, "ping %d\nping-restart %d\nping-exit %d\n", o->ping, o->ping_restart, o->ping_exit);
	out(&b, "connect-freq %d %d\n", o->connect_freq_n, o->connect_freq_sec);
	if (o->cfi_n)	/* printed only when set: the golden dumps predate it */
		out(&b, "connect-freq-initial %d %d\n", o->cfi_n, o->cfi_sec);
	if (o->workers < 0)	/* printed only when set, as above */
		out(&b, "workers auto\n");
	else if (o->workers > 0)
		out(&b, "workers %d\n", o->workers);
	out(&b, "client-connect %s\nclient-disconnect %s\n", str_or(o->client_connect),
	    str_or(o->client_disconnect));
	out(&b, "user %s\ngroup %s\nchroot %s\n", str_or(o->user), str_or(o->group),
	    str_or(o->chroot_dir));
	/* process */
	out(&b, "verb %d\nmute-replay-warnings %s\n", o->verb, yn(o->mute_replay_warnings));
	out(&b, "log %s%s\n", str_or(o->log_path), o->log_append ? " (append)" : "");
	out(&b, "writepid %s\n", str_or(o->writepid));
	/* the command-line process options: only when given (the golden dumps predate them) */
	if (o->cd_dir)
		out(&b, "cd %s\n", o->cd_dir);
	if (o->suppress_timestamps || o->machine_readable)
		out(&b, "log format%s%s\n", o->suppress_timestamps ? " suppress-timestamps" : "",
		    o->machine_readable ? " machine-readable" : "");
	if (o->daemon || o->use_syslog)
		out(&b, "daemon %s syslog %s ident %s\n", yn(o->daemon), yn(o->use_syslog),
		    str_or(o->syslog_ident));
	if (o->genkey_type)
		out(&b, "genkey %s %s\n", o->genkey_type, str_or(o->genkey_file));
	out(&b, "multipath %d\n", o->multipath);
	for (i = 0; i < o->n_mp_paths; i++) {
		const struct braid_opt_mp_path *p = &o->mp_paths[i];

		out(&b, "mp-path[%u] %s %s port %u backup %s cap %llu\n", i, p->local,
		    str_or(p->remote), p->port, yn(p->backup), (unsigned long long)p->cap_bps);
	}
	for (i = 0; i < o->n_mp_auto_incl; i++)
		out(&b, "mp-auto-include[%u] %s\n", i, o->mp_auto_incl[i]);
	for (i = 0; i < o->n_mp_auto_excl; i++)
		out(&b, "mp-auto-exclude[%u] %s\n", i, o->mp_auto_excl[i]);
	out(&b, "mp-scheduler %s\nmp-reorder-ms %u\nmp-path-timeout %u\n", o->mp_sched,
	    o->mp_reorder_ms, o->mp_path_timeout);
	for (i = 0; i < o->mp_classes.n; i++) {
		char rule[160];

		braid_mpclass_format(&o->mp_classes.r[i], rule, sizeof(rule));
		out(&b, "mp-class[%u] %s\n", i, rule);
	}
	out(&b, "control-socket %s\n", str_or(o->control_socket));
	if (o->mgmt_addr || o->mgmt_hold || o->mgmt_query_passwords || o->mgmt_client_auth)
		out(&b, "management %s %d%s pw %s user %s group %s hold %d query-passwords %d "
		    "client-auth %d log-cache %d query-remote %d\n", str_or(o->mgmt_addr),
		    o->mgmt_port, o->mgmt_unix ? " unix" : "", str_or(o->mgmt_pwfile),
		    str_or(o->mgmt_client_user), str_or(o->mgmt_client_group), o->mgmt_hold,
		    o->mgmt_query_passwords, o->mgmt_client_auth, o->mgmt_log_cache,
		    o->mgmt_query_remote);
	if (o->mgmt_up_down || o->mgmt_connect_out)	/* a line of its own: older dumps stay */
		out(&b, "management-up-down %d management-client %d\n", o->mgmt_up_down,
		    o->mgmt_connect_out);
	if (o->metrics_addr)
		out(&b, "metrics %s %d%s max-clients %d\n", o->metrics_addr, o->metrics_port,
		    o->metrics_remote ? " allow-remote" : "", o->metrics_max_clients);
	if (o->cluster_etcd)
		out(&b, "cluster-etcd %s prefix %s ttl %d gateway-id %d\n", o->cluster_etcd,
		    o->cluster_prefix ? o->cluster_prefix : "-", o->cluster_ttl, o->cluster_gw_id);
	if (o->dco != BRAID_DCO_AUTO)	/* only when given (the golden dumps predate it) */
		out(&b, "dco %s\n", o->dco == BRAID_DCO_ON ? "on" : "off");
	if (o->dco_sched_file) {
		out(&b, "dco-scheduler %s", o->dco_sched_file);
		for (unsigned int i = 0; i < o->n_dco_sched_steps; i++)
			out(&b, " %s", o->dco_sched_steps[i]);
		out(&b, "\n");
	}
	out(&b, "ignored-unknown %u\n", o->n_ignored);
	return b.used;
}
