// SPDX-License-Identifier: GPL-2.0-only
/*
 * push.c - PUSH_REPLY split/accumulate, pull-filter, parse and apply (see push.h).
 */
#include "session/push.h"

#include <arpa/inet.h>
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "util/log.h"
#include "os/netlink.h"

#define PUSH_PREFIX "PUSH_REPLY"
#define CONT_MORE "push-continuation 2"
#define CONT_LAST "push-continuation 1"

void braid_push_list_clear(struct braid_push_list *l)
{
	for (unsigned int i = 0; i < l->n; i++)
		free(l->opt[i]);
	memset(l, 0, sizeof(*l));
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	return s;
}

int braid_push_accumulate(struct braid_push_list *l, const char *msg, char *err, size_t err_len)
{
	size_t plen = strlen(PUSH_PREFIX);
	bool more = false;
	char *copy, *p, *tok, *save = NULL;

	if (strncmp(msg, PUSH_PREFIX, plen) || (msg[plen] != '\0' && msg[plen] != ',')) {
		snprintf(err, err_len, "not a PUSH_REPLY: '%.40s'", msg);
		return -EBADMSG;
	}
	if (l->complete)
		braid_push_list_clear(l);
	copy = strdup(msg + plen);
	if (!copy) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	l->parts++;
	for (p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		tok = trim(p);
		if (!*tok)
			continue;	/* ",," is tolerated as OpenVPN does */
		if (!strcmp(tok, CONT_MORE)) {
			more = true;
			continue;
		}
		if (!strcmp(tok, CONT_LAST)) {
			more = false;
			continue;
		}
		if (l->n >= BRAID_PUSH_MAX_OPTS) {
			snprintf(err, err_len, "PUSH_REPLY has more than %d options",
				 BRAID_PUSH_MAX_OPTS);
			free(copy);
			return -EBADMSG;
		}
		l->opt[l->n] = strdup(tok);
		if (!l->opt[l->n]) {
			free(copy);
			snprintf(err, err_len, "out of memory");
			return -ENOMEM;
		}
		l->n++;
	}
	free(copy);
	if (more)
		return 0;
	l->complete = true;
	return 1;
}

int braid_push_split(const char *const *opts, unsigned int n, size_t max_len,
		     int (*emit)(void *user, const char *msg), void *user)
{
	/* room reserved at the end of every message for the continuation marker */
	const size_t tail = 1 + strlen(CONT_MORE);
	char msg[BRAID_PUSH_MSG_MAX + 1];
	size_t len;
	unsigned int i = 0;
	bool first = true;
	int r;

	if (!max_len || max_len > BRAID_PUSH_MSG_MAX)
		max_len = BRAID_PUSH_MSG_MAX;
	for (unsigned int k = 0; k < n; k++) {
		if (strchr(opts[k], ','))
			return -EINVAL;
		if (strlen(PUSH_PREFIX) + 1 + strlen(opts[k]) + tail > max_len)
			return -EMSGSIZE;
	}
	/* everything in one message: no continuation marker at all */
	len = strlen(PUSH_PREFIX);
	for (unsigned int k = 0; k < n; k++)
		len += 1 + strlen(opts[k]);
	if (len <= max_len) {
		len = (size_t)snprintf(msg, sizeof(msg), "%s", PUSH_PREFIX);
		for (unsigned int k = 0; k < n; k++)
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, ",%s", opts[k]);
		return emit(user, msg);
	}
	while (i < n || first) {
		first = false;
		len = (size_t)snprintf(msg, sizeof(msg), "%s", PUSH_PREFIX);
		while (i < n && len + 1 + strlen(opts[i]) + tail <= max_len) {
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, ",%s", opts[i]);
			i++;
		}
		snprintf(msg + len, sizeof(msg) - len, ",%s", i < n ? CONT_MORE : CONT_LAST);
		r = emit(user, msg);
		if (r)
			return r;
	}
	return 0;
}

static bool route_nopull_drops(const char *opt)
{
	static const char *const names[] = { "route", "route-ipv6", "redirect-gateway",
					     "redirect-private", "dhcp-option", "dns",
					     "block-outside-dns", "route-gateway" };
	size_t l = strcspn(opt, " \t");

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == l && !strncmp(opt, names[i], l))
			return strcmp(names[i], "route-gateway") != 0;
	return false;
}

