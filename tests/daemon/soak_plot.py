#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""soak_plot.py DIR - plot a soak run kept by `SOAK_OUT=DIR bash tests/daemon/soak_flaps.sh` (docs/soak.md).

Reads DIR/samples.jsonl (every 10 s: RSS, fds, CPU of both braidd), DIR/progress.csv (bytes received, every
second) and DIR/flaps.csv; writes DIR/soak.png (three panels: RSS, open fds, throughput of the inner TCP
connection per second and averaged over 10 s, with path 1's down intervals shaded) and DIR/throughput.csv
(10 s throughput). Needs python3-matplotlib (Debian's, hence /usr/bin/python3).
"""
import csv
import json
import sys

import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else 'docs/soak'
    samples = [json.loads(line) for line in open(d + '/samples.jsonl')]
    prog = [(float(r['t']), int(r['bytes'])) for r in csv.DictReader(open(d + '/progress.csv'))]
    flaps = list(csv.DictReader(open(d + '/flaps.csv')))
    summ = json.load(open(d + '/summary.json'))

    # per-second and 10 s throughput in Mbit/s (the last, partial second is dropped)
    sec = [(t1, (b1 - b0) * 8 / (t1 - t0) / 1e6) for (t0, b0), (t1, b1) in zip(prog, prog[1:]) if t1 - t0 >= 0.999]
    ten = []
    for (t0, b0) in prog:
        t1 = t0 + 10
        nxt = [p for p in prog if abs(p[0] - t1) < 1e-6]
        if t0 % 10 == 0 and nxt:
            ten.append((t0, t1, (nxt[0][1] - b0) * 8 / 10 / 1e6))
    with open(d + '/throughput.csv', 'w') as f:
        f.write('t_start,t_end,mbit_s\n')
        for t0, t1, m in ten:
            f.write('%d,%d,%.3f\n' % (t0, t1, m))

    downs = []
    start = None
    for r in flaps:
        if r['event'] == 'down':
            start = float(r['t'])
        elif start is not None:
            downs.append((start, float(r['t'])))
            start = None

    minutes = summ['seconds'] >= 600
    sc = 60.0 if minutes else 1.0
    unit = 'min' if minutes else 's'
    t = [s['t'] / sc for s in samples]
    fig, ax = plt.subplots(3, 1, figsize=(10, 9), sharex=True)
    for name, lab in (('gw', 'gateway'), ('cli', 'client')):
        ax[0].plot(t, [s[name + '_rss_kib'] / 1024 for s in samples], marker='.', label='braidd ' + lab)
        ax[1].plot(t, [s[name + '_fds'] for s in samples], marker='.', drawstyle='steps-post',
                   label='braidd ' + lab)
    ax[0].set_ylabel('VmRSS (MiB)')
    ax[0].set_ylim(bottom=0)
    ax[0].legend(loc='lower right')
    ax[1].set_ylabel('open fds')
    ax[1].yaxis.get_major_locator().set_params(integer=True)
    ax[1].set_ylim(0, max(max(s['gw_fds'], s['cli_fds']) for s in samples) + 5)
    ax[1].legend(loc='lower right')
    ax[2].plot([x / sc for x, _ in sec], [y for _, y in sec], lw=0.4, color='0.6', label='per second')
    ax[2].plot([(a + b) / 2 / sc for a, b, _ in ten], [m for _, _, m in ten], marker='.', color='C2',
               label='10 s mean')
    ax[2].axhline(summ['rate_bps'] * 8 / 1e6, ls='--', color='k', lw=0.8, label='sender pacing')
    if not minutes:  # 450+ intervals would paint the whole panel
        for a, b in downs:
            ax[2].axvspan(a / sc, b / sc, color='C3', alpha=0.12, lw=0)
    ax[2].set_ylabel('inner TCP goodput (Mbit/s)')
    ax[2].set_ylim(bottom=0)
    ax[2].legend(loc='lower right')
    ax[2].set_xlabel('time since the stream started (%s)' % unit)
    fig.suptitle('braidd soak: %d s, path 1 flaps every %d s (%d downs: %d link, %d blackhole), path 2 GE loss\n'
                 '%.2f GB in one TCP connection, sha256 %s, mean %.2f Mbit/s'
                 % (summ['seconds'], summ['flap_period_s'], summ['flaps'], summ['link_downs'],
                    summ['blackholes'], summ['bytes'] / 1e9, 'matches' if summ['sha256_match'] else 'MISMATCH',
                    summ['goodput_mbit']), fontsize=10)
    fig.tight_layout()
    fig.savefig(d + '/soak.png', dpi=90, metadata={'Software': None})

    # the numbers as a markdown table (docs/soak.md quotes it)
    b, e = summ['baseline_30s'], summ['last']
    mb = [m for _, _, m in ten]
    rows = [
        ('source', '%s (%s build)' % (summ.get('commit', '?'), summ.get('build', '?'))),
        ('stream', '%d s paced at %.1f Mbit/s, one TCP connection %s' % (
            summ['seconds'], summ['rate_bps'] * 8 / 1e6, summ['connection'])),
        ('bytes carried', '%d (%.3f GB), sha256 %s' % (summ['bytes'], summ['bytes'] / 1e9,
                                                      'matches' if summ['sha256_match'] else 'MISMATCH')),
        ('goodput', 'mean %.2f Mbit/s; 10 s means min %.2f / median %.2f / max %.2f' % (
            summ['goodput_mbit'], min(mb), sorted(mb)[len(mb) // 2], max(mb))),
        ('longest stall', '%.2f s without a byte' % summ['max_stall_s']),
        ('inner TCP (sender)', 'retransmitted %s segments, srtt %.1f ms at the end' % (
            summ['server_tcp_info'].get('total_retrans', '?'), summ['server_tcp_info'].get('rtt_us', 0) / 1e3)),
        ('path 1 flaps', '%d times down for %d s, then up for %d s (%d link down, %d blackhole); '
         'the client logged %d link-downs' % (summ['flaps'], summ['flap_period_s'], summ['flap_period_s'],
                                              summ['link_downs'], summ['blackholes'],
                                              summ['client_logged_link_downs'])),
        ('bytes per path (client rx)', 'path 1 %.1f MB, path 2 %.1f MB' % (e['p1_rx'] / 1e6, e['p2_rx'] / 1e6)),
    ]
    for name, lab in (('gw', 'gateway'), ('cli', 'client')):
        rows.append(('braidd %s RSS' % lab, '%d KiB at 30 s, %d KiB at the end (%+d KiB), max %d KiB' % (
            b[name + '_rss_kib'], e[name + '_rss_kib'], e[name + '_rss_kib'] - b[name + '_rss_kib'],
            max(s[name + '_rss_kib'] for s in samples))))
        rows.append(('braidd %s fds' % lab, '%d at 30 s, %d at the end (min %d, max %d over %d samples)' % (
            b[name + '_fds'], e[name + '_fds'], min(s[name + '_fds'] for s in samples),
            max(s[name + '_fds'] for s in samples), len(samples))))
        rows.append(('braidd %s CPU' % lab, '%.1f s (%.1f %% of one core)' % (
            e[name + '_cpu_s'], 100 * e[name + '_cpu_s'] / e['t'])))
    with open(d + '/results.md', 'w') as f:
        f.write('| | |\n|---|---|\n')
        for k, v in rows:
            f.write('| %s | %s |\n' % (k, v))
    print('wrote %s/soak.png, %s/throughput.csv and %s/results.md' % (d, d, d))


if __name__ == '__main__':
    main()
