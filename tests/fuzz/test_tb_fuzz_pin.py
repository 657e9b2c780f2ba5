#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb fuzz's placement of instances: instance i and everything it
starts on one host CPU, i modulo the CPUs the driver may use."""
import os
import subprocess
import sys
import unittest

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools')
sys.path.insert(0, TOOLS)
import tb_fuzz  # noqa: E402

CHILD_CPUS = ('import os, threading\n'
              'out = []\n'
              't = threading.Thread(target=lambda: out.append(os.sched_getaffinity(0)))\n'
              't.start(); t.join()\n'
              'print(*sorted(os.sched_getaffinity(0)))\n'
              'print(*sorted(out[0]))\n')


class Pin(unittest.TestCase):
    def test_instances_take_the_allowed_cpus_in_turn(self):
        cpus = sorted(os.sched_getaffinity(0))
        got = [tb_fuzz.cpu_for(i) for i in range(2 * len(cpus))]
        self.assertEqual(got, cpus + cpus)

    def test_a_pinned_instance_and_its_threads_run_on_its_cpu_only(self):
        cpu = tb_fuzz.cpu_for(1)
        out = subprocess.run([sys.executable, '-c', CHILD_CPUS], preexec_fn=tb_fuzz.pin(cpu),
                             capture_output=True, text=True, check=True).stdout.splitlines()
        # the process, then a thread it started
        self.assertEqual(out, [str(cpu), str(cpu)])

    def test_the_driver_itself_stays_unpinned(self):
        before = os.sched_getaffinity(0)
        subprocess.run(['true'], preexec_fn=tb_fuzz.pin(tb_fuzz.cpu_for(0)), check=True)
        self.assertEqual(os.sched_getaffinity(0), before)


if __name__ == '__main__':
    unittest.main()
