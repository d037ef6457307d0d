#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""metrics_check.py - checks of braidd's metrics endpoint for tests/daemon/metrics_*.sh.

  parse HEADERS BODY OUT.json
      The response (curl -D HEADERS -o BODY) must be 200 with the OpenMetrics content type (or, when
      HEADERS names text/plain, Prometheus text 0.0.4); the body is parsed with prometheus_client's
      own parser (openmetrics.parser / parser): any syntax or semantic error fails. OUT.json gets
      {"type": {family: type}, "samples": {"name{k=v,...}": value}} for the other commands.
  bracket ROLE SCRAPE.json BEFORE.json AFTER.json [PATHS_BEFORE.json PATHS_AFTER.json]
      Every counter that mirrors a status field a user sees (docs/braidd.md "Metrics endpoint": for
      p2p the status file, for client and gateway `braidctl status --json` and, for a gateway,
      `braidctl paths --json`) lies between the field taken just before the scrape and the one taken
      just after (the sampling skew: the two status reads around the scrape); gauges that cannot move
      (session up, multipath, path count, path state, client count) equal both. Prints how many
      counters were compared; at least the expected number, else it fails.
  monotonic A.json B.json NAME...
      Every counter sample of A is in B and not smaller; each NAME (a sample name, or a prefix ending
      in '*') grew.
"""
import json
import math
import sys


def key(name, labels):
    return name + "{" + ",".join(f"{k}={labels[k]}" for k in sorted(labels)) + "}"


def cmd_parse(headers, body, out):
    hdr = open(headers, encoding="latin-1", newline="").read().split("\r\n")
    status = hdr[0].split(" ")
    assert status[1] == "200", f"status line {hdr[0]!r}"
    ct = [h.split(":", 1)[1].strip() for h in hdr if h.lower().startswith("content-type:")]
    assert len(ct) == 1, f"content-type headers: {ct}"
    text = open(body, encoding="utf-8", newline="").read()
    if ct[0].startswith("text/plain"):
        assert ct[0] == "text/plain; version=0.0.4; charset=utf-8", ct[0]
        assert "# EOF" not in text, "0.0.4 text with an EOF line"
        from prometheus_client.parser import text_string_to_metric_families
        fams = list(text_string_to_metric_families(text))
    else:
        assert ct[0] == "application/openmetrics-text; version=1.0.0; charset=utf-8", ct[0]
        assert text.endswith("# EOF\n"), "no '# EOF' at the end"
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
        fams = list(text_string_to_metric_families(text))
    types, samples = {}, {}
    for f in fams:
        types[f.name] = f.type
        for s in f.samples:
            k = key(s.name, s.labels)
            assert k not in samples, f"sample {k} twice"
            samples[k] = s.value
    assert types, "no families"
    json.dump({"type": types, "samples": samples}, open(out, "w"), indent=0)
    print(f"parsed {len(types)} families, {len(samples)} samples ({ct[0].split(';')[0]})")


def by_label(samples, name):
    """{labels-dict-as-tuple: value} of one sample name."""
    out = {}
    for k, v in samples.items():
        n, _, rest = k.partition("{")
        if n != name:
            continue
        lab = dict(p.split("=", 1) for p in rest[:-1].split(",") if p)
        out[tuple(sorted(lab.items()))] = (lab, v)
    return out


class Bracket:
    def __init__(self):
        self.n = 0

    def check(self, what, v, lo, hi):
        assert lo is not None and hi is not None, f"{what}: no status value"
        assert lo <= v <= hi, f"{what}: metric {v} not within status {lo} .. {hi}"
        self.n += 1


def tunnel_fields():
    return ["tun_read_pkts", "tun_read_bytes", "tun_write_pkts", "tun_write_bytes", "link_tx_pkts",
            "link_tx_bytes", "link_rx_pkts", "link_rx_bytes", "auth_failures", "replays", "malformed",
            "pings_tx", "pings_rx", "restarts"]


PATH_COUNTERS = ["tx_pkts", "tx_bytes", "rx_pkts", "rx_bytes", "wire_tx_pkts", "wire_tx_bytes",
                 "wire_rx_pkts", "wire_rx_bytes", "lost_pkts", "resent_pkts", "failures",
                 "validations", "rebinds"]


def paths_bracket(b, s, prefix_labels, pb, pa, who):
    pbi = {p["index"]: p for p in pb}
    pai = {p["index"]: p for p in pa}
    got = 0
    for field in PATH_COUNTERS:
        for _, (lab, v) in by_label(s, f"braid_path_{field}_total").items():
            if any(lab.get(k) != str(val) for k, val in prefix_labels.items()):
                continue
            i = int(lab["path"])
            assert i in pbi and i in pai, f"{who} path {i} not in the status"
            b.check(f"{who} path {i} {field}", v, pbi[i][field], pai[i][field])
            got += 1
    n_paths = {lab["path"] for _, (lab, _v) in by_label(s, "braid_path_tx_bytes_total").items()
               if all(lab.get(k) == str(val) for k, val in prefix_labels.items())}
    assert len(n_paths) == len(pb) == len(pa), f"{who}: {len(n_paths)} path series, status {len(pb)}"
    return got


# braid_path_state's state label -> the management path object's state ("braid paths",
# mgmt_bpath_state): validated, active and standby are all "up" there, failed is "down".
MGMT_STATE = {"probing": "probing", "validated": "up", "active": "up", "standby": "up",
              "degraded": "degraded", "failed": "down"}


def mgmt_paths_bracket(b, s, prefix_labels, pb, pa, who):
    """Paths of braidctl's JSON (the management "braid paths" objects: id, state, tx_bytes,
    rx_bytes, the latter two the wire bytes): braid_path_wire_{tx,rx}_bytes_total within them,
    the path count and each stable path's state equal."""
    pbi = {p["id"]: p for p in pb}
    pai = {p["id"]: p for p in pa}
    mine = lambda lab: all(lab.get(k) == str(v) for k, v in prefix_labels.items())
    for metric, field in (("wire_tx_bytes", "tx_bytes"), ("wire_rx_bytes", "rx_bytes")):
        for _, (lab, v) in by_label(s, f"braid_path_{metric}_total").items():
            if not mine(lab):
                continue
            i = int(lab["path"])
            assert i in pbi and i in pai, f"{who} path {i} not in braidctl's paths"
            b.check(f"{who} path {i} {metric} (paths[].{field})", v, pbi[i][field], pai[i][field])
    ids = {lab["path"] for _, (lab, _v) in by_label(s, "braid_path_wire_tx_bytes_total").items() if mine(lab)}
    assert len(ids) == len(pb) == len(pa), f"{who}: {len(ids)} path series, braidctl {len(pb)} / {len(pa)}"
    assert one_of(s, "braid_session_paths", prefix_labels) == len(pb), f"{who}: braid_session_paths"
    states = 0
    for _, (lab, v) in by_label(s, "braid_path_state").items():
        if not mine(lab) or v != 1:
            continue
        i = int(lab["path"])
        if pbi[i]["state"] == pai[i]["state"] != "disabled":
            assert MGMT_STATE[lab["state"]] == pbi[i]["state"], \
                f"{who} path {i}: braid_path_state {lab['state']}, braidctl {pbi[i]['state']}"
            states += 1
    return states


