#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""callgrind_split.py - instructions per unit of work from a callgrind profile,
split by where the code lives.

    callgrind_split.py CALLGRIND_OUT --per FUNCTION [--top N]

The unit is one call of FUNCTION (for reclaim: workingset_eviction, called
once per page evicted, with the classic LRU and with MGLRU alike). The
instructions are all those the profile collected (run valgrind with
--toggle-collect=ENTRY to count ENTRY and its callees only). Each
function's self cost goes to the place its source file lives:
  kernel   the kernel tree's files and the headers generated from it
           (build/*/kernel-gen)
  shim     kernel-shim/ but its world
  world    kernel-shim/world/
  glibc    libc (the shim's spinlocks and mutexes are pthread mutexes)
  liburcu  the RCU read side
  other    anything else (named)
Example (README, "MGLRU eviction benchmark"):
  valgrind --tool=callgrind --callgrind-out-file=cg.out \\
    --toggle-collect=try_to_free_mem_cgroup_pages build/release/bench/bench_reclaim \\
    --benchmark_filter='BM_reclaim_file_mglru/anon:0/pages:8192/' --benchmark_min_time=1.5
  tools/callgrind_split.py cg.out --per workingset_eviction
"""
import argparse
import collections
import re
import subprocess
import sys

PLACES = ('kernel', 'shim', 'world', 'glibc', 'liburcu')


def place(path):
    if '/kernel-trees/' in path or '/kernel-gen/' in path:
        return 'kernel'
    if 'kernel-shim/world/' in path:
        return 'world'
    if 'kernel-shim/' in path:
        return 'shim'
    if 'urcu' in path:
        return 'liburcu'
    if 'nptl' in path or 'libc.so' in path or 'glibc' in path or path.startswith('./'):
        return 'glibc'
    return 'other'


def calls_to(profile, fn):
    """Calls of the function named fn, summed over its callers."""
    names = {}
    total = 0
    target = None
    with open(profile) as f:
        for line in f:
            m = re.match(r'(c?)fn=\((\d+)\)(?: (.*))?', line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3).strip()
                target = m.group(1) == 'c' and names.get(m.group(2)) == fn
                continue
            m = re.match(r'calls=(\d+)', line)
            if m and target:
                total += int(m.group(1))
                target = False
    return total


def self_costs(profile):
    """{(file, function): instructions}, callgrind_annotate's self cost."""
    p = subprocess.run(['callgrind_annotate', '--threshold=100', '--auto=no', profile],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.returncode != 0:
        sys.exit(f'callgrind_split: callgrind_annotate {profile} failed')
    costs = collections.Counter()
    for line in p.stdout.splitlines():
        m = re.match(r'\s*([\d,]+) \([\s\d.]+%\)\s+(\S+?):(\S+)', line)
        if m and 'PROGRAM TOTALS' not in line:
            costs[(m.group(2), m.group(3))] += int(m.group(1).replace(',', ''))
    return costs


def main():
    ap = argparse.ArgumentParser(prog='callgrind_split.py')
    ap.add_argument('profile')
    ap.add_argument('--per', required=True, help='the function whose calls are the unit')
    ap.add_argument('--top', type=int, default=0, help='also list the N costliest functions')
    a = ap.parse_args()
    units = calls_to(a.profile, a.per)
    if not units:
        sys.exit(f'callgrind_split: no call of {a.per} in {a.profile}')
    costs = self_costs(a.profile)
    total = sum(costs.values())
    by_place = collections.Counter()
    for (path, _), n in costs.items():
        by_place[place(path)] += n
    print(f'{units} calls of {a.per}; instructions per call:')
    for p in PLACES + ('other',):
        if by_place[p]:
            print(f'  {p:<8} {by_place[p] / units:8.0f}  {100.0 * by_place[p] / total:5.1f}%')
    print(f'  {"total":<8} {total / units:8.0f}')
    for (path, fn), n in costs.most_common(a.top):
        print(f'    {place(path):<8} {path.split("/")[-1] + ":" + fn:<60} {n / units:8.1f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
