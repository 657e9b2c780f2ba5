#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb mutate's operators and function map, on lines of kernel-style C."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools'))
import tb_mutate as m  # noqa: E402


def ops(line):
    return {(op, new) for op, new in m.mutants_of_line(line)}


class Operators(unittest.TestCase):
    def test_comparison_flips_and_boundary_shifts(self):
        got = ops('\tif (usage > max)\n')
        self.assertIn(('comparison flip', '\tif (usage <= max)\n'), got)
        self.assertIn(('boundary shift', '\tif (usage >= max)\n'), got)
        self.assertIn(('condition negation', '\tif (!(usage > max))\n'), got)

    def test_arrows_shifts_and_includes_are_not_comparisons(self):
        self.assertEqual(ops('\tx = a->b << 2;\n') & {('comparison flip', '\tx = a-<=b << 2;\n')}, set())
        self.assertFalse([o for o, _ in m.mutants_of_line('#include <linux/mm.h>\n')])
        self.assertFalse([o for o, _ in m.mutants_of_line('\tp = c->parent;\n')
                          if o in ('comparison flip', 'boundary shift')])

    def test_logic_and_constants(self):
        got = ops('\tif (a && b == 3)\n')
        self.assertIn(('&& / ||', '\tif (a || b == 3)\n'), got)
        self.assertIn(('constant + 1', '\tif (a && b == 4)\n'), got)
        self.assertIn(('constant - 1', '\tif (a && b == 2)\n'), got)

    def test_return_values(self):
        self.assertIn(('return value', '\treturn false;\n'), ops('\treturn true;\n'))
        self.assertIn(('return value', '\treturn 0;\n'), ops('\treturn nr_pages;\n'))
        # "return 0" -> "return 1" is one mutant, whichever operator finds it
        self.assertEqual(len(m.mutants_of_line('\treturn 0;\n')), 1)

    def test_statement_deletion_takes_state_updates_not_declarations(self):
        self.assertIn(('statement deletion', '\t;\n'), ops('\tc->failcnt++;\n'))
        self.assertIn(('statement deletion', '\t;\n'), ops('\tpropagate(c, usage);\n'))
        self.assertNotIn(('statement deletion', '\t;\n'), ops('\tunsigned long x = 5;\n'))
        self.assertNotIn(('statement deletion', '\t;\n'), ops('\treturn x;\n'))

    def test_comments_strings_and_directives_are_left_alone(self):
        self.assertEqual(m.mutants_of_line('\t/* a < b */\n'), [])
        self.assertEqual(m.mutants_of_line('#define X 1\n'), [])
        self.assertFalse([o for o, n in m.mutants_of_line('\tpr_warn("a < b\\n");\n')
                          if o in ('comparison flip', 'boundary shift')])


class Functions(unittest.TestCase):
    def test_bodies_are_mapped_to_their_function(self):
        src = ['static bool f(int a,\n', '\t\t    int b)\n', '{\n', '\treturn a < b;\n', '}\n',
               '\n', 'int g(void);\n', 'void h(void)\n', '{\n', '\tx++;\n', '}\n']
        owner = m.functions_of(src)
        self.assertEqual(owner.get(4), 'f')
        self.assertEqual(owner.get(10), 'h')
        self.assertNotIn(7, owner)


if __name__ == '__main__':
    unittest.main()
