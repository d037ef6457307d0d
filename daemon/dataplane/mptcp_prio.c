// SPDX-License-Identifier: GPL-2.0-only
/*
 * mptcp_prio.c - the subflows' backup flags from MP_PRIO events and our own
 * SET_FLAGS requests (mptcp_prio.h).
 */
#include "dataplane/mptcp_prio.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>

struct prio {
	bool used;
	uint32_t token;
	uint64_t age;			/* larger: touched later */
	struct braid_mptcp_endp l, r;	/* family, address, port */
	int8_t loc, rem;		/* 1 / 0 / -1 unknown */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct prio tab[BRAID_MPTCP_PRIO_MAX];
static uint64_t clock_;

static bool same_ap(const struct braid_mptcp_endp *a, const struct braid_mptcp_endp *b)
{
	if (a->family != b->family || !a->family || a->port != b->port)
		return false;
	return !memcmp(&a->addr, &b->addr, a->family == AF_INET ? 4 : 16);
}

/* The entry of l -> r (token 0: any), NULL none. Locked. */
static struct prio *find(uint32_t token, const struct braid_mptcp_endp *l,
			 const struct braid_mptcp_endp *r)
{
	for (int i = 0; i < BRAID_MPTCP_PRIO_MAX; i++) {
		struct prio *p = &tab[i];

		if (p->used && (!token || p->token == token) && same_ap(&p->l, l) &&
		    same_ap(&p->r, r))
			return p;
	}
	return NULL;
}

/* The entry of l -> r, made when missing (the oldest reused when full). Locked. */
static struct prio *get(uint32_t token, const struct braid_mptcp_endp *l,
			const struct braid_mptcp_endp *r)
{
	struct prio *p = find(token, l, r), *old = &tab[0];

	if (!p) {
		for (int i = 0; i < BRAID_MPTCP_PRIO_MAX && !p; i++)
			if (!tab[i].used)
				p = &tab[i];
			else if (tab[i].age < old->age)
				old = &tab[i];
		if (!p)
			p = old;
		memset(p, 0, sizeof(*p));
		p->used = true;
		p->token = token;
		p->l = *l;
		p->r = *r;
		p->loc = p->rem = -1;
	}
	p->age = ++clock_;
	return p;
}

void braid_mptcp_prio_event(const struct braid_mptcp_pm_msg *m)
{
	struct prio *p;

	pthread_mutex_lock(&lock);
	switch (m->cmd) {
	case BRAID_MPTCP_EV_SUB_ESTABLISHED:
	case BRAID_MPTCP_EV_SUB_PRIORITY:
		if (m->saddr.family && m->saddr.port && m->daddr.port)
			get(m->token, &m->saddr, &m->daddr)->rem = m->backup ? 1 : 0;
		break;
	case BRAID_MPTCP_EV_SUB_CLOSED:
		p = find(m->token, &m->saddr, &m->daddr);
		if (p)
			memset(p, 0, sizeof(*p));
		break;
	case BRAID_MPTCP_EV_CLOSED:
		for (int i = 0; i < BRAID_MPTCP_PRIO_MAX; i++)
			if (tab[i].used && tab[i].token == m->token)
				memset(&tab[i], 0, sizeof(tab[i]));
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&lock);
}

void braid_mptcp_prio_set(uint32_t token, const struct braid_mptcp_endp *l,
			  const struct braid_mptcp_endp *r, bool backup)
{
	pthread_mutex_lock(&lock);
	get(token, l, r)->loc = backup ? 1 : 0;
	pthread_mutex_unlock(&lock);
}

int braid_mptcp_prio_get(const struct braid_mptcp_endp *l, const struct braid_mptcp_endp *r,
			 int *loc, int *rem)
{
	const struct prio *p;

	pthread_mutex_lock(&lock);
	p = find(0, l, r);
	*loc = p ? p->loc : -1;
	*rem = p ? p->rem : -1;
	pthread_mutex_unlock(&lock);
	return p ? 0 : -ENOENT;
}

void braid_mptcp_prio_clear(void)
{
	pthread_mutex_lock(&lock);
	memset(tab, 0, sizeof(tab));
	pthread_mutex_unlock(&lock);
}
