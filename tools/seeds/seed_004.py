# SPDX-License-Identifier: GPL-2.0-only
"""Seed 004: the obj stock keeps reclaimable and unreclaimable bytes.

Runs bench/seeds/seed_004 (build/release): each trace through 6.12's
mod_objcg_state ("after") and through the single-slot variant of
mm/variants/obj_stock_single_slot.c ("before"); miss rate = calls of
__mod_objcg_mlstate (the seed's __mod_objcg_state) / calls of
mod_objcg_state. The traces are defined in bench/seeds/seed_004.c.
"""
import json
import os
import subprocess

TITLE = 'obj stock miss rate, single slot (before) vs two byte counters (after)'
TARGETS = ['seed_004']
# the "before" variant stands in for mod_objcg_state(), and the miss rate
# counts its calls
NEEDS = ['mod_objcg_state']
NEEDS_WHY = ('the seed\'s single-slot "before" variant replaces mod_objcg_state() and '
             'the miss rate counts its calls; 7.2\'s obj stock keeps both byte counters '
             'in each of its NR_OBJ_STOCK slots (memcg_stock_slots), the seed\'s change '
             'carried further')

SEED = {'boot': (19.6, 13.2), 'kernel_build': (17.1, 16.9)}
SINGLE_TYPE = {'reclaimable_only'}


def run(ctx):
    exe = os.path.join(ctx['bdir'], 'bench', 'seeds', 'seed_004')
    args = [exe, '50000' if ctx['quick'] else '200000']
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=ctx['tb'].env())
    if p.returncode:
        raise RuntimeError(f'seed_004 failed: {p.stderr.strip()}')
    raw = json.loads(p.stdout)
    rows = []
    for t in raw['traces']:
        b, a = t['before'], t['after']
        rb = 100.0 * b['__mod_objcg_state'] / b['mod_objcg_state']
        ra = 100.0 * a['__mod_objcg_state'] / a['mod_objcg_state']
        seed = SEED.get(t['name'])
        rows.append({'trace': t['name'], 'before': b, 'after': a,
                     'before_miss_pct': round(rb, 1), 'after_miss_pct': round(ra, 1),
                     'seed_before_pct': seed[0] if seed else None,
                     'seed_after_pct': seed[1] if seed else None,
                     'after_le_before': a['__mod_objcg_state'] <= b['__mod_objcg_state'],
                     'equal_if_single_type': (a['__mod_objcg_state'] == b['__mod_objcg_state'])
                     if t['name'] in SINGLE_TYPE else None})
    return {'operations': raw['operations'], 'traces': rows,
            'after_le_before_everywhere': all(r['after_le_before'] for r in rows),
            'single_type_equal': all(r['equal_if_single_type'] for r in rows
                                     if r['equal_if_single_type'] is not None)}


def render(d):
    out = [f'{d["operations"]} operations per trace; miss rate = __mod_objcg_state / mod_objcg_state',
           f'{"trace":<18} {"before":>8} {"after":>8} {"seed before":>12} {"seed after":>11}']
    for r in d['traces']:
        sb = '' if r['seed_before_pct'] is None else f'{r["seed_before_pct"]:.1f}%'
        sa = '' if r['seed_after_pct'] is None else f'{r["seed_after_pct"]:.1f}%'
        out.append(f'{r["trace"]:<18} {r["before_miss_pct"]:>7.1f}% {r["after_miss_pct"]:>7.1f}% '
                   f'{sb:>12} {sa:>11}')
    out.append('after <= before on every trace: ' + ('yes' if d['after_le_before_everywhere'] else 'NO'))
    out.append('equal on single-type traces: ' + ('yes' if d['single_type_equal'] else 'NO'))
    out.append('(boot and kernel_build are this test bed\'s stand-in mixes for the seed\'s '
               'workloads; see bench/seeds/seed_004.c)')
    return '\n'.join(out)
