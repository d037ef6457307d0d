/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * main_genkey.h - `braidd --genkey secret|tls-auth|tls-crypt [FILE]`: a new
 * OpenVPN static key file (main_genkey.c).
 */
#ifndef BRAID_MAIN_GENKEY_H
#define BRAID_MAIN_GENKEY_H

/*
 * Writes 256 random bytes in OpenVPN's "Static key V1" format to path (mode
 * 0600, replaced if it exists, as `openvpn --genkey`), or to stdout if path is
 * NULL. type is only named in the log line. 0 or -errno.
 */
int braid_genkey_write(const char *type, const char *path);

#endif /* BRAID_MAIN_GENKEY_H */
