#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb's coverage regions (COVERAGE_REGIONS): a region is the largest
`#ifdef SYMBOL` block of the file, nested conditionals inside it and its
own #else ending it; a small block before it (7.3's vmscan.c) is not it."""
import importlib.util
import os
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
spec = importlib.util.spec_from_file_location('tb_main', os.path.join(ROOT, 'tools', 'tb.py'))
tb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tb)

SRC = '''int a;
#ifdef CONFIG_X
int small;
#endif
int b;
#ifdef CONFIG_X
#if defined(CONFIG_Y)
int y;
#endif
int big1;
int big2;
#else
int stub;
#endif
#ifdef CONFIG_XY
int not_x;
int not_x2;
int not_x3;
int not_x4;
int not_x5;
#endif
'''


class Regions(unittest.TestCase):
    def test_every_block_to_its_own_else(self):
        self.assertEqual(tb.ifdef_regions(SRC.splitlines(), 'CONFIG_X'), [(3, 3), (7, 11)])

    def test_largest_block(self):
        with tempfile.NamedTemporaryFile('w', suffix='.c') as f:
            f.write(SRC)
            f.flush()
            self.assertEqual(tb.ifdef_region(f.name, 'CONFIG_X'), (7, 11))
            self.assertIsNone(tb.ifdef_region(f.name, 'CONFIG_Z'))


if __name__ == '__main__':
    unittest.main()
