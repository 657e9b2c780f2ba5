# SPDX-License-Identifier: GPL-2.0-only
"""Seed 001: memory.high allocator throttling, on the real 6.12 memcontrol.c.

Runs bench/seeds/seed_001 (build/release) and sets its figures beside the
seed's: the penalty table (calculate_high_delay per charge batch, high =
100M, HZ = 1000) and the "after" curve of the seed's experiment (a task
touching 1 MB at a time under memory.high = 100M, no swap, futile
reclaim). The test bed has no CPU time: its per-MB figure is the virtual
time the task sleeps in mem_cgroup_handle_over_high(); the seed's figures
include ~1000 us/MB of real page-touching work.
"""
import json
import os
import subprocess

TITLE = 'memory.high throttling (penalty table and MDF curve, 6.12)'
TARGETS = ['seed_001']

# The seed's table (ms per batch, high = 100M, usage 100M..120M)
SEED_PENALTY_MS = [0, 6, 25, 57, 102, 159, 230, 313, 409, 518, 639, 774, 921,
                   1081, 1254, 1439, 1638, 1849, 2000, 2000, 2000]
# The seed's measured "after" (5.4): us per MB on the MBs after 100 MB, then
# a plateau of 8 x 2.048 s per MB (MEMCG_CHARGE_BATCH 32)
SEED_AFTER_US = {101: 84724, 102: 330628, 103: 610511, 104: 1016265, 105: 1503969}
SEED_PLATEAU_US = 16384000
SEED_BELOW_US = 1000


def run(ctx):
    exe = os.path.join(ctx['bdir'], 'bench', 'seeds', 'seed_001')
    p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=ctx['tb'].env())
    if p.returncode:
        raise RuntimeError(f'seed_001 failed: {p.stderr.strip()}')
    raw = json.loads(p.stdout)
    ms = 1000 // raw['hz']
    penalty = []
    for row, seed in zip(raw['penalty'], SEED_PENALTY_MS):
        mb = row['usage_mb']
        penalty.append({'usage_mb': mb, 'seed_ms': seed,
                        'calculate_high_delay_ms': row['raw_jiffies'] * ms,
                        'handle_over_high_sleeps_ms': row['slept_jiffies'] * ms,
                        'reclaim_calls': row['reclaim_calls']})
    exact = all(r['seed_ms'] == r['calculate_high_delay_ms']
                for r in penalty if r['usage_mb'] <= 117)
    mdf = [{'mb': r['mb'], 'throttle_us': r['throttle_us'],
            'seed_after_us': SEED_AFTER_US.get(r['mb'])}
           for r in raw['mdf'] if r['mb'] >= 95]
    png = plot(mdf, ctx['outdir'])
    return {'hz': raw['hz'], 'charge_batch': raw['charge_batch'], 'penalty_ms': penalty,
            'penalty_equals_seed_100_117': exact, 'mdf_us_per_mb': mdf,
            'mdf_plateau_us': max(r['throttle_us'] for r in mdf),
            'seed_plateau_us': SEED_PLATEAU_US, 'plot': png}


def plot(mdf, outdir):
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    xs = [r['mb'] for r in mdf]
    ax.plot(xs, [max(r['throttle_us'], 1) for r in mdf], 'o-',
            label='test bed, 6.12: throttle sleep per MB (virtual; 0 drawn at 1)')
    sx = sorted(SEED_AFTER_US)
    ax.plot(sx, [SEED_AFTER_US[x] for x in sx], 's--', label='seed, 5.4 "after" (measured)')
    ax.axhline(SEED_PLATEAU_US, color='gray', ls=':', label='seed plateau 16.38 s/MB')
    ax.axhline(SEED_BELOW_US, color='gray', ls='-.', lw=0.8, label='seed below high ~1 ms/MB')
    ax.set_yscale('log')
    ax.set_xlabel('memory usage (MB), memory.high = 100M')
    ax.set_ylabel('us per MB allocated')
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    path = os.path.join(outdir, 'seed_001_mdf.png')
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def render(d):
    out = [f'penalty_ms (high = 100M, HZ = {d["hz"]}, one batch of {d["charge_batch"]} pages):',
           f'{"usage":>6} {"seed":>6} {"calc":>6} {"slept":>6} {"reclaims":>8}']
    for r in d['penalty_ms']:
        out.append(f'{r["usage_mb"]:>5}M {r["seed_ms"]:>6} {r["calculate_high_delay_ms"]:>6} '
                   f'{r["handle_over_high_sleeps_ms"]:>6} {r["reclaim_calls"]:>8}')
    out.append('calculate_high_delay equals the seed\'s table for 100M..117M: '
               + ('yes' if d['penalty_equals_seed_100_117'] else 'NO'))
    out.append('')
    out.append('mdf_us_per_mb (memory.high = 100M, no swap, futile reclaim, 1 MB per step):')
    out.append(f'{"MB":>4} {"test bed us":>12} {"seed after us":>14}')
    for r in d['mdf_us_per_mb']:
        s = '' if r['seed_after_us'] is None else str(r['seed_after_us'])
        out.append(f'{r["mb"]:>4} {r["throttle_us"]:>12} {s:>14}')
    out.append(f'plateau: {d["mdf_plateau_us"] / 1e6:.2f} s/MB here (batch {d["charge_batch"]}, '
               f'clamp 2 s per batch) vs the seed\'s {d["seed_plateau_us"] / 1e6:.2f} s/MB (batch 32)')
    if d.get('plot'):
        out.append(f'plot: {d["plot"]}')
    return '\n'.join(out)
