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
        # NULL is 0: no mutant
        self.assertEqual(m.mutants_of_line('\treturn NULL;\n'), [])
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


def sh(name, script):
    return {'name': name, 'command': ['/bin/sh', '-c', script], 'cwd': '/', 'target': name}


class Runs(unittest.TestCase):
    def test_a_failing_test_kills_and_stops_the_run(self):
        tests = [sh('fails', 'exit 1'), sh('slow', 'sleep 30')]
        v, by, secs, tail = m.run_tests(tests, dict(os.environ), 1, {'fails': 10, 'slow': 10})
        self.assertEqual((v, by), ('killed', ['fails']))
        self.assertNotIn('slow', secs)

    def test_a_crash_is_a_kill_with_its_output(self):
        v, by, _, tail = m.run_tests([sh('crash', 'echo boom; kill -SEGV $$')],
                                     dict(os.environ), 1, {'crash': 10})
        self.assertEqual((v, by), ('killed', ['crash']))
        self.assertIn('boom', tail)

    def test_an_overrun_is_a_timeout_not_a_kill(self):
        v, by, _, _ = m.run_tests([sh('hang', 'sleep 30')], dict(os.environ), 1, {'hang': 0.3})
        self.assertEqual((v, by), ('timeout', ['hang']))

    def test_passing_tests_survive_and_are_all_timed(self):
        tests = [sh('a', 'true'), sh('b', 'true')]
        v, by, secs, _ = m.run_tests(tests, dict(os.environ), 2, {'a': 10, 'b': 10})
        self.assertEqual((v, by, sorted(secs)), ('survived', [], ['a', 'b']))


class Equivalents(unittest.TestCase):
    def test_entries_and_their_reasons(self):
        import tempfile
        with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
            f.write('# comment\n\nmm/x.c:12 [&& / ||] if (a || b)\n'
                    '\tb is never true without a:\n\tsee f()\n')
        eq = m.load_equivalents(f.name)
        os.unlink(f.name)
        self.assertEqual(eq, {('mm/x.c', 12, '&& / ||', 'if (a || b)'): 'b is never true without a: see f()'})
        c = {'line': 12, 'operator': '&& / ||', 'new': '\tif (a || b)\n'}
        self.assertIn(m.equiv_key('mm/x.c', c), eq)

    def test_a_version_section_applies_to_its_trees_only(self):
        import tempfile
        with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
            f.write('mm/x.c:1 [constant + 1] a = 2;\n\tany tree\n'
                    '@ 6.12\nmm/x.c:12 [&& / ||] if (a || b)\n\tb implies a\n'
                    '@ 6.1\nmm/x.c:40 [&& / ||] if (a || b)\n\tthe same in 6.1\n')
        every = m.load_equivalents(f.name)
        v612 = m.load_equivalents(f.name, '6.12.117')
        v61 = m.load_equivalents(f.name, '6.1.192')
        v613 = m.load_equivalents(f.name, '6.13')
        os.unlink(f.name)
        self.assertEqual(sorted(k[1] for k in every), [1, 12, 40])
        self.assertEqual(sorted(k[1] for k in v612), [1, 12])
        self.assertEqual(v612[('mm/x.c', 12, '&& / ||', 'if (a || b)')], 'b implies a')
        self.assertEqual(sorted(k[1] for k in v61), [1, 40])
        self.assertEqual(sorted(k[1] for k in v613), [1])

    def test_equivalents_leave_the_score(self):
        s = {'mutants': 10, 'killed': 8, 'survived': 0, 'timeout': 1, 'no-compile': 0, 'equivalent': 1}
        self.assertEqual(m.score(s), 100.0)

    def test_a_sample_depends_only_on_the_seed(self):
        cands = [{'line': i, 'operator': 'x', 'new': str(i)} for i in range(50)]
        self.assertEqual(m.sample(cands, 5, 7), m.sample(list(cands), 5, 7))
        self.assertNotEqual(m.sample(cands, 5, 7), m.sample(cands, 5, 8))


class EquivalentsFile(unittest.TestCase):
    def test_the_repository_file_parses(self):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'equivalent.txt')
        eq = m.load_equivalents(path)
        self.assertTrue(eq)
        # every entry is in a version's section: a 6.1 tree gets none of 6.12's
        self.assertFalse(set(eq) & set(m.load_equivalents(path, '6.1.192')))
        self.assertEqual(m.load_equivalents(path, '6.12.117'), eq)
        for (f, line, op, new), why in eq.items():
            self.assertTrue(why, f'{f}:{line} [{op}] has no reason')
            self.assertIn(op, ('comparison flip', 'boundary shift', '&& / ||', 'condition negation',
                               'constant + 1', 'constant - 1', 'return value', 'statement deletion'))


if __name__ == '__main__':
    unittest.main()
