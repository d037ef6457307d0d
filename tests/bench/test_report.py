#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit test of report.py's statistics on a fixed fixture (fixtures/report-small.jsonl).

Expected values by hand: ovpn-udp {10, 14, 12}: median 12, mean 12, sd 2, CI half width
t(0.975, 2) * 2 / sqrt(3) = 4.302652729911275 * 1.1547005383792515 = 4.968275423; mptcp {20, 22, 30, 24} (one
failed run excluded): median 23, mean 24, sd sqrt(56/3) = 4.320493798938574, CI t(0.975, 3) * sd / 2 =
3.182446305284263 * 2.160246899469287 = 6.874869764; ratio of medians 23 / 12.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import report  # noqa: E402

FIXTURE = os.path.join(HERE, 'fixtures', 'report-small.jsonl')


class TQuantile(unittest.TestCase):
    def test_known_values(self):
        # Student t 97.5 % quantiles (published tables / scipy.stats.t.ppf)
        for df, q in ((1, 12.706204736174707), (2, 4.302652729911275), (3, 3.182446305284263),
                      (4, 2.7764451051977987), (9, 2.2621571627409915), (19, 2.093024054408263),
                      (29, 2.045229642132703), (100, 1.983971518523547)):
            self.assertAlmostEqual(report.t_quantile(0.975, df), q, places=8, msg=f'df={df}')


class Stats(unittest.TestCase):
    def setUp(self):
        out = subprocess.run([sys.executable, os.path.join(HERE, 'report.py'), '--stats-json', FIXTURE],
                             capture_output=True, text=True, check=True).stdout
        self.rows = {(r['scenario'], r['system']): r for r in json.loads(out)}

    def test_rows(self):
        self.assertEqual(sorted(self.rows), [('ratio1:2-ge7', 'ovpn-tcp'), ('sym20-noloss', 'mptcp'),
                                             ('sym20-noloss', 'ovpn-udp')])

    def test_udp(self):
        r = self.rows[('sym20-noloss', 'ovpn-udp')]
        self.assertEqual(r['n'], 3)
        self.assertEqual(r['median'], 12.0)
        self.assertEqual(r['mean'], 12.0)
        self.assertAlmostEqual(r['sd'], 2.0, places=12)
        self.assertAlmostEqual(r['ci95'], 4.968275423, places=8)
        self.assertEqual(r['ratio_vs_udp'], 1.0)
        self.assertEqual(r['failed'], 0)
        self.assertEqual(r['ungated'], 1)
        self.assertEqual(r['cpu_median'], 6.0)
        self.assertEqual(r['retr_median'], 4.0)

    def test_mptcp(self):
        r = self.rows[('sym20-noloss', 'mptcp')]
        self.assertEqual(r['n'], 4)
        self.assertEqual(r['median'], 23.0)
        self.assertEqual(r['mean'], 24.0)
        self.assertAlmostEqual(r['sd'], 4.320493798938574, places=12)
        self.assertAlmostEqual(r['ci95'], 6.874869764, places=8)
        self.assertAlmostEqual(r['ratio_vs_udp'], 23.0 / 12.0, places=12)
        self.assertEqual(r['failed'], 1)
        self.assertIsNone(r['cpu_median'])

    def test_single_sample(self):
        r = self.rows[('ratio1:2-ge7', 'ovpn-tcp')]
        self.assertEqual((r['n'], r['median'], r['mean'], r['sd'], r['ci95']), (1, 2.5, 2.5, None, None))
        self.assertIsNone(r['ratio_vs_udp'])  # no ovpn-udp in that cell