int braid_push_filter(struct braid_push_list *l, const struct braid_opt_pull_filter *rules,
		      unsigned int n_rules, bool route_nopull, char *err, size_t err_len)
{
	unsigned int w = 0;

	for (unsigned int i = 0; i < l->n; i++) {
		char *o = l->opt[i];
		bool keep = true;

		for (unsigned int k = 0; k < n_rules; k++) {
			if (strncmp(o, rules[k].text, strlen(rules[k].text)))
				continue;
			if (rules[k].action == BRAID_PF_REJECT) {
				snprintf(err, err_len, "pushed option rejected by pull-filter: '%s'",
					 o);
				/* keep the list consistent for the caller's clear */
				for (unsigned int j = i; j < l->n; j++)
					l->opt[w++] = l->opt[j];
				l->n = w;
				return -EPERM;
			}
			keep = rules[k].action == BRAID_PF_ACCEPT;
			if (!keep)
				braid_info("pushed option removed by pull-filter: '%s'", o);
			break;
		}
		if (keep && route_nopull && route_nopull_drops(o)) {
			braid_info("pushed option ignored (route-nopull): '%s'", o);
			keep = false;
		}
		if (keep)
			l->opt[w++] = o;
		else
			free(o);
	}
	l->n = w;
	return 0;
}

void braid_pushed_free(struct braid_pushed *p)
{
	for (unsigned int i = 0; i < p->n_dhcp; i++)
		free(p->dhcp[i]);
	if (p->auth_token) {
		sodium_memzero(p->auth_token, strlen(p->auth_token));
		free(p->auth_token);
	}
	memset(p, 0, sizeof(*p));
}

#define MAX_ARGS 8