def one_of(s, name, labels):
    hits = [v for _, (lab, v) in by_label(s, name).items()
            if all(lab.get(k) == str(val) for k, val in labels.items()) and
            set(lab) == {str(k) for k in labels}]
    assert len(hits) == 1, f"{name}{labels}: {len(hits)} samples"
    return hits[0]


def cmd_bracket(role, scrape, before, after, pbefore=None, pafter=None):
    s = json.load(open(scrape))["samples"]
    jb, ja = json.load(open(before)), json.load(open(after))
    b = Bracket()
    one = lambda name: s[name + "{}"]
    if role == "p2p":
        # the static-key tunnel's status file (docs/braidd.md "Status fields"): every field
        for f in tunnel_fields():
            b.check(f"tunnel.{f}", one(f"braid_tunnel_{f}_total"), jb["tunnel"][f], ja["tunnel"][f])
        b.check("failovers", one("braid_session_failovers_total"), jb["failovers"], ja["failovers"])
        assert jb["up"] == ja["up"] == (one("braid_session_up") == 1), "session up"
        assert (one("braid_session_multipath") == 1) == jb["multipath"] == ja["multipath"]
        assert one("braid_session_paths") == len(jb["paths"]) == len(ja["paths"])
        paths_bracket(b, s, {}, jb["paths"], ja["paths"], role)
        minimum = len(tunnel_fields()) + 1 + len(PATH_COUNTERS) * len(jb["paths"])
        up = one("braid_uptime_seconds")
        assert ja["uptime_s"] - 5 <= up <= ja["uptime_s"] + 5, f"uptime {up} vs {ja['uptime_s']}"
    elif role == "client":
        # `braidctl status --json` of the TLS client (management `state`, `status 3`, `braid paths`):
        # the tunnel's byte totals and the paths' wire bytes; the packet counts, auth failures,
        # replays, pings, restarts, failovers, the other path counters and the uptime have no
        # counterpart there any more (docs/braidd.md "Metrics endpoint")
        tun = {"tun_read_bytes": "tun_read_bytes", "tun_write_bytes": "tun_write_bytes",
               "link_rx_bytes": "link_read_bytes", "link_tx_bytes": "link_write_bytes"}
        for metric, field in tun.items():
            b.check(f"braid_tunnel_{metric}_total (tunnel.{field})", one(f"braid_tunnel_{metric}_total"),
                    jb["tunnel"][field], ja["tunnel"][field])
        up_b, up_a = jb["state"]["name"] == "CONNECTED", ja["state"]["name"] == "CONNECTED"
        assert up_b == up_a == (one("braid_session_up") == 1), \
            f"session up {one('braid_session_up')}, state {jb['state']['name']} / {ja['state']['name']}"
        assert one("braid_session_multipath") == 1 and "paths" in jb and "paths" in ja, "multipath"
        states = mgmt_paths_bracket(b, s, {}, jb["paths"], ja["paths"], role)
        assert states == len(jb["paths"]), f"{role}: {states} path states compared"
        minimum = len(tun) + 2 * len(jb["paths"])
    else:
        # `braidctl status --json` (management `status 3`, `load-stats`, `braid clients`) and
        # `braidctl paths --json` (`braid client-paths CID`) of the gateway: per client its bytes,
        # since, kind and paths (their wire bytes and states), the number of clients; the gateway
        # totals (sessions_created ... link_tx_pkts), max_clients, failovers and the uptime have no
        # counterpart there any more
        cb = {c["cid"]: c for c in jb["clients"]}
        ca = {c["cid"]: c for c in ja["clients"]}
        pbb = {c["cid"]: c["paths"] for c in json.load(open(pbefore))["clients"]}
        paa = {c["cid"]: c["paths"] for c in json.load(open(pafter))["clients"]}
        n = one("braid_gateway_clients")
        assert n == jb["load"]["nclients"] == ja["load"]["nclients"] == len(cb) == len(ca), \
            f"braid_gateway_clients {n}, load.nclients {jb['load']['nclients']}, clients[] {len(cb)}"
        minimum = 0
        series = by_label(s, "braid_client_rx_bytes_total")
        assert len(series) == len(cb), f"{len(series)} client series, braidctl {len(cb)} clients"
        for _, (lab, v) in series.items():
            cid = int(lab["client_id"])
            assert cid in cb and cid in ca, f"client {cid} not in braidctl's clients"
            assert lab["client"] == cb[cid]["cn"], f"client {cid}: label {lab['client']}"
            k = {"client": lab["client"], "client_id": cid}
            b.check(f"client {cid} rx_bytes", v, cb[cid]["rx_bytes"], ca[cid]["rx_bytes"])
            b.check(f"client {cid} tx_bytes", one_of(s, "braid_client_tx_bytes_total", k),
                    cb[cid]["tx_bytes"], ca[cid]["tx_bytes"])
            assert one_of(s, "braid_session_up", k) == 1, f"client {cid}: listed, not up"
            assert one_of(s, "braid_session_since_seconds", k) == cb[cid]["since"], f"client {cid}: since"
            mp = one_of(s, "braid_session_multipath", k) == 1
            assert mp == cb[cid]["braid"] == ca[cid]["braid"], f"client {cid}: multipath {mp}"
            minimum += 2
            if mp:
                assert one_of(s, "braid_session_paths", k) == cb[cid]["paths"] == len(pbb[cid])
                states = mgmt_paths_bracket(b, s, k, pbb[cid], paa[cid], f"client {cid}")
                assert states == len(pbb[cid]), f"client {cid}: {states} path states compared"
                minimum += 2 * len(pbb[cid])
    assert b.n >= minimum, f"only {b.n} samples compared, want {minimum}"
    print(f"{role}: {b.n} counters within the status values before/after the scrape")


