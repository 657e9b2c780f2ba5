#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The seeds' patch files (tools/seeds/patches/*.patch) apply cleanly to the
tree they are written for: `patch -p1 --dry-run` succeeds with no fuzz and
no offset, and they touch only what `tools/tb compare` builds (mm/,
include/, lib/). A patch for another
version than TREE's is skipped. Fast, label unit.
TREE is a Debian linux-source-6.12 tree of the kernel-tree cache: the
build's own tree when it is one (`tools/tb matrix` builds each version it
fetched there), never a tree
outside the cache (under `tools/tb compare` the configured tree is the
patched scratch copy); else the cache's tree of the installed
linux-source-6.12, else its newest linux-source-6.12.
Usage: test_seed_patches.py KERNEL_CACHE_DIR [KTREE] (no tree: the cases skip)."""
import glob
import os
import re
import subprocess
import sys
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
PATCHES_DIR = os.path.join(REPO, 'tools', 'seeds', 'patches')
# a seed's patch, and its forms for older trees (<stem>@<version>.patch)
PATCHES = sorted(p for p in glob.glob(os.path.join(PATCHES_DIR, '*.patch')) if '@' not in p)
sys.path.insert(0, os.path.join(REPO, 'tools'))
import tb_kbuild  # noqa: E402

TREE = None
# what each patch is written for
FOR = {'000-global-shrink-priority.patch': '6.12', '002-memcg-iter.patch': '6.12'}


class SeedPatches(unittest.TestCase):
    def test_every_patch_is_known(self):
        self.assertEqual(sorted(os.path.basename(p) for p in PATCHES), sorted(FOR))

    def check(self, name):
        ver = '.'.join(tb_kbuild.tree_version(TREE).split('.')[:2])
        if ver != FOR[name]:
            self.skipTest(f'{name} is for {FOR[name]}; {TREE} is {ver}')
        path, why = tb_kbuild.seed_patch(PATCHES_DIR, name, TREE)
        self.assertIsNotNone(path, why)
        with open(path) as f:
            text = f.read()
        files = [f for f, _, _ in tb_kbuild.patch_files(text)]
        self.assertTrue(files)
        self.assertEqual([f for f in files if f.split('/')[0] not in ('mm', 'include', 'lib')],
                         [])
        p = subprocess.run(['patch', '-p1', '--dry-run', '--batch', '--forward', '-d', TREE,
                            '-i', path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        self.assertEqual(p.returncode, 0, p.stdout)
        # a stable update moves lines: a hunk at an offset is the same
        # change; fuzz (context that no longer matches) is not
        self.assertEqual([l for l in p.stdout.splitlines() if re.search(r'fuzz', l)], [],
                         'the patch applies only with fuzz: refresh it')
        self.assertEqual(sorted(re.findall(r'^checking file (\S+)', p.stdout, re.M)),
                         sorted(files))
        return text

    def test_000_global_shrink_priority(self):
        text = self.check('000-global-shrink-priority.patch')
        # the control file the world's variant gives (mm/variants/global_shrink_priority.c)
        added = '\n'.join(l[1:].strip() for l in text.splitlines() if l.startswith('+'))
        with open(os.path.join(REPO, 'mm', 'variants', 'global_shrink_priority.c')) as f:
            variant = f.read()
        for s in ('.name = "global_shrink_priority"', 'kstrtos8(buf, 0, &val)',
                  'if (val > DEF_PRIORITY)', 'return -EINVAL;'):
            self.assertIn(s, variant)
            self.assertIn(s, added, f'the patch does not take what the variant takes: {s}')

    def test_002_memcg_iter(self):
        text = self.check('002-memcg-iter.patch')
        self.assertIn('+static void shrink_one(struct lruvec *lruvec, struct scan_control *sc)',
                      text)
        self.assertIn('+	memcg = mem_cgroup_iter(target, NULL, cookie);', text)


def cached_tree(cache, series='6.12', ktree=None):
    """The Debian tree to check (see the module's text), or None"""
    import tb_trees
    cache = os.path.abspath(cache)
    pkg = f'linux-source-{series}'
    if ktree and os.path.dirname(os.path.abspath(ktree)) == cache and \
            os.path.basename(os.path.abspath(ktree)).startswith(pkg + '_') and \
            os.path.exists(os.path.join(ktree, '.extracted')):
        return os.path.abspath(ktree)
    inst = tb_trees.installed_version(pkg)
    if inst and os.path.exists(os.path.join(tb_trees.tree_dir(cache, pkg, inst), '.extracted')):
        return tb_trees.tree_dir(cache, pkg, inst)
    trees = [os.path.dirname(t) for t in
             glob.glob(os.path.join(cache, f'{pkg}_*', '.extracted'))]
    # by Debian version (6.12.95 before 6.12.117), as the names spell it
    trees.sort(key=lambda t: tb_trees.version_key(
        os.path.basename(t)[len(pkg) + 1:].replace('_', '~')))
    return trees[-1] if trees else None


if __name__ == '__main__':
    cache = sys.argv.pop(1)
    TREE = cached_tree(cache, ktree=sys.argv.pop(1) if len(sys.argv) > 1 else None)
    if TREE is None:
        print('no linux-source-6.12 tree in the kernel-tree cache: skipped')
        sys.exit(0)
    unittest.main(verbosity=2)
