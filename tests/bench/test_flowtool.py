#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit test of flowtool.py's analyses (failover "back" time, ping percentiles) on synthetic receive logs and ping
outputs whose answers are known by construction: 10 ms receive bins of 12500 bytes are 10 Mbit/s."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import flowtool  # noqa: E402

FULL = 12500  # bytes per 10 ms = 10 Mbit/s


def log_with_gap(gap_bins, before=200, after=300, fill=FULL):
    """t0 = 1000 s; 2 s at 10 Mbit/s, then gap_bins x 10 ms with nothing, then fill per 10 ms; cut at 1002 s."""
    return {'t0': 1000.0, 'bins': [FULL] * before + [0] * gap_bins + [fill] * after}


class Failover(unittest.TestCase):
    def back(self, log, capacity=10, post=3):
        return flowtool.failover_metrics(log, 1002.0, capacity, post)

    def test_no_dip(self):
        m = self.back(log_with_gap(0))
        self.assertEqual((m['failover_back_ms'], m['failover_first_low_ms'], m['failover_zero_bins_ms']),
                         (0, None, 0))
        self.assertEqual(m['failover_threshold_mbps'], 5.0)
        self.assertEqual((m['pre_cut_mbps'], m['post_cut_mbps']), (10.0, 10.0))

    def test_gaps(self):
        for gap_ms, back, zero in ((300, 300, 300), (1000, 1000, 1000), (120, 100, 100), (160, 150, 150), (180, 200, 150)):
            m = self.back(log_with_gap(gap_ms // 10))
            self.assertEqual((m['failover_back_ms'], m['failover_zero_bins_ms']), (back, zero), f'gap {gap_ms}')
            self.assertEqual(m['failover_first_low_ms'], 0)

    def test_below_half_is_not_back(self):
        # after a 200 ms stall the flow comes back at 4 Mbit/s only: below 50 % of 10, never "back"
        m = self.back(log_with_gap(20, fill=5000))
        self.assertIsNone(m['failover_back_ms'])
        # at 6 Mbit/s it is back right after the stall
        self.assertEqual(self.back(log_with_gap(20, fill=7500))['failover_back_ms'], 200)

    def test_relapse_counts(self):
        # 200 ms stall, 300 ms of data, another 400 ms stall: back only after the second one
        log = {'t0': 1000.0, 'bins': [FULL] * 200 + [0] * 20 + [FULL] * 30 + [0] * 40 + [FULL] * 300}
        self.assertEqual(self.back(log)['failover_back_ms'], 900)

    def test_isolated_low_bin_is_noise(self):
        # back at once; 450 ms after the cut one 50 ms bin at 4 Mbit/s (mean of its windows stays >= 5): no dip
        log = log_with_gap(0)
        for i in range(245, 250):
            log['bins'][i] = 10000 // 2
        self.assertEqual(self.back(log)['failover_back_ms'], 0)
        # a stall of the first 50 ms alone is a dip of 50 ms even though its window's mean is above 5
        self.assertEqual(self.back(log_with_gap(5))['failover_back_ms'], 50)
        self.assertEqual(flowtool.back_from_bins([9, 9, 4, 9, 9, 9, 9, 9], 5), (150, 100, 0))
        self.assertEqual(flowtool.back_from_bins([9, 9, 9, 9, 9, 0, 9, 9, 9], 5), (0, None, 0))
        self.assertEqual(flowtool.back_from_bins([0, 0, 9, 9, 9, 9, 0, 0, 0], 5), (None, 0, 250))

    def test_failover90(self):
        # 10 Mbit/s path: threshold 0.9 x 10 x 1448/1500 = 8.688; 20 ms bins, 100 ms windows
        m = flowtool.failover90_metrics(log_with_gap(0), 1002.0, 10, 3)
        self.assertEqual((m['failover90_back_ms'], m['failover90_threshold_mbps']), (0, 8.688))
        for gap_ms, back in ((40, 40), (120, 120), (300, 300)):
            m = flowtool.failover90_metrics(log_with_gap(gap_ms // 10), 1002.0, 10, 3)
            self.assertEqual((m['failover90_back_ms'], m['failover90_zero_bins_ms']), (back, back), f'gap {gap_ms}')
        # back at 8.5 Mbit/s only (85 % of the rate): never back
        self.assertIsNone(flowtool.failover90_metrics(log_with_gap(10, fill=10625), 1002.0, 10, 3)['failover90_back_ms'])
        # at 9 Mbit/s: back after the stall
        self.assertEqual(flowtool.failover90_metrics(log_with_gap(10, fill=11250), 1002.0, 10, 3)['failover90_back_ms'],
                         100)
        # one low 20 ms bin at 400 ms inside full windows is noise
        log = log_with_gap(0)
        log['bins'][240] = 6000
        self.assertEqual(flowtool.failover90_metrics(log, 1002.0, 10, 3)['failover90_back_ms'], 0)
        # a 40 ms stall 200 ms after a 100 ms one: back after the second (500 ms must follow without a dip)
        log = {'t0': 1000.0, 'bins': [FULL] * 200 + [0] * 10 + [FULL] * 20 + [0] * 4 + [FULL] * 300}
        self.assertEqual(flowtool.failover90_metrics(log, 1002.0, 10, 3)['failover90_back_ms'], 340)
        # a dip 1 s after the recovery is the flow's own, not the failover's
        log = {'t0': 1000.0, 'bins': [FULL] * 200 + [0] * 10 + [FULL] * 100 + [0] * 4 + [FULL] * 200}
        self.assertEqual(flowtool.failover90_metrics(log, 1002.0, 10, 3)['failover90_back_ms'], 100)
        m = flowtool.failover90_metrics(log_with_gap(30), 1002.0, 10, 2)
        self.assertEqual((m['bins20_start_ms'], len(m['bins_20ms_mbps'])), (-200, 10 + 100))
        self.assertEqual(flowtool.back90_from_bins([0.0] * 10, 5, hold=5), (None, 200))

    def test_bins(self):
        m = self.back(log_with_gap(30), post=2)
        self.assertEqual(m['bins_start_ms'], -1000)
        self.assertEqual(len(m['bins_50ms_mbps']), 20 + 40)
        self.assertEqual(m['bins_50ms_mbps'][19:27], [10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 10.0])

    def test_cli_reset_flag(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, 'recv.json')
            log = dict(log_with_gap(0), eof=False, error='ConnectionResetError: [Errno 104] Connection reset by peer')
            with open(p, 'w') as f:
                json.dump(log, f)
            out = subprocess.run([sys.executable, os.path.join(HERE, 'flowtool.py'), 'failover', '--recv', p,
                                  '--cut', '1002', '--capacity', '10'], capture_output=True, text=True, check=True)
            r = json.loads('{' + out.stdout + '}')
            self.assertIs(r['inner_reset'], True)
            self.assertIn('Connection reset', r['inner_error'])


class Ping(unittest.TestCase):
    def test_percentiles(self):
        with tempfile.TemporaryDirectory() as d:
            idle, load = os.path.join(d, 'i'), os.path.join(d, 'l')
            with open(idle, 'w') as f:
                for i, t in enumerate([20.0, 21.0, 22.0, 20.5, 20.2]):
                    f.write(f'64 bytes from 10.9.0.2: icmp_seq={i + 1} ttl=62 time={t} ms\n')
            with open(load, 'w') as f:
                for i in range(20):  # 21 .. 40 ms; seq 5 twice (DUP!) counts once; 2 of 22 sent lost
                    f.write(f'64 bytes from 10.9.0.2: icmp_seq={i + 1} ttl=62 time={21 + i}.0 ms\n')
                f.write('64 bytes from 10.9.0.2: icmp_seq=5 ttl=62 time=99.0 ms (DUP!)\n')
                f.write('22 packets transmitted, 20 received, 9.09% packet loss, time 440ms\n')
            out = subprocess.run([sys.executable, os.path.join(HERE, 'flowtool.py'), 'ping', '--idle', idle,
                                  '--load', load, '--count-idle', '5', '--count-load', '22'],
                                 capture_output=True, text=True, check=True)
            r = json.loads('{' + out.stdout + '}')
            self.assertEqual((r['ping_idle_n'], r['ping_idle_lost'], r['ping_load_n'], r['ping_load_lost']),
                             (5, 0, 20, 2))
            self.assertEqual(r['ping_idle_p50_ms'], 20.5)
            # p95 of 21..40 by linear interpolation: rank 0.95 * 19 = 18.05 -> 39 + 0.05 = 39.05
            self.assertEqual(r['ping_load_p95_ms'], 39.05)
            self.assertEqual(r['ping_load_p50_ms'], 30.5)
            self.assertEqual(r['added_p95_ms'], 18.55)
            self.assertEqual(r['ping_load_max_ms'], 40.0)


if __name__ == '__main__':
    unittest.main()
