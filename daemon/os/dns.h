/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dns.h - putting a tunnel's DNS servers and search domains into the host's
 * resolver and taking them out again (the TLS client's pushed `dhcp-option
 * DNS/DOMAIN` and `dns`, docs/braidd.md "DNS").
 *
 * One backend per host, picked when the settings are applied, in this order:
 *   resolvconf  a `resolvconf` program is on PATH: `resolvconf -a IF.braidd`
 *               with the resolv.conf text on stdin; restored with `-d IF.braidd`
 *   resolved    systemd-resolved runs (`resolvectl status` succeeds):
 *               `resolvectl dns|domain IF ...`; restored with `resolvectl revert IF`
 *   file        neither: /etc/resolv.conf rewritten in place (never renamed, so
 *               a bind mount or a symlink target keeps working), its bytes kept
 *               in memory and in a backup file BRAID_DNS_BACKUP_DIR/resolv.conf.IF;
 *               restored byte for byte through the descriptor opened before any
 *               privilege drop.
 * A backup file left by a braidd that was killed is put back at the next apply
 * for the same interface, if resolv.conf still carries braidd's first line.
 */
#ifndef BRAID_DNS_H
#define BRAID_DNS_H

#include <stdbool.h>
#include <stddef.h>

#include <net/if.h>
#include <netinet/in.h>

#define BRAID_DNS_MAX_SERVERS 8
#define BRAID_DNS_MAX_DOMAINS 8
#define BRAID_DNS_NAME_MAX 253
#define BRAID_DNS_RESOLV_CONF "/etc/resolv.conf"
#define BRAID_DNS_BACKUP_DIR "/run/braidd"
#define BRAID_DNS_FILE_MAX 65536	/* a larger resolv.conf is refused, not truncated */

/* What goes into the resolver, every entry already validated (dns_conf.c). */
struct braid_dns_conf {
	char servers[BRAID_DNS_MAX_SERVERS][INET6_ADDRSTRLEN];	/* numeric addresses */
	unsigned int n_servers;
	char search[BRAID_DNS_MAX_DOMAINS][BRAID_DNS_NAME_MAX + 1];	/* search domains */
	unsigned int n_search;
	char route[BRAID_DNS_MAX_DOMAINS][BRAID_DNS_NAME_MAX + 1];	/* resolve-domains (resolved) */
	unsigned int n_route;
};

enum braid_dns_backend {
	BRAID_DNS_NONE,
	BRAID_DNS_RESOLVCONF,
	BRAID_DNS_RESOLVED,
	BRAID_DNS_FILE,
};

/* What was applied, so that it can be undone; zero-initialised = nothing. */
struct braid_dns {
	enum braid_dns_backend be;
	char ifname[IF_NAMESIZE];
	int fd;				/* resolv.conf open read-write (kept across restarts */
	bool fd_open;			/* for a reconnect after a privilege drop), if fd_open */
	char *orig;			/* file: its bytes before (owned) */
	size_t orig_len;
	char backup[96];		/* file: the backup file's path */
};

/* A DNS name we are willing to hand to a resolver: letters, digits, '-', '_', '.'. */
bool braid_dns_name_ok(const char *s);

/* The resolv.conf text for c (first line braidd's marker). Bytes written or -ENOSPC. */
int braid_dns_format(const struct braid_dns_conf *c, const char *ifname, char *buf, size_t len);

/*
 * Apply c for interface ifname (undoing an earlier apply first). An empty c
 * applies nothing and returns 0. 0 or -errno (logged).
 */
int braid_dns_apply(struct braid_dns *d, const char *ifname, const struct braid_dns_conf *c);

/* Undo the last apply (logged); a no-op when nothing is applied. */
void braid_dns_restore(struct braid_dns *d);

/* Restore, then close what is kept open (the daemon's exit). */
void braid_dns_close(struct braid_dns *d);

const char *braid_dns_backend_name(enum braid_dns_backend be);

#endif /* BRAID_DNS_H */
