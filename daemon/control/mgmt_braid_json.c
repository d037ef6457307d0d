// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_braid_json.c - the braid extension's path and client objects as JSON
 * and text lines (see mgmt_braid_json.h). Every append is bounded by the
 * caller's buffer; a line that would not fit is cut at a field boundary
 * only in theory: the fields are bounded so that an object stays far below
 * BRAID_MGMT_BRAID_LINE_MAX.
 */
#include "control/mgmt_braid_json.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define U(x) ((unsigned long long)(x))

static void app(char *buf, size_t cap, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void app(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*len += (size_t)n;
	if (*len >= cap) {
		*len = cap - 1;	/* cut (vsnprintf kept it NUL-terminated) */
		buf[*len] = '\0';
	}
}

/* The length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t k;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		k = 2, cp = s[0] & 0x1fu;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		k = 3, cp = s[0] & 0x0fu;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		k = 4, cp = s[0] & 0x07u;
	else
		return 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return k;
}

void mgmt_json_str(char *buf, size_t cap, size_t *len, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strnlen(s, max);

	app(buf, cap, len, "\"");
	for (size_t i = 0; i < n;) {
		size_t k = utf8_len(u + i, n - i);

		if (!k) {
			app(buf, cap, len, "\\ufffd");
			i++;
		} else if (u[i] == '"' || u[i] == '\\') {
			app(buf, cap, len, "\\%c", u[i]);
			i++;
		} else if (u[i] < 0x20 || u[i] == 0x7f) {
			app(buf, cap, len, "\\u%04x", u[i]);
			i++;
		} else {
			app(buf, cap, len, "%.*s", (int)k, (const char *)u + i);
			i += k;
		}
	}
	app(buf, cap, len, "\"");
}

void mgmt_braid_addr(const char *in, char *out, size_t outlen)
{
	const char *colon;

	if (!strncmp(in, "[AF_INET]", 9)) {
		snprintf(out, outlen, "%s", in + 9);
		return;
	}
	if (!strncmp(in, "[AF_INET6]", 10) && (colon = strrchr(in + 10, ':')) != NULL) {
		snprintf(out, outlen, "[%.*s]%s", (int)(colon - in - 10), in + 10, colon);
		return;
	}
	snprintf(out, outlen, "%s", in);
}

const char *mgmt_bpath_state(const struct braid_mpath_path_info *p)
{
	if (p->disabled)
		return "disabled";
	switch (p->mp.state) {
	case BRAID_MP_PATH_VALIDATED:
	case BRAID_MP_PATH_ACTIVE:
	case BRAID_MP_PATH_STANDBY:
		return "up";
	case BRAID_MP_PATH_PROBING:
		return "probing";
	case BRAID_MP_PATH_DEGRADED:
		return "degraded";
	case BRAID_MP_PATH_FAILED:
		return "down";
	}
	return "down";
}

void mgmt_bpath_from_info(struct mgmt_bpath *o, long cid, const struct braid_mpath_path_info *p,
			  uint64_t tx_sum, long weight)
{
	memset(o, 0, sizeof(*o));
	o->cid = cid;
	o->id = p->index;
	if (p->dev[0])
		snprintf(o->ifname, sizeof(o->ifname), "%s", p->dev);
	else
		snprintf(o->ifname, sizeof(o->ifname), "path%d", p->index);
	mgmt_braid_addr(p->local, o->local, sizeof(o->local));
	mgmt_braid_addr(p->remote, o->remote, sizeof(o->remote));
	o->state = mgmt_bpath_state(p);
	o->backup = (p->mp.flags & BRAID_MP_PATH_F_BACKUP) != 0;
	o->rtt_ms = p->rtt_fresh ? p->mp.srtt_us / 1e3 : -1;
	o->loss_pct = p->iv_loss_pm < 0 ? -1 : p->iv_loss_pm / 10.0;
	if (o->loss_pct > 100)
		o->loss_pct = 100;
	o->tx_bps = p->iv_tx_bps;
	o->rx_bps = p->iv_rx_bps;
	o->tx_bytes = p->wire_tx_bytes;
	o->rx_bytes = p->wire_rx_bytes;
	o->share_pct = tx_sum ? 100.0 * (double)p->iv_tx_bps / (double)tx_sum : 0;
	if (o->share_pct > 100)
		o->share_pct = 100;
	o->cap_bps = p->mp.cap_bps;
	o->weight = weight;
	if (p->route[0] && !p->route_ok)
		snprintf(o->route, sizeof(o->route), "%s", p->route);
}

void mgmt_bpath_from_client(struct mgmt_bpath *o, const struct braid_mgmt_client *c)
{
	memset(o, 0, sizeof(*o));
	o->cid = (long)c->cid;
	o->id = 0;
	snprintf(o->ifname, sizeof(o->ifname), "path0");
	mgmt_braid_addr(c->local, o->local, sizeof(o->local));
	mgmt_braid_addr(c->real, o->remote, sizeof(o->remote));
	o->state = "up";
	o->rtt_ms = o->loss_pct = -1;
	o->tx_bytes = c->tx_bytes;
	o->rx_bytes = c->rx_bytes;
	o->share_pct = 100;
	o->weight = -1;
}

static void num_or_null(char *buf, size_t cap, size_t *len, const char *key, double v)
{
	if (v < 0)
		app(buf, cap, len, ",\"%s\":null", key);
	else
		app(buf, cap, len, ",\"%s\":%.3f", key, v);
}

size_t mgmt_bpath_json(char *buf, size_t cap, const struct mgmt_bpath *p)
{
	size_t len = 0;

	buf[0] = '\0';
	app(buf, cap, &len, "{");
	if (p->cid >= 0)
		app(buf, cap, &len, "\"cid\":%ld,", p->cid);
	app(buf, cap, &len, "\"id\":%d,\"ifname\":", p->id);
	mgmt_json_str(buf, cap, &len, p->ifname, 64);
	app(buf, cap, &len, ",\"local\":");
	mgmt_json_str(buf, cap, &len, p->local, 80);
	app(buf, cap, &len, ",\"remote\":");
	mgmt_json_str(buf, cap, &len, p->remote, 80);
	app(buf, cap, &len, ",\"state\":\"%s\",\"backup\":%s", p->state, p->backup ? "true" : "false");
	num_or_null(buf, cap, &len, "rtt_ms", p->rtt_ms);
	num_or_null(buf, cap, &len, "loss_pct", p->loss_pct);
	app(buf, cap, &len, ",\"tx_bps\":%llu,\"rx_bps\":%llu,\"tx_bytes\":%llu,\"rx_bytes\":%llu",
	    U(p->tx_bps), U(p->rx_bps), U(p->tx_bytes), U(p->rx_bytes));
	if (p->share_pct >= 0)
		app(buf, cap, &len, ",\"share_pct\":%.1f", p->share_pct);
	app(buf, cap, &len, ",\"cap_bps\":%llu", U(p->cap_bps));
	if (p->weight >= 0)
		app(buf, cap, &len, ",\"weight\":%ld", p->weight);
	if (p->route[0]) {	/* only a flagged path (docs/braidd.md "Paths by interface") */
		app(buf, cap, &len, ",\"route_ok\":false,\"route\":");
		mgmt_json_str(buf, cap, &len, p->route, 72);
	}
	app(buf, cap, &len, "}");
	return len;
}

