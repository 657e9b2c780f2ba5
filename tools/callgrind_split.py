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
import os
import re
import subprocess
import sys

PLACES = ('kernel', 'shim', 'world', 'glibc', 'liburcu')


# trees given with --kernel live anywhere: tools/tb adds them here
KERNEL_DIRS = [d for d in os.environ.get('TB_KERNEL_DIRS', '').split(':') if d]


def place(path):
    if '/kernel-trees/' in path or '/kernel-gen/' in path:
        return 'kernel'
    if any(path.startswith(d.rstrip('/') + '/') for d in KERNEL_DIRS):
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
    """({(file, function): [count per event]}, [event names]): callgrind_annotate's
    self cost, every event the profile recorded (Ir; with --cache-sim=yes also
    the D1 and LL misses)."""
    p = subprocess.run(['callgrind_annotate', '--threshold=100', '--auto=no', profile],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.returncode != 0:
        sys.exit(f'callgrind_split: callgrind_annotate {profile} failed')
    events = ['Ir']
    costs = {}
    num = r'([\d,]+|\.)(?: \([\s\d.]+%\))?\s+'
    for line in p.stdout.splitlines():
        if line.startswith('Events shown:'):
            events = line.split(':', 1)[1].split()
            continue
        m = re.match(r'\s*' + num * len(events) + r'(\S+?):(\S+)', line)
        if not m or 'PROGRAM TOTALS' in line:
            continue
        vals = [0 if v == '.' else int(v.replace(',', '')) for v in m.groups()[:len(events)]]
        key = (m.group(len(events) + 1), m.group(len(events) + 2))
        costs[key] = [a + b for a, b in zip(costs.get(key, [0] * len(events)), vals)]
    return costs, events


def misses(vals, events):
    """(D1 misses, LL misses) of one cost row; (None, None) without cache-sim."""
    ev = dict(zip(events, vals))
    if 'D1mr' not in ev:
        return None, None
    return ev['D1mr'] + ev.get('D1mw', 0), ev.get('DLmr', 0) + ev.get('DLmw', 0)


def place_totals(profile):
    """{place: [instructions, D1 misses, LL misses]} summed over the
    profile's functions (misses 0 without --cache-sim=yes), the profile's
    event names and its per-function costs (self_costs)."""
    costs, events = self_costs(profile)
    totals = collections.defaultdict(lambda: [0, 0, 0])
    for (path, _), v in costs.items():
        t = totals[place(path)]
        d1, ll = misses(v, events)
        t[0] += v[0]
        t[1] += d1 or 0
        t[2] += ll or 0
    return totals, events, costs


def main():
    ap = argparse.ArgumentParser(prog='callgrind_split.py')
    ap.add_argument('profile')
    ap.add_argument('--per', required=True, help='the function whose calls are the unit')
    ap.add_argument('--top', type=int, default=0, help='also list the N costliest functions')
    a = ap.parse_args()
    units = calls_to(a.profile, a.per)
    if not units:
        sys.exit(f'callgrind_split: no call of {a.per} in {a.profile}')
    by_place, events, costs = place_totals(a.profile)
    cache = 'D1mr' in events
    total = sum(v[0] for v in by_place.values())
    print(f'{units} calls of {a.per}; per call:' +
          ('  instructions   share   D1 misses  LL misses' if cache else ''))
    for p in PLACES + ('other',):
        v = by_place.get(p)
        if not v or not v[0]:
            continue
        line = f'  {p:<8} {v[0] / units:12.0f}  {100.0 * v[0] / total:5.1f}%'
        if cache:
            line += f'  {v[1] / units:10.1f} {v[2] / units:10.1f}'
        print(line)
    line = f'  {"total":<8} {total / units:12.0f}'
    if cache:
        d1 = sum(v[1] for v in by_place.values())
        ll = sum(v[2] for v in by_place.values())
        line += f'  {"":6} {d1 / units:10.1f} {ll / units:10.1f}'
    print(line)
    top = sorted(costs.items(), key=lambda kv: -kv[1][0])[:a.top]
    for (path, fn), v in top:
        line = f'    {place(path):<8} {path.split("/")[-1] + ":" + fn:<60} {v[0] / units:8.1f}'
        if cache:
            line += f'  {misses(v, events)[0] / units:8.1f}'
        print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
