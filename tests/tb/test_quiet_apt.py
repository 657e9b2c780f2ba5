#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb's first run on a machine that lacks packages: apt-get's output
goes to build/tb-apt.log and the screen gets one progress line per step;
a failed step prints the log's tail and one line naming it.

apt-get and dpkg-query are stand-ins on PATH (dpkg-query: nothing
installed; apt-get: 450 lines of output, `install` fails), so nothing is
installed and the install step's failure ends tb before it builds.
As root only (the install branch); skipped otherwise (status 77)."""
import os
import subprocess
import sys
import tempfile

TB = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools', 'tb')

FAKE_APT = '''#!/bin/sh
i=0
while [ $i -lt 450 ]; do echo "Get:$i http://deb.example fake-$1 line $i"; i=$((i+1)); done
[ "$1" = install ] && { echo "E: Unable to locate package frob"; exit 100; }
exit 0
'''


def main():
    if os.getuid() != 0:
        print('not root: tools/tb prints the apt-get line instead of installing')
        return 77
    with tempfile.TemporaryDirectory() as d:
        bindir = os.path.join(d, 'bin')
        os.makedirs(bindir)
        for name, text in (('apt-get', FAKE_APT), ('dpkg-query', '#!/bin/sh\nexit 0\n')):
            with open(os.path.join(bindir, name), 'w') as f:
                f.write(text)
            os.chmod(os.path.join(bindir, name), 0o755)
        env = dict(os.environ, PATH=bindir + ':' + os.environ['PATH'],
                   TB_BUILD_DIR=os.path.join(d, 'build'))
        p = subprocess.run([TB, 'test'], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=env, timeout=60)
        log = os.path.join(d, 'build', 'tb-apt.log')
        out = p.stdout.splitlines()
        err = p.stderr.splitlines()
        problems = []
        if p.returncode != 1:
            problems.append(f'exit status {p.returncode}, want 1')
        if len(out) != 3 or not out[0].startswith('tb: updating the package lists') \
                or not out[1].startswith('tb: done in ') \
                or not out[2].startswith('tb: installing '):
            problems.append(f'stdout is not the three progress lines: {out}')
        if any('Get:' in l for l in out):
            problems.append('apt-get output on the screen')
        if not err or not err[-1].startswith('tb: apt-get install failed with status 100 (log: '):
            problems.append(f'last stderr line: {err[-1:]}')
        if len(err) > 16:
            problems.append(f'{len(err)} stderr lines, want the log tail (15) and one line')
        with open(log) as f:
            n = sum(1 for l in f if 'Get:' in l)
        if n != 900:
            problems.append(f'{n} apt-get lines in {log}, want 900')
        for x in problems:
            print(x)
        print('stdout:', *out, sep='\n  ')
        return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
