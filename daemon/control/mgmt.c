// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt.c - the management interface's object and what a role tells it
 * (see mgmt.h): state changes, log lines (a hook on util/log.c), the
 * hold, password queries, client events and notifications.
 */
#include "control/mgmt.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "control/mgmt_braid.h"
#include "control/mgmt_cmd.h"
#include "control/mgmt_conn.h"
#include "control/mgmt_int.h"
#include "util/log.h"

static const char *level_flags(int level)
{
	if (level <= BRAID_LOG_ERR)
		return "N";
	if (level <= BRAID_LOG_WARN)
		return "W";
	if (level <= BRAID_LOG_INFO)
		return "I";
	return "D";
}

static void log_hook(void *ctx, int level, const char *msg)
{
	struct braid_mgmt *m = ctx;

	if (m->in_hook)
		return;
	m->in_hook = true;
	mgmt_log_add(m, level_flags(level), msg);
	m->in_hook = false;
}

/* management-client-user/group: the uid/gid a unix-socket peer must have */
static int resolve_ids(struct braid_mgmt *m)
{
	if (m->client_user) {
		struct passwd *pw = getpwnam(m->client_user);

		if (!pw) {
			braid_err("management-client-user: unknown user '%s'", m->client_user);
			return -EINVAL;
		}
		m->allow_uid = pw->pw_uid;
		m->check_uid = true;
	}
	if (m->client_group) {
		struct group *gr = getgrnam(m->client_group);

		if (!gr) {
			braid_err("management-client-group: unknown group '%s'", m->client_group);
			return -EINVAL;
		}
		m->allow_gid = gr->gr_gid;
		m->check_gid = true;
	}
	return 0;
}

/* The password file: its first line (as stock reads it). */
static int read_pwfile(struct braid_mgmt *m)
{
	FILE *f = fopen(m->pwfile, "re");
	size_t l;

	if (!f) {
		int r = -errno;

		braid_err("management: cannot read the password file '%s': %s", m->pwfile,
			  strerror(-r));
		return r;
	}
	if (!fgets(m->pw, sizeof(m->pw), f))
		m->pw[0] = '\0';
	fclose(f);
	l = strcspn(m->pw, "\r\n");
	m->pw[l] = '\0';
	if (!l) {
		braid_err("management: the password file '%s' has an empty first line", m->pwfile);
		return -EINVAL;
	}
	m->has_pw = true;
	return 0;
}

static char *dup_opt(const char *s, int *r)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*r = -ENOMEM;
	return d;
}

static void wipe_str(char **s)
{
	if (*s) {
		sodium_memzero(*s, strlen(*s));
		free(*s);
		*s = NULL;
	}
}

void braid_mgmt_stash_credentials(struct braid_mgmt *m, const char *user, const char *pass)
{
	if (!m)
		return;
	wipe_str(&m->st_user);
	wipe_str(&m->st_pass);
	m->st_user = user ? strdup(user) : NULL;
	m->st_pass = pass ? strdup(pass) : NULL;
	if (!m->st_user || !m->st_pass) {
		wipe_str(&m->st_user);
		wipe_str(&m->st_pass);
	}
}

void braid_mgmt_take_credentials(struct braid_mgmt *m, char **user, char **pass)
{
	*user = m ? m->st_user : NULL;
	*pass = m ? m->st_pass : NULL;
	if (m)
		m->st_user = m->st_pass = NULL;
}

/* The interface of a role that ended, kept (sockets open, watchers stopped) for the next role. */
static struct braid_mgmt *kept;

static void destroy(struct braid_mgmt *m)
{
	if (!m)
		return;
	braid_log_set_hook(NULL, NULL);
	mgmt_defer(m, false);
	mgmt_braid_free(m);
	mgmt_conn_close_all(m);
	braid_mgmt_hist_free(&m->log);
	braid_mgmt_hist_free(&m->state);
	braid_mgmt_hist_free(&m->echo);
	if (m->q_user)
		sodium_memzero(m->q_user, strlen(m->q_user));
	if (m->q_pass)
		sodium_memzero(m->q_pass, strlen(m->q_pass));
	free(m->q_user);
	free(m->q_pass);
	wipe_str(&m->st_user);
	wipe_str(&m->st_pass);
	sodium_memzero(m->pw, sizeof(m->pw));
	free(m->addr);
	free(m->ctl_path);
	free(m->pwfile);
	free(m->client_user);
	free(m->client_group);
	free(m);
}

void braid_mgmt_free(struct braid_mgmt *m)
{
	if (!m)
		return;
	/* kept for a role that follows (SIGHUP reload), until braid_mgmt_shutdown */
	braid_log_set_hook(NULL, NULL);
	mgmt_defer(m, false);
	mgmt_conn_detach(m);
	mgmt_braid_detach(m);
	memset(&m->ops, 0, sizeof(m->ops));
	m->holding = false;
	m->pw_wanted = false;
	m->remote_wanted = false;
	m->loop = NULL;		/* the role's loop goes with it; braid_mgmt_new sets the next one */
	destroy(kept);
	kept = m;
}

