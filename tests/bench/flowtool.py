#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""One TCP bulk flow with a time-stamped receive log, and the analyses of the failover and ping-under-load runs.

  flowtool.py send --port P --secs S            listen, accept one connection, send for S s, close (FIN)
  flowtool.py recv --host H --port P --out F [--timeout T]
                                                connect, read to EOF, write {"t0", "bin_ms": 10, "bins": [...]} to F
  flowtool.py failover --recv F --cut T --capacity MBIT [--post S]   JSON members of the failover result
  flowtool.py ping --idle FILE --load FILE --count-idle N --count-load N   JSON members of the ping result

Times are CLOCK_REALTIME seconds (time.time(), `date +%s.%N`): the sender, receiver and the shell that cuts the
path run on the same host. The receiver keeps 10 ms bins of application bytes (in-order data as the inner TCP
delivers it); "reset" is any error other than a clean EOF (ECONNRESET, a stall longer than --stall-timeout).

Failover definition (issue 3): 50 ms bins aligned on the cut; the threshold is 50 % of the surviving path's
capacity (its emulated rate). A bin below the threshold belongs to the dip if it is in the first 200 ms after the
cut or in a 200 ms window (4 consecutive bins) whose mean is below the threshold; back_ms is the end of the last bin
of the dip (0 = no dip), i.e. from then on every 200 ms window is at or above the threshold; null if the dip
reaches into the final 200 ms of the run (not back). report.py recomputes it from the stored bins
(back_from_bins), so the definition can be applied to old result lines.

Failover definition of issue 17 (the failover90_* members, beside the above): 20 ms bins aligned on the cut; the
threshold is 90 % of the surviving path's TCP capacity, i.e. of its emulated rate times 1448/1500 (the payload of a
full-size TCP segment over the IP bytes the emulator counts: what one plain TCP flow gets on that path alone; the
emulated rate itself is out of reach for any tunnel, whose headers come on top). back = the first bin boundary
from which every 100 ms window (5 bins) of the following 500 ms has a mean at or above the threshold (null: never);
a later dip is the inner TCP's own congestion control (one loss, one round trip without in-order data), which it
has before the cut as well. The 20 ms bins from 200 ms before the cut are stored (bins_20ms_mbps, bins20_start_ms)
so the definition can be applied again.
"""
import argparse
import json
import math
import re
import socket
import sys
import time

CHUNK = 65536


def cmd_send(a):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(('0.0.0.0', a.port))
    ls.listen(1)
    ls.settimeout(a.accept_timeout)
    try:
        c, _ = ls.accept()
    except socket.timeout:
        print(f'flowtool send: no connection on :{a.port} within {a.accept_timeout} s', file=sys.stderr)
        return 1
    buf = b'\xa5' * CHUNK
    c.settimeout(0.1)
    end = time.time() + a.secs
    sent = 0
    err = None
    try:
        while time.time() < end:
            try:
                sent += c.send(buf)
            except socket.timeout:
                continue
        c.settimeout(30)
        c.shutdown(socket.SHUT_WR)
        # wait for the receiver's close so that the FIN and every byte are delivered before we go
        while c.recv(4096):
            pass
    except OSError as e:
        err = f'{type(e).__name__}: {e}'
    c.close()
    print(json.dumps({'sent': sent, 'error': err}), file=sys.stderr)
    return 1 if err else 0


def cmd_recv(a):
    deadline = time.time() + a.connect_timeout
    while True:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(2)
        try:
            s.connect((a.host, a.port))
            break
        except OSError as e:
            s.close()
            if time.time() >= deadline:
                json.dump({'t0': None, 'bin_ms': 10, 'bins': [], 'bytes': 0, 'eof': False,
                           'error': f'connect to {a.host}:{a.port}: {e}'}, open(a.out, 'w'))
                return 1
            time.sleep(0.1)
    t0 = time.time()
    bins = []
    total = 0
    err = None
    eof = False
    buf = bytearray(262144)
    s.settimeout(a.stall_timeout)
    try:
        while True:
            n = s.recv_into(buf)
            now = time.time()
            if n == 0:
                eof = True
                break
            k = int((now - t0) * 100)
            if k >= len(bins):
                bins.extend([0] * (k + 1 - len(bins)))
            bins[k] += n
            total += n
            if now - t0 > a.timeout:
                err = f'still receiving after {a.timeout} s'
                break
    except socket.timeout:
        err = f'no data for {a.stall_timeout} s (stalled)'
    except OSError as e:
        err = f'{type(e).__name__}: {e}'
    t1 = time.time()
    s.close()
    with open(a.out, 'w') as f:
        json.dump({'t0': t0, 't1': t1, 'bin_ms': 10, 'bins': bins, 'bytes': total, 'eof': eof, 'error': err}, f)
    return 0 if eof and not err else 1


def rebin(log, start, width_s, n):
    """n bins of width_s seconds from absolute time start, in Mbit/s, from the receiver's 10 ms bins."""
    out = [0.0] * n
    t0, b = log['t0'], log['bins']
    for i, v in enumerate(b):
        if not v:
            continue
        t = t0 + (i + 0.5) * 0.01  # a 10 ms bin counted at its middle
        k = math.floor((t - start) / width_s)
        if 0 <= k < n:
            out[k] += v
    return [x * 8 / width_s / 1e6 for x in out]


