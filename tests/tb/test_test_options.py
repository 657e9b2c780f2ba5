#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb test's selection options refused before anything is built: -R
with --slow or --file, -R without its expression or with one that is not a
regular expression, -R on another command; --cases without --file or on a
command other than test and mutate.
Each is one line on stderr and a non-zero status."""
import os
import subprocess
import unittest

TB = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools', 'tb')


def tb(*args):
    p = subprocess.run([TB] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    lines = p.stderr.strip().splitlines()
    assert p.returncode != 0, p.stdout + p.stderr
    assert len(lines) == 1, f'not one line on stderr:\n{p.stderr}'
    return lines[0]


class Regex(unittest.TestCase):
    def test_with_slow(self):
        self.assertEqual(tb('test', '-R', 'x', '--slow'),
                         'tb: test takes -R or --slow or --file, one of them (usage: tools/tb help)')

    def test_with_file(self):
        self.assertEqual(tb('test', '--file', 'mm/vmscan.c', '--regex=x'),
                         'tb: test takes -R or --slow or --file, one of them (usage: tools/tb help)')

    def test_without_its_expression(self):
        self.assertIn('-R', tb('test', '-R'))

    def test_empty_expression(self):
        self.assertEqual(tb('test', '--regex='),
                         'tb: --regex wants a regular expression (usage: tools/tb help)')

    def test_not_a_regular_expression(self):
        self.assertEqual(tb('test', '-R', '('),
                         'tb: -R (: not a regular expression (missing ), unterminated '
                         'subpattern at position 0)')

    def test_of_another_command(self):
        self.assertEqual(tb('coverage', '-R', 'x'),
                         "tb: option -R does not apply to 'coverage' (usage: tools/tb help)")


class Cases(unittest.TestCase):
    def test_without_file(self):
        self.assertEqual(tb('test', '--cases'),
                         'tb: --cases goes with --file (usage: tools/tb help)')

    def test_of_another_command(self):
        self.assertEqual(tb('coverage', '--cases'),
                         "tb: option --cases does not apply to 'coverage' (usage: tools/tb help)")


if __name__ == '__main__':
    unittest.main()
