#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""CI's ratchet for a tree not every suite passes on yet: reads tools/tb
test's output on stdin (echoed) and the tree's list of tests known to fail
(FILE: 'VERSION TEST  # why' lines). Fails when the run did not get to its
tests, when a test fails that the list does not name, and when a listed
test passes (the list must shrink with the work, never hide a fix)."""
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: expected_failures.py VERSION LIST < tools-tb-test-output')
    version, path = sys.argv[1], sys.argv[2]
    known = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].split()
            if not line:
                continue
            if len(line) != 2:
                sys.exit(f'{path}:{n}: want "VERSION TEST  # why"')
            if line[0] == version:
                known[line[1]] = n
    text = sys.stdin.read()
    sys.stdout.write(text)
    m = re.search(r'tb: (\d+) of (\d+) tests passed in [\d.]+s(?:; failed: ([^;]*);)?', text)
    if not m:
        sys.exit(f'ci: {version}: the tests did not run (no "tests passed" line)')
    failed = set(m.group(3).split(', ')) if m.group(3) else set()
    new = sorted(failed - set(known))
    fixed = sorted(set(known) - failed)
    print(f'ci: {version}: {m.group(1)} of {m.group(2)} tests passed; {len(known)} known to fail '
          f'({path})')
    if new:
        print(f'ci: {version}: failing, not in {path}: {", ".join(new)}')
    if fixed:
        print(f'ci: {version}: passing now, remove from {path}: {", ".join(fixed)}')
    return 1 if new or fixed else 0


if __name__ == '__main__':
    sys.exit(main())
