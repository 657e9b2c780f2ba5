#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb vm and tools/tb oracle without a guest: sizes, NUMA options,
the parsers of both sides' outputs, the pairing of figures, the named
differences, and the command line's one-line errors."""
import os
import subprocess
import sys
import tempfile
import types
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.join(REPO, 'tools'))
import tb_oracle  # noqa: E402
import tb_vm  # noqa: E402

TAP = """TAP version 13
1..3
@@FIG memcg_test memory.current - 0
@@FIG memcg_test memory.current - 52428800
ok 1 test_memcg_current_peak
ok 2 # SKIP test_memcg_swap_max_peak
@@FIG memcg_test_0/memcg_test_1 memory.current - 1048576
not ok 3 test_memcg_min
"""

CMOCKA = """[==========] tests: Running 3 test(s).
[ RUN      ] test_memcg_current_peak
@@FIG memcg_test memory.current - 0
[       OK ] test_memcg_current_peak
[ RUN      ] test_memcg_swap_max_peak
[  SKIP    ] no swap (the selftest skips too)
[  SKIPPED ] test_memcg_swap_max_peak
[ RUN      ] test_memcg_min
@@FIG A/B memory.current - 52428800
[  FAILED  ] test_memcg_min
"""


class Sizes(unittest.TestCase):
    def test_sizes_in_mib(self):
        self.assertEqual(tb_vm.parse_size('512M', '--mem'), 512)
        self.assertEqual(tb_vm.parse_size('2G', '--mem'), 2048)
        self.assertEqual(tb_vm.parse_size('300', '--mem'), 300)

    def test_bad_sizes_name_the_option(self):
        for bad in ('', '0', 'lots', '1T', '-5M'):
            with self.assertRaises(tb_vm.VmError) as e:
                tb_vm.parse_size(bad, '--swap')
            self.assertIn('--swap', str(e.exception))

    def test_numa_splits_memory_and_cpus(self):
        a = tb_vm.numa_args(1024, 4, 2)
        self.assertIn('memory-backend-ram,id=m1,size=512M', a)
        self.assertIn('node,nodeid=0,memdev=m0,cpus=0-1', a)
        self.assertIn('node,nodeid=1,memdev=m1,cpus=2-3', a)
        # more nodes than CPUs: memory-only nodes, as QEMU allows
        a = tb_vm.numa_args(1024, 1, 4)
        self.assertIn('node,nodeid=3,memdev=m3', a)
        self.assertEqual(tb_vm.numa_args(1024, 2, 1), ['-m', '1024M'])
        with self.assertRaises(tb_vm.VmError):
            tb_vm.numa_args(1000, 2, 3)


class WorldCommandLine(unittest.TestCase):
    def test_the_world_boots_with_the_guests_thp_options_last_one_winning(self):
        self.assertEqual(tb_oracle.world_cmdline('transparent_hugepage=always numa=off'),
                         'transparent_hugepage=never transparent_hugepage=always')

    def test_without_options_the_world_boots_thp_never_as_the_guest(self):
        self.assertEqual(tb_oracle.world_cmdline(None), 'transparent_hugepage=never')


class Parsers(unittest.TestCase):
    def test_tap_verdicts_skips_and_figures(self):
        c = tb_oracle.parse_tap(TAP)
        self.assertEqual(c['test_memcg_current_peak']['verdict'], 'pass')
        self.assertEqual([v for _, v in c['test_memcg_current_peak']['figs']], [0, 52428800])
        self.assertEqual(c['test_memcg_swap_max_peak']['verdict'], 'skip')
        self.assertEqual(c['test_memcg_min']['verdict'], 'fail')
        self.assertEqual(c['test_memcg_min']['figs'][0][0],
                         ('memcg_test_0/memcg_test_1', 'memory.current', '-'))

    def test_cmocka_verdicts_skips_and_figures(self):
        c = tb_oracle.parse_cmocka(CMOCKA)
        self.assertEqual(c['test_memcg_current_peak']['verdict'], 'pass')
        self.assertEqual(c['test_memcg_swap_max_peak']['verdict'], 'skip')
        self.assertEqual(c['test_memcg_min']['verdict'], 'fail')
        self.assertEqual(c['test_memcg_min']['figs'], [(('A/B', 'memory.current', '-'), 52428800)])

    def test_subtree_stats_after_the_allocator_are_context_not_figures(self):
        tap = ('@@POST memcg_test_0/memcg_test_1/child_memcg_2 memory.stat file 897024\n'
               '@@FIG memcg_test_0/memcg_test_1 memory.current - 1048576\n'
               'ok 1 test_memcg_min\n')
        cm = ('[ RUN      ] test_memcg_min\n'
              '@@POST A/B/E memory.stat file 1130496\n'
              '[       OK ] test_memcg_min\n')
        real, world = tb_oracle.parse_tap(tap), tb_oracle.parse_cmocka(cm)
        self.assertEqual(len(real['test_memcg_min']['figs']), 1)
        self.assertEqual(real['test_memcg_min']['post'],
                         [(('memcg_test_0/memcg_test_1/child_memcg_2', 'memory.stat', 'file'),
                           897024)])
        self.assertEqual(world['test_memcg_min']['figs'], [])
        res = {'configs': ['classic'], 'real': {'classic': [{'cases': real}]},
               'world': {'classic': {'cases': world}}}
        rows = tb_oracle.post_rows(res)
        self.assertIn('A/B/E file', rows[-1])
        self.assertIn('0.86', rows[-1])
        self.assertTrue(rows[-1].endswith('| 1.08'))

    def test_selftest_names_map_to_the_port(self):
        self.assertEqual(tb_oracle.port_name('test_memcg_min', 'memcg_test_0/memcg_test_1'), 'A/B')
        self.assertEqual(tb_oracle.port_name('test_memcg_max', 'memcg_test'), 'memcg_test')


