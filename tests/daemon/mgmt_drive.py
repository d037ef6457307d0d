#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mgmt_drive.py - drive an OpenVPN management interface (stock openvpn or braidd) with a script
and print a normalised transcript, so two daemons' transcripts can be diffed.

  mgmt_drive.py HOST:PORT|PATH|listen:HOST:PORT SCRIPT OUT.json

listen:HOST:PORT: be the management client a daemon with `management-client` connects out to
(listens, creates $MGMT_READY if set once listening, serves the first connection).

SCRIPT: one step a line:
  CMD text             send a command; read its reply (by its shape: a SUCCESS:/ERROR: line, lines
                       up to END, or nothing for `version N`)
  WAIT regex [secs]    read until a line read since the previous WAIT matches (fails after secs,
                       default 30)
  SLEEP secs
  MARK file            create file (the test waits for it to start a peer)
  SEND text            send a line without reading a reply (the lines of a client-auth block)
  # comment
The output (JSON): "replies": [[cmd, [normalised lines]]...], "notes": [normalised notifications in
order, >LOG and >BYTECOUNT* left out], "bytecounts": [(in, out)...], "raw": the raw lines.
Normalised: times (epoch and dates), pids, byte counts, the version title and the KID of a
>CLIENT:REAUTH (stock announces a renegotiation twice, with KIDs 3 and 2; a repeated block is left
out); not the states, their order, the reply texts, addresses or ports.
"""
import json
import os
import re
import socket
import sys
import time

NOTE_DROP = (">LOG:", ">BYTECOUNT:", ">BYTECOUNT_CLI:", ">ECHO:")


# >CLIENT:ENV names braidd gives (a subset of stock's); the others are left out of both sides
ENV_KEEP = re.compile(r"^(common_name|username|password|trusted_ip|trusted_port|untrusted_ip|untrusted_port|"
                      r"ifconfig_pool_remote_ip|ifconfig_pool_netmask|ifconfig_pool_remote_ip6|"
                      r"time_unix|bytes_received|bytes_sent|time_duration|n_clients|IV_[A-Za-z0-9_]+|tls_id_\d+|tls_serial_\d+|tls_serial_hex_\d+|"
                      r"tls_digest_\d+|tls_digest_sha256_\d+|X509_\d+_[A-Za-z0-9_]+)=")


# >UPDOWN:ENV values that must differ between two runs (pid, start time, the config file)
UPDOWN_NORM = {"daemon_pid": lambda v: "N", "daemon_start_time": lambda v: "T",
               "config": lambda v: "CONF" if v.endswith(".conf") else v}
# >UPDOWN:ENV names stock gives and braidd does not (docs/braidd.md "Scripts"): left out of both sides,
# listed by mgmt_compare.py
UPDOWN_SKIP = {"route_net_gateway", "redirect_gateway"}


# GET_CONFIG comes only when the push takes a second or more (stock and braidd alike): a matter of
# timing on a loaded host, so it is left out of both transcripts
GET_CONFIG = re.compile(r"^(>STATE:)?T,GET_CONFIG,")


def norm_fields(line):
    """a status row: ports, numbers and times in its fields"""
    line = re.sub(r":\d+(?=[,\t]|$)", ":PORT", line)
    return re.sub(r"(?<=[,\t])\d+(?=[,\t]|$)", "N", line)


def norm(line):
    # a state line: the local port of a TCP connection is the kernel's choice
    m = re.match(r"^(>STATE:)?(\d+|T),([A-Z_]+),", line)
    if m:
        f = line.split(",")
        if len(f) >= 8 and f[7]:
            f[7] = "P"
            line = ",".join(f)
    line = re.sub(r"^(>STATE:|>LOG:|>ECHO:)?\d{9,11},", r"\1T,", line)
    line = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "DATE", line)
    line = re.sub(r"(\t|,)\d{9,11}(?=$|\t|,)", r"\1T", line)
    line = re.sub(r"OpenVPN 2\.\d+\.\d+ x86_64-pc-linux-gnu.*$", "TITLE", line)
    line = re.sub(r"pid=\d+", "pid=N", line)
    line = re.sub(r"(bytes(in|out)=)\d+", r"\1N", line)
    line = re.sub(r"^((TUN/TAP|TCP/UDP|Auth) (read|write) bytes,)\d+$", r"\1N", line)
    line = re.sub(r"^(>BYTECOUNT(_CLI)?:)[\d,]+$", r"\1N", line)
    line = re.sub(r"^(>CLIENT:REAUTH,\d+),\d+$", r"\1,K", line)
    return line


class Conn:
    def __init__(self, where):
        if where.startswith("listen:"):
            host, port = where[len("listen:"):].rsplit(":", 1)
            ls = socket.create_server((host, int(port)))
            ls.settimeout(30)
            ready = os.environ.get("MGMT_READY")
            if ready:
                open(ready, "w").close()
            self.s, _ = ls.accept()
            ls.close()
        elif ":" in where and not where.startswith("/"):
            host, port = where.rsplit(":", 1)
            self.s = socket.create_connection((host, int(port)), timeout=10)
        else:
            self.s = socket.socket(socket.AF_UNIX)
            self.s.connect(where)
        self.buf = b""
        self.raw = []
        self.notes = []
        self.bytecounts = []
        self.env = []
        self.env_other = set()
        self.updown = []
        self.mark = 0  # WAIT looks at the lines from here on

    def line(self, deadline):
        while b"\r\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.s.settimeout(left)
            try:
                d = self.s.recv(65536)
            except socket.timeout:
                return None
            if not d:
                raise EOFError("management connection closed")
            self.buf += d
        ln, self.buf = self.buf.split(b"\r\n", 1)
        ln = ln.decode()
        self.raw.append(ln)
        if ln.startswith(">"):
            m = re.match(r">BYTECOUNT(?:_CLI:\d+,|:)(\d+),(\d+)$", ln)
            if m:
                self.bytecounts.append((int(m[1]), int(m[2])))
            if ln.startswith(">CLIENT:ENV,") and ln != ">CLIENT:ENV,END":
                kv = ln[len(">CLIENT:ENV,"):]
                if ENV_KEEP.match(kv):
                    k, v = kv.split("=", 1)
                    if k in ("trusted_port", "untrusted_port", "time_unix", "bytes_received",
                             "bytes_sent", "time_duration"):
                        v = "N"
                    self.env.append(k + "=" + v)
                else:
                    self.env_other.add(kv.split("=", 1)[0])
                return ln
            if ln.startswith(">UPDOWN:ENV,") and ln != ">UPDOWN:ENV,END":
                k, _, v = ln[len(">UPDOWN:ENV,"):].partition("=")
                if k in UPDOWN_NORM:
                    v = UPDOWN_NORM[k](v)
                if k in UPDOWN_SKIP:
                    self.env_other.add("UPDOWN:" + k)
                else:
                    self.updown.append(k + "=" + v)
                return ln
            if ln == ">UPDOWN:ENV,END":
                self.notes.append(">UPDOWN:ENV " + " ".join(sorted(self.updown)))
                self.updown = []
                self.notes.append(ln)
                return ln
            if ln == ">CLIENT:ENV,END":
                self.notes.append(">CLIENT:ENV " + " ".join(sorted(self.env)))
                self.env = []
                self.notes.append(norm(ln))
                # stock announces one renegotiation twice (>CLIENT:REAUTH with KIDs 3 and 2, same
                # ENV), braidd once: a REAUTH block equal to the one before it is left out
                if len(self.notes) >= 6 and self.notes[-3].startswith(">CLIENT:REAUTH,") and \
                        self.notes[-3:] == self.notes[-6:-3]:
                    del self.notes[-3:]
                return ln
            if not ln.startswith(NOTE_DROP) and not GET_CONFIG.match(norm(ln)):
                self.notes.append(norm(ln))
        return ln

    def send(self, cmd):
        self.raw.append("> " + cmd)
        self.s.sendall(cmd.encode() + b"\r\n")


def multi_line(cmd):
    w = cmd.split()
    if w[0] in ("help", "status") or (w[0] == "version" and len(w) == 1):
        return True
    if w[0] in ("state", "log", "echo"):
        return any(x == "all" or x.isdigit() for x in w[1:]) or len(w) == 1
    return False


def reply(c, cmd, timeout=10):
    """The reply's lines (notifications go to c.notes)."""
    w = cmd.split()
    out = []
    deadline = time.monotonic() + timeout
    if w[0] == "version" and len(w) > 1:
        return out  # stock answers nothing
    if w[0] in ("quit", "exit"):
        return out
    want_end = multi_line(cmd)
    while True:
        ln = c.line(deadline)
        if ln is None:
            out.append("<timeout>")
            return out
        if ln.startswith(">"):
            continue
        if w[0] == "log" or w[0] == "echo":
            # the history lines are the daemon's own log: count-free placeholder
            if not (ln.startswith(("SUCCESS:", "ERROR:")) or ln == "END"):
                if "<history>" not in out:
                    out.append("<history>")
                continue
        if GET_CONFIG.match(norm(ln)):
            continue
        out.append(norm_fields(norm(ln)) if w[0] == "status" else norm(ln))
        if ln.startswith("ERROR:"):
            return out
        if ln == "END":
            return out
        if ln.startswith("SUCCESS:") and not want_end:
            return out


