// SPDX-License-Identifier: GPL-2.0-only
/*
 * clients.c - a gateway's clients: `braidctl clients [--json]` (stock's
 * `status 3` with Braid's `braid clients`) and `braidctl kill CN|ID|IP:PORT`
 * (stock's `client-kill` / `kill`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braidctl.h"
#include "info.h"
#include "table.h"

int clients_main(struct braidctl *b, int argc, char **argv)
{
	struct info_client *cl;
	size_t n;
	int e;

	(void)argv;
	if (argc > 1)
		return braidctl_usage("clients", "unexpected argument", "braidctl clients [--json]");
	e = info_clients(b, &cl, &n);
	if (e)
		return e;
	if (b->json) {
		printf("{\"clients\":");
		table_clients_json(stdout, cl, n);
		printf("}\n");
	} else {
		table_clients(cl, n);
	}
	free(cl);
	return 0;
}

/* "IP:PORT" (a real address, stock's `kill IP:port`), optionally "udp:" / "tcp:" first */
static int is_addr_port(const char *s)
{
	const char *c = strrchr(s, ':');

	return c && c != s && c[1] && strspn(c + 1, "0123456789") == strlen(c + 1) &&
	       strpbrk(s, ".[");
}

int kill_main(struct braidctl *b, int argc, char **argv)
{
	static const char use[] = "braidctl kill CN|ID|IP:PORT";
	struct mgmtc_reply r;
	char cmd[400], q[300];
	unsigned n = 1;
	const char *p;
	int e;

	if (argc != 2)
		return braidctl_usage("kill", argc < 2 ? "missing the client" : "unexpected argument",
				      use);
	if (strlen(argv[1]) > 250 || strpbrk(argv[1], "\r\n"))
		return braidctl_usage("kill", "bad client name", use);
	mgmtc_quote(q, sizeof(q), argv[1]);
	if (argv[1][0] && strspn(argv[1], "0123456789") == strlen(argv[1])) {
		struct info_client *cl;
		size_t nc;
		unsigned long cid;

		/* an ID, unless it is only a client's common name */
		e = info_clients(b, &cl, &nc);
		if (e)
			return e;
		e = info_find_client(cl, nc, argv[1], &cid);
		free(cl);
		if (e)
			return e;
		snprintf(cmd, sizeof(cmd), "client-kill %lu", cid);
	} else {
		snprintf(cmd, sizeof(cmd), "kill %s", is_addr_port(argv[1]) ? argv[1] : q);
	}
	e = braidctl_cmd(b, cmd, MGMTC_ONE, &r);
	if (e)
		return e;
	/* "common name 'x' found, N client(s) killed" / "N client(s) at address A killed" */
	if ((p = strstr(r.msg, "found, ")))
		n = (unsigned)strtoul(p + 7, NULL, 10);
	else if (r.msg[0] >= '0' && r.msg[0] <= '9')
		n = (unsigned)strtoul(r.msg, NULL, 10);
	if (b->json)
		printf("{\"killed\":%u}\n", n);
	else
		printf("killed %u\n", n);
	mgmtc_reply_free(&r);
	return 0;
}
