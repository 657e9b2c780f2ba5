#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What --kernel names (tools/tb_trees.py) and tools/tb matrix's report
(tools/tb_matrix.py), from canned apt answers and canned results: no
network, no apt, nothing built."""
import json
import os
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
sys.path.insert(0, os.path.join(ROOT, 'tools'))
import tb_matrix  # noqa: E402
import tb_trees  # noqa: E402

SEC = 'http://security.debian.org/debian-security'
DEB = 'http://deb.debian.org/debian'
# `apt-cache madison linux-source-6.1 linux-source-6.12 linux-source-7.2
# linux-source-7.3` on the lists of 2026-12-06 (trimmed)
MADISON = f'''\
linux-source-6.1 |  6.1.192-3 | {SEC} bookworm-security/main amd64 Packages
linux-source-6.1 |  6.1.192-2 | {SEC} bookworm-security/main amd64 Packages
linux-source-6.1 |  6.1.190-1 | {SEC} bookworm-security/main amd64 Packages
linux-source-6.1 |  6.1.170-3 | {DEB} bookworm/main amd64 Packages
linux-source-6.12 | 6.12.118-1 | {SEC} trixie-security/main amd64 Packages
linux-source-6.12 | 6.12.118-1~deb12u1 | {SEC} bookworm-security/main amd64 Packages
linux-source-6.12 | 6.12.117-1 | {DEB} trixie/main amd64 Packages
linux-source-6.12 | 6.12.117-1 | {SEC} trixie-security/main amd64 Packages
linux-source-6.12 | 6.12.117-1~deb12u1 | {SEC} bookworm-security/main amd64 Packages
linux-source-6.12 | 6.12.115-2 | {SEC} trixie-security/main amd64 Packages
linux-source-6.12 | 6.12.115-2~deb12u1 | {SEC} bookworm-security/main amd64 Packages
linux-source-6.12 | 6.12.115-1 | {SEC} trixie-security/main amd64 Packages
linux-source-6.12 | 6.12.95-1~bpo12+1 | {DEB} bookworm-backports/main amd64 Packages
linux-source-7.2 |   7.2.13-1 | {DEB} sid/main amd64 Packages
linux-source-7.3 | 7.3~rc7-1~exp1 | {DEB} experimental/main amd64 Packages
'''
INSTALLED = {'linux-source-6.1': '6.1.192-3', 'linux-source-6.12': '6.12.118-1~deb12u1'}


class CannedArchive(tb_trees.Archive):
    """the archive as MADISON says, the lists present and never renewed"""

    def __init__(self, kcache='/nonexistent/kernel-trees'):
        super().__init__(kcache, say=lambda m: None, root=True,
                         installed=lambda p: INSTALLED.get(p, ''))
        self.got = tb_trees.parse_madison(MADISON)

    def ensure_lists(self, why, max_age=None):
        pass

    def update(self, why):
        self.updated = True

    def madison(self, packages):
        return {p: self.got.get(p, {}) for p in packages}

    def series_names(self):
        return ['6.1', '6.12', '7.2', '7.3']


class Names(unittest.TestCase):
    def test_classify(self):
        self.assertEqual(tb_trees.classify('6.12'), ('series', '6.12'))
        self.assertEqual(tb_trees.classify('7.3'), ('series', '7.3'))
        self.assertEqual(tb_trees.classify('6.12.115'), ('upstream', '6.12.115'))
        self.assertEqual(tb_trees.classify('7.3-rc7'), ('upstream', '7.3~rc7'))
        self.assertEqual(tb_trees.classify('7.3~rc7'), ('upstream', '7.3~rc7'))
        self.assertEqual(tb_trees.classify('6.12.115-2~deb12u1'), ('debian', '6.12.115-2~deb12u1'))
        self.assertEqual(tb_trees.classify('6.12.95-1~bpo12+1'), ('debian', '6.12.95-1~bpo12+1'))
        self.assertEqual(tb_trees.classify('../linux'), ('dir', '../linux'))
        self.assertEqual(tb_trees.classify('linux-6.12'), ('dir', 'linux-6.12'))

    def test_versions(self):
        c = tb_trees.version_compare
        self.assertEqual(c('6.12.115-2', '6.12.115-2~deb12u1'), 1)
        self.assertEqual(c('7.3~rc7-1~exp1', '7.3-1'), -1)
        self.assertEqual(c('6.12.95-1~bpo12+1', '6.12.107-1'), -1)
        self.assertEqual(c('6.1.192-3', '6.1.192-10'), -1)
        self.assertEqual(c('1:6.1', '6.12'), 1)
        self.assertEqual(c('6.12.117-1', '6.12.117-1'), 0)
        self.assertEqual(c('6.12', '6.12.0'), -1)
        self.assertEqual(sorted(['6.12', '7.3', '6.1', '7.2', '6.9'], key=tb_trees.version_key),
                         ['6.1', '6.9', '6.12', '7.2', '7.3'])

    def test_upstream_label_dir(self):
        self.assertEqual(tb_trees.upstream_of('6.12.95-1~bpo12+1'), '6.12.95')
        self.assertEqual(tb_trees.upstream_of('7.3~rc7-1~exp1'), '7.3~rc7')
        self.assertEqual(tb_trees.label_of('7.3~rc7'), '7.3-rc7')
        # the name cmake/KernelTree.cmake's kernel_tree() gives the same package
        self.assertEqual(tb_trees.tree_dir('/k', 'linux-source-6.12', '6.12.118-1~deb12u1'),
                         '/k/linux-source-6.12_6.12.118-1_deb12u1')
        self.assertEqual(tb_trees.dir_label('/home/me/src/linux/'), 'dir-linux')

    def test_kernel_tree_dirs_from_cmake(self):
        self.assertEqual(tb_trees.kernel_tree_dirs()[:3], ['mm', 'include', 'lib'])

    def test_parse_madison(self):
        got = tb_trees.parse_madison(MADISON)
        self.assertEqual(sorted(got), ['linux-source-6.1', 'linux-source-6.12',
                                       'linux-source-7.2', 'linux-source-7.3'])
        self.assertEqual(got['linux-source-6.12']['6.12.117-1'], ['trixie', 'trixie-security'])
        self.assertEqual(got['linux-source-7.3'], {'7.3~rc7-1~exp1': ['experimental']})

    def test_mirrors(self):
        deb822 = ('Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\n\n'
                  'Types: deb\nURIs: http://mirror.example/debian-security\n')
        m = tb_trees.system_mirrors([deb822])
        self.assertEqual(m, {'debian': 'http://mirror.example/debian',
                             'debian-security': 'http://mirror.example/debian-security'})
        m = tb_trees.system_mirrors(['deb [arch=amd64] http://m.example/debian/ bookworm main\n'
                                     '# deb http://x.example/debian-security bookworm-security main\n'])
        self.assertEqual(m, {'debian': 'http://m.example/debian',
                             'debian-security': tb_trees.DEFAULT_MIRRORS['debian-security']})
        text = tb_trees.sources_text(m)
        self.assertIn('http://m.example/debian experimental main', text)
        self.assertIn('debian-security trixie-security main', text)
        self.assertEqual(len(text.splitlines()), 10)

    def test_tar_missing_members(self):
        out = ('tar: linux-source-6.1/tools/testing/selftests/kselftest: Not found in archive\n'
               'tar: Exiting with failure status due to previous errors\n')
        self.assertEqual(tb_trees.missing_members(out),
                         ['linux-source-6.1/tools/testing/selftests/kselftest'])
        self.assertIsNone(tb_trees.missing_members('xz: (stdin): Unexpected end of input\n'))


class Resolve(unittest.TestCase):
    def setUp(self):
        self.a = CannedArchive()

    def test_exact_version_newest_revision(self):
        t = tb_trees.resolve('6.12.115', self.a)
        self.assertEqual((t.kind, t.label, t.package, t.version, t.suites),
                         ('archive', '6.12.115', 'linux-source-6.12', '6.12.115-2',
                          ['trixie-security']))

    def test_debian_version(self):
        t = tb_trees.resolve('6.12.115-2~deb12u1', self.a)
        self.assertEqual((t.kind, t.version, t.suites),
                         ('archive', '6.12.115-2~deb12u1', ['bookworm-security']))

    def test_installed_is_used(self):
        t = tb_trees.resolve('6.12.118', self.a)
        self.assertEqual((t.kind, t.series, t.version), ('installed', '6.12', '6.12.118-1~deb12u1'))
        t = tb_trees.resolve('6.1', self.a)
        self.assertEqual((t.kind, t.label, t.series), ('installed', '6.1.192', '6.1'))
        self.assertFalse(self.a.updated)

    def test_other_series_newest(self):
        t = tb_trees.resolve('7.3', self.a)
        self.assertEqual((t.kind, t.label, t.version), ('archive', '7.3-rc7', '7.3~rc7-1~exp1'))
        t = tb_trees.resolve('7.3-rc7', self.a)
        self.assertEqual(t.version, '7.3~rc7-1~exp1')

    def test_unknown_version_lists_what_there_is(self):
        with self.assertRaises(tb_trees.TreeError) as e:
            tb_trees.resolve('6.12.114', self.a)
        self.assertEqual(str(e.exception),
                         '--kernel 6.12.114: the archive has no linux-source-6.12 of version '
                         '6.12.114; it has 6.12.95, 6.12.115, 6.12.117, 6.12.118')
        self.assertTrue(self.a.updated)  # the lists were renewed once before saying so

    def test_unknown_series(self):
        with self.assertRaises(tb_trees.TreeError) as e:
            tb_trees.resolve('6.13', self.a)
        self.assertIn('no linux-source-6.13 (its linux-source series: 6.1, 6.12, 7.2, 7.3)',
                      str(e.exception))

    def test_directory(self):
        with tempfile.TemporaryDirectory() as d:
            t = tb_trees.resolve(d, self.a)
            self.assertEqual((t.kind, t.path, t.label),
                             ('dir', d, 'dir-' + os.path.basename(d)))
            self.assertEqual(tb_trees.provide(t, self.a), d)
        with self.assertRaises(tb_trees.TreeError):
            tb_trees.resolve('/nonexistent/linux', self.a)

    def test_default_list(self):
        trees = tb_trees.default_list(self.a)
        self.assertEqual([t.label for t in trees],
                         ['6.1.170', '6.1.190', '6.1.192', '6.12.95', '6.12.115', '6.12.117',
                          '6.12.118', '7.2.13', '7.3-rc7'])
        by = {t.label: t for t in trees}
        self.assertEqual((by['6.1.192'].kind, by['6.1.192'].version), ('installed', '6.1.192-3'))
        self.assertEqual((by['6.12.118'].kind, by['6.12.118'].version),
                         ('installed', '6.12.118-1~deb12u1'))
        self.assertEqual((by['6.12.117'].version, by['6.12.117'].suites),
                         ('6.12.117-1', ['trixie', 'trixie-security']))
        self.assertEqual(by['6.12.95'].version, '6.12.95-1~bpo12+1')

    def test_list_labels_unique(self):
        trees = tb_trees.resolve_list('6.12.117, 6.12.117-1~deb12u1,7.2', self.a)
        self.assertEqual([t.label for t in trees], ['6.12.117', '6.12.117.2', '7.2.13'])

    def test_not_root_prints_the_commands(self):
        with tempfile.TemporaryDirectory() as d:
            a = tb_trees.Archive(d, say=lambda m: None, root=False)
            with self.assertRaises(tb_trees.NeedRoot) as e:
                a.update('--kernel 7.3')
            self.assertIn(f'sudo apt-get -o Dir::Etc::SourceList={d}/apt/sources.list',
                          str(e.exception))
            self.assertTrue(str(e.exception).rstrip().endswith(
                f'update && sudo touch {d}/apt/lists/.tb-updated'))
            t = tb_trees.Tree('archive', '7.3-rc7', '7.3', series='7.3',
                              package='linux-source-7.3', version='7.3~rc7-1~exp1')
            with self.assertRaises(tb_trees.NeedRoot) as e:
                a.fetch(t)
            msg = str(e.exception)
            self.assertIn("/deb && sudo apt-get -o", msg)
            self.assertIn("download 'linux-source-7.3=7.3~rc7-1~exp1'", msg)
            self.assertIn(f'sudo dpkg -x {d}/linux-source-7.3_7.3_rc7-1_exp1.tmp/deb/*.deb ', msg)
            self.assertIn('linux-source-7.3/mm linux-source-7.3/include', msg)
            self.assertIn(f'{d}/linux-source-7.3_7.3_rc7-1_exp1/.extracted', msg)
            self.assertEqual(os.listdir(d), ['apt'] if os.path.exists(os.path.join(d, 'apt'))
                             else [])


# ---- the report ----------------------------------------------------------
def case(name, status, message=''):
    return {'name': name, 'status': status, 'message': message}


def result(label, status='passed', tests=(), skipped=(), reason=''):
    return {'label': label, 'status': status, 'reason': reason,
            'tree': {'label': label, 'kind': 'archive', 'package': 'linux-source-6.12',
                     'version': label + '-1', 'suites': ['trixie'], 'path': ''},
            'tests': [{'name': n, 'suite': tb_matrix.suite_of(n), 'ctest_passed': True,
                       'seconds': 0.1, 'cases': cs} for n, cs in tests],
            'skipped_suites': [{'suite': s, 'tests': [], 'reason': r} for s, r in skipped]}


A = result('6.12.115', tests=[
    ('test_page_counter', [case('test_page_counter: a', 'passed'),
                           case('test_page_counter: b', 'passed')]),
    ('test_memcg_charge', [case('test_memcg_charge: c', 'passed'),
                           case('test_memcg_charge: d', 'skipped')]),
    ('tb_matrix', [case('tb_matrix', 'passed')])])
B = result('6.12.117', status='failed', tests=[
    ('test_page_counter', [case('test_page_counter: a', 'passed'),
                           case('test_page_counter: b', 'failed', 'expected 1\nmore')]),
    ('test_memcg_charge', [case('test_memcg_charge: c', 'passed'),
                           case('test_memcg_charge: d', 'passed')]),
    ('tb_matrix', [case('tb_matrix', 'passed')])],
    skipped=[('page_counter_fuzz', '6.12.117 lacks it')])
C = result('7.3-rc7', status='build failed', reason='kextract: wanted symbol x not found')
D = result('7.2.13', tests=[
    ('test_page_counter', [case('test_page_counter: a', 'passed'),
                           case('test_page_counter: b', 'passed')])])


class Report(unittest.TestCase):
    def test_suite_of(self):
        self.assertEqual(tb_matrix.suite_of('test_memcg_charge'), 'memcg')
        self.assertEqual(tb_matrix.suite_of('replay_page_counter_x'), 'page_counter_fuzz')
        self.assertEqual(tb_matrix.suite_of('test_page_counter_stress'), 'page_counter')
        self.assertEqual(tb_matrix.suite_of('tb_commands_doc'), 'other')

    def test_case_name(self):
        self.assertEqual(tb_matrix.case_name('t', '/r/tests/x.c:c1', '/r'), 't: tests/x.c:c1')
        self.assertEqual(tb_matrix.case_name('t', 't', '/r'), 't')

    def test_table(self):
        B['status'] = tb_matrix.tree_status(B)
        self.assertEqual(B['status'], 'failed')
        self.assertEqual(tb_matrix.table([A, B, C]), '\n'.join([
            'tree      status         page_counter  page_counter_fuzz  memcg  other  cases  skipped',
            '6.12.115  passed                  2/2                  -    1/1    1/1    4/4        1',
            '6.12.117  1 case failed          1/2!            skipped    2/2    1/1    4/5        0',
            '7.3-rc7   build failed              -                  -      -      -      -        -']))
        D2 = result('6.12.118', skipped=[('page_counter_fuzz', '6.12.118 lacks it')])
        for r, v in ((B, '6.12.117'), (D2, '6.12.118')):
            r['tree_version'] = v
        self.assertEqual(tb_matrix.notes([A, B, C, D2]), [
            '7.3-rc7: build failed: kextract: wanted symbol x not found',
            'suite page_counter_fuzz skipped on 6.12.117, 6.12.118: the tree lacks it'])

    def test_failed_cases(self):
        self.assertEqual(tb_matrix.failed_cases([A, B, C, B]),
                         ['test_page_counter: b on 6.12.117, 6.12.117  (expected 1)'])

    def test_why_line(self):
        self.assertEqual(tb_matrix.why_line([
            'Internal ctest changing into directory: /b/6.1.170',
            '1/1 Test #85: kfile_labels .....***Failed    7.05 sec',
            'test_lru: labelled kfile:mm/list_lru.c but test_lru holds no code of it',
            '56 tests with kfile labels, 6 error(s)']),
            'test_lru: labelled kfile:mm/list_lru.c but test_lru holds no code of it')
        self.assertEqual(tb_matrix.why_line(['Traceback (most recent call last):',
                                             '  File "x.py", line 3', 'OSError: no patch']),
                         'OSError: no patch')
        r = result('6.1.170', tests=[('kfile_labels', [case('kfile_labels', 'failed',
                                                            'ctest reported failure')])])
        r['tests'][0]['excerpt'] = ['Traceback (most recent call last):', 'ValueError: x']
        self.assertEqual(tb_matrix.failed_cases([r]), ['kfile_labels on 6.1.170  (ValueError: x)'])

    def test_neighbours(self):
        d = tb_matrix.differences([A, B, C, D])
        # the tree that did not build is passed over: 6.12.117 -> 7.2.13
        self.assertEqual([(x['before'], x['after'], x['common']) for x in d],
                         [('6.12.115', '6.12.117', 5), ('6.12.117', '7.2.13', 2)])
        self.assertEqual(d[0]['changed'], [{'case': 'test_page_counter: b', 'before': 'passed',
                                            'after': 'failed', 'message': 'expected 1'}])
        self.assertEqual(d[1]['changed'][0]['after'], 'passed')
        text = tb_matrix.render_differences(d)
        self.assertEqual(text[0], '6.12.115 -> 6.12.117: 1 of 5 cases changed verdict')
        self.assertEqual(text[1], '  passed -> failed  test_page_counter: b  (expected 1)')
        self.assertEqual(tb_matrix.render_differences(tb_matrix.differences([A])),
                         ['fewer than two trees ran their tests: no neighbours to compare'])

    def test_docs(self):
        m = {'date': '2026-12-06', 'command': 'tools/tb matrix --kernel 6.12.115,6.12.117',
             'seconds': 600, 'load': '1.2', 'trees': [A, B, C]}
        sec = tb_matrix.docs_section(m)
        self.assertIn('| tree | Debian package | status | page_counter | page_counter_fuzz | '
                      'memcg | other | cases | skipped |', sec)
        self.assertIn('| 6.12.117 | `linux-source-6.12` 6.12.117-1 (trixie) | 1 case failed | '
                      '1/2! | skipped | 2/2 | 1/1 | 4/5 | 0 |', sec)
        self.assertIn('- 6.12.115 -> 6.12.117: `test_page_counter: b` (passed -> failed)', sec)
        r = dict(C, reason='/repo/build/kernel-trees/x: include/y.h: file missing')
        self.assertIn('- 7.3-rc7: build failed: build/kernel-trees/x: include/y.h: file missing',
                      tb_matrix.docs_section(dict(m, trees=[r]), '/repo'))
        doc = f'# Versions\nhand\n{tb_matrix.DOC_BEGIN}\nold\n{tb_matrix.DOC_END}\nafter\n'
        new = tb_matrix.replace_section(doc, sec)
        self.assertTrue(new.startswith(f'# Versions\nhand\n{tb_matrix.DOC_BEGIN}\nGenerated by'))
        self.assertTrue(new.endswith(f'{tb_matrix.DOC_END}\nafter\n'))
        self.assertNotIn('old', new)
        self.assertEqual(tb_matrix.replace_section(new, sec), new)
        self.assertIsNone(tb_matrix.replace_section('# no markers\n', sec))

    def test_keep(self):
        # --keep: the last run's other trees stay, each with its own run,
        # in version order beside the trees run again
        old = {'date': '2026-12-05', 'command': 'tools/tb matrix', 'jobs': 2, 'load': '1.5',
               'seconds': 1900, 'trees': [A, B, dict(C)]}
        with tempfile.TemporaryDirectory() as d:
            js = os.path.join(d, 'matrix.json')
            with open(js, 'w') as f:
                json.dump(old, f)
            kept = tb_matrix.kept_trees(js, ['7.3-rc7'], self.fail, 'matrix.json')
            self.assertEqual([r['label'] for r in kept], ['6.12.115', '6.12.117'])
            self.assertEqual(kept[0]['run']['date'], '2026-12-05')
            self.assertEqual(tb_matrix.kept_trees(os.path.join(d, 'none.json'), [],
                                                  self.fail, 'x'), [])
        new = dict(C, status='passed', run={'date': '2026-12-06', 'jobs': 2, 'load': '3.0',
                                            'command': 'tools/tb matrix --kernel 7.3-rc7'})
        trees = tb_matrix.in_version_order([new, D] + kept)
        self.assertEqual([r['label'] for r in trees], ['6.12.115', '6.12.117', '7.2.13', '7.3-rc7'])
        self.assertEqual(tb_matrix.in_version_order(
            [dict(A, label=x) for x in ('7.3.4', 'dir-mine', '7.3-rc7', '6.1.170')])[0]['label'],
            '6.1.170')
        self.assertEqual([r['label'] for r in tb_matrix.in_version_order(
            [dict(A, label=x) for x in ('7.3.4', 'dir-mine', '7.3-rc7', '6.12.95', '6.12.115')])],
            ['6.12.95', '6.12.115', '7.3-rc7', '7.3.4', 'dir-mine'])
        sec = tb_matrix.docs_section(dict(old, trees=trees, seconds=300))
        self.assertIn('from the runs of 2026-12-05 (`tools/tb matrix`, -j 2, load average 1.5 '
                      'at its start: 6.12.115, 6.12.117, 7.2.13)', sec)
        self.assertIn('2026-12-06 (`tools/tb matrix --kernel 7.3-rc7`', sec)


class Work(unittest.TestCase):
    """every tree is built at one path: build/matrix/.work/tree points at
    the tree, .work/build is the tree's own last build or nothing, parked
    with the logs in <label>/ between runs"""

    def make(self, bdir, *names):
        os.makedirs(os.path.join(bdir, 'tb-matrix-xml'), exist_ok=True)
        for n in names:
            with open(os.path.join(bdir, n), 'w') as f:
                f.write(n)

    def test_a_tree_gets_back_its_own_build_and_no_other(self):
        with tempfile.TemporaryDirectory() as d:
            mdir, a, b = os.path.join(d, 'matrix'), os.path.join(d, 'a'), os.path.join(d, 'b')
            os.makedirs(a)
            os.makedirs(b)
            lock = tb_matrix.lock_work(mdir, self.fail)
            bdir = os.path.join(mdir, tb_matrix.WORK, 'build')
            alias = tb_matrix.point_work_at(mdir, a, 'A')
            self.assertEqual(os.path.realpath(alias), os.path.realpath(a))
            self.assertFalse(os.path.exists(bdir))
            self.make(bdir, 'tb-build.log', 'object.o')
            tb_matrix.park(mdir, 'A', a)
            self.assertFalse(os.path.exists(bdir))
            out = os.path.join(mdir, 'A')
            self.assertEqual(sorted(os.listdir(out)), ['build', 'tb-build.log', 'tb-matrix-xml'])
            # tree B starts from nothing; A's build stays parked
            self.assertEqual(tb_matrix.point_work_at(mdir, b, 'B'), alias)
            self.assertEqual(os.path.realpath(alias), os.path.realpath(b))
            self.assertFalse(os.path.exists(bdir))
            self.assertTrue(os.path.exists(os.path.join(out, 'build', 'object.o')))
            # A again: its build is back where it was configured
            tb_matrix.point_work_at(mdir, a, 'A')
            self.assertTrue(os.path.exists(os.path.join(bdir, 'object.o')))
            self.assertFalse(os.path.exists(os.path.join(out, 'build')))
            tb_matrix.park(mdir, 'A', a)
            # the label now names another directory (a new Debian revision):
            # its parked build is dropped, never reused
            tb_matrix.point_work_at(mdir, b, 'A')
            self.assertFalse(os.path.exists(bdir))
            self.assertFalse(os.path.exists(os.path.join(out, 'build')))
            tb_matrix.park(mdir, 'A', b)  # a tree that failed before building
            self.assertEqual(os.listdir(out), [])
            lock.close()

    def test_a_second_matrix_on_the_same_work_directory_stops(self):
        with tempfile.TemporaryDirectory() as d:
            lock = tb_matrix.lock_work(d, self.fail)
            msgs = []

            def fail(msg):
                msgs.append(msg)
                raise SystemExit(1)
            with self.assertRaises(SystemExit):
                tb_matrix.lock_work(d, fail)
            self.assertIn('in use by another tools/tb matrix', msgs[0])
            lock.close()
            tb_matrix.lock_work(d, self.fail).close()


class Reuse(unittest.TestCase):
    """a compiled test's verdict is reused only for the same bytes of
    executable, arguments and environment; a Python test never"""

    def test_key_follows_the_content_not_the_path(self):
        import shutil
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, 'a'), os.path.join(d, 'b')
            for x in (a, b):
                os.makedirs(x)
                shutil.copy('/bin/true', os.path.join(x, 'test_x'))
                with open(os.path.join(x, 'corpus'), 'w') as f:
                    f.write('input')
            t = lambda x, **k: dict({'command': [os.path.join(x, 'test_x'),  # noqa: E731
                                                 os.path.join(x, 'corpus')],
                                     'env': ['TB_NODES=2']}, **k)
            key = tb_matrix.test_key(t(a), a, {})
            self.assertRegex(key, '^[0-9a-f]{64}$')
            self.assertEqual(tb_matrix.test_key(t(b), b, {}), key)
            self.assertNotEqual(tb_matrix.test_key(t(a, env=[]), a, {}), key)
            with open(os.path.join(b, 'corpus'), 'w') as f:
                f.write('other input')
            self.assertNotEqual(tb_matrix.test_key(t(b), b, {}), key)
            with open(os.path.join(a, 'test_x'), 'ab') as f:
                f.write(b'\0')
            self.assertNotEqual(tb_matrix.test_key(t(a), a, {}), key)
            self.assertIsNone(tb_matrix.test_key({'command': ['/usr/bin/python3', 'x.py']}, a, {}))
            self.assertIsNone(tb_matrix.test_key({'command': []}, a, {}))

    def test_a_pass_is_kept_and_a_failure_is_not(self):
        with tempfile.TemporaryDirectory() as d:
            rec = {'name': 't', 'suite': 'shim', 'ctest_passed': True, 'seconds': 1.0,
                   'cases': [{'name': 'c', 'status': 'passed', 'message': ''}]}
            tb_matrix.keep_result(d, 'k1', rec, '6.12.117')
            tb_matrix.keep_result(d, 'k2', dict(rec, ctest_passed=False), '6.12.117')
            tb_matrix.keep_result(d, None, rec, '6.12.117')
            self.assertEqual(tb_matrix.reused_result(d, 'k1')['ran_on'], '6.12.117')
            self.assertIsNone(tb_matrix.reused_result(d, 'k2'))
            self.assertIsNone(tb_matrix.reused_result(d, None))


class BuildFailure(unittest.TestCase):
    """the one line a failed build is reported by (the matrix's reason):
    the compiler's error, not a warning of kextract's before it"""

    def test_the_error_not_a_kextract_warning(self):
        import tb_output
        log = ('[1/3] kextract mm/vmstat.c\n'
               'kextract: warning: unbalanced #endif ignored\n'
               'FAILED: kernel-shim/CMakeFiles/kworld.dir/world/swap.c.o\n'
               'cc -c swap.c\n'
               'swap.c:231:9: error: \u2018tb_swap_info\u2019 undeclared\n'
               'ninja: build stopped: subcommand failed.\n')
        line, excerpt = tb_output.build_failure(log)
        self.assertEqual(line, 'swap.c:231:9: error: \u2018tb_swap_info\u2019 undeclared')
        self.assertIn('FAILED: kernel-shim/CMakeFiles/kworld.dir/world/swap.c.o', excerpt)
        line, _ = tb_output.build_failure('kextract: mm/x.c: no function foo in the tree\n')
        self.assertEqual(line, 'kextract: mm/x.c: no function foo in the tree')


if __name__ == '__main__':
    unittest.main()
