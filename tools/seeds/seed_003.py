# SPDX-License-Identifier: GPL-2.0-only
"""Seed 003: lockless (RCU + refcount) memcg slab shrink, 6.1 vs 6.12.

tests/lru_fs/seed003 runs the experiment for one tree (4001 memcgs under one
parent, a mount per memcg, a dentry and an inode in 3001 of them, reclaimer
threads calling shrink_slab for every memcg, optionally a thread mounting
and unmounting). Native runs give memcg visits per second, objects freed
and give-ups; callgrind runs (one reclaimer, no churn, a fixed number of
passes, collected inside seed_reclaim only) give the deterministic share
of instructions in lock functions and the top entries by self cost, shown
beside the seed's `perf top`.
"""
import json
import os
import sys
import re
import shutil
import concurrent.futures
import subprocess

TITLE = 'lockless vs rwsem memcg slab shrink: 6.1 mm/vmscan.c vs 6.12 mm/shrinker.c'
TARGETS = ['seed003']
# its native runs are timed by the wall clock: tools/tb run gives it the machine
WALL_CLOCK = True

SEED_PERF = {
    '6.1': [('down_read_trylock', 40.44), ('up_read', 17.59), ('shrink_slab', 11.90),
            ('idr_find', 8.21)],
    '6.12': [('shrink_slab', 60.17), ('do_shrink_slab', 3.03), ('__rcu_read_unlock', 2.00),
             ('mem_cgroup_iter', 1.92)],
}
# outermost lock entry points as the binary names them -> kernel names
LOCK_FUNCS = {
    'k61_down_read_trylock': 'down_read_trylock',
    'k61_rwsem_is_contended': 'rwsem_is_contended',
    'pthread_rwlock_unlock': 'up_read/up_write',
    'pthread_rwlock_rdlock': 'down_read',
    'pthread_rwlock_wrlock': 'down_write',
    'kshim_rcu_read_lock': 'rcu_read_lock',
    'kshim_rcu_read_unlock': 'rcu_read_unlock',
    'pthread_mutex_lock': 'spin_lock/mutex_lock',
    'pthread_mutex_unlock': 'spin_unlock/mutex_unlock',
}
# self cost of helpers folded into the kernel function that calls them
FOLD = {'pthread_rwlock_tryrdlock': 'down_read_trylock'}


def kernel_name(fn):
    if fn in FOLD:
        return FOLD[fn]
    if fn in LOCK_FUNCS:
        return LOCK_FUNCS[fn]
    return fn[4:] if fn.startswith('k61_') else fn


def native(exe, tree, reclaimers, churn, seconds):
    cmd = [exe, '--tree', tree, '--reclaimers', str(reclaimers), '--seconds', str(seconds),
           '--refill']
    if churn:
        cmd.append('--churn')
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def annotate(path, inclusive):
    args = ['callgrind_annotate', '--threshold=100', '--show=Ir']
    if inclusive:
        args.append('--inclusive=yes')
    out = subprocess.run(args + [path], check=True, capture_output=True, text=True).stdout
    total, costs = 0, {}
    for line in out.splitlines():
        m = re.match(r'\s*([\d,]+)\s+(\(\s*[\d.]+%\)\s+)?\S*?:?(\S+?)\s*(\[.*\])?$', line)
        if 'PROGRAM TOTALS' in line:
            total = int(line.split()[0].replace(',', ''))
            continue
        if not m:
            continue
        name = m.group(3).split(':')[-1]
        if not re.match(r'^[A-Za-z_][\w.]*$', name):
            continue	# callgrind's brace pseudo-entries of inlined code
        if name.lstrip('_').startswith('pthread_'):
            name = name.lstrip('_')	# glibc's ___pthread_rwlock_unlock etc.
        costs[name] = costs.get(name, 0) + int(m.group(1).replace(',', ''))
    return total, costs


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))


