# SPDX-License-Identifier: GPL-2.0-only
"""Seed 002: the multi-gen LRU's memcg LRU vs mem_cgroup_iter, root reclaim.

Runs bench/seeds/seed_002 (build/release), one process per row, two at a
time: Yu Zhao's method for the memcg LRU (128 memcgs, each a task doing
random reads and writes over 1920 MiB / scale of its own memory at fio's
--rate=64m,64m scaled; a warm-up; then rounds of "256 MiB / scale to the
root's memory.reclaim, sleep 6 s", no global pressure) for 6.12's memcg
LRU, the seed's mem_cgroup_iter walk (mm/variants/memcg_iter_shrink_many.c)
and MGLRU off. Then the objection's experiment: kswapd reclaiming clean
page cache under global pressure from 1024 memcgs (a reader each), its
pages freed per second of its CPU time, three runs per row interleaved.
"""
import concurrent.futures
import json
import os
import statistics
import subprocess

TITLE = 'memcg LRU vs mem_cgroup_iter in MGLRU root reclaim (128 memcgs, memory.reclaim rounds)'
TARGETS = ['seed_002']
OPTIONS = ('scale', 'rounds', 'nodes')

# {tree}: the tree's series (tools/tb seed --kernel)
def series(ctx):
    """the tree's major.minor: what the rows not the seed's are"""
    return '.'.join(str(ctx['tb'].tree_version).split('.')[:2])


ROWS = [('lru', 'memcg LRU ({tree})'), ('iter', 'mem_cgroup_iter (seed)'), ('off', 'MGLRU off ({tree})')]
# the memcg LRU again, booted as Debian's kernel is (THP always): the
# workers' anonymous memory in THPs, where the tree has the world's THP
THP_ROW = ('lru+thp', 'memcg LRU ({tree}), THP always', 'lru', 'transparent_hugepage=always')
# stddev/mean of pgsteal, sum(pgsteal)/sum(requested), in %
SEED_CORRECTED = {'lru': (106.03, 98.10), 'iter': (93.20, 99.28)}
YU_ZHAO = {'off': (75, 425), 'lru': (20, 95)}
DEFAULT_SCALE, DEFAULT_ROUNDS = 16, 60
QUICK_SCALE, QUICK_ROUNDS = 64, 30
KSWAPD = {'memcgs': 1024, 'pages': 256, 'passes': 3, 'repeats': 3}


def spread(xs):
    m = statistics.mean(xs)
    return 100 * statistics.pstdev(xs) / m if m else 0.0


