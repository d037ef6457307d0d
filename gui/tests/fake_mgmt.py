#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A fake management interface for the GUI tests.

It replays the stock OpenVPN 2.6.14 management protocol as recorded in a capture (banner, replies, the client's
state/log/bytecount sequence and the server's status 3 rows are copied verbatim from that transcript; times are
shifted to now) and serves Braid's multipath extension as gui/README.md defines it (`braid paths`, `braid paths on N`,
>BRAID-PATH:, `braid path IF ...`, `braid scheduler`, `braid clients`, `braid client-paths CID`).

Test-only commands (never in braidd): `fake cut IF`, `fake restore IF` (a path goes down / comes back),
`fake junk` (malformed and over-long lines, to exercise the client's defences).

Usage: fake_mgmt.py --unix PATH [--role client|gateway] [--hold] [--auth] [--challenge static|dynamic] [--stock] [--paths wlan0,wwan0] [--tick 0.2]
Prints "READY" on stdout once listening.
"""
import argparse
import base64
import heapq
import json
import os
import selectors
import socket
import sys
import time

VERSION = "OpenVPN 2.6.14 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]"
BANNER = ">INFO:OpenVPN Management Interface Version 5 -- type 'help' for more info"

# (delay s, lines) after the credentials / hold release: the client transcript, verbatim but for the times ({t}).
CONNECT_SEQUENCE = [
    (0.02, [">LOG:{t},I,TCP/UDP: Preserving recently used remote address: [AF_INET]127.0.0.1:11940",
            ">LOG:{t},,Socket Buffers: R=[212992->212992] S=[212992->212992]",
            ">LOG:{t},I,UDPv4 link local: (not bound)",
            ">LOG:{t},I,UDPv4 link remote: [AF_INET]127.0.0.1:11940",
            ">BYTECOUNT:0,0",
            ">STATE:{t},WAIT,,,,,,"]),
    (0.05, [">STATE:{t},AUTH,,,,,,",
            ">LOG:{t},,TLS: Initial packet from [AF_INET]127.0.0.1:11940, sid=27ba813a f3b354c3",
            ">LOG:{t},,VERIFY OK: depth=1, CN=test-ca",
            ">LOG:{t},,VERIFY OK: depth=0, CN=server",
            ">LOG:{t},I,[server] Peer Connection Initiated with [AF_INET]127.0.0.1:11940"]),
    (0.05, [">STATE:{t},GET_CONFIG,,,,,,",
            ">LOG:{t},,SENT CONTROL [server]: 'PUSH_REQUEST' (status=1)",
            ">BYTECOUNT:1949,2201"]),
    (0.05, [">LOG:{t},,PUSH: Received control message: 'PUSH_REPLY,route-gateway 10.88.0.1,topology subnet,ping 2,"
            "ping-restart 10,ifconfig 10.88.0.2 255.255.255.0,peer-id 0,cipher AES-256-GCM,protocol-flags cc-exit "
            "tls-ekm dyn-tls-crypt,tun-mtu 1500'",
            ">LOG:{t},I,TUN/TAP device tun1 opened",
            ">STATE:{t},ASSIGN_IP,,10.88.0.2,,,,",
            ">LOG:{t},I,net_addr_v4_add: 10.88.0.2/24 dev tun1",
            ">LOG:{t},I,Initialization Sequence Completed"]),
    (0.02, [">STATE:{t},CONNECTED,SUCCESS,10.88.0.2,127.0.0.1,11940,,",
            ">LOG:{t},,Data Channel: cipher 'AES-256-GCM', peer-id: 0"]),
]

STARTUP_LOG = [
    "{t},I,OpenVPN 2.6.14 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO] [LZ4] [EPOLL] [PKCS11] [MH/PKTINFO] [AEAD] [DCO]",
    "{t},I,library versions: OpenSSL 3.0.19 27 Jan 2026, LZO 2.10",
    "{t},,Need hold release from management interface, waiting...",
]

STATUS3_HEADER = ("HEADER\tCLIENT_LIST\tCommon Name\tReal Address\tVirtual Address\tVirtual IPv6 Address\tBytes Received\t"
                  "Bytes Sent\tConnected Since\tConnected Since (time_t)\tUsername\tClient ID\tPeer ID\tData Channel Cipher")


def now():
    return int(time.time())


class Path:
    def __init__(self, pid, ifname, local, rtt, rate):
        self.id, self.ifname, self.local = pid, ifname, local
        self.remote = "198.51.100.1:1194"
        self.state, self.backup, self.cap = "up", False, 0
        self.rtt, self.rate, self.n = rtt, rate, 0

    def obj(self, share=None):
        up = self.state == "up"
        self.n += 1
        wobble = (self.n % 7) / 7.0
        tx = int(self.rate * (0.7 + 0.3 * wobble)) if up else 0
        o = {"id": self.id, "ifname": self.ifname, "local": self.local, "remote": self.remote, "state": self.state,
             "backup": self.backup, "rtt_ms": round(self.rtt * (0.9 + 0.2 * wobble), 1) if up else None,
             "loss_pct": 0.4 * wobble if up else 100.0, "tx_bps": tx, "rx_bps": int(tx * 1.6),
             "tx_bytes": 1000000 * self.id + 1234 * self.n, "rx_bytes": 2000000 * self.id + 2345 * self.n,
             "cap_bps": self.cap}
        if share is not None:
            o["share_pct"] = share
        return o


class Conn:
    def __init__(self, srv, sock):
        self.srv, self.sock, self.buf, self.out = srv, sock, b"", b""
        self.state_hist = [(now(), "CONNECTING,,,,,,")]
        self.log_hist = [l.format(t=now()) for l in STARTUP_LOG]
        self.rt_state = self.rt_log = False
        self.bytecount = 0
        self.path_events = 0.0
        self.held = srv.args.hold
        self.user = None
        self.bytes = [2395, 2581]
        self.connected = False
        self.closing = False
        self.dropped = False
        names = [n for n in srv.args.paths.split(",") if n]
        self.paths = [Path(i + 1, n, "192.168.%d.20:40001" % (i + 1), 18.0 + 22 * i, 8e6 / (i + 1))
                      for i, n in enumerate(names)]

    # -- output
    def send(self, line):
        self.out += line.encode() + b"\r\n"
        self.srv.want_write(self)

    def rt(self, line):
        t = now()
        line = line.replace("{t}", str(t))
        if line.startswith(">STATE:"):
            self.state_hist.append((t, line.split(",", 1)[1]))
            if not self.rt_state:
                return
        if line.startswith(">LOG:"):
            self.log_hist.append(line[5:])
            if not self.rt_log:
                return
        self.send(line)

    def path_event(self, p):
        if self.path_events > 0:
            self.send(">BRAID-PATH:" + json.dumps(p.obj(), separators=(",", ":")))

    # -- connect sequence
    def start_tunnel(self):
        delay = 0.0
        for step, lines in CONNECT_SEQUENCE:
            delay += step * self.srv.args.speed
            self.srv.at(delay, self, lambda ls=lines: [self.rt(l) for l in ls])
        self.srv.at(delay, self, self.mark_connected)

    def mark_connected(self):
        self.connected = True
        for p in self.paths:
            self.path_event(p)

    def tick(self):
        if self.closing:
            return
        if self.connected:
            self.bytes[0] += 4000
            self.bytes[1] += 2500
        if self.bytecount and self.connected:
            self.send(">BYTECOUNT:%d,%d" % tuple(self.bytes))
        if self.path_events and self.connected:
            for p in self.paths:
                self.path_event(p)
        self.srv.at(self.srv.args.tick, self, self.tick)

    # -- commands
    def command(self, line):
        w = line.split()
        if not w:
            return
        c = w[0]
        if c == "password":
            self.rt(">LOG:{t},D,MANAGEMENT: CMD 'password [...]'")
        else:
            self.rt(">LOG:{t},D,MANAGEMENT: CMD '%s'" % line)
        if c == "version":
            self.send("OpenVPN Version: " + VERSION)
            self.send("Management Version: 5")
            self.send("END")
        elif c in ("state", "log", "echo"):
            hist = {"state": ["%d,%s" % h for h in self.state_hist], "log": self.log_hist, "echo": []}[c]
            args = w[1:] or ["1"]
            for a in args:
                if a in ("on", "off"):
                    if c == "state":
                        self.rt_state = a == "on"
                    if c == "log":
                        self.rt_log = a == "on"
                    self.send("SUCCESS: real-time %s notification set to %s" % (c, a.upper()))
                elif a == "all" or a.isdigit():
                    lines = hist if a == "all" else hist[-int(a):] if int(a) > 0 else hist
                    for l in lines:
                        self.send(l)
                    self.send("END")
                else:
                    self.send("ERROR: %s parameter must be 'on' or 'off' or some number n or 'all'" % c)
        elif c == "bytecount" and len(w) == 2 and w[1].isdigit():
            self.bytecount = int(w[1])
            self.send("SUCCESS: bytecount interval changed")
        elif c == "hold":
            if len(w) == 1:
                self.send("SUCCESS: hold=%d" % (1 if self.held else 0))
            elif w[1] == "release":
                self.send("SUCCESS: hold release succeeded")
                if self.held:
                    self.held = False
                    self.after_hold()
            else:
                self.send("SUCCESS: hold flag set to %s" % w[1].upper())
        elif c == "username" and len(w) >= 3:
            self.user = w[2].strip('"')
            self.send("SUCCESS: 'Auth' username entered, but not yet verified")
        elif c == "password" and len(w) >= 3:
            self.send("SUCCESS: 'Auth' password entered, but not yet verified")
            if self.srv.args.challenge != "none":
                self.challenge_password(w[2].strip('"'))
            elif w[2].strip('"') == "bad":
                self.srv.at(0.05, self, lambda: (self.send(">PASSWORD:Verification Failed: 'Auth'"),
                                                 self.rt(">STATE:{t},EXITING,auth-failure,,,,,"), self.close_soon()))
            else:
                self.start_tunnel()
        elif c == "pid":
            self.send("SUCCESS: pid=%d" % os.getpid())
        elif c == "load-stats":
            self.send("SUCCESS: nclients=0,bytesin=%d,bytesout=%d" % tuple(self.bytes))
        elif c == "status" and self.srv.args.role == "client":
            self.send("OpenVPN STATISTICS")
            self.send("Updated," + time.strftime("%Y-%m-%d %H:%M:%S"))
            for k, v in (("TUN/TAP read bytes", 96), ("TUN/TAP write bytes", 0), ("TCP/UDP read bytes", self.bytes[0]),
                         ("TCP/UDP write bytes", self.bytes[1]), ("Auth read bytes", 48)):
                self.send("%s,%d" % (k, v))
            self.send("END")
        elif c == "signal" and len(w) == 2:
            self.send("SUCCESS: signal %s thrown" % w[1])
            if w[1] == "SIGTERM":
                self.rt(">LOG:{t},,Closing TUN/TAP interface")
                self.rt(">LOG:{t},I,SIGTERM[hard,] received, process exiting")
                self.rt(">STATE:{t},EXITING,SIGTERM,,,,,")
                self.close_soon()
        elif c == "braid" and not self.srv.args.stock:
            self.braid(w[1:])
        elif c == "fake":
            self.fake(w[1:])
        elif self.srv.args.role == "gateway" and self.srv.gateway_command(self, w):
            pass
        else:
            self.send("ERROR: unknown command [%s], enter 'help' for more options" % c)

    def after_hold(self):
        if self.srv.args.challenge == "static":	# static-challenge "Enter your PIN" 1
            self.send(">PASSWORD:Need 'Auth' username/password SC:1,Enter your PIN")
        elif self.srv.args.auth or self.srv.args.challenge != "none":
            self.send(">PASSWORD:Need 'Auth' username/password")
        else:
            self.start_tunnel()

    # --challenge static: SCRV1:b64(pass1):b64(4321); --challenge dynamic: user1/pass1 -> AUTH_FAILED,CRV1 (as an
    # Access Server with MFA), then the daemon asks again and wants username user1 + CRV1::<state>::123456
    CRV1_STATE = "Om01u7Fh4LrGBS7uh0SWmzwabUiGiW6l"

    def challenge_password(self, pw):
        def b64(x):
            return base64.b64encode(x.encode()).decode()

        def refuse():
            self.srv.at(0.05, self, lambda: (self.send(">PASSWORD:Verification Failed: 'Auth'"),
                                             self.rt(">STATE:{t},EXITING,auth-failure,,,,,"), self.close_soon()))
        if self.srv.args.challenge == "static":
            return self.start_tunnel() if pw == "SCRV1:%s:%s" % (b64("pass1"), b64("4321")) else refuse()
        if pw == "CRV1::%s::123456" % self.CRV1_STATE and self.user == "user1":
            return self.start_tunnel()
        if self.user == "user1" and pw == "pass1":
            crv1 = "CRV1:R,E:%s:%s:Enter the code sent to your phone" % (self.CRV1_STATE, b64("user1"))
            self.srv.at(0.05, self, lambda: (self.send(">PASSWORD:Verification Failed: 'Auth' ['%s']" % crv1),
                                             self.rt(">STATE:{t},RECONNECTING,auth-failure,,,,,")))
            self.srv.at(0.3, self, lambda: self.send(">PASSWORD:Need 'Auth' username/password"))
            return None
        return refuse()

    def find(self, ifname):
        return next((p for p in self.paths if p.ifname == ifname.strip('"')), None)

    def braid(self, w):
        if self.srv.args.role == "gateway":
            return self.srv.gateway_braid(self, w)
        if w == ["paths"]:
            total = sum(p.obj()["tx_bps"] for p in self.paths) or 1
            for p in self.paths:
                o = p.obj()
                o["share_pct"] = round(100.0 * o["tx_bps"] / total, 1)
                self.send(json.dumps(o, separators=(",", ":")))
            self.send("END")
        elif len(w) == 3 and w[0] == "paths" and w[1] == "on":
            self.path_events = float(w[2])
            self.send("SUCCESS: braid path events on")
        elif len(w) == 2 and w[0] == "paths" and w[1] == "off":
            self.path_events = 0
            self.send("SUCCESS: braid path events off")
        elif len(w) >= 3 and w[0] == "path":
            p = self.find(w[1])
            if p is None:
                self.send("ERROR: no path %s" % w[1])
                return
            if w[2] == "backup" and len(w) == 4 and w[3] in ("on", "off"):
                p.backup = w[3] == "on"
            elif w[2] in ("disable", "enable"):
                p.state = "disabled" if w[2] == "disable" else "up"
            elif w[2] == "cap" and len(w) == 4 and w[3].isdigit():
                p.cap = int(w[3])
            else:
                self.send("ERROR: braid path: unknown action")
                return
            self.send("SUCCESS: braid path %s updated" % p.ifname)
            self.path_event(p)
        elif len(w) == 2 and w[0] == "scheduler":
            self.send("SUCCESS: braid scheduler set to %s" % w[1].strip('"'))
        else:
            self.send("ERROR: braid: unknown command")

    def fake(self, w):
        if len(w) == 2 and w[0] in ("cut", "restore") and self.find(w[1]):
            p = self.find(w[1])
            p.state = "down" if w[0] == "cut" else "up"
            self.send("SUCCESS: fake %s %s" % (w[0], p.ifname))
            self.rt(">LOG:{t},W,%s: path %s" % (p.ifname, "down (no reply for 1.0 s)" if p.state == "down" else "up"))
            self.path_event(p)
        elif w == ["junk"]:
            self.out += b"x" * 10000 + b"\r\n"                      # over-long line
            self.out += b">STATE:notatime,CONNECTED\r\n"           # malformed state
            self.out += b">BRAID-PATH:{\"id\":\"one\"}\r\n"         # malformed path object
            self.out += b">BRAID-PATH:{\"id\":1,\"ifname\":\"wlan0\",\"state\":\"up\",\"rtt_ms\":-5}\r\n"  # negative rtt
            self.out += b">BYTECOUNT:1,2,3\r\n"                    # wrong field count
            self.out += b"stray\0line\r\n"                          # NUL
            self.send("SUCCESS: junk sent")
        else:
            self.send("ERROR: fake: unknown")

    def close_soon(self):
        self.closing = True  # stops ticks and pending sequence steps; the drop below still runs
        self.srv.at(0.1, self, lambda: self.srv.drop(self), always=True)


class Server:
    def __init__(self, args):
        self.args = args
        self.sel = selectors.DefaultSelector()
        self.timers = []
        self.seq = 0
        self.clients = [  # gateway role: (cid, cn, real, vaddr, braid, paths)
            {"cid": 0, "cn": "client1", "real": "127.0.0.1:47289", "vaddr": "10.88.0.2", "user": "user1",
             "braid": True, "paths": ["wlan0", "wwan0"], "since": now() - 600},
            {"cid": 1, "cn": "laptop-stock", "real": "203.0.113.9:51000", "vaddr": "10.88.0.3", "user": "",
             "braid": False, "paths": ["udp"], "since": now() - 120},
            {"cid": 2, "cn": "branch-office", "real": "198.51.100.20:40001", "vaddr": "10.88.0.4", "user": "",
             "braid": True, "paths": ["fibre0", "lte0"], "since": now() - 3600, "down": ["lte0"]},
        ]
        try:
            os.unlink(args.unix)
        except FileNotFoundError:
            pass
        self.lsock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.lsock.bind(args.unix)
        self.lsock.listen(4)
        self.lsock.setblocking(False)
        self.sel.register(self.lsock, selectors.EVENT_READ, None)

    def at(self, delay, conn, fn, always=False):
        self.seq += 1
        heapq.heappush(self.timers, (time.monotonic() + delay, self.seq, conn, fn, always))

    def want_write(self, conn):
        try:
            self.sel.modify(conn.sock, selectors.EVENT_READ | selectors.EVENT_WRITE, conn)
        except (KeyError, ValueError):
            pass

    def drop(self, conn):
        try:
            self.sel.unregister(conn.sock)
        except (KeyError, ValueError):
            pass
        conn.sock.close()
        conn.closing = conn.dropped = True

    def gateway_command(self, conn, w):
        c = w[0]
        if c == "status" and (len(w) == 1 or w[1] in ("2", "3")):
            sep = "\t" if len(w) > 1 and w[1] == "3" else ","
            conn.send(sep.join(["TITLE", VERSION]))
            conn.send(sep.join(["TIME", time.strftime("%Y-%m-%d %H:%M:%S"), str(now())]))
            conn.send(STATUS3_HEADER.replace("\t", sep))
            for cl in self.clients:
                conn.send(sep.join(["CLIENT_LIST", cl["cn"], cl["real"], cl["vaddr"], "", str(2911 + 1000 * cl["cid"]),
                                    str(2569 + 700 * cl["cid"]), time.strftime("%Y-%m-%d %H:%M:%S",
                                                                               time.localtime(cl["since"])),
                                    str(cl["since"]), cl["user"], str(cl["cid"]), str(cl["cid"]), "AES-256-GCM"]))
            conn.send(sep.join(["HEADER", "ROUTING_TABLE", "Virtual Address", "Common Name", "Real Address", "Last Ref",
                                "Last Ref (time_t)"]))
            for cl in self.clients:
                conn.send(sep.join(["ROUTING_TABLE", cl["vaddr"], cl["cn"], cl["real"],
                                    time.strftime("%Y-%m-%d %H:%M:%S"), str(now())]))
            conn.send(sep.join(["GLOBAL_STATS", "Max bcast/mcast queue length", "1"]))
            conn.send(sep.join(["GLOBAL_STATS", "dco_enabled", "0"]))
            conn.send("END")
        elif c == "client-kill" and len(w) >= 2 and w[1].isdigit():
            cl = next((x for x in self.clients if x["cid"] == int(w[1])), None)
            if cl is None:
                conn.send("ERROR: client-kill command failed")
            else:
                self.clients.remove(cl)
                conn.send("SUCCESS: client-kill command succeeded")
        elif c == "kill" and len(w) == 2:
            hit = [x for x in self.clients if x["cn"] == w[1]]
            for x in hit:
                self.clients.remove(x)
            conn.send("SUCCESS: common name '%s' found, %d client(s) killed" % (w[1], len(hit)) if hit
                      else "ERROR: common name '%s' not found" % w[1])
        elif c == "load-stats":
            conn.send("SUCCESS: nclients=%d,bytesin=2951,bytesout=2715" % len(self.clients))
        else:
            return False
        return True

    def gateway_braid(self, conn, w):
        if w == ["clients"]:
            for cl in self.clients:
                down = cl.get("down", [])
                conn.send(json.dumps({"cid": cl["cid"], "cn": cl["cn"], "braid": cl["braid"], "paths": len(cl["paths"]),
                                      "paths_up": len(cl["paths"]) - len(down)}, separators=(",", ":")))
            conn.send("END")
        elif len(w) == 2 and w[0] == "client-paths" and w[1].isdigit():
            cl = next((x for x in self.clients if x["cid"] == int(w[1])), None)
            if cl is None:
                conn.send("ERROR: no client %s" % w[1])
                return
            for i, name in enumerate(cl["paths"]):
                p = Path(i + 1, name, cl["real"].rsplit(":", 1)[0] + ":%d" % (40001 + i), 20 + 25 * i, 6e6 / (i + 1))
                if name in cl.get("down", []):
                    p.state = "down"
                p.remote = "10.0.0.1:1194"
                conn.send(json.dumps(p.obj(), separators=(",", ":")))
            conn.send("END")
        else:
            conn.send("ERROR: braid: unknown command")

    def run(self):
        print("READY", flush=True)
        while True:
            timeout = None
            if self.timers:
                timeout = max(0.0, self.timers[0][0] - time.monotonic())
            for key, ev in self.sel.select(timeout):
                if key.data is None:
                    s, _ = self.lsock.accept()
                    s.setblocking(False)
                    conn = Conn(self, s)
                    self.sel.register(s, selectors.EVENT_READ, conn)
                    conn.send(BANNER)
                    if conn.held:
                        conn.send(">HOLD:Waiting for hold release:0")
                    elif self.args.role == "client":
                        conn.after_hold()
                    self.at(self.args.tick, conn, conn.tick)
                    continue
                conn = key.data
                if ev & selectors.EVENT_WRITE and conn.out:
                    try:
                        n = conn.sock.send(conn.out)
                        conn.out = conn.out[n:]
                    except OSError:
                        self.drop(conn)
                        continue
                    if not conn.out:
                        self.sel.modify(conn.sock, selectors.EVENT_READ, conn)
                if ev & selectors.EVENT_READ:
                    try:
                        data = conn.sock.recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        self.drop(conn)
                        continue
                    conn.buf += data
                    while b"\n" in conn.buf:
                        line, conn.buf = conn.buf.split(b"\n", 1)
                        conn.command(line.decode(errors="replace").strip())
            while self.timers and self.timers[0][0] <= time.monotonic():
                _, _, conn, fn, always = heapq.heappop(self.timers)
                if not conn.dropped and (always or not conn.closing):
                    fn()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--unix", required=True)
    ap.add_argument("--role", choices=("client", "gateway"), default="client")
    ap.add_argument("--hold", action="store_true")
    ap.add_argument("--auth", action="store_true")
    ap.add_argument("--challenge", choices=("none", "static", "dynamic"), default="none",
                    help="static-challenge (SCRV1) or a CRV1 dynamic challenge after user1/pass1")
    ap.add_argument("--paths", default="wlan0,wwan0")
    ap.add_argument("--stock", action="store_true", help="no Braid extension: braid commands are unknown")
    ap.add_argument("--tick", type=float, default=0.2)
    ap.add_argument("--speed", type=float, default=1.0, help="multiplies the connect sequence's delays")
    Server(ap.parse_args()).run()


if __name__ == "__main__":
    sys.exit(main())