class Alignment(unittest.TestCase):
    K = ('cg', 'memory.current', '-')

    def test_a_polling_loop_on_one_side_stays_unpaired(self):
        # the real side polls memory.current up to 100M; the world reads it once
        rk = [self.K] * 5
        rv = [0, 1 << 20, 99 << 20, 99 << 20, 31 << 20]
        wk = [self.K] * 4
        wv = [0, 100 << 20, 100 << 20, 30 << 20]
        pairs = tb_oracle.align(rk, rv, wk, wv)
        self.assertEqual(sorted(pairs), [(0, 0), (2, 1), (3, 2), (4, 3)])

    def test_reads_in_another_order_pair_by_figure(self):
        a, b = ('c', 'memory.events', 'oom'), ('c', 'memory.events', 'low')
        pairs = tb_oracle.align([a, b], [0, 47], [b, a], [43, 0])
        self.assertEqual(sorted(pairs), [(0, 1), (1, 0)])

    def test_different_figures_never_pair(self):
        self.assertEqual(tb_oracle.align([('x', 'f', '-')], [1], [('y', 'f', '-')], [1]), [])


class Differences(unittest.TestCase):
    def res(self, real, world):
        return {'configs': ['classic'],
                'real': {'classic': [{'cases': {'t': {'verdict': v}}} for v in real]},
                'world': {'classic': {'cases': {'t': {'verdict': world}}}}}

    def test_an_unnamed_difference_is_reported(self):
        bad, known = tb_oracle.mismatches(self.res(['pass', 'fail'], 'pass'), {})
        self.assertEqual(len(bad), 1)
        self.assertIn('real fail', bad[0])
        self.assertEqual(known, [])

    def test_a_named_difference_is_explained(self):
        bad, known = tb_oracle.mismatches(self.res(['fail'], 'pass'),
                                          {('t', 'classic', 'fail'): 'why'})
        self.assertEqual(bad, [])
        self.assertEqual(len(known), 1)

    def test_a_difference_named_for_every_configuration_covers_each(self):
        bad, known = tb_oracle.mismatches(self.res(['fail'], 'pass'),
                                          {('t', '*', 'fail'): 'why'})
        self.assertEqual(bad, [])
        self.assertEqual(len(known), 1)

    def test_a_difference_named_for_another_verdict_is_not_explained(self):
        bad, known = tb_oracle.mismatches(self.res(['skip'], 'pass'),
                                          {('t', '*', 'fail'): 'why'})
        self.assertEqual(len(bad), 1)

    def test_agreement_is_silent(self):
        self.assertEqual(tb_oracle.mismatches(self.res(['pass'] * 3, 'pass'), {}), ([], []))

    def test_the_repository_file_parses(self):
        named = tb_oracle.named_differences(REPO)
        self.assertTrue(all(c in tb_oracle.CONFIGS + ['*'] for _, c, _ in named))