void braid_mgmt_shutdown(void)
{
	destroy(kept);
	kept = NULL;
}

/* The kept interface serves the same listener as cfg asks for. */
static bool same_listener(const struct braid_mgmt *m, const struct braid_mgmt_cfg *cfg)
{
	return m && !strcmp(m->addr ? m->addr : "", cfg->addr ? cfg->addr : "") &&
	       !strcmp(m->ctl_path ? m->ctl_path : "", cfg->ctl_path ? cfg->ctl_path : "") &&
	       m->cfg.port == cfg->port &&
	       m->cfg.unix_sock == cfg->unix_sock && m->cfg.connect_out == cfg->connect_out &&
	       !strcmp(m->pwfile ? m->pwfile : "", cfg->pwfile ? cfg->pwfile : "") &&
	       !strcmp(m->client_user ? m->client_user : "", cfg->client_user ? cfg->client_user : "") &&
	       !strcmp(m->client_group ? m->client_group : "",
		       cfg->client_group ? cfg->client_group : "");
}

int braid_mgmt_new(struct braid_mgmt **out, struct ev_loop *loop, const struct braid_mgmt_cfg *cfg,
		   const struct braid_mgmt_ops *ops)
{
	struct braid_mgmt *m;
	size_t cache = cfg->log_cache ? cfg->log_cache : BRAID_MGMT_HIST_DEFAULT;
	int r = 0;

	*out = NULL;
	if (!cfg->addr && !cfg->ctl_path)
		return -EINVAL;
	if (same_listener(kept, cfg)) {
		/* a reload: the connections stay, the new role's callbacks and loop take over */
		m = kept;
		kept = NULL;
		m->loop = loop;
		m->ops = *ops;
		m->cfg.query_passwords = cfg->query_passwords;
		m->cfg.client_auth = cfg->client_auth;
		m->cfg.query_remote = cfg->query_remote;
		m->cfg.up_down = cfg->up_down;
		m->remote_wanted = false;
		mgmt_conn_attach(m);
		mgmt_braid_attach(m);
		braid_log_set_hook(log_hook, m);
		*out = m;
		return 0;
	}
	braid_mgmt_shutdown();	/* another listener (or none kept) */
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->loop = loop;
	m->lfd = m->cfd = -1;
	m->ops = *ops;
	m->cfg = *cfg;
	m->addr = dup_opt(cfg->addr, &r);
	m->ctl_path = dup_opt(cfg->ctl_path, &r);
	m->pwfile = dup_opt(cfg->pwfile, &r);
	m->client_user = dup_opt(cfg->client_user, &r);
	m->client_group = dup_opt(cfg->client_group, &r);
	m->cfg.addr = m->addr;
	m->cfg.ctl_path = m->ctl_path;
	m->cfg.pwfile = m->pwfile;
	m->cfg.client_user = m->client_user;
	m->cfg.client_group = m->client_group;
	m->hold = cfg->hold;
	m->dispatch = mgmt_cmd_line;
	if (!r)
		r = braid_mgmt_hist_init(&m->log, cache);
	if (!r)
		r = braid_mgmt_hist_init(&m->state, cache);
	if (!r)
		r = braid_mgmt_hist_init(&m->echo, cache);
	if (!r && m->pwfile)
		r = read_pwfile(m);
	if (!r)
		r = resolve_ids(m);
	if (!r)
		r = mgmt_conn_listen(m);
	if (r) {
		destroy(m);
		return r;
	}
	braid_log_set_hook(log_hook, m);
	*out = m;
	return 0;
}

void braid_mgmt_set_state(struct braid_mgmt *m, const struct braid_mgmt_state *s)
{
	char text[512];
	time_t now = time(NULL);

	if (!m)
		return;
#define F(x) ((x) ? (x) : "")
	snprintf(text, sizeof(text), "%s,%s,%s,%s,%s,%s,%s%s%s", F(s->name), F(s->desc), F(s->tun4),
		 F(s->rip), F(s->rport), F(s->lip), F(s->lport), s->tun6 ? "," : "", F(s->tun6));
#undef F
	braid_mgmt_hist_add(&m->state, now, text);
	mgmt_broadcast(m, MGMT_TO_STATE, ">STATE:%lld,%s", (long long)now, text);
}

const char *braid_mgmt_state_name(const struct braid_mgmt *m)
{
	const struct braid_mgmt_hist_ent *e = m ? braid_mgmt_hist_last(&m->state) : NULL;
	static char name[32];
	size_t l;

	if (!e)
		return "";
	l = strcspn(e->text, ",");
	if (l >= sizeof(name))
		l = sizeof(name) - 1;
	memcpy(name, e->text, l);
	name[l] = '\0';
	return name;
}

