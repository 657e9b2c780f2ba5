# SPDX-License-Identifier: GPL-2.0-only
"""tb oracle seed NNN: a seed's experiment on the real kernel (tools/tb vm)
beside the world's run of the same experiment at the same size.

000: two cgroups t1 and t2, each a usemem task (tests/oracle/usemem.c:
write every page of its anonymous memory once, then read it again), with
swap; rows: the stock kernel (control), then a kernel built with
tools/seeds/patches/000-global-shrink-priority.patch and t2's value 12, 8
and 6. Each row runs twice on the real kernel: with vm.page-cluster 3
(the kernel's default swap readahead, as the seed ran) and 0 (one page
per swap-in fault, as the world swaps in: it has no swap readahead).
"""
import json
import os
import statistics
import subprocess
import time

import tb_vm

PATCHES = 'tools/seeds/patches'
SEED0_PATCH = '000-global-shrink-priority.patch'
BASE_CMDLINE = 'transparent_hugepage=never'


class SeedError(Exception):
    pass


def static_binary(tb, name):
    src = os.path.join(tb.repo, 'tests', 'oracle', name + '.c')
    out = os.path.join(tb_vm.vm_dir(tb, 'seeds', 'bin'), name)
    deps = [src, os.path.join(tb.repo, 'tests', 'oracle', 'guest.h')]
    if not os.path.exists(out) or os.path.getmtime(out) < max(map(os.path.getmtime, deps)):
        p = subprocess.run(['gcc', '-O2', '-Wall', '-static', '-o', out, src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode:
            raise SeedError(f'{name}.c does not build: {p.stdout.strip().splitlines()[-1]}')
    return out


# ---- seed 000 ---------------------------------------------------------------
def seed0_script(scale, value, cluster):
    size = 850 * 1024 * 1024 // scale
    s = [tb_vm.MEMFREE_CMD,
         'echo n > /sys/kernel/mm/lru_gen/enabled',
         f'echo {cluster} > /proc/sys/vm/page-cluster',
         'mkdir /sys/fs/cgroup/t1 /sys/fs/cgroup/t2']
    if value is not None:
        s.append(f'echo {value} > /sys/fs/cgroup/t2/memory.global_shrink_priority || exit 3')
    # usemem's 850 MiB + 8 bytes for t1, as the seed ran it
    s.append(f'/tb/bin/usemem t1 {size + 8} & /tb/bin/usemem t2 {size} & wait')
    s.append('for c in t1 t2; do grep -E "^(pgmajfault|pgscan|pgsteal|workingset_refault_anon) "'
             ' /sys/fs/cgroup/$c/memory.stat | sed "s/^/@@STAT $c /"; done')
    s.append('grep -E "^(pswpin|pswpout) " /proc/vmstat | sed "s/^/@@VMSTAT /"')
    return '\n'.join(s) + '\n'


def parse_seed0(out):
    r = {'tasks': {}, 'stat': {'t1': {}, 't2': {}}, 'vmstat': {}}
    for line in out.splitlines():
        f = line.split()
        if line.startswith('@@USEMEM') and len(f) >= 7:
            r['tasks'][f[1]] = {'bytes': int(f[2]), 'write_us': int(f[3]), 'read_us': int(f[4]),
                                'write_majflt': int(f[5]), 'read_majflt': int(f[6])}
        elif line.startswith('@@STAT') and len(f) == 4:
            r['stat'][f[1]][f[2]] = int(f[3])
        elif line.startswith('@@VMSTAT') and len(f) == 3:
            r['vmstat'][f[1]] = int(f[2])
    if set(r['tasks']) != {'t1', 't2'}:
        raise SeedError('the guest printed no usemem result (see the console log)')
    return r


def kbps(nbytes, us):
    return nbytes / 1024 / (us / 1e6) if us else 0.0


def real_row(tb, kernel, scale, value, cluster, say):
    opts = {'mem': 1024 // scale, 'swap': 4096 // scale, 'cpus': 2, 'nodes': 1,
            'disk': 64, 'cmdline': BASE_CMDLINE}
    files = {'/tb/bin/usemem': static_binary(tb, 'usemem')}
    r = tb_vm.boot(tb, kernel, seed0_script(scale, value, cluster), opts, say,
                   files=files, timeout=3600)
    if r['status'] != 0:
        raise SeedError(f'seed 000 in the guest: {r["why"] or "exit status " + str(r["status"])} '
                        f'(console log: {os.path.relpath(r["console"], tb.repo)})')
    d = parse_seed0(r['output'])
    d['seconds'] = r['seconds']
    d['reserved_mib'] = tb_vm.reserved_mib(r['output'], opts['mem'])
    return d


def figures_real(d):
    t1, t2 = d['tasks']['t1'], d['tasks']['t2']
    k1, k2 = kbps(t1['bytes'], t1['read_us']), kbps(t2['bytes'], t2['read_us'])
    return {'t1_read_kbps': k1, 't2_read_kbps': k2, 'read_ratio': k2 / k1 if k1 else None,
            't1_first_kbps': kbps(t1['bytes'], t1['write_us']),
            't2_first_kbps': kbps(t2['bytes'], t2['write_us']),
            't1_majflt': d['stat']['t1'].get('pgmajfault'), 't2_majflt': d['stat']['t2'].get('pgmajfault'),
            't1_pgsteal': d['stat']['t1'].get('pgsteal'), 't2_pgsteal': d['stat']['t2'].get('pgsteal'),
            't1_pgscan': d['stat']['t1'].get('pgscan'), 't2_pgscan': d['stat']['t2'].get('pgscan'),
            'pswpin': d['vmstat'].get('pswpin'), 'pswpout': d['vmstat'].get('pswpout')}


def world_seed0(tb, m, scale, reserved_mib):
    bdir = m.release_build(tb, ['seed_000'])
    exe = os.path.join(bdir, 'bench', 'seeds', 'seed_000')
    t0 = time.time()
    # the guest swaps to a virtio disk
    p = subprocess.run([exe, str(scale), str(reserved_mib), 'disk'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, env=tb.env())
    if p.returncode:
        raise SeedError(f'the world\'s seed_000 failed: {p.stderr.strip()}')
    rows = {}
    for r in json.loads(p.stdout)['rows']:
        # the guest boots with THP never: the world's THP-always row has no pair
        if r.get('thp'):
            continue
        t1, t2 = r['tasks']
        k1 = kbps(t1['bytes'], t1['read_ns'] / 1000)
        k2 = kbps(t2['bytes'], t2['read_ns'] / 1000)
        st = r.get('stat', {})
        rows[r['t2_value']] = {
            't1_read_kbps': k1, 't2_read_kbps': k2, 'read_ratio': k2 / k1 if k1 else None,
            't1_first_kbps': kbps(t1['bytes'], t1['write_ns'] / 1000),
            't2_first_kbps': kbps(t2['bytes'], t2['write_ns'] / 1000),
            't1_majflt': st.get('t1', {}).get('pgmajfault'),
            't2_majflt': st.get('t2', {}).get('pgmajfault'),
            't1_pgsteal': st.get('t1', {}).get('pgsteal'), 't2_pgsteal': st.get('t2', {}).get('pgsteal'),
            't1_pgscan': st.get('t1', {}).get('pgscan'), 't2_pgscan': st.get('t2', {}).get('pgscan')}
    return rows, time.time() - t0


def seed0_kernels(tb, say, need_patch):
    stock = tb_vm.kernel_for(tb, None, say)
    patched = None
    if need_patch:
        try:
            patch = tb_vm.seed_patch(tb, os.path.join(tb.repo, PATCHES), SEED0_PATCH)
        except tb_vm.VmError as e:
            raise SeedError(str(e))
        patched = tb_vm.kernel_for(tb, patch, say)
    return stock, patched


def run_seed0(tb, m, say):
    a = tb.a
    scale = a.scale or 2
    if 1024 % scale or scale > 8:
        raise SeedError(f'--scale wants 1, 2, 4 or 8, not {scale}')
    values = [12, 8, 6]
    stock, patched = seed0_kernels(tb, say, True)
    rows = [('control', stock, None)] + [(f'12/{v}', patched, v) for v in values]
    clusters = [3, 0]
    say(f'oracle seed 000: {len(rows)} rows x page-cluster {clusters} on the real kernel, '
        f'1/{scale} of the seed\'s size ({1024 // scale} MiB RAM, {4096 // scale} MiB swap, '
        f'2 x {850 // scale} MiB)')
    real = {}
    for name, kernel, value in rows:
        for c in clusters:
            t0 = time.time()
            d = real_row(tb, kernel, scale, value, c, say)
            real[(name, c)] = dict(figures_real(d), seconds=time.time() - t0,
                                   reserved_mib=d['reserved_mib'])
            f = real[(name, c)]
            say(f'oracle seed 000: {name} page-cluster {c}: t2/t1 read-again {f["read_ratio"]:.2f} '
                f'({f["seconds"]:.0f}s)')
    # the world's machine holds what the guest's kernel held of its RAM at start
    reserved = sorted(v['reserved_mib'] for v in real.values())[len(real) // 2]
    world, wsecs = world_seed0(tb, m, scale, reserved * scale)
    res = {'scale': scale, 'reserved_mib': reserved, 'world_seconds': wsecs,
           'kernel_stock': stock['what'], 'kernel_patched': patched['what'],
           'rows': []}
    for name, _, value in rows:
        wv = world.get(-1 if value is None else value)
        for c in clusters:
            res['rows'].append({'row': name, 'page_cluster': c, 'real': real[(name, c)],
                                'world': wv})
    return res


# ---- seed 001 ---------------------------------------------------------------
def seed1_script(max_mb):
    keys = 'anon|file|kernel|kernel_stack|pagetables|percpu|sock|slab'
    return '\n'.join([
        'echo n > /sys/kernel/mm/lru_gen/enabled',
        'mkdir /sys/fs/cgroup/t',
        'echo 100M > /sys/fs/cgroup/t/memory.high',
        f'/tb/bin/mdf t {max_mb} > /tmp/mdf.out || exit 1',
        f'grep -E "^(@@MDF|@@STAT (current|{keys}) )" /tmp/mdf.out',
        'grep -E "^(high|max|oom) " /sys/fs/cgroup/t/memory.events | sed "s/^/@@EVENT /"']) + '\n'


def run_seed1(tb, m, say):
    max_mb = 110
    kernel = tb_vm.kernel_for(tb, None, say)
    say(f'oracle seed 001: memory.high = 100M, a task allocating 1 MB at a time up to {max_mb} MB, '
        f'no swap, on {kernel["what"]}')
    r = tb_vm.boot(tb, kernel, seed1_script(max_mb),
                   {'mem': 1024, 'cpus': 2, 'nodes': 1, 'disk': 64, 'swap': 0,
                    'cmdline': BASE_CMDLINE}, say,
                   files={'/tb/bin/mdf': static_binary(tb, 'mdf')}, timeout=1800)
    if r['status'] != 0:
        raise SeedError(f'seed 001 in the guest: {r["why"] or "exit status " + str(r["status"])} '
                        f'(console log: {os.path.relpath(r["console"], tb.repo)})')
    real, stat, events = {}, {}, {}
    for line in r['output'].splitlines():
        f = line.split()
        if line.startswith('@@MDF') and len(f) == 3:
            real[int(f[1])] = int(f[2])
        elif line.startswith('@@STAT') and len(f) == 3:
            stat[f[1]] = int(f[2])
        elif line.startswith('@@EVENT') and len(f) == 3:
            events[f[1]] = int(f[2])
    bdir = m.release_build(tb, ['seed_001'])
    p = subprocess.run([os.path.join(bdir, 'bench', 'seeds', 'seed_001'), str(max_mb)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=tb.env())
    if p.returncode:
        raise SeedError(f'the world\'s seed_001 failed: {p.stderr.strip()}')
    wd = json.loads(p.stdout)
    world = {x['mb']: x['throttle_us'] for x in wd['mdf']}
    return {'kernel': kernel['what'], 'max_mb': max_mb, 'real_us': real, 'world_us': world,
            'world_hz': wd['hz'], 'real_stat': stat, 'real_events': events,
            'real_seconds': r['seconds']}


def render_seed1(res):
    # int keys, also when read back from the results' JSON
    res = dict(res, real_us={int(k): v for k, v in res['real_us'].items()},
               world_us={int(k): v for k, v in res['world_us'].items()})
    out = [f'seed 001: memory.high = 100M, 1 MB at a time, no swap; real: {res["kernel"]} '
           f'(HZ 250, wall-clock us per MB: throttling sleep + page-touching work under TCG); '
           f'world: virtual sleep in mem_cgroup_handle_over_high() (HZ {res["world_hz"]})', '',
           f'{"MB":>4} {"real us":>10} {"world us":>10} {"diff":>8}']
    for mb in range(95, res['max_mb'] + 1):
        rv, wv = res['real_us'].get(mb), res['world_us'].get(mb)
        d = f'{100 * (wv - rv) / max(rv, wv):+.1f}%' if rv and wv is not None and max(rv, wv) else '-'
        out.append(f'{mb:>4} {rv if rv is not None else "-":>10} '
                   f'{wv if wv is not None else "-":>10} {d:>8}')
    st = res['real_stat']
    extra = st.get('current', 0) - st.get('anon', 0)
    out.append('')
    out.append('real memory.stat at the end (bytes): ' +
               ', '.join(f'{k} {v:,}' for k, v in sorted(st.items())))
    out.append(f'charged besides anon on the real kernel (memory.current - anon, the task still '
               f'alive): {extra / 2**20:.2f} MiB; '
               f'the world charges a task\'s anon only. Events: ' +
               ', '.join(f'{k} {v}' for k, v in sorted(res['real_events'].items())))
    below = [v for k, v in res['real_us'].items() if 90 <= k <= 100]
    if below:
        out.append(f'the real task\'s own work per MB below memory.high (MB 90-100): '
                   f'{sum(below) / len(below) / 1000:.1f} ms (the world counts none)')
    out.append(f'time: real {res["real_seconds"]:.0f}s')
    return '\n'.join(out)


# ---- seed 002 ---------------------------------------------------------------
SEED2_PATCH = '002-memcg-iter.patch'
SEED2 = {'memcgs': 128, 'scale': 256, 'rounds': 30, 'warmup': 2, 'round_s': 6}
# The guest swaps to a virtio disk: a page reclaim writes is freed by a
# later pass, after its write completes. The world's disk is given the
# latency at which it matches the guest on what that latency decides, the
# share of written pages rotated (freed by a later pass, not the one that
# wrote them): 97-99% real; in the world 71-91% at its default 20 us (an
# SSD beside a native CPU), 98-99% at 30 us, 100% from 40 us on. Both
# sides' shares are printed with every run.
SEED2_DISK_WRITE_US = 30


def seed2_sizes(cfg):
    mib = 1024 * 1024
    pages = 1920 * mib // 4096 // cfg['scale']
    return {'pages': pages, 'request': 256 * mib // cfg['scale'],
            'accesses': 128 * mib // 4096 * cfg['round_s'] // cfg['scale'],
            'mem': max(1024, (cfg['memcgs'] * pages * 4096 // mib) * 2),
            'swap': max(512, cfg['memcgs'] * pages * 4096 // mib)}


def seed2_script(cfg):
    z = seed2_sizes(cfg)
    n = cfg['memcgs']
    # on several nodes, as the world places them: memcg i's task on CPU
    # i mod 4 (CPU k is on node k), the writer on CPU 0
    pin = cfg.get('nodes', 1) > 1
    task = 'taskset -c $((i % 4)) ' if pin else ''
    writer = 'taskset -p -c 0 $$ >/dev/null; ' if pin else ''
    return '\n'.join([
        'echo y > /sys/kernel/mm/lru_gen/enabled',
        f'i=0; while [ $i -lt {n} ]; do mkdir /sys/fs/cgroup/test$i; '
        f'{task}/tb/bin/randrw test$i {z["pages"]} {z["accesses"]} {cfg["round_s"] * 1000} $i & '
        'i=$((i + 1)); done',
        writer,
        f'sleep {cfg["warmup"] * cfg["round_s"]}',
        f'i=0; while [ $i -lt {n} ]; do echo "@@S0 $i $(grep -E "^pgsteal " '
        '/sys/fs/cgroup/test$i/memory.stat | cut -d" " -f2)"; echo "@@R0 $i $(grep -E '
        '"^workingset_refault_anon " /sys/fs/cgroup/test$i/memory.stat | cut -d" " -f2)"; '
        'i=$((i + 1)); done',
        'echo "@@G0 $(grep -E "^pgsteal_" /proc/vmstat | awk \'{s += $2} END {print s}\')"',
        'grep -E "^(pswpout|pgrotated) " /proc/vmstat | sed "s/^/@@V0 /"',
        # what the rest of the guest holds: the root's own memory, reclaimed too
        'grep -E "^(anon|file|shmem) " /sys/fs/cgroup/memory.stat | sed "s/^/@@ROOT /"',
        'eagain=0; r=0',
        f'while [ $r -lt {cfg["rounds"]} ]; do echo {z["request"]} > /sys/fs/cgroup/memory.reclaim '
        f'2>/dev/null || eagain=$((eagain + 1)); sleep {cfg["round_s"]}; r=$((r + 1)); done',
        f'i=0; while [ $i -lt {n} ]; do echo "@@S1 $i $(grep -E "^pgsteal " '
        '/sys/fs/cgroup/test$i/memory.stat | cut -d" " -f2)"; echo "@@R1 $i $(grep -E '
        '"^workingset_refault_anon " /sys/fs/cgroup/test$i/memory.stat | cut -d" " -f2)"; '
        'i=$((i + 1)); done',
        'echo "@@G1 $(grep -E "^pgsteal_" /proc/vmstat | awk \'{s += $2} END {print s}\')"',
        'grep -E "^(pswpout|pgrotated) " /proc/vmstat | sed "s/^/@@V1 /"',
        'echo "@@EAGAIN $eagain"',
        'killall randrw 2>/dev/null; wait']) + '\n'


def spread(xs):
    m = statistics.mean(xs) if xs else 0
    return 100 * statistics.pstdev(xs) / m if m else 0.0


def seed2_figures(steal, requested):
    return {'stddev_over_mean': spread(steal),
            'steal_over_requested': 100 * sum(steal) / requested if requested else None,
            'reclaimed_pages': sum(steal), 'pgsteal': steal}


def seed2_real_run(tb, cfg, z, k, files, requested, name, say):
    r = tb_vm.boot(tb, k, seed2_script(cfg), {'mem': z['mem'], 'swap': z['swap'], 'cpus': 4,
                                              'nodes': cfg['nodes'], 'disk': 64,
                                              'cmdline': BASE_CMDLINE},
                   say, files=files, timeout=7200)
    if r['status'] is None:
        raise SeedError(f'seed 002 in the guest: {r["why"]} '
                        f'(console log: {os.path.relpath(r["console"], tb.repo)})')
    s0, s1, eagain, glob_steal = {}, {}, 0, {}
    r0, r1, root = {}, {}, {}
    vm = {'@@V0': {}, '@@V1': {}}
    for line in r['output'].splitlines():
        f = line.split()
        if len(f) == 3 and f[0] in ('@@S0', '@@S1') and f[2].isdigit():
            (s0 if f[0] == '@@S0' else s1)[int(f[1])] = int(f[2])
        elif len(f) == 3 and f[0] in ('@@R0', '@@R1') and f[2].isdigit():
            (r0 if f[0] == '@@R0' else r1)[int(f[1])] = int(f[2])
        elif len(f) == 3 and f[0] == '@@ROOT' and f[2].isdigit():
            root[f[1]] = int(f[2])
        elif len(f) == 3 and f[0] in ('@@V0', '@@V1') and f[2].isdigit():
            vm[f[0]][f[1]] = int(f[2])
        elif line.startswith('@@EAGAIN') and len(f) == 2:
            eagain = int(f[1])
        elif len(f) == 2 and f[0] in ('@@G0', '@@G1') and f[1].isdigit():
            glob_steal[f[0]] = int(f[1])
    steal = [s1[i] - s0.get(i, 0) for i in sorted(s1)]
    if len(steal) != cfg['memcgs']:
        raise SeedError(f'seed 002 ({name}): the guest printed {len(steal)} memcgs\' pgsteal '
                        f'(console log: {os.path.relpath(r["console"], tb.repo)})')
    # every memcg's, the root's own and the system's included (/proc/vmstat)
    total = glob_steal.get('@@G1', 0) - glob_steal.get('@@G0', 0)
    f = dict(seed2_figures(steal, requested), eagain=eagain,
             all_steal_over_requested=100 * total / requested, seconds=r['seconds'],
             kernel=k['what'], refault=[r1.get(i, 0) - r0.get(i, 0) for i in sorted(r1)],
             root_bytes=root, **{k2: vm['@@V1'].get(k2, 0) - vm['@@V0'].get(k2, 0)
                                 for k2 in ('pswpout', 'pgrotated')},
             all_steal=total)
    say(f'oracle seed 002: {name}: real {f["stddev_over_mean"]:.1f}% stddev/mean, '
        f'{f["steal_over_requested"]:.1f}% of requested ({r["seconds"]:.0f}s)')
    return f


def run_seed2(tb, m, say):
    cfg = dict(SEED2)
    if tb.a.scale:
        cfg['scale'] = tb.a.scale
    if tb.a.rounds:
        cfg['rounds'] = tb.a.rounds
    # the seed's machine had 4 nodes: QEMU's NUMA nodes beside the world's
    cfg['nodes'] = tb.a.nodes or 1
    z = seed2_sizes(cfg)
    try:
        patch = tb_vm.seed_patch(tb, os.path.join(tb.repo, PATCHES), SEED2_PATCH)
    except tb_vm.VmError as e:
        raise SeedError(str(e))
    # both walks on kernels built from the tree with one configuration: the
    # memcg LRU (6.12 as it is) without a patch, the seed's walk with its
    # diff; only mm/vmscan.c differs between the two
    kernels = {'lru': tb_vm.kernel_for(tb, None, say, built=True),
               'iter': tb_vm.kernel_for(tb, patch, say)}
    runs = tb.a.runs or 1
    say(f'oracle seed 002: {cfg["memcgs"]} memcgs x {z["pages"] * 4 // 1024} MiB (1/{cfg["scale"]} of '
        f'the seed\'s per-memcg size), {cfg["rounds"]} rounds of {z["request"] >> 20} MiB to the '
        f'root\'s memory.reclaim every {cfg["round_s"]} s; {z["mem"]} MiB RAM, {z["swap"]} MiB swap; '
        f'{runs} run(s) per walk')
    res = {'cfg': cfg, 'sizes': z, 'rows': {}, 'runs': runs}
    requested = cfg['rounds'] * z['request'] // 4096
    files = {'/tb/bin/randrw': static_binary(tb, 'randrw')}
    for name, k in kernels.items():
        every = [seed2_real_run(tb, cfg, z, k, files, requested, name, say) for _ in range(runs)]
        # the run of median fairness stands for the walk; every run's figures beside it
        order = sorted(every, key=lambda f: f['stddev_over_mean'])
        res['rows'][name] = {'real': dict(order[(len(order) - 1) // 2], runs=[
            {k2: f[k2] for k2 in ('stddev_over_mean', 'steal_over_requested',
                                  'all_steal_over_requested', 'seconds')} for f in every])}
    bdir = m.release_build(tb, ['seed_002'])
    exe = os.path.join(bdir, 'bench', 'seeds', 'seed_002')
    for name in kernels:
        t0 = time.time()
        opts = ['--nodes', str(cfg['nodes'])] if cfg['nodes'] > 1 else []
        opts += ['--swap', 'disk', '--disk-write-us', str(SEED2_DISK_WRITE_US)]
        p = subprocess.run([exe] + opts + [name, str(cfg['scale']), str(cfg['rounds']),
                                            str(cfg['warmup']), str(cfg['memcgs'])], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=tb.env())
        if p.returncode:
            raise SeedError(f'the world\'s seed_002 {name} failed: {p.stderr.strip()}')
        raw = json.loads(p.stdout)
        wreq = raw['rounds'] * raw['request_pages']
        res['rows'][name]['world'] = dict(seed2_figures(raw['pgsteal'], wreq),
                                          eagain=raw.get('eagain'), seconds=time.time() - t0,
                                          refault=raw.get('refaults'), pswpout=raw.get('pswpout'),
                                          pgrotated=raw.get('pgrotated'))
    res['requested_pages'] = requested
    return res


def swap_shares(f):
    """written/freed and rotated/written, or dashes for a run that has none"""
    freed = f.get('all_steal') or f.get('reclaimed_pages')
    out, rot = f.get('pswpout'), f.get('pgrotated')
    if not out or not freed or rot is None:
        return f'{"-":>14} {"-":>8}'
    return f'{out / freed:>14.2f} {100 * rot / out:>7.1f}%'


def render_seed2(res):
    cfg, z = res['cfg'], res['sizes']
    out = [f'seed 002: {cfg["memcgs"]} memcgs, {z["pages"] * 4 // 1024} MiB each, {cfg["rounds"]} '
           f'rounds of {z["request"] >> 20} MiB to the root\'s memory.reclaim (MGLRU on'
           f'{", %d nodes" % cfg["nodes"] if cfg.get("nodes", 1) > 1 else ""}); '
           f'requested {res["requested_pages"]:,} pages', '',
           f'{"walk":<6} {"side":<6} {"stddev/mean":>12} {"steal/requested":>16} {"eagain":>7} '
           f'{"written/freed":>14} {"rotated":>8} {"time":>7}']
    for name, row in res['rows'].items():
        for side in ('real', 'world'):
            f = row.get(side)
            if not f:
                continue
            out.append(f'{name:<6} {side:<6} {f["stddev_over_mean"]:>11.1f}% '
                       f'{f["steal_over_requested"]:>15.1f}% {f.get("eagain") or 0:>7} '
                       f'{swap_shares(f)} {f["seconds"]:>6.0f}s'
                       + (f'   (all memcgs and the root: {f["all_steal_over_requested"]:.1f}%)'
                          if 'all_steal_over_requested' in f else ''))
            if len(f.get('runs', [])) > 1:
                out.append(f'{"":<6} {"runs":<6} ' + ', '.join(
                    f'{x["stddev_over_mean"]:.1f}% / {x["steal_over_requested"]:.1f}%'
                    for x in f['runs']) + ' (stddev/mean / steal/requested, each run)')
    out.append('')
    out.append('written/freed: pages written to swap per page reclaimed (every memcg and the '
               'root on the real side); rotated: written pages freed by a later pass, after '
               'their write (pgrotated/pswpout). The world swaps to a disk whose writes take '
               f'{SEED2_DISK_WRITE_US} us.')
    for name, row in res['rows'].items():
        out.append(f'{name}: real kernel {row["real"]["kernel"]}')
    out.append('seed (corrected, 128 memcgs x 1920 MiB, 600 rounds): memcg LRU 106.03% / 98.10%, '
               'iter 93.20% / 99.28%')
    return '\n'.join(out)


SEED0_READ = {12: (64401, 65679), 8: (130568, 94903), 6: (580878, 118771)}


def render_seed0(res):
    def num(x, fmt='{:,.0f}'):
        return '-' if x is None else fmt.format(x)
    out = [f'seed 000 at 1/{res["scale"]} of the seed\'s size; real: {res["kernel_stock"]} (control) '
           f'and {res["kernel_patched"]}; world: the same rows on the release build, '
           f'{res["reserved_mib"]} MiB held by the rest of the system as the guest\'s kernel held',
           '',
           f'{"row":<8} {"side":<14} {"t2/t1 read":>10} {"t1 read KB/s":>13} {"t2 read KB/s":>13} '
           f'{"t1 majflt":>10} {"t2 majflt":>10} {"t1 pgsteal":>11} {"t2 pgsteal":>11} {"seed t2/t1":>10}']
    for r in res['rows']:
        v = None if r['row'] == 'control' else int(r['row'].split('/')[1])
        seed = SEED0_READ.get(v)
        sides = [(f'real pc={r["page_cluster"]}', r['real'])]
        if r['page_cluster'] == 0 and r['world']:
            sides.append(('world', r['world']))
        for side, f in sides:
            out.append(f'{r["row"]:<8} {side:<14} {num(f["read_ratio"], "{:.2f}"):>10} '
                       f'{num(f["t1_read_kbps"]):>13} {num(f["t2_read_kbps"]):>13} '
                       f'{num(f["t1_majflt"]):>10} {num(f["t2_majflt"]):>10} '
                       f'{num(f["t1_pgsteal"]):>11} {num(f["t2_pgsteal"]):>11} '
                       f'{num(seed[0] / seed[1] if seed else None, "{:.2f}"):>10}')
    secs = sum(r['real']['seconds'] for r in res['rows'])
    out.append('')
    out.append(f'time: real kernel {secs:.0f}s for {len(res["rows"])} boots; world '
               f'{res["world_seconds"]:.1f}s. KB/s: real under QEMU TCG (wall clock), world virtual '
               f'(access costs); compare ratios and counts, not absolute speeds.')
    return '\n'.join(out)


RENDER = {'000': render_seed0, '001': render_seed1, '002': render_seed2}


def run(tb, m, num):
    say = m.say
    runners = {'000': (run_seed0, render_seed0), '001': (run_seed1, render_seed1),
               '002': (run_seed2, render_seed2)}
    if num not in runners:
        raise SeedError(f'no real-kernel experiment for seed {num} (have: {", ".join(runners)})')
    fn, render = runners[num]
    t0 = time.time()
    try:
        res = fn(tb, m, say)
    except SeedError as e:
        m.fail(f'oracle seed {num}: {e}')
    res['seconds'] = time.time() - t0
    print(render(res))
    # a run on several nodes goes beside the one-node results, not over them
    nodes = res.get('cfg', {}).get('nodes', 1)
    name = f'seed_{num}' + (f'-nodes{nodes}' if nodes > 1 else '')
    out = os.path.join(tb_vm.vm_dir(tb, 'oracle'), f'{name}.json')
    with open(out, 'w') as f:
        json.dump(res, f, indent=1, default=str)
    say(f'oracle seed {num}: {res["seconds"]:.0f}s; results in {os.path.relpath(out, tb.repo)}')
    return 0
