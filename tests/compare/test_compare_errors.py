#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb compare's error paths: a bad option, a missing patch or tree, a
patch that does not apply, a tree that does not build. Each gets one line
on stderr and a non-zero status, and the user's tree is left as it was."""
import hashlib
import os
import shutil
import subprocess
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
TB = os.path.join(REPO, 'tools', 'tb')

PAGE_COUNTER = 'int a;\nint b;\nint page_counter_charge(void)\n{\n\treturn a > b;\n}\n'


def tree_state(root):
    """(path, sha1, mtime) of every file under root"""
    out = []
    for d, _, names in os.walk(root):
        for n in sorted(names):
            p = os.path.join(d, n)
            with open(p, 'rb') as f:
                out.append((os.path.relpath(p, root), hashlib.sha1(f.read()).hexdigest(),
                            os.stat(p).st_mtime_ns))
    return sorted(out)


def unified(path, old, new):
    return (f'--- a/{path}\n+++ b/{path}\n@@ -5 +5 @@\n-{old}\n+{new}\n')


class CompareErrors(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='tb-compare-test-')
        self.tree = os.path.join(self.tmp, 'tree')
        os.makedirs(os.path.join(self.tree, 'mm'))
        with open(os.path.join(self.tree, 'Makefile'), 'w') as f:
            f.write('VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n')
        with open(os.path.join(self.tree, 'mm', 'page_counter.c'), 'w') as f:
            f.write(PAGE_COUNTER)
        self.before = tree_state(self.tree)
        self.env = dict(os.environ, TB_BUILD_DIR=os.path.join(self.tmp, 'build'))

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def patch(self, text):
        p = os.path.join(self.tmp, 'x.patch')
        with open(p, 'w') as f:
            f.write(text)
        return p

    def tb(self, *args):
        p = subprocess.run([TB, 'compare', '-j', '2'] + list(args), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=self.env,
                           stdin=subprocess.DEVNULL, timeout=100)
        lines = p.stderr.strip().splitlines()
        self.assertNotEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertEqual(len(lines), 1, f'not one line on stderr:\n{p.stderr}')
        self.assertEqual(tree_state(self.tree), self.before, 'the input tree changed')
        return lines[0]

    def test_bad_option(self):
        self.assertEqual(self.tb('--frobnicate'),
                         "tb: unknown option '--frobnicate' (usage: tools/tb help)")

    def test_option_of_another_command(self):
        self.assertEqual(self.tb('--patch', 'x', '--sanitize', 'address'),
                         "tb: option --sanitize does not apply to 'compare' (usage: tools/tb help)")

    def test_patch_and_trees_together(self):
        self.assertIn('--patch FILE or --before DIR --after DIR, not both',
                      self.tb('--patch', 'x', '--before', self.tree, '--after', self.tree))

    def test_nothing_to_compare(self):
        self.assertIn('compare needs --patch FILE, or --before DIR and --after DIR', self.tb())

    def test_bad_seed_list(self):
        self.assertIn("--seeds wants a list like 001,004 or 'none', not '1'",
                      self.tb('--patch', 'x', '--seeds', '1'))

    def test_missing_patch(self):
        missing = os.path.join(self.tmp, 'none.patch')
        self.assertEqual(self.tb('--patch', missing, '--kernel', self.tree),
                         f'tb: patch {missing}: no such file')

    def test_missing_tree(self):
        missing = os.path.join(self.tmp, 'no-tree')
        p = self.patch(unified('mm/page_counter.c', '\treturn a > b;', '\treturn a >= b;'))
        self.assertEqual(self.tb('--patch', p, '--kernel', missing),
                         f'tb: kernel tree {missing}: no such directory')

    def test_not_a_tree(self):
        self.assertEqual(self.tb('--before', self.tmp, '--after', self.tree),
                         f'tb: before tree {self.tmp}: not a kernel source tree (no Makefile or mm/)')

    def test_not_a_patch(self):
        p = self.patch('hello\n')
        self.assertEqual(self.tb('--patch', p, '--kernel', self.tree),
                         f'tb: patch {p}: no file in it (not a unified diff)')

    def test_patch_that_does_not_apply(self):
        p = self.patch(unified('mm/page_counter.c', '\treturn a < b;', '\treturn a <= b;'))
        line = self.tb('--patch', p, '--kernel', self.tree)
        self.assertTrue(line.startswith(f'tb: the patch does not apply to {self.tree}: '), line)
        self.assertIn('Hunk #1 FAILED', line)

    def test_patch_of_a_missing_file(self):
        p = self.patch(unified('mm/shrinker.c', '\treturn a > b;', '\treturn a >= b;'))
        line = self.tb('--patch', p, '--kernel', self.tree)
        self.assertTrue(line.startswith(f'tb: the patch does not apply to {self.tree}: '), line)

    def test_patch_outside_the_built_directories(self):
        p = self.patch(unified('fs/inode.c', 'x', 'y'))
        self.assertEqual(self.tb('--patch', p, '--kernel', self.tree),
                         f'tb: patch {p}: touches fs/inode.c: the test bed builds only '
                         'mm/, include/, lib/ of a tree')

    def test_tree_that_does_not_build(self):
        # the patch applies (to the scratch copy); the tree lacks the rest of
        # the kernel, so the before side's configure fails
        p = self.patch(unified('mm/page_counter.c', '\treturn a > b;', '\treturn a >= b;'))
        line = self.tb('--patch', p, '--kernel', self.tree, '--bench', 'none',
                       '--seeds', 'none')
        self.assertTrue(line.startswith('tb: the before tree does not build: configure failed: '
                                        f'kernel tree {self.tree}: '), line)
        self.assertRegex(line, r'file missing \(log: .*tb-configure\.log\)$')
        scratch = os.path.join(self.tmp, 'build', 'compare', 'after-tree', 'mm',
                               'page_counter.c')
        with open(scratch) as f:
            self.assertIn('\treturn a >= b;', f.read())
        self.assertEqual(os.stat(scratch).st_nlink, 1)


if __name__ == '__main__':
    unittest.main(verbosity=2)
