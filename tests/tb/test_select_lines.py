#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb test --file's choice of tests (tb_output.select_by_lines) on a
made-up tree and line map: a test that executes a changed line is never
left out; an edit of a line only one test runs selects that test (and the
stress tests), of a brace-less body also the tests that run its head.
Every test runs when a changed line is one no test of the map executes,
when the edit opens or closes a block, for the body of an else, when there
is no map of the tree, when another file changed since the map (not when
it was put back as it was), or when the file is as mapped. A variant run
(the same executable on more nodes) runs only when the map saw it run a
changed line its base test does not. With --cases and a per-case map of
the same file and executables, a chosen test runs only its cases that
execute a changed line (ctest_subset: a ctest directory with TB_CASES in
their environment); a test all or none of whose cases do runs whole.
Before its listing, --file asks
Ninja for build.ninja only when a file cmake read is newer than it
(tb_output.manifest_current)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
sys.path.insert(0, os.path.join(ROOT, 'tools'))
import tb_mutate  # noqa: E402
import tb_output  # noqa: E402

PATH = 'mm/x.c'
TEXT = '''// a comment
static int f(int a)
{
\tint x = a;
\tif (x > 1) {
\t\tx = g(x,
\t\t      a);
\t\tx++;
\t}
\treturn x;
}

static int h(int a)
{
\treturn a + 1;
}

static int k(int a)
{
\tif (a > 2)
\t\ta--;
\telse
\t\ta++;
\treturn a;
}
'''
# gcov's counts per test (line: count); line 7 continues line 6's statement
# and has no count of its own; h() (line 15) is compiled but never run
COUNTS = {'t_small': {4: 1, 5: 1, 6: 0, 8: 0, 10: 1, 15: 0, 20: 1, 21: 0, 23: 1, 24: 1},
          't_big': {4: 3, 5: 3, 6: 2, 8: 2, 10: 3, 15: 0, 20: 2, 21: 2, 23: 0, 24: 2},
          't_stress': {4: 0, 5: 0, 6: 0, 8: 0, 10: 0, 15: 0, 20: 0, 21: 0, 23: 0, 24: 0}}
TESTS = [{'name': 't_small', 'labels': ['unit', 'kfile:' + PATH]},
         {'name': 't_big', 'labels': ['unit', 'kfile:' + PATH]},
         {'name': 't_stress', 'labels': ['stress', 'kfile:' + PATH]},
         {'name': 't_new', 'labels': ['unit', 'kfile:' + PATH]}]