static int split_args(char *s, char **argv)
{
	int argc = 0;
	char *save = NULL;

	for (char *t = strtok_r(s, " \t", &save); t && argc < MAX_ARGS; t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	return argc;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

static uint8_t mask_prefix(struct in_addr m)
{
	uint32_t v = ntohl(m.s_addr);
	uint8_t p = 0;

	while (p < 32 && (v & (0x80000000u >> p)))
		p++;
	return p;
}

static bool mask_valid(struct in_addr m)
{
	uint32_t v = ntohl(m.s_addr);

	return (v | (v - 1)) == 0xffffffffu || v == 0;
}

static int parse_route4(struct braid_pushed *p, int argc, char **argv, char *err, size_t err_len)
{
	struct braid_opt_route *rt;
	struct in_addr net, mask = { .s_addr = 0xffffffffu };
	int metric = 0;

	if (argc < 2 || argc > 5 || inet_pton(AF_INET, argv[1], &net) != 1) {
		snprintf(err, err_len, "pushed 'route': bad network '%s'", argc > 1 ? argv[1] : "");
		return -EINVAL;
	}
	if (argc > 2 && strcmp(argv[2], "default") &&
	    (inet_pton(AF_INET, argv[2], &mask) != 1 || !mask_valid(mask))) {
		snprintf(err, err_len, "pushed 'route %s': bad netmask '%s'", argv[1], argv[2]);
		return -EINVAL;
	}
	/* argv[3] = gateway (vpn_gateway, net_gateway, an address): the route goes on the TUN */
	if (argc > 4 && parse_int(argv[4], 0, 0x7fffffff, &metric)) {
		snprintf(err, err_len, "pushed 'route %s': bad metric '%s'", argv[1], argv[4]);
		return -EINVAL;
	}
	if (argc > 3 && !strcmp(argv[3], "net_gateway")) {
		braid_warn("pushed 'route %s ... net_gateway' not supported; ignored", argv[1]);
		p->n_ignored++;
		return 0;
	}
	if (p->n_routes >= BRAID_PUSH_MAX_ROUTES) {
		snprintf(err, err_len, "more than %d pushed routes", BRAID_PUSH_MAX_ROUTES);
		return -EINVAL;
	}
	rt = &p->routes[p->n_routes++];
	memset(rt, 0, sizeof(*rt));
	rt->family = AF_INET;
	net.s_addr &= mask.s_addr;
	memcpy(rt->dst, &net, 4);
	rt->prefix = mask_prefix(mask);
	rt->metric = (uint32_t)metric;
	return 0;
}

static int parse_prefix6(const char *s, struct in6_addr *a, uint8_t *prefix, uint8_t def)
{
	char buf[INET6_ADDRSTRLEN + 8];
	char *slash;
	int pl = def;

	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (slash) {
		*slash = '\0';
		if (parse_int(slash + 1, 0, 128, &pl))
			return -EINVAL;
	}
	if (inet_pton(AF_INET6, buf, a) != 1)
		return -EINVAL;
	*prefix = (uint8_t)pl;
	return 0;
}

static int parse_route6(struct braid_pushed *p, int argc, char **argv, char *err, size_t err_len)
{
	struct braid_opt_route *rt;
	struct in6_addr net;
	uint8_t prefix;
	int metric = 0;

	if (argc < 2 || argc > 4 || parse_prefix6(argv[1], &net, &prefix, 128)) {
		snprintf(err, err_len, "pushed 'route-ipv6': bad network '%s'",
			 argc > 1 ? argv[1] : "");
		return -EINVAL;
	}
	if (argc > 3 && parse_int(argv[3], 0, 0x7fffffff, &metric)) {
		snprintf(err, err_len, "pushed 'route-ipv6 %s': bad metric '%s'", argv[1], argv[3]);
		return -EINVAL;
	}
	if (p->n_routes >= BRAID_PUSH_MAX_ROUTES) {
		snprintf(err, err_len, "more than %d pushed routes", BRAID_PUSH_MAX_ROUTES);
		return -EINVAL;
	}
	for (int i = prefix; i < 128; i++)
		net.s6_addr[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
	rt = &p->routes[p->n_routes++];
	memset(rt, 0, sizeof(*rt));
	rt->family = AF_INET6;
	memcpy(rt->dst, &net, 16);
	rt->prefix = prefix;
	rt->metric = (uint32_t)metric;
	return 0;
}

static int parse_one(struct braid_pushed *p, char *line, char *err, size_t err_len)
{
	char *argv[MAX_ARGS];
	char orig[BRAID_PUSH_MSG_MAX + 1];
	int argc, v;

	snprintf(orig, sizeof(orig), "%s", line);
	argc = split_args(line, argv);
	if (!argc)
		return 0;
#define BAD(...)                                                                                   \
	do {                                                                                       \
		snprintf(err, err_len, __VA_ARGS__);                                               \
		return -EINVAL;                                                                    \
	} while (0)
	if (!strcmp(argv[0], "topology")) {
		if (argc != 2)
			BAD("pushed 'topology' needs one argument");
		if (!strcmp(argv[1], "subnet"))
			p->topology = BRAID_TOPO_SUBNET;
		else if (!strcmp(argv[1], "net30"))
			p->topology = BRAID_TOPO_NET30;
		else if (!strcmp(argv[1], "p2p"))
			p->topology = BRAID_TOPO_P2P;
		else
			BAD("pushed 'topology %s': unknown topology", argv[1]);
		p->has_topology = true;
	} else if (!strcmp(argv[0], "ifconfig")) {
		if (argc != 3 || inet_pton(AF_INET, argv[1], &p->ifc_local) != 1 ||
		    inet_pton(AF_INET, argv[2], &p->ifc_remote) != 1)
			BAD("pushed '%s': needs two IPv4 addresses", orig);
		p->has_ifconfig = true;
	} else if (!strcmp(argv[0], "ifconfig-ipv6")) {
		if (argc < 2 || argc > 3 || parse_prefix6(argv[1], &p->ifc6_local, &p->ifc6_prefix, 64) ||
		    (argc == 3 && inet_pton(AF_INET6, argv[2], &p->ifc6_remote) != 1))
			BAD("pushed '%s': needs ADDR/LEN [REMOTE]", orig);
		p->has_ifconfig6 = true;
	} else if (!strcmp(argv[0], "route-gateway")) {
		if (argc != 2)
			BAD("pushed 'route-gateway' needs one argument");
		if (!strcmp(argv[1], "dhcp")) {
			p->n_ignored++;
			return 0;
		}
		if (inet_pton(AF_INET, argv[1], &p->route_gateway) != 1)
			BAD("pushed 'route-gateway %s': not an IPv4 address", argv[1]);
		p->has_route_gateway = true;
	} else if (!strcmp(argv[0], "route")) {
		return parse_route4(p, argc, argv, err, err_len);
	} else if (!strcmp(argv[0], "route-ipv6")) {
		return parse_route6(p, argc, argv, err, err_len);
	} else if (!strcmp(argv[0], "redirect-gateway") || !strcmp(argv[0], "redirect-private")) {
		p->redirect = true;
		for (int i = 1; i < argc; i++) {
			if (!strcmp(argv[i], "def1"))
				p->redirect_flags |= BRAID_RG_DEF1;
			else if (!strcmp(argv[i], "local"))
				p->redirect_flags |= BRAID_RG_LOCAL;
			else if (!strcmp(argv[i], "bypass-dhcp"))
				p->redirect_flags |= BRAID_RG_BYPASS_DHCP;
			else if (!strcmp(argv[i], "ipv6"))
				p->redirect_flags |= BRAID_RG_IPV6;
			else if (!strcmp(argv[i], "!ipv4"))
				p->redirect_flags |= BRAID_RG_NOT_IPV4;
			else if (!strcmp(argv[i], "block-local"))
				p->redirect_flags |= BRAID_RG_BLOCK_LOCAL;
			else
				braid_info("pushed '%s': flag '%s' ignored", argv[0], argv[i]);
		}
		/* braidd always uses the two /1 routes (def1): it never replaces the default route */
		p->redirect_flags |= BRAID_RG_DEF1;
	} else if (!strcmp(argv[0], "dhcp-option")) {
		size_t off = strlen("dhcp-option");

		if (argc < 2)
			BAD("pushed 'dhcp-option' needs a type");
		if (p->n_dhcp >= BRAID_PUSH_MAX_DHCP)
			BAD("more than %d pushed dhcp-option lines", BRAID_PUSH_MAX_DHCP);
		while (orig[off] == ' ' || orig[off] == '\t')
			off++;
		p->dhcp[p->n_dhcp] = strdup(orig + off);
		if (!p->dhcp[p->n_dhcp])
			BAD("out of memory");
		p->n_dhcp++;
	} else if (!strcmp(argv[0], "peer-id")) {
		if (argc != 2 || parse_int(argv[1], 0, 0xffffff, &v))
			BAD("pushed 'peer-id': not a number 0..16777215");
		p->has_peer_id = true;
		p->peer_id = (uint32_t)v;
	} else if (!strcmp(argv[0], "braid-mp")) {
		/* Braid's multipath offer (docs/multipath-negotiation.md): version, replay window */
		int w;

		if (argc != 3 || parse_int(argv[1], 1, 255, &v) || parse_int(argv[2], 64, 65536, &w))
			BAD("pushed 'braid-mp' needs a version 1..255 and a replay window 64..65536");
		p->braid_mp = (unsigned int)v;
		p->braid_mp_window = (uint32_t)w;
	} else if (!strcmp(argv[0], "cipher")) {
		if (argc != 2 || strlen(argv[1]) >= sizeof(p->cipher))
			BAD("pushed 'cipher' needs one cipher name");
		snprintf(p->cipher, sizeof(p->cipher), "%s", argv[1]);
	} else if (!strcmp(argv[0], "protocol-flags")) {
		for (int i = 1; i < argc; i++) {
			if (!strcmp(argv[i], "cc-exit"))
				p->cc_exit = true;
			else if (!strcmp(argv[i], "tls-ekm"))
				p->tls_ekm = true;
			else if (!strcmp(argv[i], "dyn-tls-crypt"))
				p->dyn_tls_crypt = true;
			else
				braid_info("pushed protocol-flags: '%s' unknown, ignored", argv[i]);
		}
	} else if (!strcmp(argv[0], "key-derivation")) {
		if (argc != 2 || strcmp(argv[1], "tls-ekm"))
			BAD("pushed '%s': only 'key-derivation tls-ekm' is known", orig);
		p->tls_ekm = true;
	} else if (!strcmp(argv[0], "tun-mtu")) {
		if (argc != 2 || parse_int(argv[1], BRAID_OPT_TUN_MTU_MIN, BRAID_OPT_TUN_MTU_MAX, &v))
			BAD("pushed 'tun-mtu': not a number %d..%d", BRAID_OPT_TUN_MTU_MIN,
			    BRAID_OPT_TUN_MTU_MAX);
		p->tun_mtu = v;
	} else if (!strcmp(argv[0], "ping") || !strcmp(argv[0], "ping-restart")) {
		if (argc != 2 || parse_int(argv[1], 0, 86400, &v))
			BAD("pushed '%s': not a number of seconds", argv[0]);
		if (!strcmp(argv[0], "ping"))
			p->ping = v;
		else
			p->ping_restart = v;
	} else if (!strcmp(argv[0], "explicit-exit-notify")) {
		v = 1;
		if (argc > 2 || (argc == 2 && parse_int(argv[1], 0, 3600, &v)))
			BAD("pushed 'explicit-exit-notify': bad count");
		p->explicit_exit_notify = v;
	} else if (!strcmp(argv[0], "comp-lzo")) {
		if (argc != 2 || strcmp(argv[1], "no"))
			BAD("pushed '%s': compression is not supported (VORACLE); only 'comp-lzo no'",
			    orig);
		p->comp = BRAID_PUSH_COMP_LZO_NO;
		p->has_comp = true;
	} else if (!strcmp(argv[0], "compress")) {
		if (argc == 1 || !strcmp(argv[1], "stub"))
			p->comp = BRAID_PUSH_COMP_STUB;
		else if (!strcmp(argv[1], "stub-v2"))
			p->comp = BRAID_PUSH_COMP_STUB_V2;
		else
			BAD("pushed '%s': compression is not supported (VORACLE); only stub/stub-v2",
			    orig);
		p->has_comp = true;
	} else if (!strcmp(argv[0], "auth-token")) {
		if (argc != 2)
			BAD("pushed 'auth-token' needs one argument");
		if (p->auth_token) {
			sodium_memzero(p->auth_token, strlen(p->auth_token));
			free(p->auth_token);
		}
		p->auth_token = strdup(argv[1]);
		sodium_memzero(orig, sizeof(orig));
		if (!p->auth_token)
			BAD("out of memory");
	} else if (!strcmp(argv[0], "echo") || !strcmp(argv[0], "block-outside-dns") ||
		   !strcmp(argv[0], "dns") || !strcmp(argv[0], "auth-token-user") ||
		   !strcmp(argv[0], "inactive") || !strcmp(argv[0], "route-metric") ||
		   !strcmp(argv[0], "setenv") || !strcmp(argv[0], "setenv-safe") ||
		   !strcmp(argv[0], "ping-exit") || !strcmp(argv[0], "register-dns") ||
		   !strcmp(argv[0], "route-delay") || !strcmp(argv[0], "tun-ipv6")) {
		braid_dbg("pushed option '%s' accepted, not acted on", argv[0]);
		p->n_ignored++;
	} else {
		braid_warn("unrecognized pushed option ignored: '%s'", orig);
		p->n_ignored++;
	}
#undef BAD
	return 0;
}

int braid_push_parse(const struct braid_push_list *l, struct braid_pushed *out, char *err,
		     size_t err_len)
{
	char buf[BRAID_PUSH_MSG_MAX + 1];
	int r;

	memset(out, 0, sizeof(*out));
	out->ping = out->ping_restart = out->explicit_exit_notify = -1;
	out->topology = BRAID_TOPO_NET30;
	for (unsigned int i = 0; i < l->n; i++) {
		snprintf(buf, sizeof(buf), "%s", l->opt[i]);
		r = parse_one(out, buf, err, err_len);
		sodium_memzero(buf, sizeof(buf));
		if (r) {
			braid_pushed_free(out);
			return r;
		}
	}
	return 0;
}

/* ---- apply ---- */

/* The route the kernel uses now towards dst (before our /1 routes): gateway and device. */
static int route_lookup(int family, const void *dst, void *gw, bool *has_gw, int *ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *s;
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	struct nlattr *a;
	uint32_t seq = (uint32_t)time(NULL), portid;
	unsigned int alen = family == AF_INET ? 4 : 16;
	ssize_t n;
	int r = -ENOENT;

	s = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!s)
		return -errno;
	if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(s);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = alen * 8;
	mnl_attr_put(nlh, RTA_DST, alen, dst);
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out;
	}
	n = mnl_socket_recvfrom(s, buf, sizeof(buf));
	if (n < 0) {
		r = -errno;
		goto out;
	}
	nlh = (struct nlmsghdr *)buf;
	if (!braid_nl_buf_ok(buf, (size_t)n) || !mnl_nlmsg_ok(nlh, (int)n) ||
	    nlh->nlmsg_seq != seq || nlh->nlmsg_pid != portid) {
		r = -EPROTO;
		goto out;
	}
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
			r = -EPROTO;
			goto out;
		}
		r = e->error ? e->error : -ENOENT;
		if (r > 0 || r < -4095)	/* not an errno */
			r = -EPROTO;
		goto out;
	}
	*has_gw = false;
	*ifindex = 0;
	mnl_attr_for_each(a, nlh, sizeof(struct rtmsg)) {
		if (mnl_attr_get_type(a) == RTA_GATEWAY && mnl_attr_get_payload_len(a) == alen) {
			memcpy(gw, mnl_attr_get_payload(a), alen);
			*has_gw = true;
		} else if (mnl_attr_get_type(a) == RTA_OIF) {
			*ifindex = (int)mnl_attr_get_u32(a);
		}
	}
	r = *ifindex ? 0 : -ENOENT;
