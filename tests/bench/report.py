#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Benchmark report: per cell x system statistics, plots and docs/benchmarks.md, from result files only.

  tests/bench/report.py [FILE.jsonl ...]            (default: docs/bench/*.jsonl)
       [--md docs/benchmarks.md] [--plots docs/bench] [--no-plots] [--stats-json]

Each result file is its own set (section and plots named after the file, e.g. `acceptance`, `braid-acceptance`):
runs of different files are never pooled, and ratios compare systems of the same file (same runs).
For each set x scenario x workload x system it takes the goodput of the successful runs and computes n, median, mean,
sample standard deviation and the 95 % confidence interval of the mean (Student t, n-1 degrees of freedom), the
ratio of medians against stock OpenVPN over UDP ("ovpn-udp") in the same scenario and workload, median CPU and
retransmissions, and counts failed and ungated runs. Output depends only on the input files (sorted, no clock).
--stats-json prints the statistics as JSON on stdout and writes nothing else (used by the unit test).
"""
import argparse
import glob
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import flowtool  # noqa: E402  (the failover definition, shared with the runs)
BASELINE = 'ovpn-udp'
SYSTEM_ORDER = ['ovpn-udp', 'ovpn-tcp', 'ovpn-mptcp', 'mptcp', 'braid', 'braid-rtt', 'braid-ratio', 'braid-mpip',
                'braid-lowest-rtt', 'braid-backup', 'braid-redundant']
GOODPUT_WORKLOADS = ('http', 'iperf1', 'iperf4')
FAILOVER_TARGET_MS = 300   # issue 3: throughput back within 300 ms of a path cut
FAILOVER90_MEDIAN_MS, FAILOVER90_MAX_MS = 300, 500  # issue 17: >= 90 %, median / every run, n >= 10
PING_TARGET_MS = 20        # issue 3: p95 added ping delay under saturation <= 20 ms over idle


# ---- statistics ------------------------------------------------------------------------------------------------

def _betacf(a, b, x):
    """Continued fraction of the regularised incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def betainc(a, b, x):
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1.0 - x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    x = df / (df + t * t)
    tail = 0.5 * betainc(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p, df):
    """Inverse Student t CDF by bisection (deterministic, ~1e-12)."""
    lo, hi = -1e3, 1e3
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        return None
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def summarize(xs):
    """n, median, mean, sd, ci95 (half width of the 95 % CI of the mean; None for n < 2)."""
    n = len(xs)
    if n == 0:
        return {'n': 0, 'median': None, 'mean': None, 'sd': None, 'ci95': None}
    mean = math.fsum(xs) / n
    if n < 2:
        return {'n': 1, 'median': xs[0], 'mean': mean, 'sd': None, 'ci95': None}
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
    ci = t_quantile(0.975, n - 1) * sd / math.sqrt(n)
    return {'n': n, 'median': median(xs), 'mean': mean, 'sd': sd, 'ci95': ci}


# ---- data ------------------------------------------------------------------------------------------------------

def load(paths):
    envs, recs = [], []
    for p in paths:
        with open(p) as f:
            for ln, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except ValueError:
                    print(f'report.py: {p}:{ln}: not JSON, skipped', file=sys.stderr)
                    continue
                if r.get('type') == 'env':
                    r['_file'] = os.path.basename(p)
                    envs.append(r)
                else:
                    r['_set'] = os.path.splitext(os.path.basename(p))[0]
                    # the second shaper's runs are their own rows, next to the pathemu rows of the same cell
                    if r.get('shaper') in ('tbf', 'htb') and r.get('scenario'):
                        r['scenario'] = f"{r['scenario']} [{r['shaper']}]"
                    # unshaped.sh: the braidd gateway variants run ovpn-udp's configuration with braidd as
                    # the server (gw-stock) or both ends (gw-braid): named for what ran; a --label (a
                    # before/after pair in one file) is a scenario of its own
                    if r.get('variant') in ('gw-stock', 'gw-braid'):
                        r['system'] = 'braidd-gw' if r['variant'] == 'gw-stock' else 'braidd-gw+client'
                    if r.get('variant') and r.get('label') and r.get('scenario'):
                        r['scenario'] = f"{r['scenario']} ({r['label']})"
                    # bench.py --tag (a labelled set of runs in one file, e.g. after a change) and --loaded
                    # (a busy host): a goodput scenario of their own, never pooled with the other runs
                    mark = [x for x in (r.get('tag'), 'loaded' if r.get('loaded') else None) if x]
                    if mark and r.get('scenario') and r.get('workload') in GOODPUT_WORKLOADS:
                        r['scenario'] = f"{r['scenario']} ({', '.join(mark)})"
                    recs.append(r)
    return envs, recs


def sys_key(s):
    return (SYSTEM_ORDER.index(s) if s in SYSTEM_ORDER else len(SYSTEM_ORDER), s)


def loss_label(r):
    m, p = r.get('loss_model') or 'none', r.get('loss_params') or ''
    if m == 'uniform':
        return f'uniform {p} %'
    if m == 'ge':
        k = p.split(',')[2] if p.count(',') == 3 else p
        obs = {'0': 1, '0.5': 2, '1': 3, '3': 7}.get(k)
        return f'GE 1-k={k} %' + (f' (seed ≈{obs} %)' if obs is not None else '')
    return 'no loss'


def cell_params(r):
    if not r.get('shaped', True) or r.get('family') == 'unshaped':
        return f'unshaped, {r.get("paths", "?")} path(s)'
    shaper = '' if r.get('shaper') in (None, 'pathemu') else f', {r["shaper"]} + pathemu delay-only'
    return (f'{fmt(r.get("rate1"))}+{fmt(r.get("rate2"))} Mbit/s, RTT {fmt(r.get("rtt1"))}/{fmt(r.get("rtt2"))} ms, '
            f'{loss_label(r)}{shaper}')


def fmt(v, nd=None):
    if v is None:
        return '–'
    if isinstance(v, float):
        if nd is None:
            return f'{v:g}'
        return f'{v:.{nd}f}'
    return str(v)


def compute(recs):
    """Group by (scenario, workload, system); returns a sorted list of row dicts."""
    groups = {}
    for r in recs:
        if r.get('workload') not in GOODPUT_WORKLOADS:
            continue  # failover / pingload runs have their own tables
        key = (r.get('_set', ''), r.get('scenario'), r.get('workload'), r.get('system'), xfer(r))
        g = groups.setdefault(key, {'ok': [], 'failed': 0, 'ungated': 0, 'cpu': [], 'retr': [], 'tretr': [],
                                    'sf': [], 'sample': r, 'errors': []})
        if r.get('gated') is False:
            g['ungated'] += 1
        if r.get('ok') and r.get('goodput_mbps') is not None:
            g['ok'].append(float(r['goodput_mbps']))
            if r.get('cpu') is not None:
                g['cpu'].append(float(r['cpu']))
            if r.get('retransmits') is not None:
                g['retr'].append(float(r['retransmits']))
            if r.get('tunnel_retransmits') is not None:
                g['tretr'].append(float(r['tunnel_retransmits']))
            if r.get('mptcp_subflows') is not None:
                g['sf'].append(int(r['mptcp_subflows']))
        else:
            g['failed'] += 1
            if r.get('error'):
                g['errors'].append(str(r['error'])[:120])
            if r.get('ok') is None:
                g['sample'] = g['sample']
    rows = []
    for (se, sc, wl, sy, xf), g in groups.items():
        st = summarize(g['ok'])
        rows.append({'set': se, 'scenario': sc, 'workload': wl, 'system': sy, 'xfer': xf, 'wlx': f'{wl}, {xf}',
                     'sec': (se, f'{wl}, {xf}'), **st, 'failed': g['failed'],
                     'ungated': g['ungated'], 'cpu_median': median(g['cpu']), 'retr_median': median(g['retr']),
                     'tunnel_retr_median': median(g['tretr']), 'subflows_max': max(g['sf']) if g['sf'] else None,
                     'errors': sorted(set(g['errors'])), 'family': g['sample'].get('family'),
                     'params': cell_params(g['sample']), 'sample': g['sample']})
    base = {(r['set'], r['scenario'], r['workload'], r['xfer']): r['median'] for r in rows
            if r['system'] == BASELINE}
    for r in rows:
        b = base.get((r['set'], r['scenario'], r['workload'], r['xfer']))
        r['ratio_vs_udp'] = (r['median'] / b) if (b and r['median'] is not None) else None
    rows.sort(key=lambda r: (r['set'], str(r['workload']), r['xfer'], family_key(r['family']), scenario_key(r),
                             sys_key(r['system'])))
    return rows


def _median_or_none(xs):
    return median(xs) if xs else None


def compute_failover(recs):
    """Per set x scenario x system: failover_back_ms (null = not back before the run ended: counts as infinite
    in the median), inner resets, zero-goodput time, goodput before and after the cut, median 50 ms bins."""
    groups = {}
    for r in recs:
        if r.get('workload') != 'failover':
            continue
        # a --tag (a before/after pair in one file) is a system of its own here
        sy = r.get('system') + (f" ({r['tag']})" if r.get('tag') else '')
        g = groups.setdefault((r.get('_set', ''), r.get('scenario'), sy),
                              {'back': [], 'zero': [], 'pre': [], 'post': [], 'reset': 0, 'failed': 0,
                               'ungated': 0, 'bins': [], 'sample': r, 'errors': [], 'back90': [], 'loaded': 0})
        if r.get('gated') is False:
            g['ungated'] += 1
        if not r.get('ok'):
            g['failed'] += 1
            if r.get('error'):
                g['errors'].append(str(r['error'])[:120])
            continue
        b, zero = r.get('failover_back_ms'), r.get('failover_zero_bins_ms')
        if r.get('bins_50ms_mbps') and r.get('failover_threshold_mbps') is not None:
            # recomputed from the stored bins: the definition of flowtool.back_from_bins, whatever wrote the line
            k0 = -int(r.get('bins_start_ms', -1000)) // 50
            b, _, zero = flowtool.back_from_bins(r['bins_50ms_mbps'][k0:], float(r['failover_threshold_mbps']))
        g['back'].append(math.inf if b is None else float(b))
        g['loaded'] += 1 if r.get('loaded') else 0
        if r.get('bins_20ms_mbps') and r.get('failover90_threshold_mbps') is not None:
            # issue 17, recomputed from the stored 20 ms bins (flowtool.back90_from_bins)
            k0 = -int(r.get('bins20_start_ms', -200)) // 20
            b90, _ = flowtool.back90_from_bins(r['bins_20ms_mbps'][k0:], float(r['failover90_threshold_mbps']))
            g['back90'].append(math.inf if b90 is None else float(b90))
        if zero is not None:
            g['zero'].append(float(zero))
        for k in ('pre', 'post'):
            if r.get(f'{k}_cut_mbps') is not None:
                g[k].append(float(r[f'{k}_cut_mbps']))
        g['reset'] += 1 if r.get('inner_reset') else 0
        if r.get('bins_50ms_mbps'):
            g['bins'].append(r['bins_50ms_mbps'])
    rows = []
    for (se, sc, sy), g in groups.items():
        n = len(g['back'])
        mb = median(g['back']) if n else None
        bins = None
        if g['bins']:
            w = min(len(x) for x in g['bins'])
            bins = [median([x[i] for x in g['bins']]) for i in range(w)]
        s = g['sample']
        rows.append({'set': se, 'scenario': sc, 'system': sy, 'n': n, 'back_median': mb,
                     'back_all': sorted(g['back']), 'zero_median': _median_or_none(g['zero']),
                     'pre_median': _median_or_none(g['pre']), 'post_median': _median_or_none(g['post']),
                     'resets': g['reset'], 'failed': g['failed'], 'ungated': g['ungated'],
                     'threshold': s.get('failover_threshold_mbps'), 'cut': f"{s.get('cut_mode')} of path "
                     f"{s.get('cut_path')} at {fmt(s.get('cut_after_s'))} s", 'params': cell_params(s),
                     'family': s.get('family'), 'bins': bins, 'bins_start_ms': s.get('bins_start_ms', -1000),
                     'met': (mb is not None and mb <= FAILOVER_TARGET_MS and g['reset'] == 0 and n > 0),
                     'back90_median': _median_or_none(g['back90']), 'back90_all': sorted(g['back90']),
                     'met90': bool(g['back90']) and median(g['back90']) <= FAILOVER90_MEDIAN_MS and
                     max(g['back90']) <= FAILOVER90_MAX_MS and g['reset'] == 0 and len(g['back90']) >= 10,
                     'loaded': g['loaded'],
                     'errors': sorted(set(g['errors']))})
    rows.sort(key=lambda r: (r['set'], family_key(r['family']), str(r['scenario']), sys_key(r['system'])))
    return rows


def compute_pingload(recs):
    """Per set x scenario x system: medians over runs of the ping percentiles idle / loaded, the added p95
    (loaded p95 - idle median) and the download goodput; lost pings summed."""
    groups = {}
    for r in recs:
        if r.get('workload') != 'pingload':
            continue
        g = groups.setdefault((r.get('_set', ''), r.get('scenario'), r.get('system')),
                              {'added': [], 'i50': [], 'l50': [], 'l95': [], 'gp': [], 'lost': 0, 'sent': 0,
                               'failed': 0, 'ungated': 0, 'sample': r, 'errors': []})
        if r.get('gated') is False:
            g['ungated'] += 1
        if not r.get('ok') or r.get('added_p95_ms') is None:
            g['failed'] += 1
            if r.get('error'):
                g['errors'].append(str(r['error'])[:120])
            continue
        g['added'].append(float(r['added_p95_ms']))
        g['i50'].append(float(r['ping_idle_p50_ms']))
        g['l50'].append(float(r['ping_load_p50_ms']))
        g['l95'].append(float(r['ping_load_p95_ms']))
        if r.get('goodput_mbps') is not None:
            g['gp'].append(float(r['goodput_mbps']))
        g['lost'] += int(r.get('ping_load_lost') or 0)
        g['sent'] += int(r.get('ping_load_n') or 0) + int(r.get('ping_load_lost') or 0)
    rows = []
    for (se, sc, sy), g in groups.items():
        ma = _median_or_none(g['added'])
        s = g['sample']
        rows.append({'set': se, 'scenario': sc, 'system': sy, 'n': len(g['added']), 'added_median': ma,
                     'added_all': sorted(g['added']), 'idle_p50': _median_or_none(g['i50']),
                     'load_p50': _median_or_none(g['l50']), 'load_p95': _median_or_none(g['l95']),
                     'goodput': _median_or_none(g['gp']), 'lost': g['lost'], 'sent': g['sent'],
                     'failed': g['failed'], 'ungated': g['ungated'], 'params': cell_params(s),
                     'family': s.get('family'), 'met': ma is not None and ma <= PING_TARGET_MS,
                     'ping_ms': s.get('ping_ms'), 'errors': sorted(set(g['errors']))})
    rows.sort(key=lambda r: (r['set'], family_key(r['family']), str(r['scenario']), sys_key(r['system'])))
    return rows


def xfer(r):
    """Transfer label: file size for http, duration for iperf (different sizes are different cells)."""
    if r.get('workload') == 'http':
        b = r.get('size_bytes')
        return f'{b / 1048576:g} MiB' if b else '? MiB'
    return f'{r.get("secs")} s' if r.get('secs') else '? s'


def family_key(f):
    order = ['sym', 'rate', 'ratio', 'unshaped']
    return order.index(f) if f in order else len(order)


def scenario_key(r):
    s = r['sample']
    return (loss_label(s), s.get('rtt1') or 0, s.get('rtt2') or 0, -(s.get('rate1') or 0), str(r['scenario']))


def sec_slug(sec):
    """Plot name prefix of a section: result set + workload, e.g. braid-acceptance-http-8-MiB."""
    return slug(f'{sec[0]}-{sec[1]}') if sec[0] else slug(sec[1])


def slug(s):
    return ''.join(c if c.isalnum() or c in '.-' else '-' for c in s).replace('--', '-').strip('-')


# ---- plots -----------------------------------------------------------------------------------------------------

def plots(rows, outdir):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    matplotlib.rcParams['svg.hashsalt'] = 'braid'
    made = []
    for sec in sorted({r['sec'] for r in rows}):
        wl = sec[1]
        pre = sec_slug(sec)
        wrows = [r for r in rows if r['sec'] == sec and r['n'] > 0]
        # 1. goodput vs symmetric RTT (one panel per loss setting)
        sym = [r for r in wrows if r['family'] == 'sym']
        one_rtt = len({r['sample'].get('rtt1') for r in sym}) == 1
        if sym and not one_rtt:
            losses = sorted({loss_label(r['sample']) for r in sym})
            fig, axes = plt.subplots(1, len(losses), figsize=(5 * len(losses), 3.8), squeeze=False)
            for ax, lo in zip(axes[0], losses):
                for sy in sorted({r['system'] for r in sym}, key=sys_key):
                    pts = sorted((r['sample']['rtt1'], r['mean'], r['ci95'] or 0) for r in sym
                                 if r['system'] == sy and loss_label(r['sample']) == lo)
                    ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], marker='o',
                                capsize=3, label=sy)
                ax.set_title(f'{wl}: symmetric RTT\n{lo}', fontsize=9)
                ax.set_xlabel('RTT of each path (ms)')
                ax.set_ylabel('goodput (Mbit/s), mean ± 95 % CI')
                ax.set_ylim(bottom=0)
                ax.grid(alpha=0.3)
                ax.legend(fontsize=7)
            made.append(save(fig, plt, outdir, f'{pre}-goodput-vs-rtt.png'))
        # 2. goodput vs RTT ratio (one panel per loss setting)
        rat = [r for r in wrows if r['family'] == 'ratio']
        if rat:
            losses = sorted({loss_label(r['sample']) for r in rat})
            fig, axes = plt.subplots(1, len(losses), figsize=(5 * len(losses), 3.8), squeeze=False)
            for ax, lo in zip(axes[0], losses):
                for sy in sorted({r['system'] for r in rat}, key=sys_key):
                    pts = sorted((r['sample']['rtt2'] / r['sample']['rtt1'], r['mean'], r['ci95'] or 0)
                                 for r in rat if r['system'] == sy and loss_label(r['sample']) == lo)
                    ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], marker='o',
                                capsize=3, label=sy)
                ax.set_title(f'{wl}: RTT ratio, primary 20 ms\n{lo}', fontsize=9)
                ax.set_xlabel('secondary / primary RTT')
                ax.set_xticks([1, 2, 3, 4, 5])
                ax.set_xticklabels(['1:1', '1:2', '1:3', '1:4', '1:5'])
                ax.set_ylabel('goodput (Mbit/s), mean ± 95 % CI')
                ax.set_ylim(bottom=0)
                ax.grid(alpha=0.3)
                ax.legend(fontsize=7)
            made.append(save(fig, plt, outdir, f'{pre}-goodput-vs-rtt-ratio.png'))
        # 3. bars: rate-asymmetric and unshaped cells
        bar = [r for r in wrows if r['family'] in ('rate', 'unshaped') or (r['family'] == 'sym' and one_rtt)]
        if bar:
            scen = sorted({r['scenario'] for r in bar}, key=lambda s: (
                family_key(next(r['family'] for r in bar if r['scenario'] == s)), s))
            fig, axes = plt.subplots(1, len(scen), figsize=(4.5 * len(scen), 3.8), squeeze=False)
            for ax, sc in zip(axes[0], scen):
                rs = sorted([r for r in bar if r['scenario'] == sc], key=lambda r: sys_key(r['system']))
                xs = range(len(rs))
                ax.bar(xs, [r['mean'] for r in rs], yerr=[r['ci95'] or 0 for r in rs], capsize=3,
                       color=[f'C{i}' for i in xs])
                ax.set_xticks(list(xs))
                ax.set_xticklabels([r['system'] for r in rs], rotation=20, fontsize=8)
                ax.set_title(f'{wl}: {sc}\n{rs[0]["params"]}', fontsize=8)
                ax.set_ylabel('goodput (Mbit/s), mean ± 95 % CI')
                ax.grid(alpha=0.3, axis='y')
            made.append(save(fig, plt, outdir, f'{pre}-goodput-bars.png'))
    return made


def plots_issue3(frows, prows, outdir):
    """Failover: median goodput in 50 ms bins around the cut, per system; pingload: added p95 per system."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    made = []
    for se in sorted({r['set'] for r in frows}):
        rs = [r for r in frows if r['set'] == se and r['bins']]
        scen = sorted({r['scenario'] for r in rs})
        if not scen:
            continue
        ncol = min(2, len(scen))
        nrow = (len(scen) + ncol - 1) // ncol
        fig, axes = plt.subplots(nrow, ncol, figsize=(6.5 * ncol, 3.8 * nrow), squeeze=False)
        for ax in axes.flat[len(scen):]:
            ax.set_visible(False)
        for ax, sc in zip(axes.flat, scen):
            srs = sorted([r for r in rs if r['scenario'] == sc], key=lambda r: sys_key(r['system']))
            for r in srs:
                x0 = r['bins_start_ms'] or -1000
                xs = [x0 + 50 * i for i in range(len(r['bins']))]
                ax.step(xs, r['bins'], where='post', label=f'{r["system"]} (back {fmt_back(r["back_median"])})')
            if srs[0]['threshold']:
                ax.axhline(srs[0]['threshold'], color='grey', ls='--', lw=1, label='50 % of surviving path')
            ax.axvline(0, color='red', lw=1)
            ax.axvline(FAILOVER_TARGET_MS, color='red', ls=':', lw=1, label=f'target {FAILOVER_TARGET_MS} ms')
            ax.set_title(f'{sc}: {srs[0]["params"]}\n{srs[0]["cut"]}; median of runs per 50 ms bin', fontsize=8)
            ax.set_xlabel('time from the cut (ms)')
            ax.set_ylabel('goodput (Mbit/s), 50 ms bins')
            ax.set_ylim(bottom=0)
            ax.grid(alpha=0.3)
            ax.legend(fontsize=7)
        made.append(save(fig, plt, outdir, f'{slug(se)}-failover-timeline.png'))
    for se in sorted({r['set'] for r in prows}):
        rs = [r for r in prows if r['set'] == se and r['n'] > 0]
        scen = sorted({r['scenario'] for r in rs})
        if not scen:
            continue
        fig, axes = plt.subplots(1, len(scen), figsize=(4.5 * len(scen), 3.8), squeeze=False)
        for ax, sc in zip(axes[0], scen):
            srs = sorted([r for r in rs if r['scenario'] == sc], key=lambda r: sys_key(r['system']))
            xs = range(len(srs))
            lo = [r['added_median'] - r['added_all'][0] for r in srs]
            hi = [r['added_all'][-1] - r['added_median'] for r in srs]
            ax.bar(xs, [r['added_median'] for r in srs], yerr=[lo, hi], capsize=3, color=[f'C{i}' for i in xs])
            ax.axhline(PING_TARGET_MS, color='red', ls=':', lw=1, label=f'target {PING_TARGET_MS} ms')
            ax.set_xticks(list(xs))
            ax.set_xticklabels([r['system'] for r in srs], rotation=20, fontsize=8)
            ax.set_title(f'{sc}: {srs[0]["params"]}', fontsize=8)
            ax.set_ylabel('ping p95 under load − idle median (ms)\nmedian of runs, bars: min–max')
            ax.grid(alpha=0.3, axis='y')
            ax.legend(fontsize=7)
        made.append(save(fig, plt, outdir, f'{slug(se)}-pingload-added-p95.png'))
    return made


def fmt_back(v):
    if v is None:
        return '–'
    return 'not back' if v == math.inf else f'{v:.0f} ms'


def save(fig, plt, outdir, name):
    os.makedirs(outdir, exist_ok=True)
    fig.tight_layout()
    path = os.path.join(outdir, name)
    fig.savefig(path, dpi=90, metadata={'Software': None})
    plt.close(fig)
    return name


# ---- markdown --------------------------------------------------------------------------------------------------

def markdown_issue3(frows, prows, made, plotdir_rel):
    L = []
    a = L.append
    for se in sorted({r['set'] for r in frows}):
        a(f'## Failover after a path cut — `{se}.jsonl`')
        a('')
        a('One inner TCP flow (`flowtool.py`, app → client); a path is cut while it runs (`-w failover`,')
        a('tests/bench/failover.sh). **back** = time from the cut until the application goodput, in 50 ms bins, is')
        a('back at ≥ 50 % of the surviving path\'s emulated rate for good: the end of the last bin below that')
        a('which lies in the first 200 ms after the cut or in a 200 ms window averaging below it (0 = no dip;')
        a('"not back" = still low at the end of the run; `flowtool.back_from_bins`, recomputed from the stored bins).')
        a(f'Target (issue 3): median ≤ {FAILOVER_TARGET_MS} ms with no inner TCP reset. Zero time = 50 ms bins')
        a('with no byte at all between the cut and "back" (median over runs). Inner resets / stalls = runs whose')
        a('flow did not end with a clean EOF (a reset, or no byte for 20 s). Cells named `-down` take the link down')
        a('(both veth ends) instead of the silent blackhole.')
        a('')
        for name in made:
            if name == f'{slug(se)}-failover-timeline.png':
                a(f'![{name}]({plotdir_rel}/{name})')
                a('')
        a('**back 90 %** (issue 17; `flowtool.back90_from_bins`, recomputed from the stored 20 ms bins): the first')
        a('20 ms bin boundary from which every 100 ms window of the next 500 ms averages ≥ 90 % of the surviving')
        a('path\'s TCP capacity (its rate × 1448/1500); target median ≤ 300 ms, every run ≤ 500 ms, n ≥ 10, no')
        a('reset. A `(tag)` after the system names a labelled set of runs (`bench.py --tag`); "loaded" counts runs')
        a('marked as made on a busy host (`--loaded`).')
        a('')
        a('| scenario | cell | cut | system | n | back, median | back, each run | zero time | before cut Mbit/s '
          '| 1–3 s after Mbit/s | inner resets / stalls | target | back 90 %, median | back 90 %, each run '
          '| target 90 % | failed | ungated | loaded |')
        a('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
        for r in frows:
            if r['set'] != se:
                continue
            each = ', '.join(fmt_back(x) for x in r['back_all'])
            a(f'| {r["scenario"]} | {r["params"]} | {r["cut"]} | {r["system"]} | {r["n"]} | '
              f'{fmt_back(r["back_median"])} | {each} | {fmt(r["zero_median"], 0)} ms | {fmt(r["pre_median"], 2)} | '
              f'{fmt(r["post_median"], 2)} | {r["resets"]} | {"met" if r["met"] else "missed"} | '
              f'{fmt_back(r["back90_median"]) if r["back90_all"] else "–"} | '
              f'{", ".join(fmt_back(x) for x in r["back90_all"]) or "–"} | '
              f'{("met" if r["met90"] else "missed") if r["back90_all"] else "–"} | {r["failed"]} | '
              f'{r["ungated"]} | {r["loaded"]} |')
        a('')
        errs = [(r['scenario'], r['system'], e) for r in frows if r['set'] == se for e in r['errors']]
        for sc, sy, e in errs:
            a(f'* failed: {sc} / {sy}: {e.replace("|", "/")}')
        if errs:
            a('')
    for se in sorted({r['set'] for r in prows}):
        a(f'## Ping under saturation — `{se}.jsonl`')
        a('')
        a('Pings through the tunnel from the client to the workload server every 20 ms: first on the idle tunnel,')
        a('then while one inner TCP download (`flowtool.py`) fills the paths (`-w pingload`, tests/bench/pingload.sh).')
        a('**added p95** = p95 of the loaded RTTs − median of the idle RTTs, per run; the table gives the median')
        a(f'over runs and every run. Target (issue 3): ≤ {PING_TARGET_MS} ms. Lost pings are not in the percentiles')
        a('(counted apart).')
        a('')
        for name in made:
            if name == f'{slug(se)}-pingload-added-p95.png':
                a(f'![{name}]({plotdir_rel}/{name})')
                a('')
        a('| scenario | cell | system | n | idle median ms | loaded median ms | loaded p95 ms | added p95, median '
          '| added p95, each run | lost / sent (loaded) | download Mbit/s | target | failed | ungated |')
        a('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
        for r in prows:
            if r['set'] != se:
                continue
            each = ', '.join(f'{x:.1f}' for x in r['added_all'])
            a(f'| {r["scenario"]} | {r["params"]} | {r["system"]} | {r["n"]} | {fmt(r["idle_p50"], 1)} | '
              f'{fmt(r["load_p50"], 1)} | {fmt(r["load_p95"], 1)} | {fmt(r["added_median"], 1)} | {each} | '
              f'{r["lost"]} / {r["sent"]} | {fmt(r["goodput"], 2)} | {"met" if r["met"] else "missed"} | '
              f'{r["failed"]} | {r["ungated"]} |')
        a('')
        errs = [(r['scenario'], r['system'], e) for r in prows if r['set'] == se for e in r['errors']]
        for sc, sy, e in errs:
            a(f'* failed: {sc} / {sy}: {e.replace("|", "/")}')
        if errs:
            a('')
    return L


def markdown(rows, envs, recs, files, made, plotdir_rel, frows=(), prows=()):
    L = []
    a = L.append
    a('# Benchmarks')
    a('')
    a('<!-- Generated by tests/bench/report.py from the result files below; do not edit by hand. -->')
    a('')
    a('Reproduction of the experiment of seed 004 (Lukaszewski & Xie, *Multipath Transport for VPNs*): a client')
    a('downloads a 16 MiB file from an intranet web server behind the VPN server, over two emulated paths')
    a('(test bed of the seed\'s Figure 1, `tests/lib/testbed.sh`). Goodput = file size / curl `time_total`.')
    a('Systems: stock OpenVPN 2.6 over UDP and TCP on path 1 (single path), OpenVPN TCP under `mptcpize` with an')
    a('MPTCP subflow per path (`ovpn-mptcp`), plain kernel MPTCP without a VPN (`mptcp`, upper reference), and')
    a('Braid (`braid`: two `braidd` peers, static key, AES-256-GCM, one UDP path per emulated path, scheduler')
    a('`BRAID_SCHED`, default edf; `braid-<sched>` = the same with another scheduler, `braid-ratio` with shares')
    a('set to the cell\'s path rates). Each result file is its own section: systems are compared only within the')
    a('runs of one file (the same bench.py invocation, interleaved), never pooled across files.')
    a('')
    a('## Method')
    a('')
    a('* Paths: `pathemu` (NFQUEUE verdict-later emulator) in each router, both directions: rate, one-way delay')
    a('  RTT/2, queue limit max(50 ms, path RTT) of serialisation (tail drop; at least one path BDP, far below the')
    a('  seed\'s unbounded tc/netem queues), uniform or Gilbert-Elliott loss (seed Table 1: p = 1 %, r = 75 %,')
    a('  1-h = 50 %, 1-k varies). Seeded per repetition. "unshaped" = raw veths, one path.')
    a('* Tunnel: AES-256-GCM, tls-crypt, `disable-dco` (no DCO module here), otherwise OpenVPN defaults. The seed')
    a('  ran without encryption; crypto is not the bottleneck at these rates (testbed notes §3).')
    a('* TCP congestion control cubic in every namespace (the seed used BALIA for MPTCP; Linux has no BALIA).')
    a('* Each run builds a fresh bed and tunnel. Within a cell and repetition the systems run back to back,')
    a('  rotating the order per repetition. Before each transfer the host must be < 20 % busy for 1 s')
    a('  (`tb_quiet`; bench.py `--gate 20:20` waits up to 20 s for it in the committed runs, 20:30 by default);')
    a('  runs that started on a busy host are counted as "ungated", not hidden.')
    a('* Statistics: median, mean and the 95 % confidence interval of the mean (Student t, n-1 df) over the')
    a('  successful runs; "vs UDP" = median / median of `ovpn-udp` in the same cell. CPU = utime+stime of the')
    a('  tunnel processes (both ends, % of one core) over the transfer. Retr. = TCP segments retransmitted by')
    a('  the sending end of the inner connection; tunnel retr. = by the VPN server\'s TCP (outer connection).')
    a('')
    a('## How to rerun')
    a('')
    a('```sh')
    a('cmake -S . -B build -G Ninja && ninja -C build         # builds pathemu into build/bin')
    a('sudo tests/bench/bench.py --grid quick --out /tmp/quick.jsonl               # a few minutes')
    a('sudo tests/bench/bench.py --grid acceptance --resume --max-minutes 60      # appends to docs/bench/acceptance.jsonl')
    a('sudo tests/bench/bench.py --grid acceptance --size 8 --reps 1 --resume \\')
    a('     --out docs/bench/braid-acceptance.jsonl --scenarios 50+20-rtt0,sym20-noloss,unshaped-1path   # + braid')
    a('sudo tests/bench/bench.py --grid seed --resume --max-minutes 120           # hours; resumable')
    a('sudo tests/bench/bench.py --grid schedulers --out docs/bench/schedulers.jsonl --resume   # issue 3')
    a('sudo tests/bench/bench.py --grid failover --out docs/bench/failover.jsonl --resume       # issue 3')
    a('sudo tests/bench/bench.py --grid pingload --out docs/bench/pingload.jsonl --resume       # issue 3')
    a('tests/bench/report.py                                   # regenerates this file and docs/bench/*.png')
    a('sudo tests/bench/run-cell.sh -s ovpn-udp -w http --rtt1 40 --rtt2 40 --loss ge:1,75,0.5,50   # one run')
    a('```')
    a('')
    a('## Environment')
    a('')
    a(f'Result files: {", ".join("`docs/bench/" + os.path.basename(f) + "`" for f in files)}.')
    a('')
    seen = set()
    for e in envs:
        key = tuple((k, json.dumps(e.get(k))) for k in ('kernel', 'cpu', 'nproc', 'openvpn', 'iperf3', 'curl',
                                                         'mptcpize', 'git_commit'))
        if key in seen:
            continue
        seen.add(key)
        a(f'* `{e["_file"]}` ({e.get("ts")}, grid {e.get("grid")}): kernel {e.get("kernel")}, {e.get("nproc")} × '
          f'{e.get("cpu")}, {e.get("mem_mb")} MB; {e.get("os")}; {e.get("openvpn")}; {e.get("iperf3")}; '
          f'{e.get("curl")}; mptcpize {e.get("mptcpize")}; git {e.get("git_commit")}.')
    ok = sum(1 for r in recs if r.get('ok'))
    ung = sum(1 for r in recs if r.get('gated') is False)
    busy = [r['host_busy_pct'] for r in recs if r.get('host_busy_pct') is not None]
    a('')
    a(f'Runs: {len(recs)} total, {ok} successful, {len(recs) - ok} failed; {ung} started without passing the')
    a(f'quiet gate (the host is shared with other builds). Host CPU busy during transfers: median '
      f'{fmt(median(busy))} %, max {fmt(max(busy) if busy else None)} %.')
    a('')
    for sec in sorted({r['sec'] for r in rows}):
        a(f'## Results: {sec[1]} — `{sec[0]}.jsonl`' if sec[0] else f'## Results: {sec[1]}')
        a('')
        for name in made:
            if name.startswith(sec_slug(sec) + '-goodput'):
                a(f'![{name}]({plotdir_rel}/{name})')
                a('')
        a('| scenario | cell | system | n | median Mbit/s | mean ± 95 % CI | vs UDP | CPU % | retr. | tunnel retr. '
          '| subflows | failed | ungated |')
        a('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
        for r in rows:
            if r['sec'] != sec:
                continue
            ci = f'{r["mean"]:.2f} ± {r["ci95"]:.2f}' if r['ci95'] is not None else fmt(r['mean'], 2)
            a(f'| {r["scenario"]} | {r["params"]} | {r["system"]} | {r["n"]} | {fmt(r["median"], 2)} | {ci} | '
              f'{fmt(r["ratio_vs_udp"], 2)} | {fmt(r["cpu_median"], 1)} | {fmt(r["retr_median"], 0)} | '
              f'{fmt(r["tunnel_retr_median"], 0)} | {fmt(r["subflows_max"])} | {r["failed"]} | {r["ungated"]} |')
        a('')
        errs = [(r['scenario'], r['system'], e) for r in rows if r['sec'] == sec for e in r['errors']]
        if errs:
            a('Failures:')
            a('')
            for sc, sy, e in errs:
                a(f'* {sc} / {sy}: {e.replace("|", "/")}')
            a('')
    L.extend(markdown_issue3(frows, prows, made, plotdir_rel))
    notes = os.path.join(REPO, 'docs', 'bench', 'notes.md')
    if os.path.exists(notes):
        a('## Observations')
        a('')
        with open(notes) as f:
            a(f.read().strip())
        a('')
    return '\n'.join(L) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('files', nargs='*')
    ap.add_argument('--md', default=os.path.join(REPO, 'docs', 'benchmarks.md'))
    ap.add_argument('--plots', default=os.path.join(REPO, 'docs', 'bench'))
    ap.add_argument('--no-plots', action='store_true')
    ap.add_argument('--stats-json', action='store_true')
    args = ap.parse_args()
    files = sorted(args.files or glob.glob(os.path.join(REPO, 'docs', 'bench', '*.jsonl')))
    if not files:
        print('report.py: no result files (give FILE.jsonl or run bench.py first)', file=sys.stderr)
        return 2
    for f in files:
        if not os.path.isfile(f):
            print(f'report.py: no such file: {f}', file=sys.stderr)
            return 2
    envs, recs = load(files)
    rows = compute(recs)
    frows, prows = compute_failover(recs), compute_pingload(recs)
    if args.stats_json:
        keep = ('set', 'scenario', 'workload', 'system', 'n', 'median', 'mean', 'sd', 'ci95', 'ratio_vs_udp', 'failed',
                'ungated', 'cpu_median', 'retr_median')
        out = [{k: r[k] for k in keep} for r in rows]
        fkeep = ('set', 'scenario', 'system', 'n', 'back_median', 'back_all', 'zero_median', 'pre_median',
                 'post_median', 'resets', 'failed', 'met')
        out += [{'workload': 'failover', **{k: (None if r[k] == math.inf else r[k]) if k == 'back_median' else
                                             ([None if x == math.inf else x for x in r[k]] if k == 'back_all'
                                              else r[k]) for k in fkeep}} for r in frows]
        pkeep = ('set', 'scenario', 'system', 'n', 'added_median', 'added_all', 'idle_p50', 'load_p95', 'lost',
                 'sent', 'goodput', 'failed', 'met')
        out += [{'workload': 'pingload', **{k: r[k] for k in pkeep}} for r in prows]
        print(json.dumps(out, indent=1))
        return 0
    made = [] if args.no_plots else plots(rows, args.plots) + plots_issue3(frows, prows, args.plots)
    rel = os.path.relpath(args.plots, os.path.dirname(os.path.abspath(args.md)))
    with open(args.md, 'w') as f:
        f.write(markdown(rows, envs, recs, files, made, rel, frows, prows))
    print(f'report.py: {len(recs)} runs, {len(rows)} rows -> {args.md}' +
          (f', plots: {", ".join(made)}' if made else ''), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