class SelectByLines(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.repo = os.path.join(self.dir, 'repo')
        self.tree = os.path.join(self.dir, 'tree')
        self.cov = os.path.join(self.dir, 'coverage')
        for d in (os.path.join(self.repo, 'tests'), os.path.join(self.tree, 'mm'),
                  os.path.join(self.tree, 'include')):
            os.makedirs(d)
        self.write(os.path.join(self.tree, 'mm', 'other.c'), 'int y;\n')
        self.write(os.path.join(self.tree, PATH), TEXT)
        os.makedirs(os.path.dirname(tb_output.map_file(self.cov, PATH)))
        self.remap(COUNTS)

    def remap(self, counts):
        """the map as tools/tb mutate writes it; t_new came after it"""
        m = {'key': {'tree': self.tree, 'file': PATH}, 'text': TEXT,
             'tests': {n: {str(k): v for k, v in c.items()} for n, c in counts.items()},
             'statements': [list(s) for s in tb_mutate.Source(TEXT).statements()],
             'sources': tb_mutate.sources_state(self.repo, self.tree, PATH)}
        with open(tb_output.map_file(self.cov, PATH), 'w') as f:
            json.dump(m, f)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, path, text):
        if os.path.exists(path):
            os.unlink(path)
        with open(path, 'w') as f:
            f.write(text)

    def edit(self, lineno, new=None, insert=False):
        lines = TEXT.split('\n')
        if insert:
            lines.insert(lineno - 1, new)
        else:
            lines[lineno - 1] = new if new is not None else lines[lineno - 1] + ' ;'
        self.write(os.path.join(self.tree, PATH), '\n'.join(lines))

    def select(self):
        tests, note = tb_output.select_by_lines(TESTS, PATH, self.tree, self.cov, self.repo)
        return [t['name'] for t in tests], note

    def write_cases(self, key=None):
        """the per-case map as tools/tb mutate --cases writes it (seconds,
        lines with a count): t_big's case big_if runs the if's body"""
        cases = {'t_small': {'small': [0.1, [4, 5, 10, 20, 23, 24]]},
                 't_big': {'big_if': [0.2, [4, 5, 6, 8, 10, 20, 21, 24]],
                           'big_plain': [0.1, [4, 5, 10, 20, 21, 24]]}}
        with open(tb_output.case_map_file(self.cov, PATH), 'w') as f:
            json.dump({'key': key or {'tree': self.tree, 'file': PATH}, 'cases': cases}, f)

    def select_cases(self):
        cases = {}
        tests, note = tb_output.select_by_lines(TESTS, PATH, self.tree, self.cov, self.repo,
                                                cases=cases)
        return [t['name'] for t in tests], cases, note

    def test_cases_that_run_the_line(self):
        # of t_big only big_if runs line 6; t_stress and t_new run whole
        os.makedirs(os.path.dirname(tb_output.case_map_file(self.cov, PATH)))
        self.write_cases()
        self.edit(6)
        names, cases, note = self.select_cases()
        self.assertEqual(names, ['t_big', 't_stress', 't_new'])
        self.assertEqual(cases, {'t_big': ['big_if']})
        self.assertIn('of 1 of them only the 1 case that run a changed line', note)

    def test_every_case_runs_the_line(self):
        # line 21: both cases of t_big and t_small's head (line 20) run it
        os.makedirs(os.path.dirname(tb_output.case_map_file(self.cov, PATH)))
        self.write_cases()
        self.edit(21, '\t\ta--; a = 0;')
        names, cases, _ = self.select_cases()
        self.assertEqual(names, ['t_small', 't_big', 't_stress', 't_new'])
        self.assertEqual(cases, {})

    def test_case_map_of_other_executables(self):
        # made with another build of the suites than the line map: unused
        os.makedirs(os.path.dirname(tb_output.case_map_file(self.cov, PATH)))
        self.write_cases({'tree': self.tree, 'file': PATH, 'executables': {'t_big': [1, 2]}})
        self.edit(6)
        names, cases, note = self.select_cases()
        self.assertEqual(names, ['t_big', 't_stress', 't_new'])
        self.assertEqual(cases, {})
        self.assertNotIn('case map', note)

    def test_no_cases_asked(self):
        os.makedirs(os.path.dirname(tb_output.case_map_file(self.cov, PATH)))
        self.write_cases()
        self.edit(6)
        self.assertNotIn('case map', self.select()[1])

    def test_line_one_test_runs(self):
        # only t_big runs line 6; t_new is unknown to the map, t_stress's
        # reach varies from run to run
        self.edit(6)
        names, note = self.select()
        self.assertEqual(names, ['t_big', 't_stress', 't_new'])
        self.assertIn('3 of 4 tests', note)
        self.assertIn('(6, as mapped)', note)

    def test_continuation_line(self):
        # line 7 has no count: it belongs to line 6's statement
        self.edit(7, '\t\t      a + 1);')
        self.assertEqual(self.select()[0], ['t_big', 't_stress', 't_new'])

    def test_braceless_body_takes_its_head(self):
        # `a--;` under `if (a > 2)`: `a--; a = 0;` would run for every test
        # that runs the if, t_small too
        self.edit(21, '\t\ta--; a = 0;')
        names, note = self.select()
        self.assertEqual(names, ['t_small', 't_big', 't_stress', 't_new'])
        self.assertIn('(21, as mapped)', note)

    def test_else_body_falls_back(self):
        # the body of an else: its condition is lines above
        self.edit(23, '\t\ta++; a = 0;')
        names, note = self.select()
        self.assertEqual(len(names), len(TESTS))
        self.assertIn('mm/x.c:23 (as mapped) is the body of an else', note)

    def test_block_change_falls_back(self):
        # `x++; }` closes the if's block early: the lines after it change owner
        self.edit(8, '\t\tx++; } {')
        names, note = self.select()
        self.assertEqual(len(names), len(TESTS))
        self.assertIn('opens or closes a block', note)

    def test_block_inside_the_edit(self):
        # a block opened and closed on the line is one statement
        self.edit(8, '\t\t{ x++; }')
        self.assertEqual(self.select()[0], ['t_big', 't_stress', 't_new'])

    def test_line_every_test_runs(self):
        self.edit(4)
        self.assertEqual(self.select()[0], ['t_small', 't_big', 't_stress', 't_new'])

    def test_insertion_takes_both_neighbours(self):
        # between lines 4 and 5: the tests that run line 4 or line 5
        self.edit(5, '\tx++;', insert=True)
        self.assertEqual(self.select()[0], ['t_small', 't_big', 't_stress', 't_new'])

    def test_insertion_in_a_block(self):
        # between lines 6-7 and 8 (inside the if): the tests that run them
        self.edit(8, '\t\tx--;', insert=True)
        self.assertEqual(self.select()[0], ['t_big', 't_stress', 't_new'])

    def test_deletion(self):
        lines = TEXT.split('\n')
        del lines[7]
        self.write(os.path.join(self.tree, PATH), '\n'.join(lines))
        self.assertEqual(self.select()[0], ['t_big', 't_stress', 't_new'])

    def test_unrun_line_falls_back(self):
        # h() is compiled but no test of the map runs it
        self.edit(15)
        names, note = self.select()
        self.assertEqual(names, [t['name'] for t in TESTS])
        self.assertIn('mm/x.c:15 (as mapped) is a line no test of the line map executes', note)

    def test_declaration_takes_the_function(self):
        # line 4's `int x = a;` has a count; make line 4 a declaration gcov
        # does not count: every test that runs f()
        counts = {n: {k: v for k, v in c.items() if k != 4} for n, c in COUNTS.items()}
        self.remap(counts)
        self.edit(4, '\tlong x = a;')
        names, note = self.select()
        self.assertEqual(names, ['t_small', 't_big', 't_stress', 't_new'])
        # in k(), which only t_small and t_big run, as in f(): the same; in
        # h(), which no test runs: every test
        self.edit(15, '\treturn a + 2;')
        self.assertEqual(len(self.select()[0]), len(TESTS))

    def test_preprocessor_line_in_a_function_falls_back(self):
        lines = TEXT.split('\n')
        lines.insert(20, '#define g(a, b) 0')
        self.write(os.path.join(self.tree, PATH), '\n'.join(lines))
        names, note = self.select()
        self.assertEqual(len(names), len(TESTS))
        self.assertIn('has a preprocessor line', note)

    def test_outside_a_function_falls_back(self):
        # a declaration or a comment outside a function: what uses it is
        # anywhere in the file
        self.edit(1, 'static int g_limit = 4;')
        names, note = self.select()
        self.assertEqual(len(names), len(TESTS))
        self.assertIn(':1 (as mapped) is a line no test of the line map executes', note)

    def test_other_file_changed_falls_back(self):
        self.edit(6)
        self.write(os.path.join(self.tree, 'mm', 'other.c'), 'int y, z;\n')
        names, note = self.select()
        self.assertEqual(len(names), len(TESTS))
        self.assertIn('mm/other.c changed since the line map of mm/x.c', note)

    def test_other_file_put_back(self):
        # edited and put back as it was: the map holds again
        self.edit(6)
        self.write(os.path.join(self.tree, 'mm', 'other.c'), 'int y, z;\n')
        self.write(os.path.join(self.tree, 'mm', 'other.c'), 'int y;\n')
        self.assertEqual(self.select()[0], ['t_big', 't_stress', 't_new'])

    def test_test_source_changed_falls_back(self):
        self.edit(6)
        self.write(os.path.join(self.repo, 'tests', 'test_x.c'), 'int main(void) {}\n')
        names, note = self.select()
        self.assertEqual(len(names), len(TESTS))
        self.assertIn('tests/test_x.c changed since', note)

    def test_no_map(self):
        self.edit(6)
        os.unlink(tb_output.map_file(self.cov, PATH))
        names, note = self.select()
        self.assertEqual(len(names), len(TESTS))
        self.assertIn('no line map of mm/x.c for this tree', note)

    def test_map_of_another_tree(self):
        self.edit(6)
        other = os.path.join(self.dir, 'tree2')
        shutil.copytree(self.tree, other)
        names, note = tb_output.select_by_lines(TESTS, PATH, other, self.cov, self.repo)
        self.assertEqual(len(names), len(TESTS))
        self.assertIn('no line map', note)

    def test_variants(self):
        # t_small again on 2 nodes runs line 6, which t_small does not: an
        # edit of line 6 runs it; t_big on 2 nodes runs what t_big runs,
        # and t_new on 2 nodes is unknown to the map: left to tools/tb test
        counts = dict(COUNTS, t_small_2nodes={**COUNTS['t_small'], 6: 1},
                      t_big_2nodes=COUNTS['t_big'])
        self.remap(counts)
        variants = [{'name': n + '_2nodes', 'base': n, 'labels': ['unit', 'kfile:' + PATH, 'variant']}
                    for n in ('t_small', 't_big', 't_new')]
        self.edit(6)
        tests, note = tb_output.select_by_lines(TESTS, PATH, self.tree, self.cov, self.repo,
                                                variants=variants)
        self.assertEqual([t['name'] for t in tests], ['t_big', 't_stress', 't_new', 't_small_2nodes'])
        self.assertIn('the variant run t_small_2nodes, which runs a changed line its base does not',
                      note)
        # line 4, which t_small runs too: no variant
        self.edit(4)
        tests, note = tb_output.select_by_lines(TESTS, PATH, self.tree, self.cov, self.repo,
                                                variants=variants)
        self.assertEqual(len(tests), len(TESTS))
        self.assertNotIn('variant', note)
        # without a map: every test, no variant
        os.unlink(tb_output.map_file(self.cov, PATH))
        tests, note = tb_output.select_by_lines(TESTS, PATH, self.tree, self.cov, self.repo,
                                                variants=variants)
        self.assertEqual([t['name'] for t in tests], [t['name'] for t in TESTS])

    def test_variant_base(self):
        listing = [{'name': 'a', 'command': ['/x/a'], 'labels': ['unit'], 'env': []},
                   {'name': 'a_lru', 'command': ['/x/a'], 'labels': ['unit'], 'env': ['TB_LRU_GEN=y']},
                   {'name': 'a_2nodes', 'command': ['/x/a'], 'labels': ['unit', 'variant'],
                    'env': ['TB_NODES=2']},
                   {'name': 'a_lru_4nodes', 'command': ['/x/a'], 'labels': ['unit', 'variant'],
                    'env': ['TB_NODES=4', 'TB_LRU_GEN=y']},
                   {'name': 'b_2nodes', 'command': ['/x/b'], 'labels': ['unit', 'variant'],
                    'env': ['TB_NODES=2']}]
        base, variants = tb_output.split_variants(listing)
        self.assertEqual([t['name'] for t in base], ['a', 'a_lru'])
        self.assertEqual([(tb_output.variant_base(v, base) or {}).get('name') for v in variants],
                         ['a', 'a_lru', None])
        note = tb_output.variants_note(
            [dict(v, labels=v['labels'] + ['kfile:' + PATH]) for v in variants], [PATH])
        self.assertIn('3 variant runs of these suites (the same executables again with '
                      'TB_NODES=2 or TB_NODES=4)', note)
        self.assertIsNone(tb_output.variants_note(variants, [PATH]))

    def test_unchanged_runs_all(self):
        names, note = self.select()
        self.assertEqual(len(names), len(TESTS))
        self.assertIn('as the line map saw it', note)


