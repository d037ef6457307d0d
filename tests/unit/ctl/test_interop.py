#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Interop of the ctl library with an independent Python implementation (written from the
fact sheet with python3-cryptography / hmac): tls-auth and tls-crypt wrap by us -> unwrap by
Python and vice versa, wrong key / direction fail, TLS1-PRF and the OpenVPN key expansion.

usage: test_interop.py CTL_VECTOR"""
import hashlib
import hmac
import os
import random
import struct
import subprocess
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

TOOL = sys.argv[1]
rng = random.Random(4242)
fails = 0
checks = 0


def check(cond, what):
    global fails, checks
    checks += 1
    if not cond:
        fails += 1
        print("FAIL:", what, file=sys.stderr)


def run(*args):
    p = subprocess.run([TOOL] + [str(a) for a in args], capture_output=True, text=True)
    return p.returncode, p.stdout.strip()


def rb(n):
    return bytes(rng.getrandbits(8) for _ in range(n))


# --- independent reference ---
def slots(key, direction):
    k0c, k0h, k1c, k1h = key[0:64], key[64:128], key[128:192], key[192:256]
    if direction == "none":
        return (k0c, k0h), (k0c, k0h)
    if direction == "0":
        return (k0c, k0h), (k1c, k1h)
    return (k1c, k1h), (k0c, k0h)


def py_auth_wrap(key, direction, digest, pid, t, plain):
    (_, hout), _ = slots(key, direction)
    h = hashlib.new(digest)
    hlen = h.digest_size
    rp = struct.pack(">II", pid, t)
    mac = hmac.new(hout[:hlen], rp + plain, digest).digest()
    return plain[:9] + mac + rp + plain[9:]


def py_auth_unwrap(key, direction, digest, wire):
    _, (_, hin) = slots(key, direction)
    hlen = hashlib.new(digest).digest_size
    mac, rp = wire[9:9 + hlen], wire[9 + hlen:17 + hlen]
    plain = wire[:9] + wire[17 + hlen:]
    ok = hmac.compare_digest(mac, hmac.new(hin[:hlen], rp + plain, digest).digest())
    return plain if ok else None


def ctr(k, iv, data):
    e = Cipher(algorithms.AES(k), modes.CTR(iv)).encryptor()
    return e.update(data) + e.finalize()


def py_crypt_wrap(key, server, pid, t, plain):
    (cout, hout), _ = slots(key, "0" if server else "1")
    head = plain[:9] + struct.pack(">II", pid, t)
    tag = hmac.new(hout[:32], head + plain[9:], "sha256").digest()
    return head + tag + ctr(cout[:32], tag[:16], plain[9:])


def py_crypt_unwrap(key, server, wire):
    _, (cin, hin) = slots(key, "0" if server else "1")
    head, tag, ct = wire[:17], wire[17:49], wire[49:]
    inner = ctr(cin[:32], tag[:16], ct)
    ok = hmac.compare_digest(tag, hmac.new(hin[:32], head + inner, "sha256").digest())
    return head[:9] + inner if ok else None


def p_hash(digest, secret, seed, n):
    out, a = b"", seed
    while len(out) < n:
        a = hmac.new(secret, a, digest).digest()
        out += hmac.new(secret, a + seed, digest).digest()
    return out[:n]


def tls1_prf(secret, seed, n):
    half = (len(secret) + 1) // 2
    s1, s2 = secret[:half], secret[len(secret) - half:]
    return bytes(x ^ y for x, y in zip(p_hash("md5", s1, seed, n), p_hash("sha1", s2, seed, n)))


def plain_pkt():
    op = rng.choice([3, 4, 5, 7, 8])
    kid = 0 if op == 7 else rng.randrange(8)
    nack = rng.randrange(9)
    body = bytes([nack]) + b"".join(struct.pack(">I", rng.getrandbits(32)) for _ in range(nack))
    if nack:
        body += rb(8)
    if op != 5:
        body += struct.pack(">I", rng.getrandbits(32)) + rb(rng.randrange(0, 300) if op == 4 else 0)
    return bytes([op << 3 | kid]) + rb(8) + body


# --- tls-auth both ways, three digests, all directions ---
for it in range(24):
    key = rb(256)
    digest = ["sha1", "sha256", "sha512"][it % 3]
    dname = digest.upper()
    sender, receiver = [("1", "0"), ("0", "1"), ("none", "none")][it % 3 if it % 3 < 2 else 2]
    plain = plain_pkt()
    pid, t = rng.randrange(1, 1 << 32), rng.randrange(1 << 32)
    rc, out = run("auth-wrap", sender, dname, key.hex(), pid, t, plain.hex())
    check(rc == 0, f"auth-wrap rc {rc} {out}")
    ours = bytes.fromhex(out) if rc == 0 else b""
    check(ours == py_auth_wrap(key, sender, digest, pid, t, plain), f"auth-wrap bytes {dname}")
    check(py_auth_unwrap(key, receiver, digest, ours) == plain, "python unwraps our tls-auth")
    theirs = py_auth_wrap(key, sender, digest, pid, t, plain)
    rc, out = run("auth-unwrap", receiver, dname, key.hex(), theirs.hex())
    check(rc == 0 and bytes.fromhex(out) == plain, f"we unwrap python tls-auth: {out}")
    if sender != "none":
        rc, out = run("auth-unwrap", sender, dname, key.hex(), theirs.hex())
        check(rc == 2 and out.startswith("ERR 74 tls-auth: HMAC mismatch"), f"wrong direction: {out}")
    bad = bytearray(key)
    bad[rng.randrange(256)] ^= 0xff
    rc, out = run("auth-unwrap", receiver, dname, bytes(bad).hex(), theirs.hex())
    # a flipped byte outside the used slot prefix does not matter; inside it must fail
    _, (_, hin) = slots(key, receiver)
    _, (_, hin_bad) = slots(bytes(bad), receiver)
    hlen = hashlib.new(digest).digest_size
    want_fail = hin[:hlen] != hin_bad[:hlen]
    check((rc == 2) == want_fail, f"wrong key ({want_fail}): {rc} {out}")
    rc, out = run("auth-unwrap", receiver, "SHA256" if dname != "SHA256" else "SHA1", key.hex(), theirs.hex())
    check(rc == 2, "wrong --auth digest fails")

# --- tls-crypt both ways ---
for it in range(24):
    key = rb(256)
    server_sends = it % 2 == 0
    plain = plain_pkt()
    pid, t = rng.randrange(1, 1 << 32), rng.randrange(1 << 32)
    s_role, r_role = ("server", "client") if server_sends else ("client", "server")
    rc, out = run("crypt-wrap", s_role, key.hex(), pid, t, plain.hex())
    check(rc == 0, f"crypt-wrap {out}")
    ours = bytes.fromhex(out) if rc == 0 else b""
    check(ours == py_crypt_wrap(key, server_sends, pid, t, plain), "crypt-wrap bytes")
    check(py_crypt_unwrap(key, not server_sends, ours) == plain, "python unwraps our tls-crypt")
    theirs = py_crypt_wrap(key, server_sends, pid, t, plain)
    rc, out = run("crypt-unwrap", r_role, key.hex(), theirs.hex())
    check(rc == 0 and bytes.fromhex(out) == plain, f"we unwrap python tls-crypt: {out}")
    rc, out = run("crypt-unwrap", s_role, key.hex(), theirs.hex())
    check(rc == 2 and "tag mismatch" in out, f"wrong role: {out}")
    bad = bytearray(key)
    off = (0 if server_sends else 128) + 64 + rng.randrange(32)  # receiver's Ka
    bad[off] ^= 1
    rc, out = run("crypt-unwrap", r_role, bytes(bad).hex(), theirs.hex())
    check(rc == 2 and "tag mismatch" in out, f"wrong key: {out}")

# --- PRF ---
for n_secret in (48, 47, 1, 13):
    secret, seed = rb(n_secret), b"OpenVPN master secret" + rb(64)
    rc, out = run("prf", secret.hex(), seed.hex(), 256)
    check(rc == 0 and bytes.fromhex(out) == tls1_prf(secret, seed, 256), f"TLS1-PRF secret {n_secret}")
pm, cr1, sr1, cr2, sr2, csid, ssid = rb(48), rb(32), rb(32), rb(32), rb(32), rb(8), rb(8)
master = tls1_prf(pm, b"OpenVPN master secret" + cr1 + sr1, 48)
want = tls1_prf(master, b"OpenVPN key expansion" + cr2 + sr2 + csid + ssid, 256)
rc, out = run("ovpn-prf", *(x.hex() for x in (pm, cr1, sr1, cr2, sr2, csid, ssid)))
check(rc == 0 and bytes.fromhex(out) == want, "OpenVPN PRF key2")

print(f"test_interop: {checks} checks, {fails} failed", file=sys.stderr)
sys.exit(1 if fails else 0)
