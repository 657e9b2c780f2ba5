#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb_kbuild.py's bookkeeping, on fake trees (fast, label unit):
- the scratch copy of a tree for a patch: hard links except the files the
  patch touches; switching patches restores the previous patch's files
  from the base tree (fresh copies), removes the files it created, and the
  base tree never changes;
- a patch that does not apply: one line naming the file and the hunk, the
  scratch tree left pristine;
- the config fragment checked against a .config: a symbol kconfig dropped
  or changed is named.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.join(REPO, 'tools'))
import tb_kbuild  # noqa: E402
sys.path.insert(0, os.path.join(REPO, 'tests', 'compare'))
import test_compare_errors  # noqa: E402

VMSCAN = ''.join(f'line {i}\n' for i in range(1, 21))
SWAP = ''.join(f'swap {i}\n' for i in range(1, 11))


def tree_state(root):
    """test_compare_errors.py's (path, sha1, mtime) of every file, and its inode"""
    return sorted(t + (os.stat(os.path.join(root, t[0])).st_ino,)
                  for t in test_compare_errors.tree_state(root))


def diff(path, old_lines, new_lines, start):
    """a one-hunk -p1 diff replacing old_lines (at line start) by new_lines"""
    n_old, n_new = len(old_lines), len(new_lines)
    return (f'diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n'
            f'@@ -{start},{n_old} +{start},{n_new} @@\n'
            + ''.join(f'-{x}\n' for x in old_lines) + ''.join(f'+{x}\n' for x in new_lines))


def new_file(path, lines):
    return (f'diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n'
            f'+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n' + ''.join(f'+{x}\n' for x in lines))


