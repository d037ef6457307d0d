#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Benchmark orchestrator: runs grids of cells (scenario x system x workload x repetition) through run-cell.sh
and appends one JSON line per run to a result file.

  sudo tests/bench/bench.py --grid quick|acceptance|seed|schedulers|failover|failover_loss|pingload [--systems a,b]
       [--workloads http,iperf1]
       [--reps N] [--out FILE.jsonl] [--resume] [--retry-failed] [--max-minutes M] [--gate BUSY:TIMEOUT]
       [--shapers pathemu,tbf] [--tag T] [--loaded] [--list]

Every shaped cell runs on each shaper of --shapers (default both): `pathemu` (the project's emulator does rate,
queue, delay and loss) and `tbf` (the kernel's tbf does rate and queue, pathemu -D only delay and loss; `htb` is
a third choice), so an engine tuned to one emulator's artefacts shows it. Unshaped cells run once.

Within a cell and repetition every system runs back to back (same conditions, compared in the same run); the
order of the systems rotates with the repetition so that none always runs first. Each run is gated by tb_quiet
(recorded as "gated" in its line, never hidden). The first line of a new file records the environment
({"type": "env", ...}). --resume skips scenario x system x workload x run keys already in the file (failed runs
too, unless --retry-failed), so a long grid survives restarts. --max-minutes stops starting new runs after M
minutes.