def per_visit(path, tree):
    """Instructions and simulated D1 misses per memcg visit (one shrink_slab
    call), split by where the code lives (tools/callgrind_split.py): the
    kernel-code share is what predicts the kernel's ratio."""
    import callgrind_split as cgs
    visits = cgs.calls_to(path, 'k61_shrink_slab' if tree == '6.1' else 'shrink_slab')
    totals, _, _ = cgs.place_totals(path)
    out = {'visits': visits}
    for where, (insn, d1, _) in totals.items():
        key = 'kernel' if where == 'kernel' else 'rest'
        out[key + '_insn'] = out.get(key + '_insn', 0) + insn
        out[key + '_d1'] = out.get(key + '_d1', 0) + d1
    return {k: (round(v / visits, 1) if k != 'visits' else v) for k, v in out.items()}


def profile(exe, tree, passes, outdir):
    path = os.path.join(outdir, f'callgrind.{tree}.out')
    # valgrind runs it many times slower, with no virtual time to show
    # progress: the hung-task watchdog would take it for a hang
    env = dict(os.environ, TB_WATCHDOG_SECONDS='0')
    subprocess.run(['valgrind', '--tool=callgrind', '--cache-sim=yes',
                    '--toggle-collect=seed_reclaim', f'--callgrind-out-file={path}', exe,
                    '--tree', tree, '--passes', str(passes), '--refill'],
                   check=True, capture_output=True, env=env)
    total, incl = annotate(path, True)
    _, self_cost = annotate(path, False)
    locks = {LOCK_FUNCS[f]: incl[f] for f in LOCK_FUNCS if incl.get(f)}
    top = {}
    for fn, c in self_cost.items():
        top[kernel_name(fn)] = top.get(kernel_name(fn), 0) + c
    top = sorted(top.items(), key=lambda kv: -kv[1])[:5]
    return {'passes': passes, 'instructions': total, 'per_visit': per_visit(path, tree),
            'lock_share': round(100.0 * sum(locks.values()) / total, 2) if total else 0,
            'locks': {k: round(100.0 * v / total, 2) for k, v in locks.items()},
            'top_self': [(k, round(100.0 * v / total, 2)) for k, v in top]}


def run(ctx):
    exe = os.path.join(ctx['bdir'], 'tests', 'lru_fs', 'seed003')
    quick = ctx['quick']
    seconds = 0.5 if quick else 3
    rows = []
    for tree in ('6.1', '6.12'):
        for reclaimers in (1, 2):
            for churn in (0, 1):
                r = native(exe, tree, reclaimers, churn, seconds)
                r['worked_per_s'] = round((r['visits'] - r['trylock_fails']) / r['seconds'])
                rows.append(r)
    # callgrind runs a program on one core: the two trees side by side
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as ex:
        futs = {tree: ex.submit(profile, exe, tree, 1 if quick else 3, ctx['outdir'])
                for tree in ('6.1', '6.12')}
        prof = {tree: f.result() for tree, f in futs.items()}
    sampled = {tree: perf_profile(exe, tree, 1 if quick else 3, ctx['outdir'])
               for tree in ('6.1', '6.12')}
    return {'runs': rows, 'callgrind': prof, 'perf': sampled, 'seed_perf': SEED_PERF,
            'main_tree': str(ctx['tb'].tree_version)}


PERF_LINE = re.compile(r'^\s+([\d.]+)%\s+\[(.)\]\s+(\S+)')


def perf_profile(exe, tree, seconds, outdir):
    """Wall-clock samples (perf, cpu-clock) of the contended case the seed
    profiled: 2 reclaimers and a mounting thread. Unlike callgrind's
    instruction counts, time spent bouncing the rwsem's cache line shows."""
    if not shutil.which('perf'):
        return {'error': 'perf not installed'}
    data = os.path.join(outdir, f'perf-{tree}.data')
    rec = subprocess.run(['perf', 'record', '-q', '-e', 'cpu-clock', '-F', '2000', '-o', data,
                          exe, '--tree', tree, '--reclaimers', '2', '--churn',
                          '--seconds', str(seconds)], capture_output=True, text=True)
    if rec.returncode:
        err = (rec.stderr.strip().splitlines() or ['perf record failed'])[-1]
        return {'error': err}
    rep = subprocess.run(['perf', 'report', '-i', data, '--no-children', '--stdio',
                          '--sort', 'symbol', '-g', 'none'], capture_output=True, text=True)
    top, locks = [], {}
    for line in rep.stdout.splitlines():
        m = PERF_LINE.match(line)
        if not m:
            continue
        pct, where, sym = float(m.group(1)), m.group(2), m.group(3)
        name = kernel_name(sym.split('@')[0])
        if sym.split('@')[0] in LOCK_FUNCS or sym in FOLD:
            locks[name] = round(locks.get(name, 0) + pct, 2)
        # [k]: the host kernel (scheduler, membarrier IPIs), not the code under test
        top.append((name if where == '.' else f'host:{name}', pct))
    return {'lock_share': round(sum(locks.values()), 2), 'locks': locks, 'top': top[:6]}


