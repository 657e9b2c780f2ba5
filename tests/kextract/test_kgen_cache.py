#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests for the extraction cache (tools/kgen_cache.py), on a copy of
the kextract fixtures in a scratch tree: a second build directory's step
is served from the first's entry, with its own paths, and any change to
what the first run read (a file, a directory's names, what a grep found)
runs the tool again. Every run is a subprocess, as the build runs it: the
cache replaces open() and os.scandir() in the process it records."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, '..', '..', 'tools')
FIX = os.path.join(HERE, 'fixtures')


def entries(top):
    """{entry path: inode}: a run that stores an entry replaces its file
    (code/ holds the tools' compiled code)"""
    found = {}
    for base, subdirs, files in os.walk(top):
        subdirs[:] = [d for d in subdirs if d != 'code']
        for f in files:
            found[os.path.join(base, f)] = os.stat(os.path.join(base, f)).st_ino
    return found


class Extraction(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.tree = os.path.join(self.dir, 'tree')
        os.makedirs(self.tree)
        for f in ('basic.c', 'types.h'):
            shutil.copy(os.path.join(FIX, f), self.tree)
        self.cache = os.path.join(self.dir, 'cache')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_in(self, build, *extra, cache=True, front=True):
        """kextract of compute_total into BUILD/gen/out.c, as the build runs
        it (tools/kgen_cache.py, which runs the tool in its own process), or
        the tool with the cache's options, or without; (output, stderr)"""
        gen = os.path.join(self.dir, build, 'gen')
        os.makedirs(gen, exist_ok=True)
        out = os.path.join(gen, 'out.c')
        args = [os.path.join(self.tree, 'basic.c'), '--want', 'compute_total',
                '-D', 'CONFIG_FOO', '--report', '--prelude', os.path.join(gen, 'out.auto.h'),
                '-o', out] + list(extra)
        opts = ['--kgen-cache', self.cache, '--kgen-build', os.path.join(self.dir, build)]
        if cache and front:
            args = [os.path.join(TOOLS, 'kgen_cache.py')] + opts + ['kextract'] + args
        else:
            args = [os.path.join(TOOLS, 'kextract')] + args + (opts if cache else [])
        p = subprocess.run([sys.executable] + args, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(out) as f:
            return f.read(), p.stderr

    def test_a_second_build_directory_takes_the_first_ones_outputs(self):
        self.run_in('b1')
        stored = entries(self.cache)
        self.assertEqual(len(stored), 1)
        got = self.run_in('b2')
        self.assertEqual(entries(self.cache), stored)
        plain = self.run_in('plain', cache=False)
        self.assertEqual(got, tuple(t.replace('/plain/', '/b2/') for t in plain))

    def test_a_served_output_names_its_own_build_directory(self):
        self.run_in('b1')
        text, _ = self.run_in('b2')
        self.assertIn(os.path.join(self.dir, 'b2', 'gen', 'out.auto.h'), text)
        self.assertNotIn(os.path.join(self.dir, 'b1'), text)

    def test_a_served_run_says_what_the_recorded_one_said(self):
        first = self.run_in('b1')
        self.assertIn('kextract: kept', first[1])
        self.assertEqual(self.run_in('b2')[1], first[1].replace('/b1/', '/b2/'))

    def test_an_edit_of_the_source_runs_the_tool_again(self):
        old, _ = self.run_in('b1')
        with open(os.path.join(self.tree, 'basic.c'), 'a') as f:
            f.write('\nint compute_total(void);\n')
        stored = entries(self.cache)
        new, _ = self.run_in('b2')
        self.assertNotEqual(entries(self.cache), stored)
        self.assertEqual(new, self.run_in('plain', cache=False)[0]
                         .replace('/plain/', '/b2/'))
        self.assertNotEqual(old.replace('/b1/', '/b2/'), new)

    def test_the_tool_with_the_options_shares_the_entries(self):
        self.run_in('b1')
        stored = entries(self.cache)
        got = self.run_in('b2', front=False)
        self.assertEqual(entries(self.cache), stored)
        self.assertEqual(got[0], self.run_in('b1')[0].replace('/b1/', '/b2/'))

    def test_a_failing_run_keeps_no_entry_and_says_why(self):
        p = subprocess.run([sys.executable, os.path.join(TOOLS, 'kgen_cache.py'),
                            '--kgen-cache', self.cache, '--kgen-build', self.dir, 'kextract',
                            os.path.join(self.tree, 'basic.c'), '--want', 'no_such_fn',
                            '-o', os.path.join(self.dir, 'o.c')],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 1)
        self.assertIn('no_such_fn', p.stderr)
        self.assertEqual(entries(self.cache), {})

    def test_the_least_recently_used_entries_go_first(self):
        sys.path.insert(0, TOOLS)
        import kgen_cache
        os.makedirs(self.cache)
        for i, name in enumerate(('old', 'used', 'new')):
            with open(os.path.join(self.cache, name), 'wb') as f:
                f.write(b'x' * 100)
            os.utime(os.path.join(self.cache, name), (1000 + i, 1000 + i))
        os.utime(os.path.join(self.cache, 'used'), (2000, 2000))
        kgen_cache.prune(self.cache, limit=250)
        self.assertEqual(sorted(os.listdir(self.cache)), ['used'])

    def test_other_arguments_are_another_entry(self):
        self.run_in('b1')
        self.run_in('b1', '-U', 'CONFIG_BAR')
        self.assertEqual(len(entries(self.cache)), 2)


RECORDER = textwrap.dedent('''
    import json, os, subprocess, sys
    sys.path.insert(0, %r)
    import kgen_cache
    argv, where = kgen_cache.split(sys.argv[1:])
    if kgen_cache.start('probe', where, argv):
        print('served')
        sys.exit(0)
    top, out = argv
    names = sorted(e.name for e in os.scandir(top))
    found = subprocess.run(['grep', '-rlw', '-e', 'needle', top],
                           stdout=subprocess.PIPE, text=True).stdout.split()
    with open(out, 'w') as f:
        f.write(json.dumps([names, sorted(os.path.basename(p) for p in found)]))
    kgen_cache.store([out])
    print('ran')
''') % TOOLS


class Reads(unittest.TestCase):
    """What a run saw besides the files it opened: a directory's names
    and what a grep printed."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.top = os.path.join(self.dir, 'top')
        os.makedirs(os.path.join(self.top, 'sub'))
        self.write('sub/a.h', 'needle\n')
        self.write('b.h', 'thread\n')

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, rel, text):
        with open(os.path.join(self.top, rel), 'w') as f:
            f.write(text)

    def probe(self):
        build = os.path.join(self.dir, 'build')
        os.makedirs(build, exist_ok=True)
        p = subprocess.run([sys.executable, '-c', RECORDER, self.top,
                            os.path.join(build, 'out.json'), '--kgen-cache',
                            os.path.join(self.dir, 'cache'), '--kgen-build', build],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(build, 'out.json')) as f:
            return p.stdout.strip(), json.load(f)

    def test_the_same_reads_are_served(self):
        first = self.probe()
        self.assertEqual(first[0], 'ran')
        self.assertEqual(self.probe(), ('served', first[1]))

    def test_a_new_name_in_a_listed_directory_runs_again(self):
        self.probe()
        self.write('c.txt', '')
        self.assertEqual(self.probe(), ('ran', [['b.h', 'c.txt', 'sub'], ['a.h']]))

    def test_a_file_grep_would_now_find_runs_again(self):
        self.probe()
        self.write('b.h', 'needle\n')
        self.assertEqual(self.probe(), ('ran', [['b.h', 'sub'], ['a.h', 'b.h']]))

    def test_a_change_grep_does_not_see_is_served(self):
        self.probe()
        self.write('sub/a.h', 'needle and thread\n')
        self.assertEqual(self.probe()[0], 'served')


if __name__ == '__main__':
    unittest.main()
