// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovpn_status.c - OpenVPN 2.6 server status file (see ovpn_status.h).
 */
#include "control/ovpn_status.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "control/statfile.h"

static const char *tstr(time_t t, char *buf, size_t cap)
{
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, cap, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, cap, "%lld", (long long)t);
	return buf;
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

int braid_ovpn_status_print(FILE *f, int version, const char *title, time_t now,
			    const struct braid_ovpn_status_client *c, unsigned nc,
			    const struct braid_ovpn_status_route *r, unsigned nr)
{
	char t1[64], t2[64];
	char s;

	if (version == 1) {
		fprintf(f, "OpenVPN CLIENT LIST\n");
		fprintf(f, "Updated,%s\n", tstr(now, t1, sizeof(t1)));
		fprintf(f, "Common Name,Real Address,Bytes Received,Bytes Sent,Connected Since\n");
		for (unsigned i = 0; i < nc; i++)
			fprintf(f, "%s,%s,%llu,%llu,%s\n", nz(c[i].cn), nz(c[i].real),
				(unsigned long long)c[i].bytes_rx, (unsigned long long)c[i].bytes_tx,
				tstr(c[i].since, t1, sizeof(t1)));
		fprintf(f, "ROUTING TABLE\n");
		fprintf(f, "Virtual Address,Common Name,Real Address,Last Ref\n");
		for (unsigned i = 0; i < nr; i++)
			fprintf(f, "%s,%s,%s,%s\n", nz(r[i].virt), nz(r[i].cn), nz(r[i].real),
				tstr(r[i].last_ref, t1, sizeof(t1)));
		fprintf(f, "GLOBAL STATS\n");
		fprintf(f, "Max bcast/mcast queue length,0\n");
		fprintf(f, "END\n");
		return ferror(f) ? -EIO : 0;
	}
	if (version != 2 && version != 3)
		return -EINVAL;
	s = version == 2 ? ',' : '\t';
	fprintf(f, "TITLE%c%s\n", s, nz(title));
	fprintf(f, "TIME%c%s%c%lld\n", s, tstr(now, t1, sizeof(t1)), s, (long long)now);
	fprintf(f, "HEADER%cCLIENT_LIST%cCommon Name%cReal Address%cVirtual Address%c"
		   "Virtual IPv6 Address%cBytes Received%cBytes Sent%cConnected Since%c"
		   "Connected Since (time_t)%cUsername%cClient ID%cPeer ID%cData Channel Cipher\n",
		s, s, s, s, s, s, s, s, s, s, s, s, s);
	for (unsigned i = 0; i < nc; i++)
		fprintf(f, "CLIENT_LIST%c%s%c%s%c%s%c%s%c%llu%c%llu%c%s%c%lld%c%s%c%lu%c%u%c%s\n",
			s, nz(c[i].cn), s, nz(c[i].real), s, nz(c[i].virt4), s, nz(c[i].virt6), s,
			(unsigned long long)c[i].bytes_rx, s, (unsigned long long)c[i].bytes_tx, s,
			tstr(c[i].since, t2, sizeof(t2)), s, (long long)c[i].since, s,
			c[i].username && *c[i].username ? c[i].username : "UNDEF", s,
			c[i].client_id, s, c[i].peer_id, s, nz(c[i].cipher));
	fprintf(f, "HEADER%cROUTING_TABLE%cVirtual Address%cCommon Name%cReal Address%c"
		   "Last Ref%cLast Ref (time_t)\n", s, s, s, s, s, s);
	for (unsigned i = 0; i < nr; i++)
		fprintf(f, "ROUTING_TABLE%c%s%c%s%c%s%c%s%c%lld\n", s, nz(r[i].virt), s,
			nz(r[i].cn), s, nz(r[i].real), s, tstr(r[i].last_ref, t1, sizeof(t1)), s,
			(long long)r[i].last_ref);
	fprintf(f, "GLOBAL_STATS%cMax bcast/mcast queue length%c0\n", s, s);
	fprintf(f, "GLOBAL_STATS%cdco_enabled%c0\n", s, s);
	fprintf(f, "END\n");
	return ferror(f) ? -EIO : 0;
}

int braid_ovpn_status_write(const char *path, int version, const char *title, time_t now,
			    const struct braid_ovpn_status_client *c, unsigned nc,
			    const struct braid_ovpn_status_route *r, unsigned nr)
{
	struct braid_statfile sf;
	int ret = braid_statfile_open(&sf, path);	/* FILE.tmp + rename, or in place */

	if (ret)
		return ret;
	ret = braid_ovpn_status_print(sf.f, version, title, now, c, nc, r, nr);
	return braid_statfile_commit(&sf, ret);
}