out:
	mnl_socket_close(s);
	return r;
}

static int add_route(struct braid_push_net *n, struct braid_nl *nl, const char *ifname,
		     int ifindex, const struct braid_opt_route *rt)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int r;

	if (n->n_routes >= sizeof(n->routes) / sizeof(n->routes[0]))
		return -ENOSPC;
	r = braid_nl_route(nl, true, ifindex, rt->family, rt->dst, rt->prefix,
			   rt->has_gw ? rt->gw : NULL, rt->metric);
	inet_ntop(rt->family, rt->dst, a, sizeof(a));
	if (rt->has_gw)
		inet_ntop(rt->family, rt->gw, b, sizeof(b));
	if (r == -EEXIST) {
		braid_warn("%s: route %s/%u already exists; left as it is", ifname, a, rt->prefix);
		return 0;
	}
	if (r) {
		braid_err("%s: cannot add route %s/%u: %s", ifname, a, rt->prefix, strerror(-r));
		return r;
	}
	n->routes[n->n_routes] = *rt;
	n->route_ifindex[n->n_routes] = ifindex;
	n->n_routes++;
	braid_info("%s: route %s/%u%s%s", ifname, a, rt->prefix, rt->has_gw ? " via " : "",
		   rt->has_gw ? b : "");
	return 0;
}

