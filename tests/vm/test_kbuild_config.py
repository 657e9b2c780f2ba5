#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The kernel config `tools/tb vm` builds (label vm: needs Debian's
linux-source-6.12 and about 30 s): tinyconfig + tools/vm/kernel.config on
the whole tree, out of tree; every fragment symbol comes out as written
(tb_kbuild.configure raises otherwise), no modules, and the options the VM
and the selftests rely on are there. The tree is extracted once into
$TB_BUILD_DIR/vm/src (default: the repository's build/vm/src)."""
import os
import shutil
import sys
import tempfile
import types
import unittest

REPO = os.environ.get('TB_REPO') or os.path.abspath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.join(REPO, 'tools'))
import tb_kbuild  # noqa: E402


class KernelConfig(unittest.TestCase):
    def test_fragment_on_612(self):
        if not os.path.exists('/usr/src/linux-source-6.12.tar.xz'):
            self.skipTest('no /usr/src/linux-source-6.12.tar.xz')
        tb = types.SimpleNamespace(repo=REPO, jobs=2, build=os.path.abspath(
            os.environ.get('TB_BUILD_DIR') or os.path.join(REPO, 'build')))
        tree = tb_kbuild.full_tree(tb, '6.12', say=lambda s: None)
        odir = tempfile.mkdtemp(prefix='tb-kbuild-config-')
        try:
            env = dict(os.environ, **tb_kbuild.KBUILD_ENV)
            log = os.path.join(odir, 'log')
            frag = os.path.join(REPO, tb_kbuild.FRAGMENT)
            self.assertTrue(tb_kbuild.configure(tb, tree, odir, log, env, frag))
            with open(os.path.join(odir, '.config')) as f:
                cfg = tb_kbuild.parse_config(f.read())
            self.assertEqual(cfg.get('MODULES', 'n'), 'n')
            for sym in ('X86_64', 'NUMA', 'ACPI_NUMA', 'MEMCG', 'SWAP', 'LRU_GEN_ENABLED',
                        'VIRTIO_BLK', 'EXT4_FS', 'SERIAL_8250_CONSOLE', 'IKCONFIG_PROC'):
                self.assertEqual(cfg.get(sym), 'y', sym)
            self.assertEqual(cfg.get('HZ'), '250')
            # the second configure of the same fragment and tree is skipped
            self.assertFalse(tb_kbuild.configure(tb, tree, odir, log, env, frag))
        finally:
            shutil.rmtree(odir, ignore_errors=True)


if __name__ == '__main__':
    unittest.main(verbosity=2)