def execute(exe, args, env):
    p = subprocess.run([exe] + [str(a) for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode:
        raise RuntimeError(f'seed_002 {" ".join(map(str, args))} failed: {p.stderr.strip()}')
    return json.loads(p.stdout)


def fairness_row(raw):
    steal, ref = raw['pgsteal'], raw['refaults']
    requested = raw['rounds'] * raw['request_pages']
    return {'variant': raw['variant'], 'pgsteal': steal, 'refaults': ref,
            'requested_pages': requested, 'reclaimed_pages': sum(steal),
            'stddev_over_mean': round(spread(steal), 2),
            'steal_over_requested': round(100 * sum(steal) / requested, 2),
            'refault_spread': round(spread(ref), 2),
            'visits_per_page': round(raw['visits'] / sum(steal), 4) if sum(steal) else None,
            'eagain': raw['eagain'], 'node_reclaimed': raw['node_reclaimed'],
            'reclaim_calls': raw['reclaim_calls'], 'reclaim_asked': raw['reclaim_asked'],
            'reclaim_freed': raw['reclaim_freed'],
            # try_to_free_mem_cgroup_pages() calls per write, and what each
            # freed beyond its sc.nr_to_reclaim, on average
            'calls_per_write': round(raw['reclaim_calls'] / raw['rounds'], 2),
            'excess_per_call': round((raw['reclaim_freed'] - raw['reclaim_asked']) /
                                     raw['reclaim_calls'], 1) if raw['reclaim_calls'] else None}


def kswapd_row(variant, runs):
    rates = [r['pgsteal_kswapd'] / (r['kswapd_cpu_ns'] / 1e9) for r in runs if r['kswapd_cpu_ns']]
    r = runs[0]
    freed = r['pgsteal_kswapd'] + r['pgsteal_direct']
    return {'variant': variant, 'pages_per_cpu_s': [round(x) for x in rates],
            'median_pages_per_cpu_s': round(statistics.median(rates)) if rates else None,
            'pgsteal_kswapd': r['pgsteal_kswapd'], 'pgsteal_direct': r['pgsteal_direct'],
            'visits_per_page': round(r['visits'] / freed, 4) if freed else None,
            'stddev_over_mean': round(spread(r['pgsteal']), 2)}


def thp_tree(ctx):
    """whether the tree has the world's THP (6.12 on)"""
    import sys
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import tb_features
    return tb_features.probe(ctx['tb'].tree, tb_features.by_name('thp_folio_split'))[0]


def run(ctx):
    tb = ctx['tb']
    exe = os.path.join(ctx['bdir'], 'bench', 'seeds', 'seed_002')
    scale = ctx.get('scale') or (QUICK_SCALE if ctx['quick'] else DEFAULT_SCALE)
    rounds = ctx.get('rounds') or (600 if scale == 1 else
                                   QUICK_ROUNDS if ctx['quick'] else DEFAULT_ROUNDS)
    nodes = ctx.get('nodes') or 1
    env = tb.env()
    # a task's round at the seed's full size outlasts the hung-task
    # watchdog's 30 s of wall time without virtual progress on a busy host
    if scale < 4:
        env.setdefault('TB_WATCHDOG_SECONDS', '600')
    k = dict(KSWAPD, repeats=1) if ctx['quick'] else KSWAPD
    jobs = [('fair', v, ['--nodes', nodes, v, scale, rounds]) for v, _ in ROWS]
    fair_rows = list(ROWS)
    if thp_tree(ctx):
        key, name, variant, cmdline = THP_ROW
        jobs.append(('fair', key, ['--nodes', nodes, '--cmdline', cmdline, variant, scale, rounds]))
        fair_rows.append((key, name))
    jobs += [('kswapd', v, ['kswapd', v, k['memcgs'], k['pages'], k['passes']])
             for _ in range(k['repeats']) for v, _ in ROWS]
    workers = max(1, min(tb.jobs, 2))
    # at the seed's size the three walks are nearly all the work: all three
    # at once (~4.5 GB each), so none is left to run last on one core while
    # the other has only the short kswapd runs
    if scale == 1 and tb.jobs >= 2:
        workers = 3
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as ex:
        futs = [(kind, v, ex.submit(execute, exe, args, env)) for kind, v, args in jobs]
        out = [(kind, v, f.result()) for kind, v, f in futs]
    fair = {v: fairness_row(raw) for kind, v, raw in out if kind == 'fair'}
    rows = []
    tree = series(ctx)
    for v, name in fair_rows:
        row = dict(fair[v], name=name.format(tree=tree))
        if v in SEED_CORRECTED:
            row['seed_corrected'] = SEED_CORRECTED[v]
        if v in YU_ZHAO:
            row['yu_zhao'] = YU_ZHAO[v]
        rows.append(row)
    kswapd = [kswapd_row(v, [raw for kind, vv, raw in out if kind == 'kswapd' and vv == v])
              for v, _ in ROWS]
    any_raw = next(raw for kind, _, raw in out if kind == 'fair')
    data = {'scale': scale, 'rounds': rounds, 'nodes': nodes, 'swap': any_raw.get('swap'),
            'tree': tree,
            'memcgs': any_raw['memcgs'],
            'pages_per_memcg': any_raw['file_pages'], 'request_pages': any_raw['request_pages'],
            'accesses_per_round': any_raw['accesses_per_round'],
            'warmup_rounds': any_raw['warmup_rounds'], 'rows': rows,
            'kswapd': {'memcgs': k['memcgs'], 'pages_per_memcg': k['pages'],
                       'passes': k['passes'], 'repeats': k['repeats'], 'rows': kswapd}}
    lru, it = (next(r for r in kswapd if r['variant'] == v) for v in ('lru', 'iter'))
    if lru['median_pages_per_cpu_s'] and it['median_pages_per_cpu_s']:
        data['kswapd']['iter_over_lru'] = round(it['median_pages_per_cpu_s'] /
                                                lru['median_pages_per_cpu_s'], 3)
    data['plot'] = plot(data, ctx['outdir'])
    return data


def plot(d, outdir):
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    fig, axes = plt.subplots(1, len(d['rows']), figsize=(13, 3.6), sharey=True)
    for ax, r in zip(axes, d['rows']):
        mean = statistics.mean(r['pgsteal'])
        ax.hist([x / mean for x in r['pgsteal']], bins=32, color='tab:blue')
        ax.set_title(f'{r["name"]}\nstddev/mean {r["stddev_over_mean"]}%', fontsize=9)
        ax.set_xlabel('pgsteal / mean pgsteal (per memcg)')
    axes[0].set_ylabel('memcgs')
    fig.suptitle(f'seed 002: per-memcg pgsteal, {d["memcgs"]} memcgs, '
                 f'{d["rounds"]} rounds, scale 1/{d["scale"]}', fontsize=10)
    path = os.path.join(outdir, 'seed_002.png')
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def pct(p):
    return f'{p[0]:.2f}% / {p[1]:.2f}%' if isinstance(p[0], float) else f'{p[0]}% / {p[1]}%'


def render(d):
    W = max([23] + [len(r['name']) for r in d['rows']])
    out = [f'scale 1/{d["scale"]}: {d["memcgs"]} memcgs of {d["pages_per_memcg"]} pages '
           f'(1920 MiB/{d["scale"]}), {d["accesses_per_round"]} random accesses per memcg '
           f'per 6-s round, {d["rounds"]} rounds of {d["request_pages"]} pages '
           f'(256 MiB/{d["scale"]}) to the root memory.reclaim after {d["warmup_rounds"]} '
           f'warm-up rounds; swap on a {d.get("swap", "zram")}',
           f'{"walk":<{W}} {"stddev/mean":>11} {"steal/req":>9} {"refault":>8} '
           f'{"visits/pg":>9} | {"seed (corrected)":>17} {"Yu Zhao":>12}']
    for r in d['rows']:
        seed = pct(r['seed_corrected']) if 'seed_corrected' in r else ''
        yu = pct(r['yu_zhao']) if 'yu_zhao' in r else ''
        out.append(f'{r["name"]:<{W}} {r["stddev_over_mean"]:>10.2f}% '
                   f'{r["steal_over_requested"]:>8.2f}% {r["refault_spread"]:>7.2f}% '
                   f'{r["visits_per_page"]:>9.4f} | {seed:>17} {yu:>12}')
    out.append('(refault: stddev/mean of per-memcg refaults; visits/pg: lruvecs the walk '
               'handed to reclaim per page reclaimed)')
    nodes = d.get('nodes', 1)
    out.append('')
    out.append(f'{nodes} node(s); per write: try_to_free_mem_cgroup_pages() calls, pages each '
               'freed beyond its nr_to_reclaim; pages each node gave back, in all:')
    for r in d['rows']:
        per_node = ' '.join(str(x) for x in r['node_reclaimed'])
        out.append(f'{r["name"]:<{W}} {r["calls_per_write"]:>6.2f} calls/write '
                   f'{r["excess_per_call"]:>7.1f} excess/call  nodes: {per_node}')
    k = d['kswapd']
    out.append('')
    out.append(f'kswapd (one node), {k["memcgs"]} memcgs each reading {k["pages_per_memcg"]} pages of '
               f'clean page cache {k["passes"]}x (twice the RAM), {k["repeats"]} runs:')
    out.append(f'{"walk":<{W}} {"kswapd pages/CPU-s":>19} {"runs":>26} {"visits/pg":>9} '
               f'{"stddev/mean":>11}')
    names = {v: name.format(tree=d.get('tree', '6.12')) for v, name in ROWS}
    for r in k['rows']:
        runs = ' '.join(f'{x / 1e6:.2f}M' for x in r['pages_per_cpu_s'])
        med = r['median_pages_per_cpu_s']
        out.append(f'{names[r["variant"]]:<{W}} {med / 1e6 if med else 0:>18.2f}M {runs:>26} '
                   f'{r["visits_per_page"]:>9.4f} {r["stddev_over_mean"]:>10.2f}%')
    if 'iter_over_lru' in k:
        out.append(f'iter / memcg LRU throughput: {k["iter_over_lru"]:.3f} '
                   '(the seed\'s critics measured iter 41% slower)')
    if d.get('plot'):
        out.append(f'plot: {d["plot"]}')
    return '\n'.join(out)