int braid_push_apply(struct braid_push_net *n, struct braid_nl *nl, int ifindex,
		     const char *ifname, const struct braid_pushed *p,
		     const union braid_sockaddr *server, unsigned int what)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int r;

	if (what & BRAID_PUSH_APPLY_ADDRS) {
		memset(n, 0, sizeof(*n));
		n->ifindex = ifindex;
	}
	if ((what & BRAID_PUSH_APPLY_ADDRS) && p->has_ifconfig) {
		bool subnet = p->topology == BRAID_TOPO_SUBNET;

		n->a4 = p->ifc_local;
		if (subnet) {
			n->prefix4 = mask_prefix(p->ifc_remote);
			r = braid_nl_addr(nl, true, ifindex, AF_INET, &p->ifc_local, NULL, n->prefix4);
		} else {
			n->p4 = p->ifc_remote;
			n->a4_is_ptp = true;
			n->prefix4 = 32;
			r = braid_nl_addr(nl, true, ifindex, AF_INET, &p->ifc_local, &p->ifc_remote,
					  32);
		}
		inet_ntop(AF_INET, &p->ifc_local, a, sizeof(a));
		inet_ntop(AF_INET, &p->ifc_remote, b, sizeof(b));
		if (r) {
			braid_err("%s: cannot add the pushed address %s: %s", ifname, a, strerror(-r));
			return r;
		}
		n->addr4 = true;
		if (subnet)
			braid_info("%s: address %s/%u (topology subnet)", ifname, a, n->prefix4);
		else
			braid_info("%s: address %s peer %s", ifname, a, b);
	}
	if ((what & BRAID_PUSH_APPLY_ADDRS) && p->has_ifconfig6) {
		r = braid_nl_addr(nl, true, ifindex, AF_INET6, &p->ifc6_local, NULL, p->ifc6_prefix);
		inet_ntop(AF_INET6, &p->ifc6_local, a, sizeof(a));
		if (r) {
			braid_err("%s: cannot add the pushed IPv6 address %s: %s", ifname, a,
				  strerror(-r));
			return r;
		}
		n->addr6 = true;
		n->a6 = p->ifc6_local;
		n->prefix6 = p->ifc6_prefix;
		braid_info("%s: address %s/%u", ifname, a, p->ifc6_prefix);
	}
	if (!(what & BRAID_PUSH_APPLY_ROUTES))
		return 0;
	/*
	 * redirect-gateway: first a host route to the server via the gateway it is reached by now (unless
	 * `local`), needed when the /1 routes of the server's family go to the TUN; then the /1 routes.
	 */
	bool redir4 = p->redirect && !(p->redirect_flags & BRAID_RG_NOT_IPV4);
	bool redir6 = p->redirect && (p->redirect_flags & BRAID_RG_IPV6);

	if (server && !(p->redirect_flags & BRAID_RG_LOCAL) &&
	    ((redir4 && server->sa.sa_family == AF_INET) ||
	     (redir6 && server->sa.sa_family == AF_INET6))) {
		int fam = server->sa.sa_family;
		const void *dst = fam == AF_INET ? (const void *)&server->in.sin_addr
						 : (const void *)&server->in6.sin6_addr;
		struct braid_opt_route host = { .family = fam, .prefix = fam == AF_INET ? 32 : 128 };
		bool has_gw = false;
		int oif = 0;

		r = route_lookup(fam, dst, host.gw, &has_gw, &oif);
		if (r) {
			braid_err("redirect-gateway: no route to the server now: %s", strerror(-r));
			return r;
		}
		memcpy(host.dst, dst, fam == AF_INET ? 4 : 16);
		host.has_gw = has_gw;
		if (fam == AF_INET && has_gw)
			memcpy(&n->net_gateway, host.gw, 4);
		n->has_net_gateway = has_gw;
		n->net_gateway_ifindex = oif;
		r = add_route(n, nl, "redirect-gateway (server host route)", oif, &host);
		if (r)
			return r;
	}
	if (redir4) {
		struct braid_opt_route rt = { .family = AF_INET, .prefix = 1 };

		r = add_route(n, nl, ifname, ifindex, &rt);	/* 0.0.0.0/1 */
		if (r)
			return r;
		rt.dst[0] = 128;
		r = add_route(n, nl, ifname, ifindex, &rt);	/* 128.0.0.0/1 */
		if (r)
			return r;
	}
	if (redir6) {
		struct braid_opt_route rt = { .family = AF_INET6, .prefix = 1 };

		r = add_route(n, nl, ifname, ifindex, &rt);	/* ::/1 */
		if (r)
			return r;
		rt.dst[0] = 0x80;
		r = add_route(n, nl, ifname, ifindex, &rt);	/* 8000::/1 */
		if (r)
			return r;
	}
	for (unsigned int i = 0; i < p->n_routes; i++) {
		r = add_route(n, nl, ifname, ifindex, &p->routes[i]);
		if (r)
			return r;
	}
	return 0;
}