class CtestSubset(unittest.TestCase):
    """a ctest directory of some of a build's tests, TB_CASES set for some"""

    def test_subset(self):
        if not shutil.which('ctest'):
            self.skipTest('no ctest')
        d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, d)
        src, out = os.path.join(d, 'build'), os.path.join(d, 'subset')
        os.makedirs(src)
        with open(os.path.join(src, 'CTestTestfile.cmake'), 'w') as f:
            for n in ('a', 'b', 'c'):
                f.write(f'add_test({n} "/bin/sh" "-c" "echo {n}:$X:$TB_CASES:")\n'
                        f'set_tests_properties({n} PROPERTIES ENVIRONMENT "X=1;Y=$2" '
                        f'LABELS "unit;kfile:mm/x.c" TIMEOUT "60")\n')
        self.assertTrue(tb_output.ctest_subset(src, ['a', 'b'], {'a': ['c1', 'c2']}, out))
        p = subprocess.run(['ctest', '--test-dir', out, '-V', '-L', 'unit'],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn('a:1:c1,c2:', p.stdout)
        self.assertIn('b:1::', p.stdout)
        self.assertNotIn('c:1:', p.stdout)


class ManifestCurrent(unittest.TestCase):
    """build.ninja against the inputs of its RERUN_CMAKE step"""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        for f in ('CMakeLists.txt', 'a b.cmake'):
            self.touch(f, 1000)
        with open(os.path.join(self.dir, 'build.ninja'), 'w') as f:
            f.write('rule RERUN_CMAKE\n  command = cmake\n'
                    'build build.ninja: RERUN_CMAKE CMakeFiles/cmake.verify_globs | '
                    'CMakeLists.txt a$ b.cmake\n  pool = console\n')
        self.touch('build.ninja', 2000)

    def touch(self, name, t):
        path = os.path.join(self.dir, name)
        open(path, 'a').close()
        os.utime(path, (t, t))

    def test_current(self):
        self.assertTrue(tb_output.manifest_current(self.dir))

    def test_a_newer_input(self):
        self.touch('a b.cmake', 3000)
        self.assertFalse(tb_output.manifest_current(self.dir))

    def test_a_missing_input(self):
        os.unlink(os.path.join(self.dir, 'CMakeLists.txt'))
        self.assertFalse(tb_output.manifest_current(self.dir))

    def test_no_manifest(self):
        os.unlink(os.path.join(self.dir, 'build.ninja'))
        self.assertFalse(tb_output.manifest_current(self.dir))


if __name__ == '__main__':
    unittest.main()
