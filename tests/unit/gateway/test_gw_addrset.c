// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_gw_addrset.c - the workers' hash of client addresses (gateway/gw_addrset.c): IPv4 and IPv6
 * keys (port, scope and family part of the key: a v4-mapped v6 address is not the v4 one), one
 * address held by two entries (a collision by construction: same bucket), thousands of entries
 * (chains longer than one, counted), removal by address and item (head, middle and end of a chain;
 * an entry whose address changed since it was added), re-insertion, and random add/remove/lookup
 * checked against a linear list (what gw_shared.c kept before).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gateway/gw_addrset.h"

static int w0, w1, w2;	/* two workers, and one that holds no entry */

static union braid_sockaddr v4(uint32_t ip, uint16_t port)
{
	union braid_sockaddr a;

	memset(&a, 0, sizeof(a));
	a.in.sin_family = AF_INET;
	a.in.sin_addr.s_addr = htonl(ip);
	a.in.sin_port = htons(port);
	return a;
}

static union braid_sockaddr v6(uint32_t tail, uint16_t port, uint32_t scope)
{
	union braid_sockaddr a;

	memset(&a, 0, sizeof(a));
	a.in6.sin6_family = AF_INET6;
	a.in6.sin6_addr.s6_addr[0] = 0x20;
	a.in6.sin6_addr.s6_addr[1] = 0x01;
	memcpy(&a.in6.sin6_addr.s6_addr[12], &tail, 4);
	a.in6.sin6_port = htons(port);
	a.in6.sin6_scope_id = scope;
	return a;
}

static union braid_sockaddr mapped(uint32_t ip, uint16_t port)
{
	union braid_sockaddr a = v6(0, port, 0);
	uint32_t n = htonl(ip);

	memset(&a.in6.sin6_addr, 0, 16);
	a.in6.sin6_addr.s6_addr[10] = a.in6.sin6_addr.s6_addr[11] = 0xff;
	memcpy(&a.in6.sin6_addr.s6_addr[12], &n, 4);
	return a;
}

/* Keys: which parts of an address count. */
static void test_keys(void)
{
	struct braid_gw_addrset s;
	union braid_sockaddr a = v4(0x0a000001, 1194), u;
	int item;

	braid_gw_addrset_init(&s);
	CHECK(!braid_gw_addrset_other(&s, &a, &w0));
	CHECK(!braid_gw_addrset_del(&s, &a, &item));
	CHECK_EQ(braid_gw_addrset_add(&s, &a, &item, &w0), 0);
	CHECK(braid_gw_addrset_other(&s, &a, &w1));
	CHECK(!braid_gw_addrset_other(&s, &a, &w0));	/* the asking worker's own client */
	u = v4(0x0a000001, 1195);
	CHECK(!braid_gw_addrset_other(&s, &u, &w1));	/* another port */
	u = mapped(0x0a000001, 1194);
	CHECK(!braid_gw_addrset_other(&s, &u, &w1));	/* v4-mapped v6 is another family */
	a = v6(7, 1194, 0);
	CHECK_EQ(braid_gw_addrset_add(&s, &a, &item, &w0), 0);
	CHECK(braid_gw_addrset_other(&s, &a, &w1));
	u = v6(7, 1194, 3);
	CHECK(!braid_gw_addrset_other(&s, &u, &w1));	/* another scope */
	memset(&u, 0, sizeof(u));
	u.sa.sa_family = AF_UNIX;
	CHECK_EQ(braid_gw_addrset_add(&s, &u, &item, &w0), -EAFNOSUPPORT);
	CHECK(!braid_gw_addrset_other(&s, &u, &w1));
	CHECK_EQ(s.n, 2);
	braid_gw_addrset_free(&s);
}

/* One address, two entries (two workers' clients): same bucket; removing one leaves the other. */
static void test_same_address(void)
{
	struct braid_gw_addrset s;
	union braid_sockaddr a = v4(0xc0a80001, 40000);
	int c0, c1;

	braid_gw_addrset_init(&s);
	CHECK_EQ(braid_gw_addrset_add(&s, &a, &c0, &w0), 0);
	CHECK_EQ(braid_gw_addrset_add(&s, &a, &c1, &w1), 0);
	CHECK_EQ(braid_gw_addrset_chained(&s), 1);
	CHECK(braid_gw_addrset_other(&s, &a, &w0));	/* w1's client */
	CHECK(braid_gw_addrset_other(&s, &a, &w1));	/* w0's client */
	CHECK(braid_gw_addrset_del(&s, &a, &c1));	/* the chain's head (added last) */
	CHECK(!braid_gw_addrset_other(&s, &a, &w0));
	CHECK(braid_gw_addrset_other(&s, &a, &w1));
	CHECK(!braid_gw_addrset_del(&s, &a, &c1));	/* gone already */
	CHECK_EQ(braid_gw_addrset_add(&s, &a, &c1, &w1), 0);	/* back */
	CHECK(braid_gw_addrset_del(&s, &a, &c0));	/* now the chain's tail */
	CHECK(braid_gw_addrset_other(&s, &a, &w0));
	CHECK(!braid_gw_addrset_other(&s, &a, &w1));
	CHECK_EQ(braid_gw_addrset_chained(&s), 0);
	/* an entry whose address changed since it was added: found by its item */
	a = v4(0xc0a80002, 40000);
	CHECK(braid_gw_addrset_del(&s, &a, &c1));
	CHECK_EQ(s.n, 0);
	braid_gw_addrset_free(&s);
}

