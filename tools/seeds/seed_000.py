# SPDX-License-Identifier: GPL-2.0-only
"""Seed 000: memory.global_shrink_priority, ported to 6.12 as a variant.

Runs bench/seeds/seed_000 (build/release): the seed's experiment (2 CPUs,
1 GiB of RAM, 4 GiB of swap; t1 and t2 each write 850 MiB of anonymous
memory once, then read it again) for the real 6.12 code (control), and
with the variant for t2's value 12, 8 and 6. Throughput is virtual KB/s
(kernel-shim/world/vm.c's access costs); 100 MiB of the VM is held by the
rest of the system (not in the seed). The scan rate of a memcg at a
priority is pages scanned / LRU pages of the calls; t2's rate over t1's
should be 0 above t2's value and 2^-(12 - value) at or below it.
"""
import json
import os
import subprocess

TITLE = 'global shrink priority (usemem t1/t2, 1 GiB RAM, 4 GiB swap)'
TARGETS = ['seed_000']

# the seed's table: KB/s (t2, t1) for t2's value 12, 8, 6
SEED_FIRST = {12: (414852, 365894), 8: (541276, 448282), 6: (535692, 458615)}
SEED_READ = {12: (64401, 65679), 8: (130568, 94903), 6: (580878, 118771)}


def kbps(task, key):
    return task['bytes'] / 1024 / (task[key] / 1e9) if task[key] else 0.0


def scan_ratios(row):
    out = []
    for p, (s1, s2) in enumerate(zip(row['scanned']['t1'], row['scanned']['t2'])):
        r1 = s1[0] / s1[1] if s1[1] else None
        r2 = s2[0] / s2[1] if s2[1] else None
        ratio = round(r2 / r1, 4) if r1 and r2 is not None else None
        out.append({'priority': p, 't1_scanned': s1[0], 't2_scanned': s2[0], 't2_over_t1': ratio})
    return out


def run(ctx):
    exe = os.path.join(ctx['bdir'], 'bench', 'seeds', 'seed_000')
    scale = 8 if ctx['quick'] else 1
    p = subprocess.run([exe, str(scale)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, env=ctx['tb'].env())
    if p.returncode:
        raise RuntimeError(f'seed_000 failed: {p.stderr.strip()}')
    raw = json.loads(p.stdout)
    rows = []
    series = '.'.join(str(ctx['tb'].tree_version).split('.')[:2])
    for r in raw['rows']:
        t1, t2 = r['tasks']
        v = r['t2_value']
        name = f'control ({series})' if v < 0 else f'12/{v}'
        if r.get('thp'):
            name += ', THP always'
        row = {'variant': name, 't2_value': v, 'thp': bool(r.get('thp')),
               't2_first_kbps': round(kbps(t2, 'write_ns')), 't1_first_kbps': round(kbps(t1, 'write_ns')),
               't2_read_kbps': round(kbps(t2, 'read_ns')), 't1_read_kbps': round(kbps(t1, 'read_ns')),
               'scan': scan_ratios(r)}
        row['read_ratio'] = round(row['t2_read_kbps'] / row['t1_read_kbps'], 2)
        if v in SEED_READ:
            row['seed_read_kbps'] = SEED_READ[v]
            row['seed_first_kbps'] = SEED_FIRST[v]
            row['seed_read_ratio'] = round(SEED_READ[v][0] / SEED_READ[v][1], 2)
            row['expected_scan_ratio'] = 2.0 ** -(12 - v)
        rows.append(row)
    return {'scale': raw['scale'], 'rows': rows, 'plot': plot(rows, ctx['outdir'])}


def plot(rows, outdir):
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    names = [r['variant'] for r in rows]
    x = range(len(rows))
    a.bar([i - 0.2 for i in x], [r['t2_read_kbps'] for r in rows], 0.2, label='t2, test bed')
    a.bar([i for i in x], [r['t1_read_kbps'] for r in rows], 0.2, label='t1, test bed')
    a.bar([i + 0.2 for i in x], [r.get('seed_read_kbps', (0, 0))[0] for r in rows], 0.2,
          label='t2, seed')
    a.bar([i + 0.4 for i in x], [r.get('seed_read_kbps', (0, 0))[1] for r in rows], 0.2,
          label='t1, seed')
    a.set_xticks(list(x), names)
    a.set_yscale('log')
    a.set_ylabel('read-again KB/s')
    a.legend(fontsize=7)
    for r in rows:
        if r['t2_value'] in (8, 6):
            ps = [s['priority'] for s in r['scan'] if s['t2_over_t1'] is not None]
            b.plot(ps, [s['t2_over_t1'] for s in r['scan'] if s['t2_over_t1'] is not None],
                   'o-', label=f't2 value {r["t2_value"]}')
            b.axhline(r['expected_scan_ratio'], ls=':', color='gray')
    b.set_yscale('log')
    b.set_xlabel('sc->priority')
    b.set_ylabel("t2's scan rate / t1's")
    b.legend(fontsize=7)
    path = os.path.join(outdir, 'seed_000.png')
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def render(d):
    W = max([15] + [len(r['variant']) for r in d['rows']])
    out = [f'scale 1/{d["scale"]} (RAM, swap and usemem sizes divided by it); KB/s are virtual',
           f'{"setting":<{W}} {"t2 first":>9} {"t1 first":>9} {"t2 read":>9} {"t1 read":>9} '
           f'{"t2/t1":>6} | {"seed t2 read":>12} {"seed t1 read":>12} {"seed t2/t1":>10}']
    for r in d['rows']:
        s = r.get('seed_read_kbps')
        seed = (f'{s[0]:>12} {s[1]:>12} {r["seed_read_ratio"]:>10}' if s else f'{"":>12} {"":>12} {"":>10}')
        out.append(f'{r["variant"]:<{W}} {r["t2_first_kbps"]:>9} {r["t1_first_kbps"]:>9} '
                   f'{r["t2_read_kbps"]:>9} {r["t1_read_kbps"]:>9} {r["read_ratio"]:>6} | {seed}')
    out.append('')
    out.append("t2's scan rate / t1's per sc->priority (expected 0 above t2's value, 2^-(12-value) below):")
    out.append(f'{"setting":<{W}} ' + ' '.join(f'{p:>6}' for p in range(13)) + f' {"expect":>7}')
    for r in d['rows']:
        cells = []
        for s in r['scan']:
            if s['t2_over_t1'] is None:
                cells.append(f'{"0" if s["t1_scanned"] and not s["t2_scanned"] else "-":>6}')
            else:
                cells.append(f'{s["t2_over_t1"]:>6.3f}')
        exp = r.get('expected_scan_ratio')
        out.append(f'{r["variant"]:<{W}} ' + ' '.join(cells) + (f' {exp:>7.4f}' if exp else ''))
    if d.get('plot'):
        out.append(f'plot: {d["plot"]}')
    return '\n'.join(out)
