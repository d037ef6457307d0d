#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Known-answer tests: our data channel (via dc-vector) against an independent
implementation of the OpenVPN 2.6 data-channel format written here from the
fact sheet (shared/openvpn-protocol.md §2.1, §3.4, §4.1) with Debian's
python3-cryptography.

AEAD nonces are deterministic (packet-id || implicit IV), so our packets must be
byte-identical to the ones built here; and each side must decrypt the other's.

usage: test_vectors.py /path/to/dc-vector
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

DCV = None

CIPHERS = {
    "AES-256-GCM": (AESGCM, 32),
    "AES-128-GCM": (AESGCM, 16),
    "CHACHA20-POLY1305": (ChaCha20Poly1305, 32),
}
SIZES = [0, 1, 1400]
PIDS = [1, 2, 0x12345678, 0xFFFFFFFF]


def slice_key2(key2, cipher, role):
    """§3.4: client = NORMAL sends keys[0] = K[0..], IV = K[64..72); server sends keys[1]."""
    _, klen = CIPHERS[cipher]
    c2s = (key2[0:klen], key2[64:72])
    s2c = (key2[128:128 + klen], key2[192:200])
    return (c2s, s2c) if role == "client" else (s2c, c2s)  # (send, receive)


def build(cipher, key, iv, key_id, peer_id, pid, pt, v1=False):
    """§4.1: [op|kid][peer-id 3][pid 4][tag 16][ct]; AAD = first 8 bytes (V1: pid only)."""
    aead = CIPHERS[cipher][0](key)
    pid_b = pid.to_bytes(4, "big")
    if v1:
        hdr = bytes([6 << 3 | key_id]) + pid_b
        aad = pid_b
    else:
        hdr = bytes([9 << 3 | key_id]) + peer_id.to_bytes(3, "big") + pid_b
        aad = hdr
    sealed = aead.encrypt(pid_b + iv, pt, aad)
    return hdr + sealed[-16:] + sealed[:-16]


def parse(cipher, key, iv, pkt):
    """Inverse of build(); returns (opcode, key_id, peer_id, pid, plaintext)."""
    op, kid = pkt[0] >> 3, pkt[0] & 7
    if op == 9:
        peer_id = int.from_bytes(pkt[1:4], "big")
        pid_b, aad, rest = pkt[4:8], pkt[0:8], pkt[8:]
    elif op == 6:
        peer_id = None
        pid_b, aad, rest = pkt[1:5], pkt[1:5], pkt[5:]
    else:
        raise ValueError("not a data packet")
    tag, ct = rest[:16], rest[16:]
    pt = CIPHERS[cipher][0](key).decrypt(pid_b + iv, ct + tag, aad)
    return op, kid, peer_id, int.from_bytes(pid_b, "big"), pt


def dcv(*args, check=True):
    r = subprocess.run([DCV, *args], capture_output=True, text=True, timeout=30)
    if check and r.returncode != 0:
        raise AssertionError(f"dc-vector {' '.join(args[:3])}... failed rc={r.returncode}: "
                             f"{r.stdout}{r.stderr}")
    return r


def keyopts(cipher, key2, direction, peer_id, backend):
    return ["--cipher", cipher, "--key2", key2.hex(), "--direction", direction,
            "--peer-id", peer_id, "--backend", backend]


def backends_for(cipher):
    # AES-128-GCM has no libsodium backend; AES-256-GCM's needs AES-NI (probed below).
    b = ["auto", "openssl"]
    if cipher == "CHACHA20-POLY1305" or (cipher == "AES-256-GCM" and SODIUM_AES):
        b.append("sodium")
    return b


SODIUM_AES = False


