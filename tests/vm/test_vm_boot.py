#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb_vm.py's boot(), with QEMU replaced by a scripted guest (fast,
label unit): a kernel that panics before the command starts is booted
again, at most BOOT_TRIES times, each panic named with its console log; a
panic once the command runs, or any other end, is the result as it is.
"""
import os
import sys
import tempfile
import types
import unittest

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
sys.path.insert(0, os.path.join(REPO, 'tools'))
import tb_vm  # noqa: E402

PANIC = 'kernel panic: Fatal exception in interrupt'


class Boot(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.tb = types.SimpleNamespace(repo=self.tmp.name, build=self.tmp.name)
        self.said = []
        self.boots = []
        self.saved = tb_vm.Guest, tb_vm.accel_for
        tb_vm.accel_for = lambda tb, kernel, say: 'tcg'

    def tearDown(self):
        tb_vm.Guest, tb_vm.accel_for = self.saved
        self.tmp.cleanup()

    def guests(self, *ends):
        """Each boot ends as the next of ends: (status, started, why)."""
        test = self

        class Scripted:
            def __init__(self, run, kernel, accel, opts, script, files=None, put=None):
                self.console = os.path.join(run, 'console.log')
                self.seconds = 1.0
                self.end = ends[len(test.boots)]
                test.boots.append(run)

            def start(self):
                pass

            def wait(self, timeout, stream=None):
                status, self.started, why = self.end
                return status, 'out' if self.started else '', why

            def cleanup(self):
                pass
        tb_vm.Guest = Scripted

    def boot(self):
        return tb_vm.boot(self.tb, {}, 'true\n', {}, self.said.append)

    def test_a_panic_before_the_command_boots_again(self):
        self.guests((None, False, PANIC), (0, True, ''))
        r = self.boot()
        self.assertEqual(r['status'], 0)
        self.assertEqual(len(self.boots), 2)
        self.assertNotEqual(self.boots[0], self.boots[1])
        self.assertEqual(len(self.said), 1)
        self.assertIn('panicked while booting', self.said[0])
        self.assertIn('Fatal exception in interrupt', self.said[0])
        self.assertIn('console.log', self.said[0])
        self.assertIn('booting again', self.said[0])

    def test_the_last_boot_that_panics_is_the_result(self):
        self.guests(*[(None, False, PANIC)] * tb_vm.BOOT_TRIES)
        r = self.boot()
        self.assertIsNone(r['status'])
        self.assertEqual(r['why'], PANIC)
        self.assertEqual(len(self.boots), tb_vm.BOOT_TRIES)
        self.assertEqual(len(self.said), tb_vm.BOOT_TRIES)
        self.assertNotIn('booting again', self.said[-1])
        self.assertEqual(r['console'], os.path.join(self.boots[-1], 'console.log'))

    def test_a_panic_while_the_command_runs_is_not_retried(self):
        self.guests((None, True, PANIC), (0, True, ''))
        r = self.boot()
        self.assertIsNone(r['status'])
        self.assertEqual(len(self.boots), 1)
        self.assertEqual(self.said, [])

    def test_a_timeout_before_the_command_is_not_retried(self):
        self.guests((None, False, 'timed out after 60s'), (0, True, ''))
        r = self.boot()
        self.assertEqual(r['why'], 'timed out after 60s')
        self.assertEqual(len(self.boots), 1)

    def test_a_command_that_fails_is_its_status(self):
        self.guests((3, True, ''), (0, True, ''))
        self.assertEqual(self.boot()['status'], 3)
        self.assertEqual(len(self.boots), 1)


class Markers(unittest.TestCase):
    def test_init_writes_the_start_marker_before_the_command(self):
        start = tb_vm.INIT.index(tb_vm.START)
        self.assertLess(start, tb_vm.INIT.index('sh /tb/cmd'))
        self.assertLess(tb_vm.INIT.index('mount -t ext4'), start)


if __name__ == '__main__':
    unittest.main()