class Scratch(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='tb-kbuild-test-')
        self.base = os.path.join(self.tmp, 'linux')
        os.makedirs(os.path.join(self.base, 'mm'))
        for name, text in (('mm/vmscan.c', VMSCAN), ('mm/swap.c', SWAP),
                           ('Makefile', 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 117\n')):
            with open(os.path.join(self.base, name), 'w') as f:
                f.write(text)
        self.pristine = tree_state(self.base)
        self.scratch = os.path.join(self.tmp, 'build', 'vm', 'scratch', 'linux')
        self.log = os.path.join(self.tmp, 'patch.log')

    def tearDown(self):
        self.assertEqual(tree_state(self.base), self.pristine, 'the base tree changed')
        shutil.rmtree(self.tmp, ignore_errors=True)

    def patch(self, name, text):
        p = os.path.join(self.tmp, name)
        with open(p, 'w') as f:
            f.write(text)
        return p

    def read(self, rel):
        with open(os.path.join(self.scratch, rel)) as f:
            return f.read()

    def linked(self, rel):
        return os.stat(os.path.join(self.scratch, rel)).st_ino == \
            os.stat(os.path.join(self.base, rel)).st_ino

    def test_files_of_a_patch(self):
        text = diff('mm/vmscan.c', ['line 3'], ['LINE 3'], 3) + new_file('mm/new.c', ['x']) + \
            'diff --git a/mm/swap.c b/mm/swap.c\ndeleted file mode 100644\n' \
            '--- a/mm/swap.c\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n'
        self.assertEqual(tb_kbuild.patch_files(text), [('mm/vmscan.c', False, False),
                                                       ('mm/new.c', True, False),
                                                       ('mm/swap.c', False, True)])

    def test_patch_then_another_then_the_first_again(self):
        p1 = self.patch('a.patch', diff('mm/vmscan.c', ['line 3'], ['LINE 3'], 3)
                        + new_file('mm/new.c', ['new']))
        files, changed = tb_kbuild.apply_to_scratch(self.base, self.scratch, p1, self.log)
        self.assertEqual((files, changed), (['mm/vmscan.c', 'mm/new.c'], True))
        self.assertIn('LINE 3\n', self.read('mm/vmscan.c'))
        self.assertFalse(self.linked('mm/vmscan.c'), 'a patched file must be a copy')
        self.assertTrue(self.linked('mm/swap.c'), 'an untouched file stays a hard link')
        self.assertEqual(self.read('mm/new.c'), 'new\n')
        # the same patch again: nothing to do, nothing touched
        before = tree_state(self.scratch)
        self.assertEqual(tb_kbuild.apply_to_scratch(self.base, self.scratch, p1, self.log)[1],
                         False)
        self.assertEqual(tree_state(self.scratch), before)
        # another patch: vmscan.c back to the base's text with a fresh mtime,
        # new.c gone, swap.c patched
        old_mtime = os.stat(os.path.join(self.scratch, 'mm/vmscan.c')).st_mtime_ns
        time.sleep(0.01)
        p2 = self.patch('b.patch', diff('mm/swap.c', ['swap 2'], ['SWAP 2'], 2))
        self.assertEqual(tb_kbuild.apply_to_scratch(self.base, self.scratch, p2, self.log),
                         (['mm/swap.c'], True))
        self.assertEqual(self.read('mm/vmscan.c'), VMSCAN)
        self.assertGreater(os.stat(os.path.join(self.scratch, 'mm/vmscan.c')).st_mtime_ns,
                           old_mtime, 'a restored file needs a new mtime for make')
        self.assertFalse(os.path.exists(os.path.join(self.scratch, 'mm/new.c')))
        self.assertIn('SWAP 2\n', self.read('mm/swap.c'))
        self.assertFalse(self.linked('mm/swap.c'))
        # back to the first
        tb_kbuild.apply_to_scratch(self.base, self.scratch, p1, self.log)
        self.assertEqual(self.read('mm/swap.c'), SWAP)
        self.assertIn('LINE 3\n', self.read('mm/vmscan.c'))

    def test_scratch_follows_the_base_tree(self):
        p1 = self.patch('a.patch', diff('mm/vmscan.c', ['line 3'], ['LINE 3'], 3))
        tb_kbuild.apply_to_scratch(self.base, self.scratch, p1, self.log)
        # the user replaces swap.c (a new inode, as editors and git do), adds
        # and removes files, and edits the patched file
        for name, text in (('mm/swap.c', 'swap edited\n'), ('mm/added.c', 'added\n')):
            tmp = os.path.join(self.base, name + '.new')
            with open(tmp, 'w') as f:
                f.write(text)
            os.replace(tmp, os.path.join(self.base, name))
        with open(os.path.join(self.base, 'mm', 'vmscan.c'), 'a') as f:
            f.write('line 21\n')
        os.unlink(os.path.join(self.base, 'Makefile'))
        self.pristine = tree_state(self.base)
        self.assertEqual(tb_kbuild.apply_to_scratch(self.base, self.scratch, p1, self.log)[1],
                         True, 'the patched file changed in the base: apply again')
        self.assertEqual(self.read('mm/swap.c'), 'swap edited\n')
        self.assertTrue(self.linked('mm/swap.c'))
        self.assertEqual(self.read('mm/added.c'), 'added\n')
        self.assertFalse(os.path.exists(os.path.join(self.scratch, 'Makefile')))
        self.assertTrue(self.read('mm/vmscan.c').endswith('line 21\n'))
        self.assertIn('LINE 3\n', self.read('mm/vmscan.c'))
        # a tree tb extracted itself is not followed (follow=False)
        with open(os.path.join(self.base, 'mm', 'later.c'), 'w') as f:
            f.write('later\n')
        self.pristine = tree_state(self.base)
        tb_kbuild.apply_to_scratch(self.base, self.scratch, None, self.log, follow=False)
        self.assertFalse(os.path.exists(os.path.join(self.scratch, 'mm', 'later.c')))
        self.assertEqual(self.read('mm/vmscan.c'), VMSCAN + 'line 21\n')

    def test_patch_that_does_not_apply(self):
        good = self.patch('a.patch', diff('mm/vmscan.c', ['line 3'], ['LINE 3'], 3))
        tb_kbuild.apply_to_scratch(self.base, self.scratch, good, self.log)
        bad = self.patch('bad.patch', diff('mm/swap.c', ['swap 2'], ['SWAP 2'], 2)
                         + diff('mm/vmscan.c', ['no such line'], ['x'], 9))
        with self.assertRaises(tb_kbuild.KbuildError) as cm:
            tb_kbuild.apply_to_scratch(self.base, self.scratch, bad, self.log)
        msg = str(cm.exception)
        self.assertEqual(len(msg.splitlines()), 1)
        self.assertIn(bad, msg)
        self.assertIn('mm/vmscan.c', msg)
        self.assertIn('Hunk #1 FAILED', msg)
        # left pristine: the good patch undone, nothing of the bad one applied
        self.assertEqual(self.read('mm/vmscan.c'), VMSCAN)
        self.assertEqual(self.read('mm/swap.c'), SWAP)
        self.assertEqual(tb_kbuild.make_scratch(self.base, self.scratch)['files'], [])

    def test_not_a_diff(self):
        p = self.patch('x.patch', 'hello\n')
        with self.assertRaises(tb_kbuild.KbuildError) as cm:
            tb_kbuild.apply_to_scratch(self.base, self.scratch, p, self.log)
        self.assertIn('not a unified diff', str(cm.exception))

    def test_partial_tree_is_refused(self):
        # the test bed's own tree cache holds mm/, include/, lib/ only
        with self.assertRaises(tb_kbuild.KbuildError) as cm:
            tb_kbuild.check_full_tree(self.base)
        self.assertIn('not a whole kernel source tree', str(cm.exception))
        self.assertIn('arch/x86/Makefile', str(cm.exception))
        with self.assertRaises(tb_kbuild.KbuildError) as cm:
            tb_kbuild.check_full_tree(os.path.join(self.base, 'mm'))
        self.assertIn('not a kernel source tree', str(cm.exception))

    def test_build_kernel_refuses_before_touching_anything(self):
        tb = types.SimpleNamespace(build=os.path.join(self.tmp, 'build'), repo=REPO, jobs=1)
        with self.assertRaises(tb_kbuild.KbuildError):
            tb_kbuild.build_kernel(tb, self.base, say=lambda s: None)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, 'build', 'vm', 'kbuild')))


