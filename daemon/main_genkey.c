// SPDX-License-Identifier: GPL-2.0-only
/*
 * main_genkey.c - `--genkey`: writes a new static key file in OpenVPN's
 * format (docs/braidd.md "Key files"): the comment header, the BEGIN line, 256
 * random bytes as 16 lines of 32 hex digits, the END line. secret, tls-auth
 * and tls-crypt keys are all this one format; the random bytes come from
 * libsodium (the kernel's CSPRNG) and are wiped after use.
 */
#include "main_genkey.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "util/log.h"

#define KEY_BYTES 256
#define BYTES_PER_LINE 16

/* The whole file in text (about 660 bytes). */
static size_t format_key(const unsigned char *key, char *out, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	size_t n;

	n = (size_t)snprintf(out, cap, "#\n# 2048 bit OpenVPN static key\n#\n"
				       "-----BEGIN OpenVPN Static key V1-----\n");
	for (size_t i = 0; i < KEY_BYTES && n + 3 < cap; i++) {
		out[n++] = hex[key[i] >> 4];
		out[n++] = hex[key[i] & 15];
		if (i % BYTES_PER_LINE == BYTES_PER_LINE - 1)
			out[n++] = '\n';
	}
	n += (size_t)snprintf(out + n, cap - n, "-----END OpenVPN Static key V1-----\n");
	return n < cap ? n : cap - 1;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int braid_genkey_write(const char *type, const char *path)
{
	unsigned char key[KEY_BYTES];
	char text[1024];
	size_t len;
	int fd = STDOUT_FILENO, r;

	randombytes_buf(key, sizeof(key));
	len = format_key(key, text, sizeof(text));
	sodium_memzero(key, sizeof(key));
	if (path) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (fd < 0) {
			r = -errno;
			goto out;
		}
		if (fchmod(fd, 0600)) {	/* an existing file keeps no wider mode */
			r = -errno;
			close(fd);
			goto out;
		}
	}
	r = write_all(fd, text, len);
	if (path && close(fd) && !r)
		r = -errno;
	if (!r && path)
		braid_info("%s key written to %s", type, path);
out:
	sodium_memzero(text, sizeof(text));
	return r;
}