bool braid_mgmt_hold(struct braid_mgmt *m, int wait_s)
{
	if (!m || !m->hold)
		return false;
	m->holding = true;
	m->hold_wait = wait_s;
	mgmt_broadcast(m, MGMT_TO_ALL, ">HOLD:Waiting for hold release:%d", wait_s);
	braid_info("Need hold release from management interface, waiting...");
	return true;
}

bool braid_mgmt_query_passwords(const struct braid_mgmt *m)
{
	return m && m->cfg.query_passwords;
}

void braid_mgmt_need_password(struct braid_mgmt *m, const char *type)
{
	if (!m)
		return;
	snprintf(m->pw_type, sizeof(m->pw_type), "%s", type);
	m->pw_wanted = true;
	mgmt_broadcast(m, MGMT_TO_ALL, ">PASSWORD:Need '%s' username/password", m->pw_type);
}

void braid_mgmt_auth_failed(struct braid_mgmt *m, const char *type)
{
	if (m)
		mgmt_broadcast(m, MGMT_TO_ALL, ">PASSWORD:Verification Failed: '%s'", type);
}

bool braid_mgmt_query_remote_on(const struct braid_mgmt *m)
{
	return m && m->cfg.query_remote;
}

void braid_mgmt_query_remote(struct braid_mgmt *m, const char *host, const char *port,
			     const char *proto)
{
	if (!m)
		return;
	m->remote_wanted = true;
	mgmt_broadcast(m, MGMT_TO_ALL, ">REMOTE:%s,%s,%s", host, port, proto);
}

bool braid_mgmt_client_auth(const struct braid_mgmt *m)
{
	return m && m->cfg.client_auth;
}

static void env_block(struct braid_mgmt *m, const char *type, const char *const *env, size_t n)
{
	for (size_t i = 0; i < n; i++)
		mgmt_broadcast(m, MGMT_TO_ALL, ">%s:ENV,%s", type, env[i]);
	mgmt_broadcast(m, MGMT_TO_ALL, ">%s:ENV,END", type);
}

void braid_mgmt_client_event(struct braid_mgmt *m, const char *what, unsigned long cid, long kid,
			     const char *const *env, size_t n)
{
	if (!m)
		return;
	if (kid >= 0)
		mgmt_broadcast(m, MGMT_TO_ALL, ">CLIENT:%s,%lu,%ld", what, cid, kid);
	else
		mgmt_broadcast(m, MGMT_TO_ALL, ">CLIENT:%s,%lu", what, cid);
	env_block(m, "CLIENT", env, n);
}

int braid_mgmt_client_cr_response(struct braid_mgmt *m, unsigned long cid, unsigned kid,
				  const char *text, const char *const *env, size_t n)
{
	const char *b64;
	size_t bl;

	if (!m)
		return 0;
	if (braid_cr_response_parse(text, strlen(text), &b64, &bl)) {
		mgmt_reject(m, BRAID_MGMT_REJ_CR_RESPONSE,
			    "client %lu: CR_RESPONSE not base64 or longer than %d bytes; dropped", cid,
			    BRAID_CR_RESPONSE_MAX);
		return -EINVAL;
	}
	mgmt_broadcast(m, MGMT_TO_ALL, ">CLIENT:CR_RESPONSE,%lu,%u,%.*s", cid, kid, (int)bl, b64);
	env_block(m, "CLIENT", env, n);
	return 0;
}

bool braid_mgmt_up_down_on(const struct braid_mgmt *m)
{
	return m && m->cfg.up_down;
}

void braid_mgmt_up_down(struct braid_mgmt *m, const char *what, const char *const *env, size_t n)
{
	if (!braid_mgmt_up_down_on(m))
		return;
	mgmt_broadcast(m, MGMT_TO_ALL, ">UPDOWN:%s", what);
	env_block(m, "UPDOWN", env, n);
}

void braid_mgmt_client_address(struct braid_mgmt *m, unsigned long cid, const char *addr,
			       bool primary)
{
	if (m)
		mgmt_broadcast(m, MGMT_TO_ALL, ">CLIENT:ADDRESS,%lu,%s,%d", cid, addr, primary ? 1 : 0);
}

void braid_mgmt_notify(struct braid_mgmt *m, const char *type, const char *text)
{
	if (m)
		mgmt_broadcast(m, MGMT_TO_ALL, ">%s:%s", type, text);
}

void braid_mgmt_echo(struct braid_mgmt *m, const char *text)
{
	time_t now = time(NULL);

	if (!m)
		return;
	braid_mgmt_hist_add(&m->echo, now, text);
	mgmt_broadcast(m, MGMT_TO_ECHO, ">ECHO:%lld,%s", (long long)now, text);
}

uint64_t braid_mgmt_rejections(const struct braid_mgmt *m, int kind)
{
	return m && kind >= 0 && kind < BRAID_MGMT_REJ_N ? m->rej[kind] : 0;
}