def back_from_bins(after, thr, bin_ms=50, window=4):
    """(back_ms, first_low_ms, zero_ms) from the bins after the cut (Mbit/s, bin_ms wide) and the threshold.

    A bin below thr counts as part of the dip if it lies in the first window after the cut or in a window
    (window consecutive bins: 200 ms of 50 ms bins) whose mean is below thr; an isolated low bin later on is noise.
    back = the end of the last such bin (0: none); None when that bin is in the final window (still low when the
    run ended)."""
    n = len(after)
    low = [x < thr for x in after]
    marked = {k for k in range(min(window, n)) if low[k]}
    for j in range(0, n - window + 1):
        if sum(after[j:j + window]) / window < thr:
            marked.update(k for k in range(j, j + window) if low[k])
    if not marked:
        return 0, None, 0
    last, first = max(marked), min(marked)
    zero = sum(1 for k in range(0, last + 1) if after[k] == 0.0) * bin_ms
    if last >= n - window:
        return None, first * bin_ms, zero
    return (last + 1) * bin_ms, first * bin_ms, zero


TCP_PAYLOAD_FRAC = 1448 / 1500  # a full-size TCP segment's payload over its IP bytes
FO90_FRAC, FO90_BIN_S, FO90_WINDOW, FO90_HOLD = 0.9, 0.02, 5, 25


def back90_from_bins(after, thr, bin_ms=20, window=5, hold=25):
    """(back_ms, zero_ms): back = first t (in bins) such that every window of the bins [t, t + hold) has a mean
    >= thr; None if there is none. zero_ms = the empty bins before back (all of them if not back)."""
    n = len(after)
    for t in range(0, n - hold + 1):
        if all(sum(after[j:j + window]) / window >= thr for j in range(t, t + hold - window + 1)):
            return t * bin_ms, sum(1 for k in range(t) if after[k] == 0.0) * bin_ms
    return None, sum(1 for x in after if x == 0.0) * bin_ms


def failover90_metrics(log, cut, capacity, post):
    """Issue 17: 20 ms bins, threshold 90 % of the surviving path's TCP capacity (see the module doc)."""
    thr = FO90_FRAC * capacity * TCP_PAYLOAD_FRAC
    nb = int(round(post / FO90_BIN_S))
    after = rebin(log, cut, FO90_BIN_S, nb)
    before = rebin(log, cut - 0.2, FO90_BIN_S, 10)
    back, zero = back90_from_bins(after, thr, round(FO90_BIN_S * 1000), FO90_WINDOW, FO90_HOLD)
    return {
        'failover90_threshold_mbps': round(thr, 3), 'failover90_back_ms': back, 'failover90_zero_bins_ms': zero,
        'bins_20ms_mbps': [round(x, 2) for x in before + after], 'bins20_start_ms': -200,
    }