class Vectors(unittest.TestCase):
    def setUp(self):
        self.rng = random.Random(0x0b7a1d)

    def test_ours_equals_theirs_and_decrypts_theirs(self):
        n = 0
        for cipher in CIPHERS:
            for backend in backends_for(cipher):
                key2 = self.rng.randbytes(256)
                for role, direction in (("client", "0"), ("server", "1")):
                    (skey, siv), (rkey, riv) = slice_key2(key2, cipher, role)
                    for size in SIZES:
                        pts = [self.rng.randbytes(size) for _ in PIDS]
                        kid = self.rng.randrange(8)
                        peer = self.rng.randrange(1 << 24)
                        opts = keyopts(cipher, key2, direction, str(peer), backend)
                        # ours -> theirs: byte-identical packets, and they decrypt
                        for pid, pt in zip(PIDS, pts):
                            out = dcv("encrypt", *opts, "--key-id", str(kid),
                                      "--packet-id", str(pid), "--plaintext", pt.hex())
                            ours = bytes.fromhex(out.stdout.strip())
                            theirs = build(cipher, skey, siv, kid, peer, pid, pt)
                            self.assertEqual(ours.hex(), theirs.hex(),
                                             f"{cipher}/{backend}/{role} size {size} pid {pid}")
                            self.assertEqual(parse(cipher, skey, siv, ours),
                                             (9, kid, peer, pid, pt))
                            n += 1
                        # theirs -> ours (the peer's direction), in packet-id order
                        pkts = [build(cipher, rkey, riv, kid, peer, pid, pt).hex()
                                for pid, pt in zip(PIDS, pts)]
                        args = [a for p in pkts for a in ("--packet", p)]
                        out = dcv("decrypt", *opts, "--key-id", str(kid), *args)
                        want = "".join(f"ok key_id={kid} packet_id={pid} opcode=9 plaintext={pt.hex()}\n"
                                       for pid, pt in zip(PIDS, pts))
                        self.assertEqual(out.stdout, want)
                        n += len(PIDS)
        # per backend: 2 roles x 3 sizes x 4 packet-ids x both ways
        self.assertEqual(n, sum(len(backends_for(c)) for c in CIPHERS) * 2 * 3 * 4 * 2)

    def test_data_v1(self):
        for cipher in CIPHERS:
            key2 = self.rng.randbytes(256)
            (skey, siv), (rkey, riv) = slice_key2(key2, cipher, "client")
            opts = keyopts(cipher, key2, "0", "none", "auto")
            for size in SIZES:
                pt = self.rng.randbytes(size)
                out = dcv("encrypt", *opts, "--key-id", "2", "--packet-id", "7",
                          "--plaintext", pt.hex())
                ours = bytes.fromhex(out.stdout.strip())
                self.assertEqual(ours, build(cipher, skey, siv, 2, 0, 7, pt, v1=True))
                self.assertEqual(len(ours), 21 + size)
                self.assertEqual(ours[0], 0x32)
                theirs = build(cipher, rkey, riv, 2, 0, 9, pt, v1=True)
                out = dcv("decrypt", *opts, "--key-id", "2", "--packet", theirs.hex())
                self.assertEqual(out.stdout, f"ok key_id=2 packet_id=9 opcode=6 plaintext={pt.hex()}\n")

    def test_rejections(self):
        cipher = "AES-256-GCM"
        key2 = self.rng.randbytes(256)
        _, (rkey, riv) = slice_key2(key2, cipher, "server")
        opts = keyopts(cipher, key2, "1", "77", "auto")
        pt = bytes(range(100))
        good = build(cipher, rkey, riv, 1, 77, 5, pt)
        cases = []
        # every single-byte corruption from the packet-id on is an authentication failure
        for i in range(4, len(good)):
            bad = bytearray(good)
            bad[i] ^= 0x80
            cases.append((bytes(bad), "error EBADMSG"))
        cases += [
            (build(cipher, rkey, riv, 1, 78, 5, pt), "error ENXIO"),           # wrong peer-id
            (build(cipher, rkey, riv, 3, 77, 5, pt), "error ENOKEY"),          # unknown key_id
            (bytes([0x20]) + good[1:], "error EPROTO"),                        # P_CONTROL_V1
            (good[:23], "error EMSGSIZE"),                                     # truncated
            (build(cipher, rkey, riv, 1, 77, 0, pt), "error ESTALE"),          # packet-id 0
            (good, f"ok key_id=1 packet_id=5 opcode=9 plaintext={pt.hex()}"),
            (good, "error EALREADY"),                                          # replay
            # V1 with the wrong AAD (opcode included) must fail: V1 authenticates pid only
            (bytes([0x31]) + good[4:], "error EBADMSG"),
        ]
        args = [a for p, _ in cases for a in ("--packet", p.hex())]
        out = dcv("decrypt", *opts, "--key-id", "1", *args, check=False)
        self.assertEqual(out.returncode, 1)
        self.assertEqual(out.stdout.splitlines(), [w for _, w in cases])

    def test_reserved_out_of_order(self):
        """Ids reserved at enqueue and sealed out of order (multipath), mixed with a
        plain encryption: byte-identical to the reference, and accepted by the peer
        in sending order; a second sealing and a never-reserved id are refused."""
        for cipher in ("AES-256-GCM", "CHACHA20-POLY1305"):
            key2 = self.rng.randbytes(256)
            (skey, siv), _ = slice_key2(key2, cipher, "client")
            pts = [self.rng.randbytes(40) for _ in range(4)]
            opts = keyopts(cipher, key2, "0", "4242", "auto")
            # reserve 100, 101, 102; send 102 first, then a plain packet (103), then 100, 101
            out = dcv("reserved", *opts, "--key-id", "3", "--packet-id", "100", "--reserve", "3",
                      "--send", "2:" + pts[2].hex(), "--send", "plain:" + pts[3].hex(),
                      "--send", "0:" + pts[0].hex(), "--send", "1:" + pts[1].hex(),
                      "--send", "1:" + pts[1].hex(), "--send", "4:00", check=False)
            self.assertEqual(out.returncode, 1)
            lines = out.stdout.splitlines()
            sent = [(102, pts[2]), (103, pts[3]), (100, pts[0]), (101, pts[1])]
            want = [build(cipher, skey, siv, 3, 4242, pid, pt).hex() for pid, pt in sent]
            self.assertEqual(lines, want + ["error EALREADY", "error EINVAL"])
            # the peer (server direction) decrypts them in sending order
            ropts = keyopts(cipher, key2, "1", "4242", "auto")
            out = dcv("decrypt", *ropts, "--key-id", "3",
                      *[a for p in want for a in ("--packet", p)])
            self.assertEqual(out.stdout, "".join(
                f"ok key_id=3 packet_id={pid} opcode=9 plaintext={pt.hex()}\n" for pid, pt in sent))

    def test_backend_refusal(self):
        key2 = bytes(256)
        r = dcv("encrypt", *keyopts("AES-128-GCM", key2, "0", "1", "sodium"),
                "--plaintext", "00", check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn("setup: ENOTSUP", r.stderr)
        r = dcv("encrypt", *keyopts("BF-CBC", key2, "0", "1", "auto"),
                "--plaintext", "00", check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn("unsupported data-channel cipher 'BF-CBC'", r.stderr)

    def test_static_key_file_from_stock_openvpn(self):
        """A key file written by stock `openvpn --genkey secret`, parsed by both sides."""
        if not shutil.which("openvpn"):
            self.skipTest("openvpn not installed")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "ta.key")
            subprocess.run(["openvpn", "--genkey", "secret", path], check=True,
                           capture_output=True, timeout=30)
            with open(path) as f:
                text = f.read()
            body = text.split("-----BEGIN OpenVPN Static key V1-----")[1]
            body = body.split("-----END OpenVPN Static key V1-----")[0]
            key2 = bytes.fromhex("".join(body.split()))
            self.assertEqual(len(key2), 256)
            out = dcv("keyfile", path)
            self.assertEqual(out.stdout.strip(), key2.hex())
            # encrypt with the file as server (direction 1): server sends keys[1]
            (skey, siv), _ = slice_key2(key2, "AES-256-GCM", "server")
            out = dcv("encrypt", "--cipher", "AES-256-GCM", "--key-file", path,
                      "--direction", "1", "--peer-id", "0", "--packet-id", "1",
                      "--plaintext", "4500")
            self.assertEqual(bytes.fromhex(out.stdout.strip()),
                             build("AES-256-GCM", skey, siv, 0, 0, 1, b"\x45\x00"))
            # a truncated file gives the precise error
            short = key2[:236].hex()
            with open(path, "w") as f:
                f.write("#\n# 2048 bit OpenVPN static key\n#\n"
                        "-----BEGIN OpenVPN Static key V1-----\n")
                f.write("".join(short[i:i + 32] + "\n" for i in range(0, len(short), 32)))
                f.write("-----END OpenVPN Static key V1-----\n")
            out = dcv("keyfile", path, check=False)
            self.assertEqual(out.returncode, 1)
            self.assertEqual(out.stdout.strip(),
                             f"error {path}: expected 256 bytes of key data, got 236")


if __name__ == "__main__":
    DCV = sys.argv.pop(1)
    r = subprocess.run(["grep", "-qw", "aes", "/proc/cpuinfo"])
    r2 = subprocess.run(["grep", "-qw", "pclmulqdq", "/proc/cpuinfo"])
    SODIUM_AES = r.returncode == 0 and r2.returncode == 0
    unittest.main(verbosity=2)
