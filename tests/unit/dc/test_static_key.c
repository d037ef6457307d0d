// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_static_key.c - static key file parsing and key2 slicing by direction.
 */
#include "static_key.h"
#include "check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define HEAD "-----BEGIN OpenVPN Static key V1-----"
#define FOOT "-----END OpenVPN Static key V1-----"

/* A key file whose byte i is (i * 7 + 3) & 0xff, 16 bytes per line like openvpn --genkey. */
static size_t make_file(char *buf, size_t cap, const char *pre, const char *eol, int nbytes,
			const char *post)
{
	size_t n = (size_t)snprintf(buf, cap, "%s%s%s", pre, HEAD, eol);

	for (int i = 0; i < nbytes; i++) {
		n += (size_t)snprintf(buf + n, cap - n, "%02x", (i * 7 + 3) & 0xff);
		if (i % 16 == 15 || i == nbytes - 1)
			n += (size_t)snprintf(buf + n, cap - n, "%s", eol);
	}
	n += (size_t)snprintf(buf + n, cap - n, "%s%s%s", FOOT, eol, post);
	return n;
}

static int parse(const char *text, struct braid_key2 *k, char *err)
{
	return braid_static_key_parse(text, strlen(text), k, err, 200);
}

static void test_good(void)
{
	char buf[4096], err[200];
	struct braid_key2 k;
	size_t n;
	int ok = 1;

	n = make_file(buf, sizeof(buf),
		      "#\n# 2048 bit OpenVPN static key\n#\n", "\n", 256, "trailing text ignored\n");
	memset(&k, 0, sizeof(k));
	CHECK_EQ(braid_static_key_parse(buf, n, &k, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	for (int i = 0; i < 256; i++)
		ok &= k.k[i] == ((i * 7 + 3) & 0xff);
	CHECK(ok);

	/* CRLF line endings, upper-case hex, indented header */
	n = make_file(buf, sizeof(buf), "  ", "\r\n", 256, "");
	for (size_t i = 0; i < n; i++)
		if (buf[i] >= 'a' && buf[i] <= 'f')
			buf[i] = (char)(buf[i] - 'a' + 'A');
	/* the header/footer are case-sensitive, restore them */
	memcpy(strstr(buf, "-----BEGIN"), HEAD, strlen(HEAD));
	memcpy(strstr(buf, "-----END"), FOOT, strlen(FOOT));
	memset(&k, 0, sizeof(k));
	CHECK_EQ(braid_static_key_parse(buf, n, &k, err, sizeof(err)), 0);
	CHECK_EQ(k.k[255], (255 * 7 + 3) & 0xff);
	CHECK_EQ(k.k[0], 3);
}

static void test_errors(void)
{
	char buf[4096], err[200];
	struct braid_key2 k;
	size_t n;

	CHECK_EQ(parse("# just a comment\n", &k, err), -EINVAL);
	CHECK_STR(err, "no '-----BEGIN OpenVPN Static key V1-----' line found");

	CHECK_EQ(parse("-----BEGIN OpenVPN Static key V2-----\n00\n" FOOT "\n", &k, err), -EINVAL);
	CHECK_STR(err, "no '-----BEGIN OpenVPN Static key V1-----' line found");

	n = make_file(buf, sizeof(buf), "", "\n", 255, "");
	CHECK_EQ(braid_static_key_parse(buf, n, &k, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "expected 256 bytes of key data, got 255");

	n = make_file(buf, sizeof(buf), "", "\n", 257, "");
	CHECK_EQ(braid_static_key_parse(buf, n, &k, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "line 18: more than 256 bytes of key data");

	/* odd number of digits: drop one digit of the last line */
	n = make_file(buf, sizeof(buf), "", "\n", 256, "");
	{
		char *foot = strstr(buf, FOOT);

		memmove(foot - 2, foot - 1, strlen(foot - 1) + 1);
		n--;
	}
	CHECK_EQ(braid_static_key_parse(buf, n, &k, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "odd number of hex digits in key data (511 digits)");

	/* a non-hex character: line numbers count from 1 at the first line */
	n = make_file(buf, sizeof(buf), "#c\n#c\n", "\n", 256, "");
	strstr(buf, HEAD)[strlen(HEAD) + 1 + 32 * 2 + 2 + 5] = 'x';
	CHECK_EQ(braid_static_key_parse(buf, n, &k, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "line 6: invalid character 'x' in key data");

	/* a comment inside the key block is not allowed (OpenVPN refuses it too) */
	CHECK_EQ(parse(HEAD "\n# no\n", &k, err), -EINVAL);
	CHECK_STR(err, "line 2: invalid character '#' in key data");

	n = make_file(buf, sizeof(buf), "", "\n", 256, "");
	*strstr(buf, FOOT) = '\0';
	CHECK_EQ(parse(buf, &k, err), -EINVAL);
	CHECK_STR(err, "missing '-----END OpenVPN Static key V1-----' after line 1");

	CHECK_EQ(braid_static_key_parse("", 0, &k, err, sizeof(err)), -EINVAL);
	CHECK_EQ(braid_static_key_parse(HEAD "\n\x01\n", strlen(HEAD) + 3, &k, err, sizeof(err)),
		 -EINVAL);
	CHECK_STR(err, "line 2: invalid byte 0x01 in key data");

	CHECK_EQ(braid_static_key_load("/nonexistent/dc-test.key", &k, err, sizeof(err)), -ENOENT);
	CHECK_STR(err, "/nonexistent/dc-test.key: No such file or directory");
}

static void test_load_file(void)
{
	char path[] = "/tmp/braid-dc-key-XXXXXX";
	char buf[4096], err[200];
	struct braid_key2 k;
	size_t n;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	n = make_file(buf, sizeof(buf), "", "\n", 200, "");
	CHECK_EQ(write(fd, buf, n), (long long)n);
	close(fd);
	CHECK_EQ(braid_static_key_load(path, &k, err, sizeof(err)), -EINVAL);
	{
		char want[300];

		snprintf(want, sizeof(want), "%s: expected 256 bytes of key data, got 200", path);
		CHECK_STR(err, want);
	}
	unlink(path);
}

static void test_directions(void)
{
	struct braid_key2 k;
	struct braid_key_sel s0, s1, sb;
	int dir;

	for (int i = 0; i < 256; i++)
		k.k[i] = (uint8_t)i;
	CHECK_EQ(braid_key2_select(&k, BRAID_KEY_DIR_NORMAL, &s0), 0);
	CHECK_EQ(braid_key2_select(&k, BRAID_KEY_DIR_INVERSE, &s1), 0);
	CHECK_EQ(braid_key2_select(&k, BRAID_KEY_DIR_BIDIRECTIONAL, &sb), 0);
	CHECK_EQ(braid_key2_select(&k, 2, &sb), -EINVAL);
	/* NORMAL: send keys[0] (cipher 0, hmac 64), receive keys[1] (128, 192) */
	CHECK_EQ(s0.out.cipher[0], 0);
	CHECK_EQ(s0.out.hmac[0], 64);
	CHECK_EQ(s0.in.cipher[0], 128);
	CHECK_EQ(s0.in.hmac[0], 192);
	/* direction 1 mirrors direction 0 */
	CHECK(s1.out.cipher == s0.in.cipher);
	CHECK(s1.out.hmac == s0.in.hmac);
	CHECK(s1.in.cipher == s0.out.cipher);
	CHECK(s1.in.hmac == s0.out.hmac);
	/* bidirectional: keys[0] both ways */
	CHECK(sb.out.cipher == s0.out.cipher && sb.in.cipher == s0.out.cipher);
	CHECK(sb.out.hmac == s0.out.hmac && sb.in.hmac == s0.out.hmac);

	CHECK_EQ(braid_key_direction_parse("0", &dir), 0);
	CHECK_EQ(dir, BRAID_KEY_DIR_NORMAL);
	CHECK_EQ(braid_key_direction_parse("1", &dir), 0);
	CHECK_EQ(dir, BRAID_KEY_DIR_INVERSE);
	CHECK_EQ(braid_key_direction_parse("none", &dir), 0);
	CHECK_EQ(dir, BRAID_KEY_DIR_BIDIRECTIONAL);
	CHECK_EQ(braid_key_direction_parse("2", &dir), -EINVAL);

	braid_key2_wipe(&k);
	{
		int zero = 1;

		for (int i = 0; i < 256; i++)
			zero &= k.k[i] == 0;
		CHECK(zero);
	}
}

int main(void)
{
	test_good();
	test_errors();
	test_load_file();
	test_directions();
	CHECK_DONE();
}