class Explanations(unittest.TestCase):
    TEXT = ("selftests | * | * | A/B/E memory\\.current | page tables\n"
            "@ 6.12\n"
            "selftests | * | test_memcg_max | memory\\.events max | six-twelve\n"
            "@ 7.3\n"
            "selftests | * | test_memcg_max | memory\\.events max | large folios\n")

    def load(self, series):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'tests', 'oracle'))
            with open(os.path.join(d, 'tests', 'oracle', 'explanations.txt'), 'w') as f:
                f.write(self.TEXT)
            return tb_oracle.explanations(d, series)

    def why(self, series, case, lab):
        return tb_oracle.explain(self.load(series), 'selftests', 'classic', case, lab)

    def test_a_section_explains_its_own_series_only(self):
        self.assertEqual(self.why('7.3', 'test_memcg_max', 'memcg_test memory.events max'),
                         'large folios')
        self.assertEqual(self.why('6.12', 'test_memcg_max', 'memcg_test memory.events max'),
                         'six-twelve')
        self.assertIsNone(self.why('6.1', 'test_memcg_max', 'memcg_test memory.events max'))

    def test_lines_before_any_section_explain_every_series(self):
        for series in ('6.1', '6.12', '7.3'):
            self.assertEqual(self.why(series, 'test_memcg_low', 'A/B/E memory.current'),
                             'page tables')

    def test_the_default_series_keeps_its_markers_and_others_get_their_own(self):
        self.assertEqual(tb_oracle.markers('6.12'), (tb_oracle.BEGIN, tb_oracle.END))
        begin, end = tb_oracle.markers('7.3')
        self.assertIn('7.3', begin)
        self.assertNotEqual(begin, tb_oracle.BEGIN)
        self.assertEqual(tb_oracle.series_of('7.3.4+deb13-cloud-amd64'), '7.3')

    def test_the_repository_file_parses_for_each_series(self):
        self.assertEqual(tb_oracle.explanations(REPO, '6.1'), [])
        for series in ('6.12', '7.3'):
            self.assertTrue(tb_oracle.explanations(REPO, series))


class CommandLine(unittest.TestCase):
    def tb(self, *args):
        return subprocess.run([os.path.join(REPO, 'tools', 'tb')] + list(args),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def test_bad_input_gets_one_line(self):
        for args, text in ((['vm'], 'needs a command after --'),
                           (['vm', '--nodes', 'x', '--', 'true'], '--nodes wants a positive number'),
                           (['vm', '--runs', '2', '--', 'true'], 'does not apply'),
                           (['oracle'], "needs 'selftests', 'seed NNN' or 'publish'"),
                           (['oracle', 'selftest'], "not 'selftest'"),
                           (['test', '--', 'x'], "goes with vm"),
                           (['test', '--mem', '1G'], 'does not apply')):
            p = self.tb(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
            self.assertIn(text, p.stderr, args)


class RealRunPanics(unittest.TestCase):
    """A real run whose kernel panics is reported and done again once; a
    second panic, or any other early end, fails the oracle with the reason."""
    PANIC = 'kernel panic: Fatal exception in interrupt at blk_mq_end_request+0x12/0x80'

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.tb = types.SimpleNamespace(repo=self.tmp.name)
        self.said, self.ends = [], []
        self.saved = tb_vm.boot

        def boot(tb, kernel, script, opts, say, files=None, timeout=0):
            status, why = self.ends.pop(0)
            return {'status': status, 'why': why, 'output': 'ok 1 test_memcg_min\n',
                    'seconds': 1.0, 'run': self.tmp.name,
                    'console': os.path.join(self.tmp.name, 'console.log')}
        tb_vm.boot = boot

    def tearDown(self):
        tb_vm.boot = self.saved
        self.tmp.cleanup()

    def run_once(self):
        return tb_oracle.real_run(self.tb, {}, 'classic', {}, '', self.said.append)

    def test_a_panic_is_reported_and_run_again(self):
        self.ends = [(None, self.PANIC), (0, '')]
        r = self.run_once()
        self.assertEqual(r['cases']['test_memcg_min']['verdict'], 'pass')
        self.assertEqual([p['why'] for p in r['panics']], [self.PANIC])
        self.assertEqual(len(self.said), 1)
        self.assertIn('blk_mq_end_request', self.said[0])
        self.assertIn('running it again', self.said[0])

    def test_a_second_panic_fails_the_oracle(self):
        self.ends = [(None, self.PANIC)] * tb_oracle.PANIC_TRIES
        with self.assertRaisesRegex(tb_oracle.OracleError, 'ended early: kernel panic'):
            self.run_once()
        self.assertEqual(self.ends, [])

    def test_a_timeout_is_not_run_again(self):
        self.ends = [(None, 'timed out after 900s'), (0, '')]
        with self.assertRaisesRegex(tb_oracle.OracleError, 'timed out'):
            self.run_once()
        self.assertEqual(len(self.ends), 1)


class GuestEnd(unittest.TestCase):
    def test_a_panic_names_the_first_oops_rip(self):
        with tempfile.TemporaryDirectory() as d:
            con, err = os.path.join(d, 'console.log'), os.path.join(d, 'qemu.log')
            with open(con, 'w') as f:
                f.write('[ 1.0] RIP: 0010:blk_mq_end_request+0x12/0x80\n'
                        '[ 1.1] RIP: 0010:other+0x1/0x2\n'
                        '[ 1.2] Kernel panic - not syncing: Fatal exception in interrupt\n')
            open(err, 'w').close()
            self.assertEqual(tb_vm.guest_end(con, err),
                             'kernel panic: Fatal exception in interrupt at '
                             'blk_mq_end_request+0x12/0x80')


if __name__ == '__main__':
    unittest.main()