void braid_push_unapply(struct braid_push_net *n, struct braid_nl *nl)
{
	int r;

	for (unsigned int i = n->n_routes; i-- > 0;) {
		const struct braid_opt_route *rt = &n->routes[i];

		r = braid_nl_route(nl, false, n->route_ifindex[i], rt->family, rt->dst, rt->prefix,
				   rt->has_gw ? rt->gw : NULL, rt->metric);
		if (r && r != -ESRCH)
			braid_warn("cannot remove a pushed route: %s", strerror(-r));
	}
	n->n_routes = 0;
	if (n->addr6) {
		r = braid_nl_addr(nl, false, n->ifindex, AF_INET6, &n->a6, NULL, n->prefix6);
		if (r && r != -EADDRNOTAVAIL)
			braid_warn("cannot remove the pushed IPv6 address: %s", strerror(-r));
		n->addr6 = false;
	}
	if (n->addr4) {
		r = braid_nl_addr(nl, false, n->ifindex, AF_INET, &n->a4,
				  n->a4_is_ptp ? &n->p4 : NULL, n->prefix4);
		if (r && r != -EADDRNOTAVAIL)
			braid_warn("cannot remove the pushed address: %s", strerror(-r));
		n->addr4 = false;
	}
}

/* ---- other control messages ---- */

