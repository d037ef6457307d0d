// SPDX-License-Identifier: GPL-2.0-only
/*
 * privdrop.c - the privilege drop of `user` / `group` / `chroot` (privdrop.h):
 * chroot, then the uid/gid change with PR_SET_KEEPCAPS, then capset() to
 * exactly the kept capabilities. Raw syscalls (no libcap).
 */
#include "session/privdrop.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libgen.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dataplane/dco_select.h"
#include "util/log.h"

static const char *const cap_names[64] = {
	[10] = "cap_net_bind_service",
	[12] = "cap_net_admin",
	[39] = "cap_bpf",
};

uint64_t braid_privdrop_keep(const struct braid_options *o)
{
	uint64_t keep = 0;

	if (o->tls != BRAID_TLS_CLIENT)
		return 0;
	keep |= BRAID_PRIVDROP_CAP_NET_ADMIN;
	/* dco-scheduler on the kernel data plane: the paths' state goes into the program's map at run
	 * time; with kernel.unprivileged_bpf_disabled (Debian's default) every bpf() call needs CAP_BPF
	 * up to 6.4 */
	if (o->dco_sched_file && !strcmp(braid_dco_backend(), "dco"))
		keep |= BRAID_PRIVDROP_CAP_BPF;
	/* the TLS client opens its link socket at every (re)connect; it binds lport unless nobind */
	if (o->lport && o->lport < 1024)
		for (unsigned int i = 0; i < o->n_remotes; i++)
			if (!o->remotes[i].nobind)
				keep |= BRAID_PRIVDROP_CAP_NET_BIND_SERVICE;
	return keep;
}

static void cap_list(uint64_t set, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < 64 && off < len; i++)
		if (set & (1ull << i))
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? "," : "",
						cap_names[i] ? cap_names[i] : "?");
}

static int set_caps(uint64_t keep)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = (uint32_t)keep;
	d[1].effective = d[1].permitted = (uint32_t)(keep >> 32);
	if (syscall(SYS_capset, &h, d) < 0)
		return -errno;
	/* nothing is passed on to scripts: no inheritable, no ambient capabilities */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return -errno;
	return 0;
}

/* The effective set now, to check the drop did what the log line will say. */
static int get_caps(uint64_t *eff)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d) < 0)
		return -errno;
	*eff = (uint64_t)d[0].effective | (uint64_t)d[1].effective << 32;
	return 0;
}

/* Could uid/gid create files in the directory of path (FILE.tmp + rename)? */
static bool dir_writable_by(const char *path, uid_t uid, gid_t gid)
{
	char *copy = strdup(path);
	struct stat st;
	bool ok = true;

	if (!copy)
		return true;
	if (stat(dirname(copy), &st) == 0)
		ok = (st.st_uid == uid && (st.st_mode & S_IWUSR)) ||
		     (st.st_gid == gid && (st.st_mode & S_IWGRP)) || (st.st_mode & S_IWOTH);
	free(copy);
	return ok;
}

/*
 * Files braidd rewrites after the drop (statfile.c): FILE.tmp + rename needs a
 * directory the user may write; otherwise the file is handed to the user now
 * and rewritten in place, as OpenVPN keeps writing the status file it opened.
 */
static void prepare_files(const struct braid_options *o)
{
	const char *files[3][2] = { { "status", o->status_path },
				    { "status-json", o->status_json_path },
				    { "ifconfig-pool-persist", o->ifconfig_pool_persist } };

	for (int i = 0; i < 3; i++) {
		const char *path = files[i][1];
		int fd;

		if (!path || dir_writable_by(path, o->run_uid, o->run_gid))
			continue;
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0 || fchown(fd, o->run_uid, o->run_gid) < 0) {
			braid_warn("option '%s %s': the directory is not writable by user %s and the "
				   "file cannot be handed to it (%s): updates will fail",
				   files[i][0], path, o->user, strerror(errno));
		} else {
			braid_info("option '%s %s': the directory is not writable by user %s: the file "
				   "is handed to it and rewritten in place",
				   files[i][0], path, o->user);
		}
		if (fd >= 0)
			close(fd);
	}
}

static int do_chroot(const char *dir)
{
	if (chroot(dir) < 0) {
		int r = -errno;

		braid_err("option 'chroot': cannot chroot to '%s': %s", dir, strerror(-r));
		return r;
	}
	if (chdir("/") < 0) {
		int r = -errno;

		braid_err("option 'chroot': cannot chdir to / in '%s': %s", dir, strerror(-r));
		return r;
	}
	braid_info("chroot to '%s' and 'cd /' succeeded (paths of later scripts, status and "
		   "client-config-dir files are inside it)", dir);
	return 0;
}

static int do_ids(const struct braid_options *o)
{
	uid_t uid = o->run_uid;
	gid_t gid = o->run_gid;

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return -errno;
	if (o->group || o->user) {
		if (setgroups(1, &gid) < 0 || setresgid(gid, gid, gid) < 0)
			return -errno;
	}
	if (o->user && setresuid(uid, uid, uid) < 0)
		return -errno;
	if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0)
		return -errno;
	return 0;
}

int braid_privdrop_apply(const struct braid_options *o)
{
	uint64_t keep = braid_privdrop_keep(o), eff = 0;
	char caps[128];
	int r;

	if (!o->user && !o->group && !o->chroot_dir)
		return 0;
	if (o->chroot_dir) {
		r = do_chroot(o->chroot_dir);
		if (r)
			return r;
	}
	if (!o->user && !o->group)
		return 0;	/* chroot alone: stock keeps root as well */
	if (o->user)
		prepare_files(o);
	r = do_ids(o);
	if (r) {
		braid_err("cannot drop privileges to user %s group %s: %s", o->user ? o->user : "-",
			  o->group ? o->group : "-", strerror(-r));
		return r;
	}
	if (!o->user) {
		braid_warn("option 'group %s' without 'user': braidd keeps running as root (uid 0) "
			   "with all its capabilities, as OpenVPN does",
			   o->group);
		return 0;
	}
	if (!o->run_uid)	/* `user root`: finalize warned; nothing to restrict */
		return 0;
	r = set_caps(keep);
	if (!r)
		r = get_caps(&eff);
	if (!r && eff != keep)
		r = -EPERM;
	if (!r && (setresuid(0, 0, 0) == 0 || getuid() == 0))	/* never a way back */
		r = -EPERM;
	if (r) {
		braid_err("cannot restrict the capabilities after the drop to user %s: %s", o->user,
			  strerror(-r));
		return r;
	}
	if (keep)
		cap_list(keep, caps, sizeof(caps));
	else
		snprintf(caps, sizeof(caps), "none");
	braid_info("privileges dropped: user %s (uid %u), group %s (gid %u); capabilities kept: %s",
		   o->user, (unsigned)o->run_uid, o->group ? o->group : "(the user's)",
		   (unsigned)o->run_gid, caps);
	braid_info("restarts (SIGUSR1, SIGHUP, ping-restart) keep the TUN device and the keys as "
		   "with persist-tun + persist-key: braidd never reopens them after the drop");
	return 0;
}
