// SPDX-License-Identifier: GPL-2.0-only
/*
 * script.c - up/down scripts (see script.h).
 */
#include "session/script.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/log.h"

#define MAX_ARGV 64

/* Append an allocated "NAME=VALUE" (taken over, freed on error). */
static int env_push(struct braid_script_env *e, char *kv)
{
	if (e->n + 2 > e->cap) {
		size_t cap = e->cap ? e->cap * 2 : 32;
		char **v = realloc(e->v, cap * sizeof(*v));

		if (!v) {
			free(kv);
			return -ENOMEM;
		}
		e->v = v;
		e->cap = cap;
	}
	e->v[e->n++] = kv;
	e->v[e->n] = NULL;
	return 0;
}

int braid_script_env_add(struct braid_script_env *e, const char *name, const char *fmt, ...)
{
	char *val = NULL, *kv = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&val, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	r = asprintf(&kv, "%s=%s", name, val);
	free(val);
	if (r < 0)
		return -ENOMEM;
	return env_push(e, kv);
}

void braid_script_env_free(struct braid_script_env *e)
{
	for (size_t i = 0; i < e->n; i++)
		free(e->v[i]);
	free(e->v);
	memset(e, 0, sizeof(*e));
}

extern char **environ;

static bool env_has(const struct braid_script_env *e, const char *kv)
{
	size_t n = strcspn(kv, "=");

	for (size_t i = 0; i < e->n; i++)
		if (!strncmp(e->v[i], kv, n) && e->v[i][n] == '=')
			return true;
	return false;
}

/* The daemon's own environment (PATH, ...) follows, as OpenVPN's scripts inherit it. */
static int inherit_environ(struct braid_script_env *e)
{
	for (char **v = environ; v && *v; v++) {
		const char *eq = strchr(*v, '=');
		char *kv;
		int r;

		if (!eq || env_has(e, *v))
			continue;
		kv = strdup(*v);
		if (!kv)
			return -ENOMEM;
		r = env_push(e, kv);
		if (r)
			return r;
	}
	return 0;
}

