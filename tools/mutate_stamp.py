#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/mutate_stamp.py TREE VERSION: stamp tests/mutate/equivalent.txt's
entries of the '@ X.Y' sections that VERSION falls in, from the kernel tree
TREE they were written for: FILE:LINE becomes FILE:LINE/STAMP, the stamp of
the statement the entry's mutant changes (tools/tb_mutate.py: old_stamp),
so that tools/tb mutate finds the entry on another tree whose edits moved
the line, and no longer takes it for another statement now at that line.
An entry that is no mutant of TREE's file is left unstamped and named."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tb_mutate as m  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mutants(tree, path, cache):
    if path not in cache:
        src = m.Source(open(os.path.join(tree, path)).read())
        out = {}
        for first, last in src.statements():
            for op, ln, end, new in src.mutants(first, last):
                old = ''.join(src.lines[ln - 1:end])
                out[(path, ln, op, ' '.join(new.split()))] = m.old_stamp(old)
        cache[path] = out
    return cache[path]


def main():
    if len(sys.argv) != 3 or not os.path.isdir(sys.argv[1]):
        sys.exit('usage: tools/mutate_stamp.py KERNEL-TREE VERSION (e.g. 6.12.117)')
    tree, version = sys.argv[1], sys.argv[2]
    path = os.path.join(REPO, 'tests', 'mutate', 'equivalent.txt')
    want, cache, out, done, missing = None, {}, [], 0, []
    for line in open(path):
        v = m.VERSION_RE.match(line)
        if v:
            want = v.group(1)
        e = m.EQUIV_RE.match(line) if line[:1] not in ' \t#' else None
        if e and not e.group(3) and m.version_matches(want, version):
            key = (e.group(1), int(e.group(2)), e.group(4), ' '.join(e.group(5).split()))
            stamp = mutants(tree, key[0], cache).get(key)
            if stamp:
                line = line.replace(f'{key[0]}:{key[1]} ', f'{key[0]}:{key[1]}/{stamp} ', 1)
                done += 1
            else:
                missing.append(f'{key[0]}:{key[1]} [{key[2]}]')
        out.append(line)
    with open(path, 'w') as f:
        f.writelines(out)
    print(f'{done} entries stamped from {tree}' + (f'; not mutants of it: {", ".join(missing)}'
                                                  if missing else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main())
