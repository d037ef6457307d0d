/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ovpn_status.h - the gateway's `status FILE [SECONDS]` file, in OpenVPN
 * 2.6's server formats (`status-version 1|2|3`, multi.c
 * multi_print_status), so scripts and dashboards written for OpenVPN keep
 * working. docs/status-format.md shows each version.
 *
 * Version 1:
 *   OpenVPN CLIENT LIST
 *   Updated,2026-01-02 10:00:00
 *   Common Name,Real Address,Bytes Received,Bytes Sent,Connected Since
 *   client1,10.99.0.2:40000,1234,5678,2026-01-02 09:59:00
 *   ROUTING TABLE
 *   Virtual Address,Common Name,Real Address,Last Ref
 *   10.8.0.2,client1,10.99.0.2:40000,2026-01-02 10:00:00
 *   GLOBAL STATS
 *   Max bcast/mcast queue length,0
 *   END
 * Version 2 (',') and 3 (TAB): TITLE, TIME, HEADER,CLIENT_LIST,... (13
 * columns), CLIENT_LIST rows, HEADER,ROUTING_TABLE,... ROUTING_TABLE rows,
 * GLOBAL_STATS rows, END. Times are local time "%Y-%m-%d %H:%M:%S" as 2.6
 * prints them; a missing username is "UNDEF".
 */
#ifndef BRAID_OVPN_STATUS_H
#define BRAID_OVPN_STATUS_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct braid_ovpn_status_client {
	const char *cn;
	const char *real;	/* "10.99.0.2:40000" */
	const char *virt4;	/* "" if none */
	const char *virt6;	/* "" if none */
	uint64_t bytes_rx, bytes_tx;	/* link bytes */
	time_t since;
	const char *username;	/* NULL/"" = UNDEF */
	unsigned long client_id;
	uint32_t peer_id;
	const char *cipher;
};

struct braid_ovpn_status_route {
	const char *virt;	/* "10.8.0.2", "192.168.5.0/24", "fd00::1000" */
	const char *cn;
	const char *real;
	time_t last_ref;
};

/* Print version 1, 2 or 3 to f. -EINVAL (other version), -EIO. */
int braid_ovpn_status_print(FILE *f, int version, const char *title, time_t now,
			    const struct braid_ovpn_status_client *c, unsigned nc,
			    const struct braid_ovpn_status_route *r, unsigned nr);
/* Same into path, atomically (path.tmp + rename). 0 or -errno. */
int braid_ovpn_status_write(const char *path, int version, const char *title, time_t now,
			    const struct braid_ovpn_status_client *c, unsigned nc,
			    const struct braid_ovpn_status_route *r, unsigned nr);

#endif /* BRAID_OVPN_STATUS_H */
