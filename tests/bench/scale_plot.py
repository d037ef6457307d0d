#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""scale_plot.py - plots and the results table of tests/bench/scale.sh (issue 16, docs/scaling.md).

  tests/bench/scale_plot.py [docs/bench/scale.jsonl] [--docs docs/scaling.md] [--outdir docs/bench]

Groups the runs by (system, sessions), takes medians over repetitions, writes
docs/bench/scale-rss.png (gateway RSS vs sessions held), docs/bench/scale-kb-per-session.png and
docs/bench/scale-handshakes.png, and replaces the text between the markers
<!-- scale-results begin --> / <!-- scale-results end --> in docs/scaling.md with a table.
"""
import argparse
import json
import statistics
import sys

BEGIN, END = '<!-- scale-results begin -->', '<!-- scale-results end -->'


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def rss(r, phase):
    for p in r.get('rss', []):
        if p['phase'] == phase:
            return p['rss_kb']
    return None


def cells(rows):
    out = {}
    for r in rows:
        out.setdefault((r['system'], r['n']), []).append(r)
    res = []
    for (sysname, n), rs in sorted(out.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        def med(vals):
            vals = [v for v in vals if v is not None]
            return statistics.median(vals) if vals else None
        res.append(dict(
            system=sysname, n=n, reps=len(rs),
            established=med([r.get('established') for r in rs]),
            failed=med([r.get('failed') for r in rs]),
            held=med([r.get('held') for r in rs]),
            hs=med([r.get('handshakes_per_s') for r in rs]),
            hs_p50=med([r.get('handshake_ms', {}).get('p50') for r in rs]),
            rss0=med([rss(r, 'start') for r in rs]),
            rss_idle=med([rss(r, 'idle') for r in rs]),
            kb=med([r.get('kb_per_idle_session') for r in rs]),
            loss=med([r.get('loss') for r in rs]),
            cpu=med([r.get('gw_cpu_s') for r in rs]),
            load=rs[0].get('loadavg', '')))
    return res


def table(cs):
    lines = ['| gateway | sessions asked | established / failed | held after idle | handshakes/s | '
             'handshake p50 ms | RSS 0 → idle (MiB) | KB per idle session | echo loss | gateway CPU s | reps |',
             '|---|---|---|---|---|---|---|---|---|---|---|']
    for c in cs:
        def f(v, fmt='{:.0f}'):
            return '–' if v is None else fmt.format(v)
        lines.append(f"| {c['system']} | {c['n']} | {f(c['established'])} / {f(c['failed'])} | {f(c['held'])} | "
                     f"{f(c['hs'], '{:.1f}')} | {f(c['hs_p50'])} | {f(c['rss0'] and c['rss0'] / 1024, '{:.1f}')} → "
                     f"{f(c['rss_idle'] and c['rss_idle'] / 1024, '{:.1f}')} | {f(c['kb'], '{:.1f}')} | "
                     f"{f(c['loss'], '{:.4f}')} | {f(c['cpu'], '{:.1f}')} | {c['reps']} |")
    return '\n'.join(lines)


def plots(cs, outdir):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    made = []
    systems = sorted({c['system'] for c in cs})
    specs = [('scale-rss.png', 'gateway RSS after idle (MiB)', lambda c: c['rss_idle'] and c['rss_idle'] / 1024,
              'held'),
             ('scale-kb-per-session.png', 'KB per idle session ((RSS idle − RSS 0) / held)', lambda c: c['kb'],
              'held'),
             ('scale-handshakes.png', 'handshakes/s (median)', lambda c: c['hs'], 'n')]
    for name, ylabel, fy, xkey in specs:
        fig, ax = plt.subplots(figsize=(6.4, 4))
        for s in systems:
            pts = [(c[xkey], fy(c)) for c in cs if c['system'] == s and c[xkey] and fy(c) is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker='o', label=s)
        if 'kb' in name:
            ax.axhline(64, ls='--', color='grey', lw=1)
            ax.text(ax.get_xlim()[0], 66, 'target: 64 KB single-path idle', fontsize=8, color='grey')
        ax.set_xlabel('sessions held' if xkey == 'held' else 'sessions asked')
        ax.set_ylabel(ylabel)
        ax.set_title('single-path OpenVPN 2.6 sessions, braid-loadgen (loaded 2-core host)', fontsize=9)
        ax.grid(True, alpha=.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(f'{outdir}/{name}', dpi=90, metadata={'Software': None})
        plt.close(fig)
        made.append(name)
    return made


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('jsonl', nargs='?', default='docs/bench/scale.jsonl')
    ap.add_argument('--docs', default='docs/scaling.md')
    ap.add_argument('--outdir', default='docs/bench')
    a = ap.parse_args()
    cs = cells(load(a.jsonl))
    if not cs:
        sys.exit(f'{a.jsonl}: no runs')
    made = plots(cs, a.outdir)
    body = table(cs) + '\n\n' + '\n'.join(f'![{m}](bench/{m})' for m in made)
    doc = open(a.docs).read()
    if BEGIN in doc and END in doc:
        doc = doc[:doc.index(BEGIN) + len(BEGIN)] + '\n' + body + '\n' + doc[doc.index(END):]
        open(a.docs, 'w').write(doc)
    print(body)


if __name__ == '__main__':
    main()