FRAGMENT = '''# a comment
CONFIG_MEMCG=y
CONFIG_HZ_250=y
CONFIG_NR_CPUS=8
# CONFIG_SLUB_TINY is not set
CONFIG_LRU_GEN_ENABLED=y
'''


class Config(unittest.TestCase):
    def test_all_as_asked(self):
        cfg = ('CONFIG_MEMCG=y\nCONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_NR_CPUS=8\n'
               '# CONFIG_SLUB_TINY is not set\nCONFIG_LRU_GEN_ENABLED=y\n')
        self.assertEqual(tb_kbuild.verify_config(FRAGMENT, cfg), [])

    def test_not_set_may_be_absent(self):
        cfg = 'CONFIG_MEMCG=y\nCONFIG_HZ_250=y\nCONFIG_NR_CPUS=8\nCONFIG_LRU_GEN_ENABLED=y\n'
        self.assertEqual(tb_kbuild.verify_config(FRAGMENT, cfg), [])

    def test_dropped_and_changed(self):
        cfg = ('# CONFIG_MEMCG is not set\nCONFIG_HZ_250=y\nCONFIG_NR_CPUS=64\n'
               'CONFIG_SLUB_TINY=y\n')
        bad = tb_kbuild.verify_config(FRAGMENT, cfg)
        self.assertEqual(bad, [('MEMCG', 'y', 'n'), ('NR_CPUS', '8', '64'),
                               ('SLUB_TINY', 'n', 'y'), ('LRU_GEN_ENABLED', 'y', 'not set')])
        line = tb_kbuild.config_mismatch_line(bad, 'tools/vm/kernel.config')
        self.assertEqual(len(line.splitlines()), 1)
        self.assertIn('CONFIG_MEMCG=y', line)
        self.assertIn('3 more: NR_CPUS, SLUB_TINY, LRU_GEN_ENABLED', line)
        self.assertIn('kconfig left it not set', line)
        line = tb_kbuild.config_mismatch_line(bad[3:], 'f')
        self.assertIn('CONFIG_LRU_GEN_ENABLED=y', line)
        self.assertIn('no such symbol', line)

    def test_the_repository_fragment_parses(self):
        with open(os.path.join(REPO, tb_kbuild.FRAGMENT)) as f:
            frag = tb_kbuild.parse_config(f.read())
        for sym in ('MEMCG', 'SWAP', 'LRU_GEN', 'NUMA', 'ACPI_NUMA', 'VIRTIO_BLK', 'EXT4_FS',
                    'SERIAL_8250_CONSOLE', 'BLK_DEV_INITRD', 'DEVTMPFS_MOUNT', 'HZ_250',
                    'PREEMPT_VOLUNTARY', 'TRANSPARENT_HUGEPAGE', 'LRU_GEN_ENABLED', 'PSI'):
            self.assertEqual(frag.get(sym), 'y', sym)
        self.assertEqual(frag.get('SLUB_TINY'), 'n')
        self.assertNotIn('MODULES', [k for k, v in frag.items() if v == 'y'])


if __name__ == '__main__':
    unittest.main(verbosity=2)
