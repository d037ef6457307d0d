// SPDX-License-Identifier: GPL-2.0-only
/*
 * surface.c - the engine side of the control surface's `set` commands, the
 * same for every role (see surface.h).
 */
#include "control/surface.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

int braid_surface_set_sched(struct braid_dp *dp, const char *prefix, const char *spec,
			    char *err, size_t errlen)
{
	int r;

	if (!dp) {
		snprintf(err, errlen, "set scheduler: not in multipath mode");
		return -EOPNOTSUPP;
	}
	r = braid_dp_set_sched(dp, spec);
	if (r) {
		snprintf(err, errlen, "set scheduler: '%s' refused by the engine: %s", spec,
			 strerror(-r));
		return r;
	}
	braid_info("%s: scheduler set to %s", prefix, spec);
	return 0;
}

/* The address part of "[AF_INET]10.0.1.1:1194" / "[AF_INET6]fd00::1:1194" into a. */
static bool local_addr(const char *s, int *family, unsigned char a[16])
{
	const char *b = strchr(s, ']'), *colon = strrchr(s, ':');
	char ip[INET6_ADDRSTRLEN];
	size_t n;

	if (!b || !colon || colon < b)
		return false;
	n = (size_t)(colon - b - 1);
	if (n >= sizeof(ip))
		return false;
	memcpy(ip, b + 1, n);
	ip[n] = '\0';
	if (inet_pton(AF_INET, ip, a) == 1) {
		*family = AF_INET;
		return true;
	}
	if (inet_pton(AF_INET6, ip, a) == 1) {
		*family = AF_INET6;
		return true;
	}
	return false;
}

static bool same_addr(int fa, const unsigned char *a, int fb, const unsigned char *b)
{
	return fa == fb && !memcmp(a, b, fa == AF_INET ? 4 : 16);
}

/* Is the path's local address one of interface ifname's? */
static bool on_iface(const struct ifaddrs *ifa, const char *ifname, int fam,
		     const unsigned char *a)
{
	for (; ifa; ifa = ifa->ifa_next) {
		const struct sockaddr *sa = ifa->ifa_addr;

		if (!sa || strcmp(ifa->ifa_name, ifname))
			continue;
		if (sa->sa_family == AF_INET &&
		    same_addr(fam, a, AF_INET,
			      (const unsigned char *)&((const struct sockaddr_in *)sa)->sin_addr))
			return true;
		if (sa->sa_family == AF_INET6 &&
		    same_addr(fam, a, AF_INET6,
			      (const unsigned char *)&((const struct sockaddr_in6 *)sa)->sin6_addr))
			return true;
	}
	return false;
}

int braid_surface_set_path(struct braid_dp *dp, const char *prefix, const char *path,
			   enum braid_ctl_path_op op, uint64_t cap, char *err, size_t errlen)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];
	struct ifaddrs *ifa = NULL;
	unsigned char want[16], la[16];
	int n, wfam = 0, lfam, hits = 0, r = 0;
	bool by_index = path[0] != '\0' && strspn(path, "0123456789") == strlen(path);
	bool by_addr = false, by_if = false;

	if (!dp) {
		snprintf(err, errlen, "set path: not in multipath mode");
		return -EOPNOTSUPP;
	}
	if (!by_index) {
		if (inet_pton(AF_INET, path, want) == 1) {
			wfam = AF_INET;
			by_addr = true;
		} else if (inet_pton(AF_INET6, path, want) == 1) {
			wfam = AF_INET6;
			by_addr = true;
		} else if (if_nametoindex(path)) {
			if (getifaddrs(&ifa)) {
				r = -errno;
				snprintf(err, errlen, "set path: cannot list addresses: %s",
					 strerror(-r));
				return r;
			}
			by_if = true;
		} else {
			snprintf(err, errlen, "set path: '%s' is not a path index, local address "
				 "or interface", path);
			return -EINVAL;
		}
	}
	n = braid_dp_paths(dp, p, BRAID_MP_MAX_PATHS);
	for (int i = 0; i < n && !r; i++) {
		unsigned int flags = p[i].mp.flags;
		uint64_t cap_bps = p[i].mp.cap_bps;

		if (by_index) {
			if (strtol(path, NULL, 10) != p[i].index || strlen(path) > 3)
				continue;
		} else {
			if (!local_addr(p[i].local, &lfam, la))
				continue;
			if (by_addr && !same_addr(wfam, want, lfam, la))
				continue;
			if (by_if && !on_iface(ifa, path, lfam, la))
				continue;
		}
		switch (op) {
		case BRAID_CTL_PATH_BACKUP: flags |= BRAID_MP_PATH_F_BACKUP; break;
		case BRAID_CTL_PATH_ACTIVE: flags &= ~BRAID_MP_PATH_F_BACKUP; break;
		case BRAID_CTL_PATH_CAP: cap_bps = cap; break;
		case BRAID_CTL_PATH_NOCAP: cap_bps = 0; break;
		}
		r = braid_dp_path_set(dp, p[i].index, flags, cap_bps);
		if (r) {
			snprintf(err, errlen, "set path: path %d refused the change: %s", p[i].index,
				 strerror(-r));
			break;
		}
		hits++;
		braid_info("%s: path %d %s -> %s: %s%s", prefix, p[i].index, p[i].local, p[i].remote,
			   (flags & BRAID_MP_PATH_F_BACKUP) ? "backup" : "active",
			   cap_bps ? ", capped" : "");
	}
	if (ifa)
		freeifaddrs(ifa);
	if (!r && !hits) {
		snprintf(err, errlen, by_index ? "set path: no path %s" :
			 by_addr ? "set path: no path with local address %s" :
			 "set path: no path on interface %s", path);
		r = -ENOENT;
	}
	return r;
}
