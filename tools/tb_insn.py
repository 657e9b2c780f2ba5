# SPDX-License-Identifier: GPL-2.0-only
"""tb_insn.py - instructions per operation of every benchmark, split by
where the code lives (tools/tb bench).

Each benchmark runs once more under callgrind (deterministic; cache
simulation on), collecting inside the function that does its measured
work; the instructions are divided by the calls of the function that is
one operation of that benchmark (UNITS). callgrind_split.py assigns each
function's self cost to a place: the kernel tree's code (what predicts the
kernel's before/after ratio), the shim (its C files and headers, liburcu's
inline readers, glibc's pthread locks), the simulated world, or the
harness (bench/, tests/).
"""
import os
import re
import subprocess

import callgrind_split as cgs

# benchmark name -> (function collected, function whose calls are the unit,
# operations per call of it)
UNITS = [
    (r'BM_prim/(\w+)/', r'prim_\1', r'prim_\1', 1000),
    (r'BM_charge_uncharge', 'pcb_charge_uncharge', 'pcb_charge_uncharge', 1),
    (r'BM_memcg_charge_(hit|miss)', 'mcb_charge_run', '__mem_cgroup_charge', 1),
    (r'BM_memcg_objstock', 'mcb_objstock_step', 'mcb_objstock_step', 1),
    (r'BM_reclaim_', 'rb_reclaim', 'workingset_eviction', 1),
    (r'BM_shrink_trees', 'st_pass', 'shrink_slab|k61_shrink_slab', 1),
    (r'BM_shrink_slab_memcgs', 'sb_shrink_all', 'shrink_slab', 1),
]
UNIT_NAMES = {'workingset_eviction': 'page', 'shrink_slab|k61_shrink_slab': 'memcg visit',
              'shrink_slab': 'memcg visit', '__mem_cgroup_charge': 'charge+uncharge'}
COLUMNS = ('kernel', 'shim', 'world', 'harness')


def unit_of(name):
    for pat, collect, per, div in UNITS:
        m = re.match(pat, name)
        if m:
            return m.expand(collect), m.expand(per), div
    return None


def column(place):
    if place in ('shim', 'liburcu', 'glibc'):
        return 'shim'
    if place == 'other':
        return 'harness'
    return place


def measure(exe, name, outdir, env):
    """{'insn': total per op, 'kernel': ..., 'd1': D1 misses per op, 'unit': ...}
    or {'error': why}."""
    u = unit_of(name)
    if not u:
        return {'error': 'no unit function known (tools/tb_insn.py UNITS)'}
    collect, per, div = u
    safe = re.sub(r'[^\w.-]+', '_', name)
    out = os.path.join(outdir, f'callgrind.{safe}.out')
    env = dict(env, TB_WATCHDOG_SECONDS='0')
    p = subprocess.run(['valgrind', '--tool=callgrind', '--cache-sim=yes',
                        f'--toggle-collect={collect}', f'--callgrind-out-file={out}', exe,
                        f'--benchmark_filter=^{re.escape(name)}$', '--benchmark_min_time=0.01'],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        return {'error': f'valgrind exited {p.returncode}: {out}'}
    units = sum(cgs.calls_to(out, fn) for fn in per.split('|')) * div
    if not units:
        return {'error': f'no call of {per}'}
    totals, _, _ = cgs.place_totals(out)
    res = {c: 0.0 for c in COLUMNS}
    for where, (insn, _, _) in totals.items():
        res[column(where)] += insn
    res = {k: round(v / units, 1) for k, v in res.items()}
    res['insn'] = round(sum(res[c] for c in COLUMNS), 1)
    res['d1'] = round(sum(t[1] for t in totals.values()) / units, 2)
    res['unit'] = UNIT_NAMES.get(per, 'operation')
    res['profile'] = out
    return res


def table(rows):
    """rows: [(benchmark, result)] -> printable lines"""
    w = max([len(n) for n, _ in rows] + [9])
    out = [f'{"benchmark":<{w}}  {"insn/op":>9}  ' +
           '  '.join(f'{c:>8}' for c in COLUMNS) + f'  {"D1miss/op":>9}  unit']
    for n, r in rows:
        if 'error' in r:
            out.append(f'{n:<{w}}  {r["error"]}')
            continue
        out.append(f'{n:<{w}}  {r["insn"]:>9.1f}  ' +
                   '  '.join(f'{r[c]:>8.1f}' for c in COLUMNS) +
                   f'  {r["d1"]:>9.2f}  {r["unit"]}')
    return out
