/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * config.h - OpenVPN config syntax: config files and the command line.
 *
 * Line syntax (as OpenVPN's parse_line): whitespace-separated tokens;
 * "…" quotes with backslash escapes (\\ \" and \<space>), '…' quotes
 * literally; '#' or ';' at the start of a token begins a comment; a leading
 * "--" on the directive is allowed. Inline blocks:
 *     <secret>
 *     …
 *     </secret>
 * (the closing tag may be indented). `config FILE` nests (depth 10).
 *
 * Command line: `braidd FILE` (one argument without "--") reads FILE;
 * otherwise every "--name" starts a directive whose arguments run up to the
 * next "--name".
 *
 * Every error is written into err with its location ("FILE:LINE: …").
 */
#ifndef BRAID_CONFIG_H
#define BRAID_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "config/options.h"

/*
 * What a role's run function (braid_tunnel_run, braid_client_run,
 * braid_gateway_run) returns instead of an exit code when SIGHUP asked for a
 * full restart: main.c frees the role, reads the configuration again and
 * starts the role anew, as OpenVPN does on SIGHUP.
 */
#define BRAID_RUN_RELOAD 256

/*
 * Can SIGHUP do the full restart? Not once the privileges are dropped
 * (user/group/chroot): the TUN device and the sockets could not be opened
 * again, so the roles restart the session instead (as SIGUSR1), the TUN
 * device and keys kept as with persist-tun and persist-key.
 */
static inline bool braid_run_can_reload(const struct braid_options *o)
{
	return !o->user && !o->group && !o->chroot_dir;
}

#define BRAID_CONFIG_MAX_PARMS 16
#define BRAID_CONFIG_PARM_SIZE 256

/*
 * Split one line into at most max tokens (malloc'ed, caller frees with
 * braid_config_free_tokens). *ntok = 0 for an empty or comment line.
 * 0 or -EINVAL (message without location in err) / -ENOMEM.
 */
int braid_config_tokenize(const char *line, char **tok, int max, int *ntok, char *err,
			  size_t err_len);
void braid_config_free_tokens(char **tok, int n);

/* Parse config text (as read from `name`) into o. 0 or -EINVAL/-ENOMEM. */
int braid_config_parse_text(struct braid_options *o, const char *name, const char *text,
			    char *err, size_t err_len);
/* Read and parse a config file. 0 or -errno. */
int braid_config_parse_file(struct braid_options *o, const char *path, char *err, size_t err_len);
/* Parse argv (argv[0] is the program name). 0 or -errno. */
int braid_config_parse_argv(struct braid_options *o, int argc, char **argv, char *err,
			    size_t err_len);

#endif /* BRAID_CONFIG_H */
