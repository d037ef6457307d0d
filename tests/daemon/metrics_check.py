#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""metrics_check.py - checks of braidd's metrics endpoint for tests/daemon/metrics_*.sh.

  parse HEADERS BODY OUT.json
      The response (curl -D HEADERS -o BODY) must be 200 with the OpenMetrics content type (or, when
      HEADERS names text/plain, Prometheus text 0.0.4); the body is parsed with prometheus_client's
      own parser (openmetrics.parser / parser): any syntax or semantic error fails. OUT.json gets
      {"type": {family: type}, "samples": {"name{k=v,...}": value}} for the other commands.
  bracket ROLE SCRAPE.json BEFORE.json AFTER.json [PATHS_BEFORE.json PATHS_AFTER.json]
      Every counter that mirrors a status JSON field (docs/metrics.md) lies between the field in the
      status taken just before the scrape and the one taken just after (the sampling skew: the two
      status reads around the scrape); gauges that cannot move (session up, multipath, path count)
      equal both. Prints how many samples were compared; at least MIN of them, else it fails.
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


def cmd_bracket(role, scrape, before, after, pbefore=None, pafter=None):
    s = json.load(open(scrape))["samples"]
    jb, ja = json.load(open(before)), json.load(open(after))
    b = Bracket()
    one = lambda name: s[name + "{}"]
    if role in ("p2p", "client"):
        for f in tunnel_fields():
            b.check(f"tunnel.{f}", one(f"braid_tunnel_{f}_total"), jb["tunnel"][f], ja["tunnel"][f])
        b.check("failovers", one("braid_session_failovers_total"), jb["failovers"], ja["failovers"])
        up_b = jb["up"] if role == "p2p" else jb["state"] == "up"
        up_a = ja["up"] if role == "p2p" else ja["state"] == "up"
        assert up_b == up_a == (one("braid_session_up") == 1), "session up"
        assert (one("braid_session_multipath") == 1) == jb["multipath"] == ja["multipath"]
        assert one("braid_session_paths") == len(jb["paths"]) == len(ja["paths"])
        paths_bracket(b, s, {}, jb["paths"], ja["paths"], role)
        minimum = len(tunnel_fields()) + 1 + len(PATH_COUNTERS) * len(jb["paths"])
    else:
        gw_fields = ["sessions_created", "clients_removed", "auth_failed", "max_clients_refused",
                     "connect_freq_refused", "floats", "data_auth_failed", "tun_read_pkts",
                     "tun_write_pkts", "link_rx_pkts", "link_tx_pkts"]
        for f in gw_fields:
            b.check(f"gateway.{f}", one(f"braid_gateway_{f}_total"), jb["gateway"][f], ja["gateway"][f])
        assert one("braid_gateway_clients") == jb["gateway"]["clients"] == ja["gateway"]["clients"]
        cb = {c["id"]: c for c in jb["clients"]}
        ca = {c["id"]: c for c in ja["clients"]}
        pbb = {c["id"]: c["paths"] for c in json.load(open(pbefore))["clients"]}
        paa = {c["id"]: c["paths"] for c in json.load(open(pafter))["clients"]}
        minimum = len(gw_fields)
        for _, (lab, v) in by_label(s, "braid_client_rx_bytes_total").items():
            cid = int(lab["client_id"])
            assert cid in cb and cid in ca, f"client {cid} not in the status"
            assert lab["client"] == cb[cid]["cn"], f"client {cid}: label {lab['client']}"
            b.check(f"client {cid} rx_bytes", v, cb[cid]["rx_bytes"], ca[cid]["rx_bytes"])
            tx = by_label(s, "braid_client_tx_bytes_total")[tuple(sorted(lab.items()))][1]
            b.check(f"client {cid} tx_bytes", tx, cb[cid]["tx_bytes"], ca[cid]["tx_bytes"])
            fo = by_label(s, "braid_session_failovers_total").get(tuple(sorted(lab.items())))
            up = by_label(s, "braid_session_up")[tuple(sorted(lab.items()))][1]
            assert (up == 1) == (cb[cid]["state"] == "active") == (ca[cid]["state"] == "active")
            minimum += 2
            if cb[cid]["kind"] == "braid-mp":
                b.check(f"client {cid} failovers", fo[1], cb[cid]["failovers"], ca[cid]["failovers"])
                minimum += 1 + len(PATH_COUNTERS) * len(pbb[cid])
                paths_bracket(b, s, {"client_id": cid}, pbb[cid], paa[cid], f"client {cid}")
        assert len(by_label(s, "braid_client_rx_bytes_total")) == len(cb), "client series"
    up = one("braid_uptime_seconds")
    assert ja["uptime_s"] - 5 <= up <= ja["uptime_s"] + 5, f"uptime {up} vs {ja['uptime_s']}"
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
