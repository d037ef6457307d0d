#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""report.py - render docs/fuzz/long-runs.jsonl into the long-run table of docs/fuzzing.md.

usage: report.py [--check]      rewrites the text between the table markers; --check prints it only

One row per harness: cumulative CPU time (all runs), the target (1 CPU-hour for wire-facing harnesses,
10 minutes for the others, docs/fuzzing.md), total executions, and from the latest run: edges covered (cov),
features (ft), corpus size after the merge and CPU seconds since the last new input. Crashes are summed.
"""
import json
import os
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
JSONL = os.path.join(ROOT, 'docs', 'fuzz', 'long-runs.jsonl')
DOC = os.path.join(ROOT, 'docs', 'fuzzing.md')
BEGIN, END = '<!-- long-runs:begin (tests/fuzz/report.py) -->', '<!-- long-runs:end -->'
WIRE = ['tcpframe', 'ctl_pkt', 'reliable', 'tls_auth', 'tls_crypt', 'dc', 'mp_msg']
OTHERS = ['cookie', 'km2', 'push', 'config', 'argv', 'netlink', 'pktinfo', 'mgmt_line', 'braidctl_reply', 'mgmt_braid', 'metrics_http', 'mptcp_pm', 'mp_wnames', 'helper_profile', 'etcd_reply', 'sched_nl', 'loadgen_rx', 'dco_up', 'dco_nl']


def hm(s):
    return f'{s // 3600}h{s % 3600 // 60:02d}m' if s >= 3600 else f'{s // 60}m{s % 60:02d}s'


def crashes(rs):
    # a run's 'note' explains crash inputs that were not crashes (e.g. a timeout from pausing the fuzzer)
    real = sum(r['crashes'] for r in rs if 'note' not in r)
    noted = sum(r['crashes'] for r in rs if 'note' in r)
    return f'{real}' + (f' (+{noted} false, see the run\'s note)' if noted else '')


def table():
    runs = []
    if os.path.exists(JSONL):
        with open(JSONL) as f:
            runs = [json.loads(line) for line in f if line.strip()]
    rows = ['| harness | wire-facing | CPU time (target) | runs | execs | edges (cov) | ft | corpus | '
            'since last new | crashes |', '|---|---|---|---|---|---|---|---|---|---|']
    for h in WIRE + OTHERS:
        rs = [r for r in runs if r['harness'] == h]
        target = 3600 if h in WIRE else 600
        if not rs:
            rows.append(f'| {h} | {"yes" if h in WIRE else "no"} | 0 (of {hm(target)}) | 0 | | | | | | |')
            continue
        cpu = sum(r['cpu_s'] for r in rs)
        last = rs[-1]
        met = 'met' if cpu >= target else f'of {hm(target)}'
        rows.append(f'| {h} | {"yes" if h in WIRE else "no"} | {hm(cpu)} ({met}) | {len(rs)} | '
                    f'{sum(r["execs"] for r in rs):,} | {last["cov"]} | {last["ft"]} | '
                    f'{last["corpus_files"]} files, {last["corpus_bytes"]:,} B | {hm(last["since_new_s"])} | '
                    f'{crashes(rs)} |')
    total = sum(r['cpu_s'] for r in runs)
    rows.append('')
    rows.append(f'Total: {hm(total)} CPU in {len(runs)} runs; last run {runs[-1]["date"] if runs else "-"}.')
    return '\n'.join(rows)


def main():
    t = table()
    if '--check' in sys.argv:
        print(t)
        return
    with open(DOC) as f:
        doc = f.read()
    a, b = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    with open(DOC, 'w') as f:
        f.write(doc[:a] + '\n' + t + '\n' + doc[b:])


if __name__ == '__main__':
    main()
