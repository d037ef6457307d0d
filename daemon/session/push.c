// SPDX-License-Identifier: GPL-2.0-only
/*
 * push.c - parsing a PUSH_REPLY: the option list into struct braid_pushed
 * (see push.h). The messages are in push_msg.c, applying the result to the
 * TUN in push_apply.c.
 */
#include "session/push.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "ctl/km2.h"
#include "session/push_dns.h"
#include "util/log.h"
#include "util/numparse.h"

void braid_pushed_free(struct braid_pushed *p)
{
	for (unsigned int i = 0; i < p->n_dhcp; i++)
		free(p->dhcp[i]);
	braid_push_dns_free(p);
	if (p->auth_token) {
		sodium_memzero(p->auth_token, strlen(p->auth_token));
		free(p->auth_token);
	}
	memset(p, 0, sizeof(*p));
}

#define MAX_ARGS 16	/* `dns server N address` takes 8 addresses */

static int split_args(char *s, char **argv)
{
	int argc = 0;
	char *save = NULL;

	for (char *t = strtok_r(s, " \t", &save); t && argc < MAX_ARGS; t = strtok_r(NULL, " \t", &save))
		argv[argc++] = t;
	return argc;
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
	if (argc > 4 && braid_parse_int(argv[4], 0, 0x7fffffff, &metric)) {
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
	rt->prefix = braid_push_mask_prefix(mask);
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
		if (braid_parse_int(slash + 1, 0, 128, &pl))
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
	if (argc > 3 && braid_parse_int(argv[3], 0, 0x7fffffff, &metric)) {
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
		if (argc != 2 || braid_parse_int(argv[1], 0, 0xffffff, &v))
			BAD("pushed 'peer-id': not a number 0..16777215");
		p->has_peer_id = true;
		p->peer_id = (uint32_t)v;
	} else if (!strcmp(argv[0], "braid-mp")) {
		/*
		 * Braid's multipath offer (docs/multipath-negotiation.md §3): version, replay
		 * window. One we cannot read is logged and leaves the session single-path: a
		 * version mismatch never fails a session (§2.1).
		 */
		int w;

		p->braid_mp_offered = true;
		p->braid_mp = 0;
		if (argc != 3 || !braid_mp_version_parse(argv[1]) ||
		    braid_parse_int(argv[2], 64, 65536, &w)) {
			braid_warn("pushed '%.64s': not a version 1..65535 and a replay window 64..65536: "
				   "multipath not used, single path", orig);
			p->n_ignored++;
			return 0;
		}
		p->braid_mp = braid_mp_version_parse(argv[1]);
		p->braid_mp_window = (uint32_t)w;
	} else if (!strcmp(argv[0], "braid-tcp-super")) {
		/* TCP super-packet frames (os/tun_super.h): version 1; anything else leaves them off */
		p->braid_tcp_super = argc == 2 && !strcmp(argv[1], "1");
		if (!p->braid_tcp_super) {
			braid_warn("pushed '%.64s': not 'braid-tcp-super 1': TCP super-packet frames "
				   "not used", orig);
			p->n_ignored++;
		}
	} else if (!strcmp(argv[0], "dns")) {
		/* OpenVPN 2.6's DNS option (push_dns.c); a bad one is skipped as OpenVPN does */
		int r = braid_push_dns_parse(p, argc, argv, err, err_len);

		if (r == -ENOMEM)
			BAD("out of memory");
		if (r) {
			braid_warn("%s: ignored", err);
			err[0] = '\0';
			p->n_ignored++;
		}
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
		if (argc != 2 || braid_parse_int(argv[1], BRAID_OPT_TUN_MTU_MIN, BRAID_OPT_TUN_MTU_MAX, &v))
			BAD("pushed 'tun-mtu': not a number %d..%d", BRAID_OPT_TUN_MTU_MIN,
			    BRAID_OPT_TUN_MTU_MAX);
		p->tun_mtu = v;
	} else if (!strcmp(argv[0], "ping") || !strcmp(argv[0], "ping-restart")) {
		if (argc != 2 || braid_parse_int(argv[1], 0, 86400, &v))
			BAD("pushed '%s': not a number of seconds", argv[0]);
		if (!strcmp(argv[0], "ping"))
			p->ping = v;
		else
			p->ping_restart = v;
	} else if (!strcmp(argv[0], "explicit-exit-notify")) {
		v = 1;
		if (argc > 2 || (argc == 2 && braid_parse_int(argv[1], 0, 3600, &v)))
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
		   !strcmp(argv[0], "auth-token-user") ||
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