#define N 4096	/* entries: many chains longer than one */

struct ref {
	union braid_sockaddr a;
	const void *owner;
	bool in;
};

static union braid_sockaddr nth(unsigned i)
{
	/* a few addresses with many ports, half IPv4 and half IPv6 */
	return i % 2 ? v4(0x0a000000 | (i % 7), (uint16_t)(1024 + i)) :
		       v6(i % 5, (uint16_t)(1024 + i), 0);
}

/* The linear answer: is a held by an entry (in) whose owner is not owner? */
static bool ref_other(const struct ref *r, size_t n, const union braid_sockaddr *a, const void *owner)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].in && r[i].owner != owner && braid_sockaddr_equal(&r[i].a, a))
			return true;
	return false;
}

static void test_many(void)
{
	static struct ref r[N];
	struct braid_gw_addrset s;
	unsigned wrong = 0, removed = 0;

	braid_gw_addrset_init(&s);
	for (unsigned i = 0; i < N; i++) {
		r[i] = (struct ref){ nth(i), i % 3 ? &w0 : &w1, true };
		CHECK_EQ(braid_gw_addrset_add(&s, &r[i].a, &r[i], r[i].owner), 0);
	}
	CHECK_EQ(s.n, N);
	CHECK(s.n_buckets >= N);
	CHECKM(braid_gw_addrset_chained(&s) > 0, "no collision among %u entries in %zu buckets", N,
	       s.n_buckets);
	fprintf(stderr, "%u entries, %zu buckets, %zu chained\n", N, s.n_buckets, braid_gw_addrset_chained(&s));
	for (unsigned i = 0; i < N; i++) {
		wrong += !braid_gw_addrset_other(&s, &r[i].a, r[i].owner == &w0 ? &w1 : &w0);
		wrong += braid_gw_addrset_other(&s, &r[i].a, r[i].owner);	/* each address once */
	}
	CHECK_EQ(wrong, 0);
	/* every third out (heads, middles and tails of chains alike), then checked */
	for (unsigned i = 0; i < N; i += 3) {
		wrong += !braid_gw_addrset_del(&s, &r[i].a, &r[i]);
		r[i].in = false;
		removed++;
	}
	CHECK_EQ(s.n, N - removed);
	for (unsigned i = 0; i < N; i++)
		wrong += braid_gw_addrset_other(&s, &r[i].a, &w2) != r[i].in;	/* an owner nobody is */
	CHECK_EQ(wrong, 0);
	/* in again, with the other owner */
	for (unsigned i = 0; i < N; i += 3) {
		r[i].owner = &w0;
		r[i].in = true;
		wrong += braid_gw_addrset_add(&s, &r[i].a, &r[i], &w0) != 0;
	}
	CHECK_EQ(s.n, N);
	for (unsigned i = 0; i < N; i++)
		wrong += braid_gw_addrset_other(&s, &r[i].a, &w1) != (r[i].owner == &w0);
	CHECK_EQ(wrong, 0);
	/* random removals, re-insertions and lookups against the linear list */
	srand(16);
	for (unsigned k = 0; k < 20000; k++) {
		unsigned i = (unsigned)rand() % N;
		union braid_sockaddr q = nth((unsigned)rand() % (N + 64));	/* some never added */

		if (r[i].in) {
			wrong += !braid_gw_addrset_del(&s, &r[i].a, &r[i]);
			r[i].in = false;
		} else {
			r[i].owner = rand() % 2 ? &w0 : &w1;
			wrong += braid_gw_addrset_add(&s, &r[i].a, &r[i], r[i].owner) != 0;
			r[i].in = true;
		}
		wrong += braid_gw_addrset_other(&s, &q, &w0) != ref_other(r, N, &q, &w0);
		wrong += braid_gw_addrset_other(&s, &q, &w1) != ref_other(r, N, &q, &w1);
	}
	CHECK_EQ(wrong, 0);
	for (unsigned i = 0; i < N; i++)
		if (r[i].in)
			wrong += !braid_gw_addrset_del(&s, &r[i].a, &r[i]);
	CHECK_EQ(wrong, 0);
	CHECK_EQ(s.n, 0);
	CHECK_EQ(braid_gw_addrset_chained(&s), 0);
	braid_gw_addrset_free(&s);
}

int main(void)
{
	test_keys();
	test_same_address();
	test_many();
	CHECK_DONE();
}