def render(d):
    main = d.get('main_tree', '6.12')
    out = [f'("6.12" below is the main tree, {main}: its mm/shrinker.c)', '']\
        if not main.startswith('6.12') else []
    out += ['Native runs (wall clock, noisy 2-core machine): a visit is one shrink_slab()',
           'call for one memcg; "worked" excludes visits that gave up at the trylock.',
           '',
           '| tree | reclaimers | churn | visits/s | worked visits/s | objects freed '
           '| gave up (trylock) | cut short (contended) | mounts churned |',
           '|---|---|---|---|---|---|---|---|---|']
    for r in d['runs']:
        out.append(f"| {r['tree']} | {r['reclaimers']} | {'yes' if r['churn'] else 'no'} "
                   f"| {r['visits_per_s']:,.0f} | {r['worked_per_s']:,} | {r['freed']:,} "
                   f"| {r['trylock_fails']:,} | {r['contended_breaks']:,} "
                   f"| {r['churned_mounts']:,} |")
    out += ['', 'callgrind (1 reclaimer, no churn, instructions inside seed_reclaim; '
            'deterministic) beside the seed\'s perf top:', '',
            '| tree | lock functions (inclusive) | top self cost here | seed perf top |',
            '|---|---|---|---|']
    for tree, p in d['callgrind'].items():
        locks = ', '.join(f'{k} {v}%' for k, v in sorted(p['locks'].items(),
                                                          key=lambda kv: -kv[1]))
        top = ', '.join(f'{k} {v}%' for k, v in p['top_self'][:4])
        seed = ', '.join(f'{k} {v}%' for k, v in d['seed_perf'][tree])
        out.append(f"| {tree} | {p['lock_share']}% ({locks}) | {top} | {seed} |")
    pv = {t: p.get('per_visit', {}) for t, p in d['callgrind'].items()}
    if all(pv.values()):
        out += ['', 'Per memcg visit (callgrind, benchmark build: shim primitives at kernel '
                'cost; objects kept present; deterministic):', '',
                '| tree | kernel-code instructions | other instructions | kernel-code D1 misses '
                '| other D1 misses |', '|---|---|---|---|---|']
        for tree, v in pv.items():
            out.append(f"| {tree} | {v.get('kernel_insn', 0):,.0f} | {v.get('rest_insn', 0):,.0f} "
                       f"| {v.get('kernel_d1', 0):.1f} | {v.get('rest_d1', 0):.1f} |")
        a, b = pv.get('6.12', {}), pv.get('6.1', {})
        if a.get('kernel_insn') and b.get('kernel_insn'):
            out.append(f"\n6.12/6.1 kernel-code instructions per visit: "
                       f"{a['kernel_insn'] / b['kernel_insn']:.2f}; D1 misses: "
                       f"{a['kernel_d1'] / max(b['kernel_d1'], 0.1):.2f}")
    out += ['', 'perf (cpu-clock samples, wall clock; 2 reclaimers + mount churn, the '
            'contended case) beside the seed\'s perf top; host: = the machine\'s kernel:', '',
            '| tree | lock functions | top entries here | seed perf top |', '|---|---|---|---|']
    for tree, p in d.get('perf', {}).items():
        seed = ', '.join(f'{k} {v}%' for k, v in d['seed_perf'][tree])
        if 'error' in p:
            out.append(f"| {tree} | skipped: {p['error']} | | {seed} |")
            continue
        locks = ', '.join(f'{k} {v}%' for k, v in sorted(p['locks'].items(),
                                                          key=lambda kv: -kv[1]))
        top = ', '.join(f'{k} {v}%' for k, v in p['top'])
        out.append(f"| {tree} | {p['lock_share']}% ({locks}) | {top} | {seed} |")
    return '\n'.join(out)
