#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mgmt_pylibs.py HOST PORT OUT.json READY: drive a gateway's management interface (stock openvpn or
braidd, started with management-client-auth) with PyPI management libraries and write the objects
they parse, normalised (see mgmt_pylibs.sh for the steps, which library does which and why).

Normalised, and only these: times (datetime objects, time_t fields, the dates inside a library's
exception text), the client's source port in real addresses (the kernel's choice), counters (byte
counts: replaced by whether they are above 0) and the version title (OpenVPN's build flags and
Braid's name after the version number). Everything else is compared as the library parsed it.
"""
import asyncio
import datetime
import signal
import ipaddress
import json
import os
import queue
import re
import sys
import time

HOST, PORT, OUT, READY = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
signal.alarm(150)  # a library blocking on a reply that never comes ends the test, not hangs it

from openvpn_management_api import VPN  # noqa: E402  (PYTHONPATH: mgmt_pylibs_install.sh)
from openvpn_management_api import events  # noqa: E402
from openvpn_management_api.events.client import ClientEvent  # noqa: E402


@events.register_event
class ByteCountEvent(events.BaseEvent):
    """>BYTECOUNT_CLI:cid,in,out through the library's event registry (register_event, its
    extension point: the library has no bytecount event of its own)."""

    def __init__(self, cid, bin_, bout):
        self.client_id, self.bytes_in, self.bytes_out = cid, bin_, bout

    @classmethod
    def has_begun(cls, line):
        return line.startswith(">BYTECOUNT_CLI:")

    @classmethod
    def has_ended(cls, line):
        return line.startswith(">BYTECOUNT_CLI:")

    @classmethod
    def parse_raw(cls, lines):
        cid, i, o = lines[0].split(":", 1)[1].split(",")
        return cls(int(cid), int(i), int(o))


def port_free(addr):
    return re.sub(r":\d+$", ":PORT", str(addr))


def counter(v):
    return "N>0" if int(v) > 0 else "0"


# ENV names braidd gives (docs/management.md); the others stock adds are listed, not compared
ENV_KEEP = re.compile(r"^(common_name|username|password|trusted_ip|trusted_port|untrusted_ip|"
                      r"untrusted_port|ifconfig_pool_remote_ip|ifconfig_pool_netmask|time_unix|"
                      r"bytes_received|bytes_sent|time_duration|n_clients|IV_[A-Za-z0-9_]+|tls_id_\d+|tls_serial_\d+|"
                      r"tls_serial_hex_\d+|tls_digest_\d+|tls_digest_sha256_\d+|X509_\d+_[A-Za-z0-9_]+)$")
ENV_NORM = {"trusted_port": "PORT", "untrusted_port": "PORT", "time_unix": "T",
            "time_duration": "T"}
env_other = set()


def client_event(e):
    env = {}
    for k, v in e.environment.items():
        if not ENV_KEEP.match(k):
            env_other.add(k)
            continue
        if k in ("bytes_received", "bytes_sent"):
            v = counter(v)
        env[k] = ENV_NORM.get(k, v)
    return {"type": e.type, "client_id": e.client_id, "key_id": e.key_id, "primary": e.primary,
            "address": e.address, "environment": env}


def wait_event(q, what, secs, seen):
    end = time.monotonic() + secs
    while True:
        try:
            e = q.get(timeout=max(0.05, end - time.monotonic()))
        except queue.Empty:
            sys.exit("no %s within %s s (seen: %s)" % (what, secs, [x.get("type") for x in seen]))
        if isinstance(e, ClientEvent):
            seen.append(client_event(e))
            if e.type == what:
                return e
        else:
            seen.append({"type": "BYTECOUNT_CLI", "client_id": e.client_id})


def lib_a_connect():
    vpn = VPN(host=HOST, port=PORT)
    q = queue.Queue()
    vpn.register_callback(ClientEvent, q.put)
    vpn.register_callback(ByteCountEvent, q.put)
    vpn.connect()
    return vpn, q


def state_obj(s):
    return {"up_since": "T" if isinstance(s.up_since, datetime.datetime) else None,
            "state_name": s.state_name, "desc_string": s.desc_string,
            "local_virtual_v4_addr": str(s.local_virtual_v4_addr),
            "remote_addr": str(s.remote_addr), "remote_port": s.remote_port,
            "local_addr": str(s.local_addr), "local_port": s.local_port, "mode": s.mode}


def stats_obj(s):
    return {"client_count": s.client_count, "bytes_in": counter(s.bytes_in),
            "bytes_out": counter(s.bytes_out)}


def exc_text(e):
    t = "%s: %s" % (type(e).__name__, e)
    t = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "DATE", t)
    t = re.sub(r"\d{9,11}", "T", t)
    t = re.sub(r":\d+(?=,)", ":PORT", t)  # a client's source port
    return re.sub(r"(?<=,)\d+(?=[,A-Za-z'\t]|$)", "N", t)  # counters in the joined status text


out = {}
seen = []

# ---- library A: openvpn-management-api (connect, client-auth, state, load-stats, bytecount) ----
vpn, q = lib_a_connect()
out["A.version"] = vpn.version
open(READY, "w").close()  # the shell starts the client now
e = wait_event(q, "CONNECT", 30, seen)
out["A.client-auth-nt"] = vpn.send_command("client-auth-nt %d %d" % (e.client_id, e.key_id)).strip()
cid = e.client_id
wait_event(q, "ESTABLISHED", 30, seen)
time.sleep(2.5)  # pings both ways: counters above 0
try:
    out["A.state"] = state_obj(vpn.get_state())
except Exception as x:  # A joins a reply's lines without a newline: a state line ending in the
    out["A.state"] = exc_text(x)  # local port (a server's) reads as "1194END"; B parses state
out["A.stats"] = stats_obj(vpn.get_stats())
try:
    vpn.get_status()  # `status 1` through openvpn_status
    out["A.status1"] = "parsed"
except Exception as x:  # A joins the reply's lines (see state); openvpn_status also reads 2.4's dates
    out["A.status1"] = exc_text(x)
out["A.bytecount"] = vpn.send_command("bytecount 1").strip()
t_end = time.monotonic() + 3.5
bc = []
while time.monotonic() < t_end:
    try:
        x = q.get(timeout=0.2)
    except queue.Empty:
        continue
    if isinstance(x, ByteCountEvent):
        bc.append(x)
out["A.bytecount0"] = vpn.send_command("bytecount 0").strip()
if len(bc) < 2:
    sys.exit("fewer than 2 >BYTECOUNT_CLI events in 3.5 s: %d" % len(bc))
out["A.bytecount_events"] = sorted({(b.client_id, counter(b.bytes_in), counter(b.bytes_out))
                                    for b in bc})
# without `quit`: after quit the server closes the connection and A's I/O thread, seeing EOF before
# its stop flag, reconnects at once (holding stock's only management slot)
vpn.disconnect(_quit=False)

# ---- library B: openvpn-monitor (version, state, load-stats, status 3 into its sessions) ----
mon = None
for p in sys.path:
    if os.path.isdir(os.path.join(p, "openvpn_monitor")):
        mon = os.path.join(p, "openvpn_monitor")
sys.path.insert(0, mon)  # its modules import each other as top-level names (util, vpns)
import semver  # noqa: E402
from vpns.openvpn.management_connection import ManagementConnection  # noqa: E402
from vpns.openvpn.data_collector import VPNDataCollector  # noqa: E402

conf = {"name": "gw", "host": HOST, "port": PORT}
conn = ManagementConnection(conf)
conn.connect()
if not conn.is_connected():
    sys.exit("openvpn-monitor could not connect: %s" % conf.get("error"))
release = VPNDataCollector.parse_version(conn.send_command("version"))
version = semver.parse_version_info(release.split(" ")[1])  # as collect_data does
out["B.version"] = str(version)
st = VPNDataCollector.parse_state(conn.send_command("state"))
out["B.state"] = {k: ("T" if k == "up_since" else str(v)) for k, v in st.items()}
out["B.stats"] = {k: (v if k == "nclients" else counter(v))
                  for k, v in VPNDataCollector.parse_stats(conn.send_command("load-stats")).items()}
collector = VPNDataCollector.__new__(VPNDataCollector)  # its parser without collecting all vpns
sessions = collector.parse_status(conn.send_command("status 3"), version, None)
norm = {}
for key, s in sessions.items():
    d = {}
    for k, v in s.items():
        if k in ("connected_since", "last_seen"):
            v = "T" if isinstance(v, datetime.datetime) else v
        elif k == "port":
            v = "PORT"
        elif k in ("bytes_recv", "bytes_sent"):
            v = counter(v)
        elif isinstance(v, (ipaddress.IPv4Address, ipaddress.IPv6Address)):
            v = str(v)
        d[k] = v
    norm[key] = d
out["B.sessions"] = norm
if not norm:
    sys.exit("openvpn-monitor parsed no session from status 3")
conn.disconnect()


# ---- status 2: ovpn-manager, the one PyPI library with a status 2 parser ----
async def ovpn_manager_status2():
    from ovpn_manager import VPNManager
    m = VPNManager("tcp://%s:%d" % (HOST, PORT))
    try:
        info = await m.cmd_status()
        return {"title": "TITLE", "clients": [
            {"common_name": c.common_name, "virtual_address": c.virtual_address,
             "username": c.username, "client_id": c.client_id, "peer_id": c.peer_id}
            for c in info.clients]}
    except Exception as x:  # its dates are 2.4's "%a %b %d ..." : 2.6's ISO dates raise
        return exc_text(x)
    finally:
        await m.close()

out["C.status2"] = asyncio.run(ovpn_manager_status2())

# ---- library A again: client-kill (the reply and the >CLIENT:DISCONNECT event) ----
vpn, q = lib_a_connect()
# HALT: the client exits (a RESTART would bring it back, its new CONNECT racing the DISCONNECT)
out["A.client-kill"] = vpn.send_command("client-kill %d HALT" % cid).strip()
wait_event(q, "DISCONNECT", 15, seen)
time.sleep(0.5)
out["A.stats_after_kill"] = stats_obj(vpn.get_stats())
vpn.disconnect(_quit=False)

# the events in order (bytecount events collapsed: their number depends on timing)
ev = []
for x in seen:
    if x["type"] == "BYTECOUNT_CLI" and ev and ev[-1]["type"] == "BYTECOUNT_CLI":
        continue
    ev.append(x)
out["A.events"] = ev
out["env_other"] = sorted(env_other)
json.dump(out, open(OUT, "w"), indent=1, sort_keys=True)
print("ok: %d parsed objects written to %s" % (len(out), OUT))