A grid may name its systems ('systems', default: every system of systems/registry.sh) and extra run-cell.sh
arguments for its workloads ('wlargs'). The issue-3 grids: `schedulers` (every braid scheduler beside the baselines,
http), `failover` (a path cut during one TCP flow: braid vs ovpn-mptcp vs mptcp) and `pingload` (ping through the
tunnel under one saturating download: braid vs ovpn-udp vs ovpn-mptcp). For failover and pingload the duration is
fixed by the grid ('secs' = what run-cell.sh records), so --secs does not apply to them.
"""
import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RUN_CELL = os.path.join(HERE, 'run-cell.sh')

# Seed 004 Table 1: Gilbert-Elliott with p = 1 %, r = 75 %, 1-h = 50 %; 1-k sets the observed loss rate.
GE_TABLE1 = {'0': 1, '0.5': 2, '1': 3, '3': 7}  # 1-k (%) -> observed loss (%) in the seed


def ge(one_minus_k):
    return f'ge:1,75,{one_minus_k},50'


def cell(name, family, rate1=10, rate2=10, rtt1=20, rtt2=20, loss='none', paths=2, unshaped=False):
    return {'scenario': name, 'family': family, 'paths': paths, 'rate1': rate1, 'rate2': rate2,
            'rtt1': rtt1, 'rtt2': rtt2, 'loss': loss, 'unshaped': unshaped}


def loss_tag(loss):
    if loss == 'none':
        return 'noloss'
    if loss.startswith('uniform:'):
        return 'u' + loss.split(':')[1]
    k = loss.split(',')[2]
    return f'ge{GE_TABLE1.get(k, k)}'


def ratio_cells(losses, rate=10):
    out = []
    for loss in losses:
        for k in range(1, 6):
            out.append(cell(f'ratio1:{k}-{loss_tag(loss)}', 'ratio', rate, rate, 20, 20 * k, loss))
    return out


def grid_quick():
    return {
        'cells': [
            cell('sym20-noloss', 'sym', 10, 10, 20, 20),
            cell('50+20-rtt0', 'rate', 50, 20, 0, 0),
            cell('ratio1:3-ge7', 'ratio', 10, 10, 20, 60, ge('3')),
            cell('unshaped-1path', 'unshaped', paths=1, unshaped=True),
        ],
        'reps': 1, 'workloads': ['http', 'iperf1'], 'size': 2, 'secs': 3, 'timeout': 60,
    }


BASELINES = ['ovpn-udp', 'ovpn-tcp', 'ovpn-mptcp', 'mptcp']
BRAID_SCHEDULERS = ['braid', 'braid-rtt', 'braid-ratio', 'braid-mpip', 'braid-lowest-rtt', 'braid-backup',
                    'braid-redundant']  # braid = edf, the default


def grid_acceptance():
    return {
        'systems': BASELINES + BRAID_SCHEDULERS,
        'cells': [cell('sym20-noloss', 'sym', 10, 10, 20, 20),
                  cell('50+20-rtt0', 'rate', 50, 20, 0, 0)]
        + ratio_cells([ge('0.5'), ge('3')])
        + [cell('unshaped-1path', 'unshaped', paths=1, unshaped=True),
           cell('50+50-rtt20-60', 'rate', 50, 50, 20, 60)],  # the data-plane issue's iperf1 cell
        'reps': 3, 'workloads': ['http'], 'size': 16, 'secs': 10, 'timeout': 180,
    }


def grid_seed():
    cells = []
    for loss in ['none', 'uniform:0.1', 'uniform:1', 'uniform:3'] + [ge(k) for k in GE_TABLE1]:
        for rtt in (1, 10, 20, 40, 60, 80, 100):
            cells.append(cell(f'sym{rtt}-{loss_tag(loss)}', 'sym', 10, 10, rtt, rtt, loss))
    cells += ratio_cells([ge(k) for k in GE_TABLE1])
    cells += [cell('sym20-noloss-50M', 'rate', 50, 50, 20, 20),
              cell('50+10-rtt20', 'rate', 50, 10, 20, 20),
              cell('50+20-rtt0', 'rate', 50, 20, 0, 0),
              cell('unshaped-1path', 'unshaped', paths=1, unshaped=True)]
    return {'cells': cells, 'reps': 20, 'workloads': ['http'], 'size': 16, 'secs': 10, 'timeout': 300}


def grid_schedulers():
    """Issue 3: every braid scheduler beside the baselines, in the same runs (one TCP flow: an http download)."""
    return {
        'cells': [cell('sym20-noloss', 'sym', 10, 10, 20, 20), cell('50+20-rtt0', 'rate', 50, 20, 0, 0)],
        'systems': ['ovpn-udp', 'ovpn-mptcp', 'mptcp'] + BRAID_SCHEDULERS,
        'reps': 3, 'workloads': ['http'], 'size': 8, 'secs': 10, 'timeout': 120,
    }


def grid_failover():
    """Issue 3: path 1 blackholed 3 s into one TCP flow, 3 s more; time until the goodput is back (failover.sh).
    The -down cells take the link down instead (both veth ends: the kernels see it)."""
    return {
        'cells': [cell('sym20-noloss', 'sym', 10, 10, 20, 20), cell('50+20-rtt0', 'rate', 50, 20, 0, 0),
                  dict(cell('sym20-noloss-down', 'sym', 10, 10, 20, 20), args=['--cut', 'down']),
                  dict(cell('50+20-rtt0-down', 'rate', 50, 20, 0, 0), args=['--cut', 'down'])],
        'systems': ['braid', 'ovpn-mptcp', 'mptcp'],
        'reps': 3, 'workloads': ['failover'], 'size': 1, 'secs': 6, 'timeout': 60,
        'wlargs': {'failover': ['--cut-after', '3', '--post', '3', '--cut', 'blackhole', '--cut-path', '1']},
    }


def grid_failover_loss():
    """Issue 17: false path failures on lossy cells (no cut): braid alone, one iperf3 flow; the result lines carry
    the path-failure counters of both sides (braid_failures). Run before and after a change of the failure rule."""
    return {
        'cells': [cell('sym20-ge2', 'sym', 10, 10, 20, 20, ge('0.5')), cell('sym20-ge7', 'sym', 10, 10, 20, 20, ge('3')),
                  cell('ratio1:3-ge7', 'ratio', 10, 10, 20, 60, ge('3'))],
        'systems': ['braid'],
        'reps': 3, 'workloads': ['iperf1'], 'size': 1, 'secs': 10, 'timeout': 60,
    }


def grid_pingload():
    """Issue 3: ping every 20 ms through the tunnel, idle 3 s, then 5 s during one download (pingload.sh)."""
    return {
        'cells': [cell('sym20-noloss', 'sym', 10, 10, 20, 20), cell('50+20-rtt0', 'rate', 50, 20, 0, 0)],
        'systems': ['braid', 'ovpn-udp', 'ovpn-mptcp'],
        'reps': 3, 'workloads': ['pingload'], 'size': 1, 'secs': 8, 'timeout': 60,
        'wlargs': {'pingload': ['--ping-ms', '20', '--idle-secs', '3', '--warm-secs', '2', '--load-secs', '5']},
    }


def grid_mptcp():
    """Issue 14 part 5: braid over MPTCP beside stock OpenVPN over MPTCP (mptcpize), plain kernel MPTCP and braid
    (MPUDP), on the acceptance cells and the RTT-ratio x GE-loss cells, in the same runs."""
    return {
        'cells': [cell('sym20-noloss', 'sym', 10, 10, 20, 20), cell('50+20-rtt0', 'rate', 50, 20, 0, 0)]
        + ratio_cells([ge('0.5'), ge('3')]),
        'systems': ['braid-mptcp', 'ovpn-mptcp', 'mptcp', 'braid'],
        'reps': 3, 'workloads': ['http'], 'size': 16, 'secs': 10, 'timeout': 180,
    }


GRIDS = {'quick': grid_quick, 'acceptance': grid_acceptance, 'seed': grid_seed, 'schedulers': grid_schedulers,
         'failover': grid_failover, 'failover_loss': grid_failover_loss, 'pingload': grid_pingload,
         'mptcp': grid_mptcp}
WORKLOADS = ('http', 'iperf1', 'iperf4', 'failover', 'pingload')


def registry_systems(peers=False):
    var = 'BENCH_SYSTEMS[@]} ${BENCH_PEER_SYSTEMS[@]' if peers else 'BENCH_SYSTEMS[@]'
    out = subprocess.run(['bash', '-c', f'source "{HERE}/systems/registry.sh"; echo "${{{var}}}"'],
                         capture_output=True, text=True, check=True).stdout.split()
    return out


def first_line(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
        return (r.stdout or r.stderr).strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return None


def environment(grid_name):
    cpu = None
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    cpu = line.split(':', 1)[1].strip()
                    break
    except OSError:
        pass
    mem = None
    try:
        with open('/proc/meminfo') as f:
            mem = int(f.readline().split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        pass
    commit = first_line(['git', '-C', REPO, 'rev-parse', '--short', 'HEAD'])
    return {
        'type': 'env', 'ts': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'),
        'grid': grid_name, 'kernel': platform.release(), 'cpu': cpu, 'nproc': os.cpu_count(), 'mem_mb': mem,
        'os': first_line(['sh', '-c', '. /etc/os-release; echo "$PRETTY_NAME"']),
        'openvpn': first_line(['openvpn', '--version']), 'iperf3': first_line(['iperf3', '--version']),
        'curl': first_line(['curl', '--version']), 'mptcpize': first_line(['dpkg-query', '-W', 'mptcpize']),
        'python': platform.python_version(), 'git_commit': commit,
        'tcp_cc': 'cubic (set by tb_setup in every namespace)', 'argv': sys.argv[1:],
    }


SHAPERS = ('pathemu', 'tbf', 'htb')


def run_key(scenario, system, workload, run, size_bytes, secs, shaper='pathemu', tag=None):
    """Identity of a run for --resume: a different transfer size, duration, shaper or --tag is a different run
    (lines written before the shaper was recorded were pathemu runs)."""
    return (scenario, system, workload, run, size_bytes if workload == 'http' else secs, shaper or 'pathemu',
            tag or None)


def load_done(path, retry_failed):
    done = set()
    has_env = False
    if not os.path.exists(path):
        return done, has_env
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                rec = json.loads(line)
            except ValueError:
                print(f'bench.py: {path}:{n}: not JSON, ignored', file=sys.stderr)
                continue
            if rec.get('type') == 'env':
                has_env = True
                continue
            if retry_failed and not rec.get('ok'):
                continue
            shaper = rec.get('shaper') or 'pathemu'
            if shaper == 'none':  # unshaped cells run once, whatever --shapers says
                shaper = 'pathemu'
            done.add(run_key(rec.get('scenario'), rec.get('system'), rec.get('workload'), rec.get('run'),
                             rec.get('size_bytes'), rec.get('secs'), shaper, rec.get('tag')))
    return done, has_env


def size_bytes(g):
    return int(float(g['size']) * 1048576)


def run_one(c, system, workload, rep, g, args, shaper='pathemu'):
    cmd = [RUN_CELL, '-s', system, '-w', workload, '--scenario', c['scenario'], '--run', str(rep),
           '--seed', str(rep + 1), '--paths', str(c['paths']), '--size', str(g['size']),
           '--secs', str(g['secs']), '--timeout', str(g['timeout'])]
    if args.gate == 'none':
        cmd.append('--no-gate')
    else:
        cmd += ['--gate', args.gate]
    cmd += g.get('wlargs', {}).get(workload, []) + c.get('args', [])
    if c['unshaped']:
        cmd.append('--unshaped')
    else:
        cmd += ['--rate1', str(c['rate1']), '--rate2', str(c['rate2']), '--rtt1', str(c['rtt1']),
                '--rtt2', str(c['rtt2']), '--loss', c['loss'], '--shaper', shaper]
    limit = g['timeout'] + g['secs'] + 240
    t0 = time.monotonic()
    # On overrun: SIGTERM first (run-cell.sh tears its bed down and still prints its line), SIGKILL 30 s later.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        p.terminate()
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        err = (err or '') + f' run-cell.sh stopped after {limit}s'
    rc = p.returncode
    rec = None
    for line in reversed(out.strip().splitlines()):
        try:
            rec = json.loads(line)
            break
        except ValueError:
            continue
    if rec is None:
        tail = ' '.join(err.strip().splitlines()[-3:])[:400]
        rec = {'ts': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'),
               'scenario': c['scenario'], 'system': system, 'workload': workload, 'run': rep, 'ok': False,
               'error': f'run-cell.sh rc {rc} without a JSON line: {tail}', 'goodput_mbps': None,
               'size_bytes': size_bytes(g) if workload == 'http' else None,
               'secs': g['secs'] if workload != 'http' else None,
               'shaper': 'none' if c['unshaped'] else shaper}
    rec['grid'] = args.grid
    rec['family'] = c['family']
    if args.tag:
        rec['tag'] = args.tag
    if args.loaded:
        rec['loaded'] = True
    rec['wall_s'] = round(time.monotonic() - t0, 1)
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--grid', choices=sorted(GRIDS), default='quick')
    ap.add_argument('--systems', help='comma-separated (default: all in systems/registry.sh)')
    ap.add_argument('--workloads', help='comma-separated: ' + ', '.join(WORKLOADS) + ' (default: per grid)')
    ap.add_argument('--reps', type=int, help='repetitions per cell (default: per grid)')
    ap.add_argument('--size', type=float, help='http file size in MiB (default: per grid, 16 = the seed)')
    ap.add_argument('--secs', type=int, help='iperf duration in s (default: per grid)')
    ap.add_argument('--scenarios', help='comma-separated scenario names to keep (default: all of the grid)')
    ap.add_argument('--out', help='result file (default: docs/bench/<grid>.jsonl)')
    ap.add_argument('--resume', action='store_true', help='skip runs already in --out')
    ap.add_argument('--retry-failed', action='store_true', help='with --resume: rerun failed runs')
    ap.add_argument('--max-minutes', type=float, default=0, help='stop starting runs after M minutes')
    ap.add_argument('--gate', default='20:30', help="tb_quiet BUSY_PCT:TIMEOUT_S, or 'none' (default 20:30)")
    ap.add_argument('--shapers', default='pathemu,tbf',
                    help='comma-separated, each shaped cell runs on each: pathemu, tbf, htb (default pathemu,tbf)')
    ap.add_argument('--tag', help='label recorded in every line ("tag") and part of the --resume key, e.g. a '
                    'before/after pair of the same grid in one file')
    ap.add_argument('--loaded', action='store_true', help='record "loaded": true in every line (a busy host; '
                    'the numbers are to be re-measured on a quiet one)')
    ap.add_argument('--list', action='store_true', help='print the grid and exit')
    args = ap.parse_args()
    shapers = args.shapers.split(',')
    for sh in shapers:
        if sh not in SHAPERS:
            ap.error(f'unknown shaper {sh!r} ({", ".join(SHAPERS)})')

    g = GRIDS[args.grid]()
    known = registry_systems(peers=True)
    systems = args.systems.split(',') if args.systems else g.get('systems', registry_systems())
    for s in systems:
        if s not in known:
            ap.error(f'unknown system {s!r} (known: {", ".join(known)})')
    workloads = args.workloads.split(',') if args.workloads else g['workloads']
    for w in workloads:
        if w not in WORKLOADS:
            ap.error(f'unknown workload {w!r} ({", ".join(WORKLOADS)})')
    reps = args.reps if args.reps is not None else g['reps']
    if args.size is not None:
        if args.size <= 0:
            ap.error('--size must be > 0')
        g['size'] = f'{args.size:g}'
    if args.secs is not None:
        if args.secs < 1:
            ap.error('--secs must be >= 1')
        g['secs'] = args.secs
    if reps < 1:
        ap.error('--reps must be >= 1')
    cells = g['cells']
    if args.scenarios:
        want = args.scenarios.split(',')
        names = {c['scenario'] for c in cells}
        for s in want:
            if s not in names:
                ap.error(f'unknown scenario {s!r} in grid {args.grid}')
        cells = [c for c in cells if c['scenario'] in want]
    if args.gate != 'none':
        parts = args.gate.split(':')
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            ap.error(f'--gate must be BUSY_PCT:TIMEOUT_S or none, got {args.gate!r}')

    # (cell, shaper) pairs: every shaped cell on each shaper, next to each other; unshaped cells once
    variants = [(c, 'pathemu' if c['unshaped'] else sh) for c in cells
                for sh in (shapers[:1] if c['unshaped'] else shapers)]
    if args.list:
        for c, sh in variants:
            print(json.dumps(dict(c, shaper='none' if c['unshaped'] else sh)))
        print(f'{len(variants)} cell x shaper variants x {len(systems)} systems x {len(workloads)} workloads x '
              f'{reps} reps = {len(variants) * len(systems) * len(workloads) * reps} runs')
        return 0
    if os.geteuid() != 0:
        print('bench.py: needs root (network namespaces)', file=sys.stderr)
        return 77

    out = args.out or os.path.join(REPO, 'docs', 'bench', f'{args.grid}.jsonl')
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    if os.path.exists(out) and not args.resume:
        print(f'bench.py: {out} exists; use --resume to continue it or pick another --out', file=sys.stderr)
        return 2
    done, has_env = load_done(out, args.retry_failed)
    deadline = time.monotonic() + args.max_minutes * 60 if args.max_minutes > 0 else None
    total = len(variants) * len(systems) * len(workloads) * reps
    n = ran = failed = 0
    stopped = False
    with open(out, 'a') as f:
        if not has_env:
            f.write(json.dumps(environment(args.grid)) + '\n')
            f.flush()
        for rep in range(reps):
            for c, sh in variants:
                for w in workloads:
                    order = systems[rep % len(systems):] + systems[:rep % len(systems)]
                    for s in order:
                        n += 1
                        if run_key(c['scenario'], s, w, rep, size_bytes(g), g['secs'], sh, args.tag) in done:
                            continue
                        if deadline is not None and time.monotonic() >= deadline:
                            stopped = True
                            break
                        rec = run_one(c, s, w, rep, g, args, sh)
                        f.write(json.dumps(rec) + '\n')
                        f.flush()
                        ran += 1
                        failed += 0 if rec.get('ok') else 1
                        gp = rec.get('goodput_mbps')
                        print(f'[{n}/{total}] {c["scenario"]} ({sh}) {w} {s} run {rep}: '
                              f'{"%.2f Mbit/s" % gp if gp is not None else "FAILED: " + str(rec.get("error"))}'
                              f' gated={rec.get("gated")} ({rec["wall_s"]} s)', file=sys.stderr, flush=True)
                    if stopped:
                        break
                if stopped:
                    break
            if stopped:
                break
    print(f'bench.py: {ran} runs ({failed} failed) appended to {out}'
          + ('; stopped at --max-minutes' if stopped else ''), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
