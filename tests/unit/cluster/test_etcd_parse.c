// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_etcd_parse.c - daemon/cluster/'s readers and writers with exact
 * results: HTTP replies (Content-Length, chunked, cut short, too long,
 * malformed), JSON members at any depth, escapes, absent false/zero fields,
 * u64 strings; the request bodies byte for byte (keys and values base64).
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "cluster/etcd.h"
#include "cluster/http_resp.h"
#include "cluster/json_get.h"

static int parse(const char *s, int *st, char *body, size_t cap, size_t *bl)
{
	return braid_http_resp_parse(s, strlen(s), st, body, cap, bl);
}

int main(void)
{
	char body[256], v[64], buf[1024];
	unsigned long long u;
	size_t bl;
	long ttl;
	int st;

	/* Content-Length */
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", &st, body, sizeof(body), &bl), 0);
	CHECK_EQ(st, 200);
	CHECK_EQ(bl, 5);
	CHECK_STR(body, "hello");
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nhello", &st, body, sizeof(body), &bl),
		 -EAGAIN);
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n", &st, body, sizeof(body), &bl), -EAGAIN);
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\ncontent-length:  3 \r\n\r\nabcdef", &st, body, sizeof(body), &bl), 0);
	CHECK_STR(body, "abc");
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nContent-Length: 300\r\n\r\n", &st, body, sizeof(body), &bl),
		 -EMSGSIZE);
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n", &st, body, sizeof(body), &bl),
		 -EBADMSG);
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", &st, body,
		       sizeof(body), &bl), -EBADMSG);
	/* chunked, as etcd's gateway answers a keepalive or an error */
	CHECK_EQ(parse("HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\nA;x=y\r\n0123456789\r\n"
		       "0\r\nTrailer: x\r\n\r\n", &st, body, sizeof(body), &bl), 0);
	CHECK_EQ(st, 404);
	CHECK_STR(body, "abc0123456789");
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabc", &st, body, sizeof(body),
		       &bl), -EAGAIN);
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", &st, body,
		       sizeof(body), &bl), -EBADMSG);
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFF\r\n", &st, body,
		       sizeof(body), &bl), -EBADMSG);
	CHECK_EQ(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", &st, body, sizeof(body), &bl),
		 -EBADMSG);
	/* status line */
	CHECK_EQ(parse("HTTP/1.1 20 OK\r\n\r\n", &st, body, sizeof(body), &bl), -EBADMSG);
	CHECK_EQ(parse("HTTP/2.0 200 OK\r\n\r\n", &st, body, sizeof(body), &bl), -EBADMSG);
	CHECK_EQ(parse("HTTP/1.0 204\r\n\r\n", &st, body, sizeof(body), &bl), 0);
	CHECK_EQ(st, 204);
	CHECK_EQ(bl, 0);
	/* the reply as the client sees it */
	strcpy(buf, "HTTP/1.1 404 Not Found\r\nContent-Length: 2\r\n\r\n{}");
	CHECK_EQ(braid_etcd_reply(buf, strlen(buf), body, sizeof(body), &bl), -EPROTO);
	CHECK_EQ(braid_etcd_reply(buf, 20, body, sizeof(body), &bl), -EBADMSG);	/* EOF mid-reply */

	/* JSON */
	const char *g = "{\"header\":{\"cluster_id\":\"1484\",\"revision\":\"1\"},\"ID\":\"7587899176603966213\","
			"\"TTL\":\"5\"}";
	CHECK_EQ(braid_json_get(g, strlen(g), "ID", v, sizeof(v)), 0);
	CHECK_STR(v, "7587899176603966213");
	CHECK_EQ(braid_json_get_u64(g, strlen(g), "ID", &u), 0);
	CHECK(u == 7587899176603966213ULL);
	CHECK_EQ(braid_json_get(g, strlen(g), "revision", v, sizeof(v)), 0);	/* nested */
	CHECK_STR(v, "1");
	CHECK_EQ(braid_json_get(g, strlen(g), "succeeded", v, sizeof(v)), -ENOENT);
	CHECK_EQ(braid_json_get(g, strlen(g), "header", v, sizeof(v)), 0);
	CHECK_STR(v, "{");
	CHECK_EQ(braid_json_get(g, strlen(g), "ID", v, 5), -EMSGSIZE);
	const char *t = "{\"a\":[1,true,{\"k\\\"q\":\"x\\\\y\"}],\"succeeded\":true,\"TTL\":12}";
	CHECK_EQ(braid_json_get(t, strlen(t), "k\"q", v, sizeof(v)), 0);
	CHECK_STR(v, "x\\y");
	CHECK_EQ(braid_json_get(t, strlen(t), "succeeded", v, sizeof(v)), 0);
	CHECK_STR(v, "true");
	CHECK_EQ(braid_json_get_u64(t, strlen(t), "TTL", &u), 0);
	CHECK_EQ(u, 12);
	CHECK_EQ(braid_json_get_u64(t, strlen(t), "succeeded", &u), -ERANGE);
	/* a value is never taken from a string that is not a member name, nor outside an object */
	const char *w = "{\"x\":\"ID\",\"y\":1}";
	CHECK_EQ(braid_json_get(w, strlen(w), "ID", v, sizeof(v)), -ENOENT);
	CHECK_EQ(braid_json_get("\"ID\":1", 6, "ID", v, sizeof(v)), -ENOENT);
	CHECK_EQ(braid_json_get("{\"ID\":\"a\\u0041\"}", 16, "ID", v, sizeof(v)), -EBADMSG);
	CHECK_EQ(braid_json_get("{\"a\":1", 6, "b", v, sizeof(v)), -EBADMSG);	/* unclosed */
	CHECK_EQ(braid_json_get("]", 1, "b", v, sizeof(v)), -EBADMSG);
	CHECK_EQ(braid_json_get("[[[[[[[[[[[[[[[[[[", 18, "b", v, sizeof(v)), -EBADMSG);	/* too deep */
	/* keepalive: TTL left, or none (the lease is gone) */
	const char *k1 = "{\"result\":{\"ID\":\"1\",\"TTL\":\"10\"}}", *k0 = "{\"result\":{\"ID\":\"1\"}}";
	CHECK_EQ(braid_etcd_keepalive_ttl(k1, strlen(k1), &ttl), 0);
	CHECK_EQ(ttl, 10);
	CHECK_EQ(braid_etcd_keepalive_ttl(k0, strlen(k0), &ttl), 0);
	CHECK_EQ(ttl, 0);

	/* range replies (revoked/, ccd/ entries): one base64 value, or none */
	{
		const char *h = "{\"header\":{\"cluster_id\":\"1\",\"revision\":\"5\"}";
		char one[256], rv[16];
		size_t vl = 99;
		bool found = true;

		snprintf(one, sizeof(one), "%s,\"kvs\":[{\"key\":\"YnJhaWQvcmV2b2tlZC8x\","
			 "\"create_revision\":\"5\",\"version\":\"1\",\"value\":\"bGVha2Vk\"}],"
			 "\"count\":\"1\"}", h);
		CHECK_EQ(braid_etcd_range_value(one, strlen(one), rv, sizeof(rv), &vl, &found), 0);
		CHECK(found);
		CHECK_EQ(vl, 6);
		CHECK_STR(rv, "leaked");
		CHECK_EQ(braid_etcd_range_value(one, strlen(one), rv, 4, &vl, &found), -EMSGSIZE);
		snprintf(one, sizeof(one), "%s}", h);	/* no such key: count omitted */
		CHECK_EQ(braid_etcd_range_value(one, strlen(one), rv, sizeof(rv), &vl, &found), 0);
		CHECK(!found);
		CHECK_EQ(vl, 0);
		snprintf(one, sizeof(one), "%s,\"kvs\":[{\"key\":\"eA==\"}],\"count\":\"1\"}", h);
		CHECK_EQ(braid_etcd_range_value(one, strlen(one), rv, sizeof(rv), &vl, &found), 0);
		CHECK(found);	/* an empty value is omitted */
		CHECK_STR(rv, "");
		snprintf(one, sizeof(one), "%s,\"kvs\":[{\"value\":\"AA==\"}],\"count\":\"1\"}", h);
		CHECK_EQ(braid_etcd_range_value(one, strlen(one), rv, sizeof(rv), &vl, &found), -EBADMSG);
		snprintf(one, sizeof(one), "%s,\"kvs\":[{\"value\":\"@@@@\"}],\"count\":\"1\"}", h);
		CHECK_EQ(braid_etcd_range_value(one, strlen(one), rv, sizeof(rv), &vl, &found), -EBADMSG);
		snprintf(one, sizeof(one), "%s,\"count\":\"2\"}", h);
		CHECK_EQ(braid_etcd_range_value(one, strlen(one), rv, sizeof(rv), &vl, &found), -EBADMSG);
		CHECK_EQ(braid_etcd_json_range(buf, sizeof(buf), "braid/ccd/alice"), 0);
		CHECK_STR(buf, "{\"key\":\"YnJhaWQvY2NkL2FsaWNl\"}");
	}

	/* request bodies */
	CHECK_EQ(braid_etcd_json_create(buf, sizeof(buf), "braid/gw/1", "x", 42), 0);
	CHECK_STR(buf, "{\"compare\":[{\"key\":\"YnJhaWQvZ3cvMQ==\",\"target\":\"CREATE\",\"result\":\"EQUAL\","
		       "\"create_revision\":\"0\"}],\"success\":[{\"request_put\":{\"key\":\"YnJhaWQvZ3cvMQ==\","
		       "\"value\":\"eA==\",\"lease\":\"42\"}}]}");
	CHECK_EQ(braid_etcd_json_create(buf, 40, "braid/gw/1", "x", 42), -EMSGSIZE);
	CHECK_EQ(braid_etcd_json_delete(buf, sizeof(buf), "braid/addr/10.8.0.2"), 0);
	CHECK_STR(buf, "{\"key\":\"YnJhaWQvYWRkci8xMC44LjAuMg==\"}");
	CHECK_EQ(braid_etcd_json_id(buf, sizeof(buf), 18446744073709551615ULL), 0);
	CHECK_STR(buf, "{\"ID\":\"18446744073709551615\"}");
	struct braid_etcd e;
	size_t rl;
	CHECK_EQ(braid_etcd_init(&e, "http://127.0.0.1:2379"), 0);
	CHECK_EQ(braid_etcd_request(&e, "/v3/lease/grant", "{\"TTL\":\"5\"}", buf, sizeof(buf), &rl), 0);
	CHECK_STR(buf, "POST /v3/lease/grant HTTP/1.1\r\nHost: 127.0.0.1:2379\r\nContent-Type: application/json\r\n"
		       "Content-Length: 11\r\nConnection: close\r\n\r\n{\"TTL\":\"5\"}");
	CHECK_EQ(braid_etcd_init(&e, "http://example.com:2379"), -EINVAL);
	CHECK_EQ(braid_etcd_init(&e, "https://127.0.0.1:2379"), -EINVAL);
	CHECK_EQ(braid_etcd_init(&e, "http://127.0.0.1:0"), -EINVAL);
	CHECK_DONE();
}