class Markdown(unittest.TestCase):
    def test_deterministic_markdown(self):
        with tempfile.TemporaryDirectory() as d:
            outs = []
            for i in range(2):
                md = os.path.join(d, f'b{i}.md')
                subprocess.run([sys.executable, os.path.join(HERE, 'report.py'), '--no-plots', '--md', md,
                                '--plots', d, FIXTURE], check=True, capture_output=True)
                with open(md) as f:
                    outs.append(f.read())
            self.assertEqual(outs[0], outs[1])
            self.assertIn('| sym20-noloss | 10+10 Mbit/s, RTT 20/20 ms, no loss | mptcp | 4 | 23.00 | '
                          '24.00 ± 6.87 | 1.92 |', outs[0])
            self.assertIn('Runs: 9 total, 8 successful, 1 failed; 1 started without passing', outs[0])
            self.assertIn('sym20-noloss / mptcp: http got 0 bytes, expected 16777216', outs[0])

    def test_sets_not_pooled(self):
        # the same cell in two result files: two sections, each system's ratio against its own file's ovpn-udp
        with tempfile.TemporaryDirectory() as d:
            for name, udp, other in (('a', 10.0, 20.0), ('b', 5.0, 20.0)):
                with open(os.path.join(d, f'{name}.jsonl'), 'w') as f:
                    for sy, gp in (('ovpn-udp', udp), ('braid', other)):
                        f.write(json.dumps({'scenario': 'sym20-noloss', 'family': 'sym', 'system': sy,
                                            'workload': 'http', 'size_bytes': 8388608, 'ok': True,
                                            'goodput_mbps': gp}) + '\n')
            files = [os.path.join(d, 'a.jsonl'), os.path.join(d, 'b.jsonl')]
            out = subprocess.run([sys.executable, os.path.join(HERE, 'report.py'), '--stats-json'] + files,
                                 capture_output=True, text=True, check=True).stdout
            rows = [r for r in json.loads(out) if r['system'] == 'braid']
            self.assertEqual([(r['set'], r['n'], r['ratio_vs_udp']) for r in rows], [('a', 1, 2.0), ('b', 1, 4.0)])
            md = os.path.join(d, 'r.md')
            subprocess.run([sys.executable, os.path.join(HERE, 'report.py'), '--no-plots', '--md', md] + files,
                           check=True, capture_output=True)
            with open(md) as f:
                text = f.read()
            self.assertIn('## Results: http, 8 MiB — `a.jsonl`', text)
            self.assertIn('## Results: http, 8 MiB — `b.jsonl`', text)

    def test_issue3_tables(self):
        fx = os.path.join(HERE, 'fixtures', 'report-issue3.jsonl')
        out = subprocess.run([sys.executable, os.path.join(HERE, 'report.py'), '--stats-json', fx],
                             capture_output=True, text=True, check=True).stdout
        rows = {(r['workload'], r['system']): r for r in json.loads(out)}
        self.assertEqual(sorted(rows), [('failover', 'braid'), ('failover', 'mptcp'), ('pingload', 'braid'),
                                        ('pingload', 'ovpn-udp')])
        b = rows[('failover', 'braid')]
        self.assertEqual((b['n'], b['back_median'], b['resets'], b['met']), (3, 150.0, 0, True))
        # "not back" (null) sorts above every time: median of 550, 1200, never = 1200; a reset misses the target
        m = rows[('failover', 'mptcp')]
        self.assertEqual((m['n'], m['back_median'], m['back_all'], m['resets'], m['failed'], m['met']),
                         (3, 1200.0, [550.0, 1200.0, None], 1, 1, False))
        p = rows[('pingload', 'braid')]
        self.assertEqual((p['n'], p['added_median'], p['lost'], p['sent'], p['met']), (3, 8.0, 3, 750, True))
        self.assertEqual((rows[('pingload', 'ovpn-udp')]['added_median'], rows[('pingload', 'ovpn-udp')]['met']),
                         (47.0, False))
        with tempfile.TemporaryDirectory() as d:
            md = os.path.join(d, 'r.md')
            subprocess.run([sys.executable, os.path.join(HERE, 'report.py'), '--no-plots', '--md', md, fx],
                           check=True, capture_output=True)
            with open(md) as f:
                text = f.read()
        self.assertIn('| sym20-noloss | 10+10 Mbit/s, RTT 20/20 ms, no loss | blackhole of path 1 at 3 s | mptcp | 3 | '
                      '1200 ms | 550 ms, 1200 ms, not back | 1200 ms | 18.00 | 9.00 | 1 | missed | – | – | – | 1 | 0 | 0 |',
                      text)
        self.assertIn('| sym20-noloss | 10+10 Mbit/s, RTT 20/20 ms, no loss | braid | 3 | 20.0 | 24.0 | 28.0 | 8.0 | '
                      '5.0, 8.0, 12.0 | 3 / 750 | 16.00 | met | 0 | 1 |', text)
        self.assertNotIn('## Results:', text)  # no goodput table for failover / pingload runs

    def test_missing_file(self):
        r = subprocess.run([sys.executable, os.path.join(HERE, 'report.py'), '--stats-json', '/nonexistent.jsonl'],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn('no such file: /nonexistent.jsonl', r.stderr)


if __name__ == '__main__':
    unittest.main()