const char *mgmt_bpath_text_header(bool with_cid)
{
	return with_cid ? "HEADER,BRAID_PATH,CID,ID,IFNAME,LOCAL,REMOTE,STATE,BACKUP,RTT_MS,LOSS_PCT,"
			  "TX_BPS,RX_BPS,TX_BYTES,RX_BYTES,SHARE_PCT,CAP_BPS,WEIGHT"
			: "HEADER,BRAID_PATH,ID,IFNAME,LOCAL,REMOTE,STATE,BACKUP,RTT_MS,LOSS_PCT,"
			  "TX_BPS,RX_BPS,TX_BYTES,RX_BYTES,SHARE_PCT,CAP_BPS,WEIGHT";
}

/* A text field: no commas or control bytes (they would break the columns). */
static void text_field(char *buf, size_t cap, size_t *len, const char *s)
{
	app(buf, cap, len, ",");
	for (; *s && *len + 1 < cap; s++)
		app(buf, cap, len, "%c", (*s == ',' || (unsigned char)*s < 0x20) ? '_' : *s);
}

static void text_num(char *buf, size_t cap, size_t *len, double v)
{
	if (v < 0)
		app(buf, cap, len, ",-");
	else
		app(buf, cap, len, ",%.1f", v);
}

size_t mgmt_bpath_text(char *buf, size_t cap, const struct mgmt_bpath *p)
{
	size_t len = 0;

	buf[0] = '\0';
	app(buf, cap, &len, "BRAID_PATH");
	if (p->cid >= 0)
		app(buf, cap, &len, ",%ld", p->cid);
	app(buf, cap, &len, ",%d", p->id);
	text_field(buf, cap, &len, p->ifname);
	text_field(buf, cap, &len, p->local);
	text_field(buf, cap, &len, p->remote);
	app(buf, cap, &len, ",%s,%s", p->state, p->backup ? "backup" : "-");
	text_num(buf, cap, &len, p->rtt_ms);
	text_num(buf, cap, &len, p->loss_pct);
	app(buf, cap, &len, ",%llu,%llu,%llu,%llu", U(p->tx_bps), U(p->rx_bps), U(p->tx_bytes),
	    U(p->rx_bytes));
	text_num(buf, cap, &len, p->share_pct);
	app(buf, cap, &len, ",%llu", U(p->cap_bps));
	if (p->weight >= 0)
		app(buf, cap, &len, ",%ld", p->weight);
	else
		app(buf, cap, &len, ",-");
	return len;
}

size_t mgmt_bclient_json(char *buf, size_t cap, const struct braid_mgmt_client *c, int paths,
			 int paths_up)
{
	size_t len = 0;

	buf[0] = '\0';
	app(buf, cap, &len, "{\"cid\":%lu,\"cn\":", c->cid);
	mgmt_json_str(buf, cap, &len, c->cn, 64);
	app(buf, cap, &len, ",\"braid\":%s,\"paths\":%d,\"paths_up\":%d}", c->dp ? "true" : "false",
	    paths, paths_up);
	return len;
}