def cmd_monotonic(a, b, *grow):
    sa, sb = json.load(open(a)), json.load(open(b))
    ta = sa["type"]
    n = 0
    for k, v in sa["samples"].items():
        name = k.partition("{")[0]
        fam = name[:-6] if name.endswith("_total") else name
        if ta.get(fam) != "counter" or not name.endswith("_total"):
            continue
        assert k in sb["samples"], f"{k} gone in the second scrape"
        assert sb["samples"][k] >= v, f"{k}: {v} -> {sb['samples'][k]}"
        n += 1
    for g in grow:  # a sample name, or a prefix ending in '*': every sample it names
        keys = [k for k in sa["samples"] if (k.startswith(g[:-1]) if g.endswith("*") else k == g)]
        assert keys, f"no sample {g}"
        for k in keys:
            assert sb["samples"][k] > sa["samples"][k], f"{k} did not grow: {sa['samples'][k]}"
    assert n >= 10, f"only {n} counters"
    print(f"{n} counters monotonic; grew: {' '.join(grow)}")


if __name__ == "__main__":
    cmd = sys.argv[1]
    try:
        {"parse": cmd_parse, "bracket": cmd_bracket, "monotonic": cmd_monotonic}[cmd](*sys.argv[2:])
    except AssertionError as e:
        print(f"metrics_check {cmd}: {e}", file=sys.stderr)
        sys.exit(1)
