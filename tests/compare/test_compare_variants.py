#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb compare with a patch that changes what a variant replaces
(fast, label unit). Seed 002's own diff makes shrink_one() void; the
memcg_iter variant wraps `int shrink_one`, so an after build that kept the
variant failed ("void value not ignored"). The variant must step aside in
the after build exactly when the patch changes a function it replaces:
- tools/seeds/patches/002-memcg-iter.patch: memcg_iter steps aside
  (shrink_one, shrink_many, lru_gen_shrink_lruvec), global_shrink_priority stays;
- tools/seeds/patches/000-global-shrink-priority.patch: global_shrink_priority
  steps aside (shrink_node_memcgs, kswapd_age_node), memcg_iter stays;
- a patch to a function no variant replaces: none steps aside;
- each variant's replaced functions are the ones its manifests wrap, and
  the tree defines each of them (a rename would silently disable the check).
Usage: test_compare_variants.py KERNEL_CACHE_DIR [KTREE]: the Debian
linux-source-6.12 tree extracted there, if any (the seed patches are for
it), chosen as tests/vm/test_seed_patches.py chooses (the build's own tree
when it is one of the cache's; never a tree outside it, which under
`tools/tb compare` is the patched copy)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.join(REPO, 'tools'))
import tb_compare  # noqa: E402
import tb_kbuild  # noqa: E402
import tb_features  # noqa: E402

TREE = None
PATCHES = os.path.join(REPO, 'tools', 'seeds', 'patches')


def version(tree):
    with open(os.path.join(tree, 'Makefile')) as f:
        head = f.read(400)
    return '.'.join(re.search(rf'^{k} = (\d+)', head, re.M).group(1)
                    for k in ('VERSION', 'PATCHLEVEL'))


class Variants(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='tb-compare-variants-')

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def after(self, patch):
        """copies of the files patch touches, patched: (after dir, files)"""
        with open(patch) as f:
            files = tb_compare.patch_files(f.read())
        for rel in files:
            os.makedirs(os.path.join(self.tmp, os.path.dirname(rel)), exist_ok=True)
            shutil.copyfile(os.path.join(TREE, rel), os.path.join(self.tmp, rel))
        p = subprocess.run(['patch', '-p1', '--batch', '--forward', '-d', self.tmp, '-i', patch],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(p.returncode, 0, p.stdout)
        return self.tmp, files

    def aside(self, patch):
        after, files = self.after(patch)
        return {v.name: changed for v, changed in
                tb_compare.variants_aside(REPO, TREE, after, files)}

    def form(self, name):
        """the form of the seed patch that applies to TREE"""
        path, why = tb_kbuild.seed_patch(PATCHES, name, TREE)
        self.assertIsNotNone(path, why)
        return path

    def need_612(self):
        if version(TREE) != '6.12':
            self.skipTest(f'the seed patches are for 6.12; {TREE} is {version(TREE)}')

    def test_seed_002_patch_sets_memcg_iter_aside(self):
        self.need_612()
        got = self.aside(self.form('002-memcg-iter.patch'))
        self.assertEqual(got, {'memcg_iter': ['lru_gen_shrink_lruvec', 'shrink_many',
                                              'shrink_one']})
        note = tb_compare.aside_note(next(v for v in tb_features.VARIANTS
                                          if v.name == 'memcg_iter'), got['memcg_iter'])
        self.assertIn('mm/variants/memcg_iter_shrink_many.c', note)
        self.assertIn('steps aside', note)

    def test_seed_000_patch_sets_global_shrink_priority_aside(self):
        self.need_612()
        got = self.aside(self.form('000-global-shrink-priority.patch'))
        self.assertEqual(got, {'global_shrink_priority': ['kswapd_age_node',
                                                          'shrink_node_memcgs']})

    def test_unrelated_patch_keeps_every_variant(self):
        text = tb_compare.function_text(os.path.join(TREE, 'mm', 'vmscan.c'), 'get_scan_count')
        self.assertIsNotNone(text)
        start = text.splitlines()[0]
        # a hunk adding a comment line inside get_scan_count()
        with open(os.path.join(TREE, 'mm', 'vmscan.c')) as f:
            lines = f.read().splitlines()
        n = lines.index(start) + 1
        patch = os.path.join(self.tmp, 'x.patch')
        with open(patch, 'w') as f:
            f.write(f'--- a/mm/vmscan.c\n+++ b/mm/vmscan.c\n@@ -{n},2 +{n},3 @@\n'
                    f' {lines[n - 1]}\n+/* unrelated */\n {lines[n]}\n')
        after = os.path.join(self.tmp, 'after')
        os.makedirs(os.path.join(after, 'mm'))
        shutil.copyfile(os.path.join(TREE, 'mm', 'vmscan.c'), os.path.join(after, 'mm', 'vmscan.c'))
        p = subprocess.run(['patch', '-p1', '--batch', '-d', after, '-i', patch],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertEqual(tb_compare.variants_aside(REPO, TREE, after, ['mm/vmscan.c']), [])

    def test_hooks_are_the_manifests_wraps_and_exist_in_the_tree(self):
        hooks = tb_compare.variant_hooks(REPO)
        self.assertEqual(set(hooks), {v.name for v in tb_features.VARIANTS})
        have = tb_features.detect(TREE)
        for v in tb_features.VARIANTS:
            self.assertTrue(set(hooks[v.name]) - set(v.routes),
                            f'no manifest wraps anything for variant {v.name}')
            if not have[v.needs][0]:
                continue
            for name in hooks[v.name]:
                self.assertIsNotNone(tb_compare.function_text(os.path.join(TREE, v.kfile), name),
                                     f'{v.kfile} of {TREE} defines no {name} '
                                     f'(variant {v.name})')

    def test_function_text(self):
        c = os.path.join(self.tmp, 'x.c')
        with open(c, 'w') as f:
            f.write('static int f(int a);\nint g(void)\n{\n\treturn f(1);\n}\n'
                    'static int f(int a)\n{\n\treturn a;\n}\n')
        self.assertEqual(tb_compare.function_text(c, 'f'), 'static int f(int a)\n{\n\treturn a;\n}')
        self.assertEqual(tb_compare.function_text(c, 'g'), 'int g(void)\n{\n\treturn f(1);\n}')
        self.assertIsNone(tb_compare.function_text(c, 'h'))


if __name__ == '__main__':
    sys.path.insert(0, os.path.join(REPO, 'tests', 'vm'))
    import test_seed_patches  # noqa: E402
    cache = sys.argv.pop(1)
    TREE = test_seed_patches.cached_tree(cache, ktree=sys.argv.pop(1) if len(sys.argv) > 1
                                         else None)
    if TREE is None:
        print('no linux-source-6.12 tree in the kernel-tree cache: skipped')
        sys.exit(0)
    unittest.main(verbosity=2)