static const char *ntop4(struct in_addr a, char *buf, size_t len)
{
	if (!inet_ntop(AF_INET, &a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

static const char *ntop(int fam, const void *a, char *buf, size_t len)
{
	if (!inet_ntop(fam, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

int braid_script_env_tunnel(struct braid_script_env *e, const struct braid_options *o,
			    const char *script_type, const char *ifname, int tun_mtu,
			    const struct braid_pushed *p, const union braid_sockaddr *server)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	unsigned int n4 = 0, n6 = 0;
	int r = 0;

#define ADD(...)                                                                                   \
	do {                                                                                       \
		r = braid_script_env_add(e, __VA_ARGS__);                                          \
		if (r)                                                                             \
			return r;                                                                  \
	} while (0)
	ADD("script_type", "%s", script_type);
	ADD("script_context", "init");
	ADD("dev", "%s", ifname);
	ADD("dev_type", "tun");
	ADD("tun_mtu", "%d", tun_mtu);
	ADD("link_mtu", "%d", tun_mtu + 100);
	ADD("verb", "%d", o->verb);
	ADD("daemon", "0");
	for (unsigned int i = 0; i < o->n_setenv; i++)
		ADD(o->setenv[i].name, "%s", o->setenv[i].value ? o->setenv[i].value : "");
	if (server) {
		uint16_t port = server->sa.sa_family == AF_INET ? ntohs(server->in.sin_port)
								: ntohs(server->in6.sin6_port);
		const void *ad = server->sa.sa_family == AF_INET ? (const void *)&server->in.sin_addr
								 : (const void *)&server->in6.sin6_addr;

		ntop(server->sa.sa_family, ad, a, sizeof(a));
		ADD("trusted_ip", "%s", a);
		ADD("trusted_port", "%u", port);
		ADD("remote_1", "%s", a);
		ADD("remote_port_1", "%u", port);
		ADD("proto_1", "%s", o->proto == BRAID_PROTO_UDP ? "udp" : "tcp-client");
	}
	if (!p)
		return 0;
	if (p->has_ifconfig) {
		ADD("ifconfig_local", "%s", ntop4(p->ifc_local, a, sizeof(a)));
		if (p->topology == BRAID_TOPO_SUBNET)
			ADD("ifconfig_netmask", "%s", ntop4(p->ifc_remote, a, sizeof(a)));
		else
			ADD("ifconfig_remote", "%s", ntop4(p->ifc_remote, a, sizeof(a)));
	}
	if (p->has_route_gateway)
		ADD("route_vpn_gateway", "%s", ntop4(p->route_gateway, a, sizeof(a)));
	else if (p->has_ifconfig && p->topology != BRAID_TOPO_SUBNET)
		ADD("route_vpn_gateway", "%s", ntop4(p->ifc_remote, a, sizeof(a)));
	if (p->has_ifconfig6) {
		ADD("ifconfig_ipv6_local", "%s", ntop(AF_INET6, &p->ifc6_local, a, sizeof(a)));
		ADD("ifconfig_ipv6_netbits", "%u", p->ifc6_prefix);
		ADD("ifconfig_ipv6_remote", "%s", ntop(AF_INET6, &p->ifc6_remote, a, sizeof(a)));
	}
	for (unsigned int i = 0; i < p->n_routes; i++) {
		const struct braid_opt_route *rt = &p->routes[i];
		char name[48];

		if (rt->family == AF_INET) {
			uint32_t m = rt->prefix ? htonl(0xffffffffu << (32 - rt->prefix)) : 0;
			struct in_addr mask = { .s_addr = m };

			n4++;
			snprintf(name, sizeof(name), "route_network_%u", n4);
			ADD(name, "%s", ntop(AF_INET, rt->dst, a, sizeof(a)));
			snprintf(name, sizeof(name), "route_netmask_%u", n4);
			ADD(name, "%s", ntop4(mask, b, sizeof(b)));
			if (p->has_route_gateway) {
				snprintf(name, sizeof(name), "route_gateway_%u", n4);
				ADD(name, "%s", ntop4(p->route_gateway, b, sizeof(b)));
			}
			if (rt->metric) {
				snprintf(name, sizeof(name), "route_metric_%u", n4);
				ADD(name, "%u", rt->metric);
			}
		} else {
			n6++;
			snprintf(name, sizeof(name), "route_ipv6_network_%u", n6);
			ADD(name, "%s/%u", ntop(AF_INET6, rt->dst, a, sizeof(a)), rt->prefix);
			if (p->has_ifconfig6) {
				snprintf(name, sizeof(name), "route_ipv6_gateway_%u", n6);
				ADD(name, "%s", ntop(AF_INET6, &p->ifc6_remote, b, sizeof(b)));
			}
		}
	}
	/* the client's own dhcp-option lines first, then the pushed ones (OpenVPN's order) */
	unsigned int nf = 0;

	for (unsigned int i = 0; i < o->n_dhcp_options; i++) {
		char name[48];

		snprintf(name, sizeof(name), "foreign_option_%u", ++nf);
		ADD(name, "dhcp-option %s%s%s", o->dhcp_options[i].type,
		    o->dhcp_options[i].value ? " " : "",
		    o->dhcp_options[i].value ? o->dhcp_options[i].value : "");
	}
	for (unsigned int i = 0; i < p->n_dhcp; i++) {
		char name[48];

		snprintf(name, sizeof(name), "foreign_option_%u", ++nf);
		ADD(name, "dhcp-option %s", p->dhcp[i]);
	}
#undef ADD
	return 0;
}

int braid_script_env_process(struct braid_script_env *e, const struct braid_options *o)
{
	static time_t start;
	int r = 0;

	if (!start)
		start = time(NULL);
	if (o->config_path[0] && !env_has(e, "config="))
		r = braid_script_env_add(e, "config", "%s", o->config_path);
	if (!r)
		r = braid_script_env_add(e, "daemon_log_redirect", "%d", o->log_path ? 1 : 0);
	if (!r)
		r = braid_script_env_add(e, "daemon_start_time", "%lld", (long long)start);
	if (!r)
		r = braid_script_env_add(e, "daemon_pid", "%d", (int)getpid());
	return r;
}

/* The static-key peer's up/down environment into *env (finished), the device's addresses into a
 * new *pp (free it). */
static int p2p_env(const struct braid_options *o, bool up, const char *ifname,
		   struct braid_script_env *env, struct braid_pushed **pp)
{
	struct braid_pushed *p;
	int r;

	p = calloc(1, sizeof(*p));	/* the configuration's addresses, as a push would give them */
	if (!p)
		return -ENOMEM;
	p->has_ifconfig = o->has_ifconfig;
	p->ifc_local = o->ifc_local;
	p->ifc_remote = o->ifc_remote;
	p->topology = o->ifc_is_netmask ? BRAID_TOPO_SUBNET : BRAID_TOPO_P2P;
	p->has_ifconfig6 = o->has_ifconfig6;
	p->ifc6_local = o->ifc6_local;
	p->ifc6_prefix = o->ifc6_prefix;
	p->ifc6_remote = o->ifc6_remote;
	r = braid_script_env_tunnel(env, o, up ? "up" : "down", ifname, o->tun_mtu, p, NULL);
	if (!r)
		r = braid_script_env_process(env, o);
	/* the connection as configured (stock's local_1 ... remote_port_1); the peer's address is not given */
	if (!r && o->local && !o->nobind)
		r = braid_script_env_add(env, "local_1", "%s", o->local);
	if (!r && !o->nobind)
		r = braid_script_env_add(env, "local_port_1", "%u",
					 o->lport ? o->lport : BRAID_OPT_DEFAULT_PORT);
	if (!r)
		r = braid_script_env_add(env, "proto_1", "%s", o->proto == BRAID_PROTO_UDP ? "udp" :
					 o->proto == BRAID_PROTO_TCP_SERVER ? "tcp-server" : "tcp-client");
	if (!r && o->n_remotes)
		r = braid_script_env_add(env, "remote_1", "%s", o->remotes[0].host);
	if (!r)
		r = braid_script_env_add(env, "remote_port_1", "%u",
					 o->n_remotes && o->remotes[0].port ? o->remotes[0].port :
					 o->rport ? o->rport : BRAID_OPT_DEFAULT_PORT);
	if (!r && !up)
		r = braid_script_env_add(env, "signal", "sigterm");
	if (!r)
		r = braid_script_env_finish(env);
	*pp = p;
	return r;
}

int braid_script_env_p2p(const struct braid_options *o, bool up, const char *ifname,
			 struct braid_script_env *env)
{
	struct braid_pushed *p = NULL;
	int r = p2p_env(o, up, ifname, env, &p);

	free(p);
	return r;
}

int braid_script_run_p2p(const struct braid_options *o, bool up, const char *ifname)
{
	const char *cmd = up ? o->up : o->down;
	struct braid_script_env env = { 0 };
	struct braid_pushed *p = NULL;
	int r;

	if (!cmd)
		return 0;
	r = p2p_env(o, up, ifname, &env, &p);
	if (!r)
		r = braid_script_run(up ? "up" : "down", cmd, o, ifname, o->tun_mtu, p, &env);
	braid_script_env_free(&env);
	free(p);
	return r;
}

int braid_script_env_finish(struct braid_script_env *e)
{
	e->n_own = e->n;
	return inherit_environ(e);
}

int braid_script_run(const char *what, const char *cmd, const struct braid_options *o,
		     const char *ifname, int tun_mtu, const struct braid_pushed *p,
		     struct braid_script_env *env)
{
	char *copy, *argv[MAX_ARGV + 8], *save = NULL;
	char mtu[16], lmtu[16], loc[INET6_ADDRSTRLEN] = "", rem[INET6_ADDRSTRLEN] = "";
	int argc = 0, status, r;
	pid_t pid;

	if (o->script_security < 2) {
		braid_err("%s script '%s' not run: external programs need 'script-security 2' or "
			  "higher", what, cmd);
		return -EPERM;
	}
	copy = strdup(cmd);
	if (!copy)
		return -ENOMEM;
	for (char *t = strtok_r(copy, " \t", &save); t && argc < MAX_ARGV;
	     t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	if (!argc) {
		free(copy);
		braid_err("%s script: empty command", what);
		return -EINVAL;
	}
	snprintf(mtu, sizeof(mtu), "%d", tun_mtu);
	snprintf(lmtu, sizeof(lmtu), "%d", tun_mtu + 100);
	if (p && p->has_ifconfig) {
		ntop4(p->ifc_local, loc, sizeof(loc));
		ntop4(p->ifc_remote, rem, sizeof(rem));
	}
	argv[argc++] = (char *)ifname;
	argv[argc++] = mtu;
	argv[argc++] = lmtu;
	argv[argc++] = loc;
	argv[argc++] = rem;
	argv[argc++] = "init";
	argv[argc] = NULL;
	braid_info("running %s script: %s %s %s %s %s %s init", what, cmd, ifname, mtu, lmtu, loc,
		   rem);
	pid = fork();
	if (pid < 0) {
		r = -errno;
		braid_err("%s script: fork failed: %s", what, strerror(-r));
		free(copy);
		return r;
	}
	if (pid == 0) {
		execve(argv[0], argv, env->v);
		fprintf(stderr, "braidd: %s script '%s': %s\n", what, argv[0], strerror(errno));
		_exit(127);
	}
	free(copy);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			r = -errno;
			braid_err("%s script: wait failed: %s", what, strerror(-r));
			return r;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status))
		braid_err("%s script '%s' failed with exit status %d", what, cmd,
			  WEXITSTATUS(status));
	else
		braid_err("%s script '%s' killed by signal %d", what, cmd,
			  WIFSIGNALED(status) ? WTERMSIG(status) : -1);
	return -ECHILD;
}