def main():
    where, script, outp = sys.argv[1:4]
    c = Conn(where)
    replies = []
    # the banner (and a pending >HOLD) come first
    deadline = time.monotonic() + 10
    first = c.line(deadline)
    if first is None or not first.startswith(">INFO:OpenVPN Management Interface Version 5"):
        sys.exit("no banner: %r" % first)
    for step in open(script):
        step = step.rstrip("\n")
        if not step.strip() or step.startswith("#"):
            continue
        op, _, arg = step.partition(" ")
        if op == "CMD":
            c.send(arg)
            replies.append([arg, reply(c, arg)])
        elif op == "WAIT":
            parts = arg.rsplit(" ", 1)
            pat, secs = (parts[0], float(parts[1])) if len(parts) == 2 and \
                re.match(r"^\d+(\.\d+)?$", parts[1]) else (arg, 30.0)
            deadline = time.monotonic() + secs
            seen = False
            # the lines read since the previous WAIT count too
            for ln in c.raw[c.mark:]:
                if re.search(pat, ln):
                    seen = True
            while not seen:
                ln = c.line(deadline)
                if ln is None:
                    json.dump({"error": "WAIT %s: timeout" % pat, "raw": c.raw}, open(outp, "w"),
                              indent=1)
                    sys.exit("WAIT %s: timeout" % pat)
                seen = bool(re.search(pat, ln))
            c.mark = len(c.raw)
        elif op == "SEND":
            c.send(arg)
        elif op == "MARK":
            open(arg, "w").close()
        elif op == "SLEEP":
            end = time.monotonic() + float(arg)
            try:
                while c.line(end) is not None:
                    pass
            except EOFError:  # the daemon closed the connection (it exited): the script ends
                c.raw.append("<closed>")
                break
        else:
            sys.exit("bad step: " + step)
    # what is still in flight
    end = time.monotonic() + 0.5
    try:
        while c.line(end) is not None:
            pass
    except EOFError:
        pass
    json.dump({"replies": replies, "notes": c.notes, "bytecounts": c.bytecounts,
               "env_other": sorted(c.env_other), "raw": c.raw},
              open(outp, "w"), indent=1)


if __name__ == "__main__":
    main()
