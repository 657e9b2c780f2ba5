#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb_figures.py: the page keeps what was measured (render, then read
back), --check's comparison names each drifted figure, respects a group's
tolerance and never compares timings (tools/tb figures --check names a group
missing from docs/figures.md itself)."""
import os
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
sys.path.insert(0, os.path.join(ROOT, 'tools'))
import tb_figures  # noqa: E402

DATA = {'tests': {'command': 'tools/tb test', 'date': '2026-11-25 22:00 UTC', 'load': '1.0 1.0 1.0',
                  'values': {'ctest tests labelled unit': 61, 'CMocka cases run, total': 480},
                  'timings': {'tests, seconds (wall)': 7.8}},
        'insn': {'command': 'x', 'date': 'd', 'load': 'l',
                 'values': {'BM_a: instructions per op': 77.4}, 'timings': {}}}


class Figures(unittest.TestCase):
    def test_page_round_trip(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, 'figures.md')
            with open(p, 'w') as f:
                f.write(tb_figures.render_page(DATA, '6.12.117'))
            self.assertEqual(tb_figures.read_page(p), DATA)
            with open(p) as f:
                text = f.read()
            self.assertIn('| ctest tests labelled unit | 61 |', text)
            self.assertIn('`tools/tb test` on 2026-11-25 22:00 UTC, load average 1.0 1.0 1.0', text)

    def test_compare_exact(self):
        m = {'values': {'ctest tests labelled unit': 62, 'CMocka cases run, total': 480,
                        'new one': 1}, 'timings': {'tests, seconds (wall)': 99}}
        out = tb_figures.compare('tests', 0, DATA['tests'], m)
        self.assertEqual(out, ['tests: ctest tests labelled unit: published 61, measured 62',
                               'tests: new one: not published, measured 1'])

    def test_compare_missing_and_tolerance(self):
        m = {'values': {'BM_a: instructions per op': 78.1}, 'timings': {}}
        self.assertEqual(tb_figures.compare('insn', 0.01, DATA['insn'], m), [])
        m = {'values': {'BM_a: instructions per op': 79.0}, 'timings': {}}
        self.assertEqual(len(tb_figures.compare('insn', 0.01, DATA['insn'], m)), 1)
        m = {'values': {}, 'timings': {}}
        self.assertEqual(tb_figures.compare('insn', 0.01, DATA['insn'], m),
                         ['insn: BM_a: instructions per op: published 77.4, not measured'])


if __name__ == '__main__':
    unittest.main()