static bool has_prefix(const char *s, const char *p, const char **rest)
{
	size_t n = strlen(p);

	if (strncmp(s, p, n) || (s[n] != '\0' && s[n] != ','))
		return false;
	*rest = s[n] == ',' ? s + n + 1 : s + n;
	return true;
}

/* "[a,b,c]rest": calls fn for each flag; returns rest (after ']'), or s if no flag block */
static const char *flag_block(const char *s, struct braid_ctl_msg *m,
			      void (*fn)(struct braid_ctl_msg *m, const char *flag, size_t len))
{
	const char *end;

	if (s[0] != '[' || !(end = strchr(s, ']')))
		return s;
	for (const char *f = s + 1; f < end;) {
		const char *c = memchr(f, ',', (size_t)(end - f));
		size_t len = (size_t)((c ? c : end) - f);

		while (len && *f == ' ') {
			f++;
			len--;
		}
		fn(m, f, len);
		f += len + 1;
	}
	return end + 1;
}

static void temp_flag(struct braid_ctl_msg *m, const char *f, size_t len)
{
	char buf[64];
	int v;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, f);
	if (sscanf(buf, "backoff %d", &v) == 1 && v >= 0 && v <= 86400)
		m->backoff = v;
	else if (!strcmp(buf, "advance no"))
		m->advance = 0;
	else if (!strcmp(buf, "advance addr") || !strcmp(buf, "advance remote"))
		m->advance = 1;
}