def failover_metrics(log, cut, capacity, post, bin_s=0.05):
    thr = 0.5 * capacity
    nb = int(round(post / bin_s))
    after = rebin(log, cut, bin_s, nb)
    before = rebin(log, cut - 1.0, bin_s, int(round(1.0 / bin_s)))
    back, first_low, zero = back_from_bins(after, thr, round(bin_s * 1000))
    tail = after[int(1.0 / bin_s):]
    return {
        'failover_threshold_mbps': round(thr, 3), 'failover_back_ms': back,
        'failover_zero_bins_ms': zero, 'failover_first_low_ms': first_low,
        'pre_cut_mbps': round(sum(before) / len(before), 3),
        'post_cut_mbps': round(sum(tail) / len(tail), 3) if tail else None,
        'bins_50ms_mbps': [round(x, 2) for x in before + after], 'bins_start_ms': -1000,
    }


def cmd_failover(a):
    with open(a.recv) as f:
        log = json.load(f)
    if log.get('t0') is None:
        print(json.dumps({'error': log.get('error')})[1:-1])
        return 1
    m = failover_metrics(log, a.cut, a.capacity, a.post)
    m.update(failover90_metrics(log, a.cut, a.capacity, a.post))
    m['inner_reset'] = not log['eof'] or log['error'] is not None
    m['inner_error'] = log['error']
    print(json.dumps(m)[1:-1])
    return 0


PING_RE = re.compile(r'icmp_seq=(\d+) .*time=([0-9.]+) ms')


def ping_times(path):
    seen = {}
    with open(path) as f:
        for line in f:
            m = PING_RE.search(line)
            if m and m.group(1) not in seen:  # duplicates (DUP!) count once
                seen[m.group(1)] = float(m.group(2))
    return list(seen.values())


def pct(xs, p):
    """Percentile by linear interpolation between closest ranks (numpy's default)."""
    if not xs:
        return None
    s = sorted(xs)
    k = (len(s) - 1) * p / 100.0
    lo = math.floor(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def r3(v):
    return None if v is None else round(v, 3)


def cmd_ping(a):
    idle, load = ping_times(a.idle), ping_times(a.load)
    i50, i95 = pct(idle, 50), pct(idle, 95)
    l50, l95 = pct(load, 50), pct(load, 95)
    out = {
        'ping_idle_n': len(idle), 'ping_idle_lost': a.count_idle - len(idle), 'ping_idle_p50_ms': r3(i50),
        'ping_idle_p95_ms': r3(i95), 'ping_load_n': len(load), 'ping_load_lost': a.count_load - len(load),
        'ping_load_p50_ms': r3(l50), 'ping_load_p95_ms': r3(l95), 'ping_load_max_ms': r3(max(load) if load else None),
        'added_p95_ms': r3(l95 - i50) if l95 is not None and i50 is not None else None,
        'added_p50_ms': r3(l50 - i50) if l50 is not None and i50 is not None else None,
    }
    print(json.dumps(out)[1:-1])
    return 0 if idle and load else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('send')
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--secs', type=float, required=True)
    p.add_argument('--accept-timeout', type=float, default=60)
    p = sub.add_parser('recv')
    p.add_argument('--host', required=True)
    p.add_argument('--port', type=int, required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--timeout', type=float, default=120)
    p.add_argument('--connect-timeout', type=float, default=10)
    p.add_argument('--stall-timeout', type=float, default=20)
    p = sub.add_parser('failover')
    p.add_argument('--recv', required=True)
    p.add_argument('--cut', type=float, required=True)
    p.add_argument('--capacity', type=float, required=True)
    p.add_argument('--post', type=float, default=3)
    p = sub.add_parser('ping')
    p.add_argument('--idle', required=True)
    p.add_argument('--load', required=True)
    p.add_argument('--count-idle', type=int, required=True)
    p.add_argument('--count-load', type=int, required=True)
    a = ap.parse_args()
    return {'send': cmd_send, 'recv': cmd_recv, 'failover': cmd_failover, 'ping': cmd_ping}[a.cmd](a)


if __name__ == '__main__':
    sys.exit(main())