static void restart_flag(struct braid_ctl_msg *m, const char *f, size_t len)
{
	if (memchr(f, 'N', len))
		m->next_remote = true;
}

void braid_ctl_msg_parse(const char *msg, struct braid_ctl_msg *out)
{
	const char *rest;

	memset(out, 0, sizeof(*out));
	out->backoff = out->advance = out->timeout = -1;
	out->text = "";
	if (has_prefix(msg, "PUSH_REQUEST", &rest)) {
		out->kind = BRAID_MSG_PUSH_REQUEST;
	} else if (has_prefix(msg, "PUSH_REPLY", &rest)) {
		out->kind = BRAID_MSG_PUSH_REPLY;
		out->text = rest;
	} else if (has_prefix(msg, "AUTH_FAILED", &rest)) {
		out->kind = BRAID_MSG_AUTH_FAILED;
		if (!strncmp(rest, "TEMP", 4)) {
			out->temp = true;
			rest = flag_block(rest + 4, out, temp_flag);
			if (*rest == ':')
				rest++;
		}
		out->text = rest;
	} else if (has_prefix(msg, "AUTH_PENDING", &rest)) {
		const char *t = strstr(rest, "timeout ");
		int v;

		out->kind = BRAID_MSG_AUTH_PENDING;
		if (t && sscanf(t, "timeout %d", &v) == 1 && v > 0 && v <= 86400)
			out->timeout = v;
		out->text = rest;
	} else if (has_prefix(msg, "RESTART", &rest)) {
		out->kind = BRAID_MSG_RESTART;
		out->text = flag_block(rest, out, restart_flag);
	} else if (has_prefix(msg, "HALT", &rest)) {
		out->kind = BRAID_MSG_HALT;
		out->text = rest;
	} else if (!strcmp(msg, "EXIT")) {
		out->kind = BRAID_MSG_EXIT;
	} else if (has_prefix(msg, "INFO", &rest) || has_prefix(msg, "INFO_PRE", &rest)) {
		out->kind = BRAID_MSG_INFO;
		out->text = rest;
	}
}
