# SPDX-License-Identifier: GPL-2.0-only
"""tb oracle: the same scenario on the real kernel (tools/tb vm) and on the
world, side by side.

selftests: the tree's tools/testing/selftests/cgroup test_memcontrol and
test_kmem, built as kselftest builds them (-Wall -pthread, no optimization;
static, for the busybox guest) plus tests/oracle/selftest_figures.c, which
wraps the selftests' readers so every figure a case reads is printed. The
world runs its port (tests/reclaim/test_memcontrol_selftests) at the
selftest's own sizes on a machine of the VM's RAM, swap and reserved
memory. Four configurations: classic or multi-gen LRU, with or without
swap. Figures are paired case by case by aligning the sequence of reads
(a global alignment, see align()), since each side may read a figure the other does not.
"""
import json
import os
import re
import statistics
import subprocess
import time

import tb_vm
from tb_trees import DEFAULT_SERIES, VERSION_RE, series_of, version_matches

CONFIGS = ['classic', 'mglru', 'classic+swap', 'mglru+swap']
SELFTESTS = ['test_memcontrol', 'test_kmem']
SELFTEST_SRC = ['tools/testing/selftests/cgroup', 'tools/testing/selftests/kselftest.h',
                'tools/testing/selftests/kselftest', 'tools/testing/selftests/clone3',
                'tools/testing/selftests/pidfd', 'tools/testing/selftests/lib.mk',
                'tools/include']
WRAP = '-Wl,--wrap=cg_read_long,--wrap=cg_read_key_long,--wrap=cg_run'
SWAP_MB = 256
MEM_MB = 1024
# boots of one run: a real kernel's panic is reported and the run done again once
PANIC_TRIES = 2
# both sides boot without transparent huge pages unless --cmdline says so
# (Debian's default is "always"; --cmdline transparent_hugepage=always
# shows what they change, the world booted the same)
BASE_CMDLINE = 'transparent_hugepage=never'
# the selftest's cgroup names -> the port's, per case
NAMES = {
    'test_memcg_min': {'memcg_test_0': 'A', 'memcg_test_0/memcg_test_1': 'A/B',
                       'memcg_test_0/memcg_test_2': 'A/G',
                       'memcg_test_0/memcg_test_1/child_memcg_0': 'A/B/C',
                       'memcg_test_0/memcg_test_1/child_memcg_1': 'A/B/D',
                       'memcg_test_0/memcg_test_1/child_memcg_2': 'A/B/E',
                       'memcg_test_0/memcg_test_1/child_memcg_3': 'A/B/F'},
}
NAMES['test_memcg_low'] = NAMES['test_memcg_min']
# cases of the port that the selftest runs as one (its swap branch)
PORT_ONLY = {'test_memcg_reclaim_swap'}


class OracleError(Exception):
    pass


# ---- the selftests, built from the tree -----------------------------------
def selftest_tree(tb, say):
    """A directory holding the tree's tools/testing/selftests and tools/include."""
    if tb.kernel:
        if not os.path.isdir(os.path.join(tb.kernel, 'tools/testing/selftests/cgroup')):
            raise OracleError(f'{tb.kernel}: no tools/testing/selftests/cgroup in the tree')
        return tb.kernel
    series = tb.series or '6.12'
    ver = tb_vm.source_version(series)
    tarball = f'/usr/src/linux-source-{series}.tar.xz'
    if not ver or not os.path.exists(tarball):
        raise OracleError(f'linux-source-{series} is not installed')
    dest = os.path.join(tb.build, 'vm', 'selftests',
                        f'linux-source-{series}_' + re.sub(r'[^A-Za-z0-9.+-]', '_', ver))
    top = os.path.join(dest, f'linux-source-{series}')
    if not os.path.exists(os.path.join(dest, '.extracted')):
        say(f'extracting the selftests of {os.path.basename(tarball)}')
        os.makedirs(dest, exist_ok=True)
        pats = [f'linux-source-{series}/{p}' for p in SELFTEST_SRC]
        p = subprocess.run(['tar', '-I', 'xz -T0', '-xf', tarball, '-C', dest, '--wildcards']
                           + [x + '*' for x in pats], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            raise OracleError(f'tar failed on {tarball}: {p.stdout.strip()[-200:]}')
        open(os.path.join(dest, '.extracted'), 'w').close()
    return top


def cgroup_util(src):
    """the selftests' cgroup_util.c and .h: beside the tests, or in lib/
    and lib/include/ (7.0 on)"""
    for c, h in (('cgroup_util.c', 'cgroup_util.h'),
                 ('lib/cgroup_util.c', 'lib/include/cgroup_util.h')):
        if os.path.exists(os.path.join(src, c)) and os.path.exists(os.path.join(src, h)):
            return os.path.join(src, c), os.path.join(src, h)
    raise OracleError(f'{src}: no cgroup_util.c and cgroup_util.h (beside the tests or in lib/)')


def build_selftests(tb, say):
    top = selftest_tree(tb, say)
    src = os.path.join(top, 'tools/testing/selftests/cgroup')
    out = tb_vm.vm_dir(tb, 'selftests', 'bin')
    wrapper = os.path.join(tb.repo, 'tests/oracle/selftest_figures.c')
    log = os.path.join(out, 'build.log')
    open(log, 'w').close()
    bins = {}
    for name in SELFTESTS:
        c = os.path.join(src, name + '.c')
        if not os.path.exists(c):
            continue
        exe = os.path.join(out, name)
        util_c, util_h = cgroup_util(src)
        deps = [c, util_c, wrapper]
        if not (os.path.exists(exe) and
                all(os.path.getmtime(d) <= os.path.getmtime(exe) for d in deps)):
            wrap = WRAP
            with open(util_h) as f:
                if 'cg_read_long_fd' in f.read():
                    wrap += ',--wrap=cg_read_long_fd'
                    deps_flags = ['-DTB_WRAP_FD']
                else:
                    deps_flags = []
            cmd = (['gcc', '-Wall', '-pthread', '-static', '-I', os.path.join(top, 'tools/include'),
                    # 7.0 on: "kselftest.h" from the selftests' top (lib.mk's -I)
                    '-I', os.path.dirname(util_h), '-I', os.path.dirname(src)]
                   + deps_flags + ['-o', exe] + deps + [wrap])
            if tb_vm.run_logged(cmd, log, cwd=src) != 0:
                raise OracleError(f'{name} does not build (log: {os.path.relpath(log, tb.repo)})')
        bins[name] = exe
    if 'test_memcontrol' not in bins:
        raise OracleError(f'{src}: no test_memcontrol.c')
    return bins


# ---- parsing ------------------------------------------------------------
FIG = re.compile(r'^@@FIG (\S+) (\S+) (\S+) (-?\d+)\s*$')
# context a case never reads itself (selftest_figures.c): not paired
PRE = re.compile(r'^@@PRE (\S+) (\S+) (\S+) (-?\d+)\s*$')
# the protection tests' subtree by memory.stat item after the allocator
POST = re.compile(r'^@@POST (\S+) (\S+) (\S+) (-?\d+)\s*$')


def parse_tap(text):
    """{case: {'verdict': pass|fail|skip, 'figs': [((cg, file, key), value)],
    'pre': [((cg, file, key), value)]}}"""
    cases, figs, pre, post, prog = {}, [], [], [], None
    for line in text.splitlines():
        m = FIG.match(line)
        if m:
            figs.append(((m.group(1), m.group(2), m.group(3)), int(m.group(4))))
            continue
        m = PRE.match(line)
        if m:
            pre.append(((m.group(1), m.group(2), m.group(3)), int(m.group(4))))
            continue
        m = POST.match(line)
        if m:
            post.append(((m.group(1), m.group(2), m.group(3)), int(m.group(4))))
            continue
        m = re.match(r'^@@PROG (\S+)', line)
        if m:
            prog, figs, pre, post = m.group(1), [], [], []
            continue
        # kselftest.h: "ok N name", "not ok N name", "ok N # SKIP name"
        m = re.match(r'^(not ok|ok) \d+ (# SKIP )?(\S+)', line)
        if m:
            v = 'skip' if m.group(2) else ('pass' if m.group(1) == 'ok' else 'fail')
            cases[m.group(3)] = {'verdict': v, 'figs': figs, 'prog': prog, 'pre': pre,
                                 'post': post}
            figs, pre, post = [], [], []
    return cases


def parse_cmocka(text):
    cases, cur, figs, post = {}, None, [], []
    for line in text.splitlines():
        m = re.match(r'^\[ RUN +\] (\S+)', line)
        if m:
            cur, figs, post = m.group(1), [], []
            continue
        m = FIG.match(line)
        if m and cur:
            figs.append(((m.group(1), m.group(2), m.group(3)), int(m.group(4))))
            continue
        m = POST.match(line)
        if m and cur:
            post.append(((m.group(1), m.group(2), m.group(3)), int(m.group(4))))
            continue
        if cur and re.match(r'^\[ +SKIP +\]', line):
            cases[cur] = {'verdict': 'skip', 'figs': figs, 'post': post}
            continue
        m = re.match(r'^\[ +(OK|FAILED) +\] (\S+)', line)
        if m and m.group(2) == cur:
            if cases.get(cur, {}).get('verdict') != 'skip':
                cases[cur] = {'verdict': 'pass' if m.group(1) == 'OK' else 'fail', 'figs': figs,
                              'post': post}
            cur = None
    return cases


def port_name(case, cg):
    return NAMES.get(case, {}).get(cg, cg)


# ---- the two sides --------------------------------------------------------
# the readahead of the guest's data disk, /data (tb_vm's init mounts
# /dev/vda there), where the selftests make their files
READ_AHEAD_CMD = 'echo "@@READ_AHEAD_KB $(cat /sys/block/vda/queue/read_ahead_kb)"'


def guest_script(config, bins):
    lru = 'y' if config.startswith('mglru') else 'n'
    s = [f'echo {lru} > /sys/kernel/mm/lru_gen/enabled',
         tb_vm.MEMFREE_CMD, READ_AHEAD_CMD]
    for name in bins:
        s.append(f'echo "@@PROG {name}"; /tb/bin/{name}')
    return '\n'.join(s) + '\n'


def real_run(tb, kernel, config, bins, cmdline, say):
    opts = {'mem': MEM_MB, 'cpus': 2, 'nodes': 1, 'disk': 1024,
            'swap': SWAP_MB if 'swap' in config else 0,
            'cmdline': (BASE_CMDLINE + ' ' + (cmdline or '')).strip()}
    files = {f'/tb/bin/{n}': p for n, p in bins.items()}
    panics = []
    for tries in range(1, PANIC_TRIES + 1):
        r = tb_vm.boot(tb, kernel, guest_script(config, bins), opts, say, files=files,
                       timeout=900)
        if r['status'] is not None:
            break
        ended = (f'the guest ({config}) ended early: {r["why"]} '
                 f'(console log: {os.path.relpath(r["console"], tb.repo)})')
        if not r['why'].startswith('kernel panic') or tries == PANIC_TRIES:
            raise OracleError(ended)
        # a panic of the real kernel is reported, kept and run again: one
        # run's crash (seen once under TCG) is not a verdict on the cases
        say(f'oracle: {ended}; running it again')
        panics.append({'why': r['why'], 'console': r['console']})
    used = tb_vm.reserved_mib(r['output'], MEM_MB)
    m = re.search(r'^@@READ_AHEAD_KB (\d+)\s*$', r['output'], re.M)
    return {'cases': parse_tap(r['output']), 'seconds': r['seconds'], 'used_mb': used,
            'read_ahead_kb': int(m.group(1)) if m else 0, 'run': r['run'], 'panics': panics}


def world_port(tb, m, say):
    # the same build as tools/tb test's
    bdir = tb.configure('default', ['-DTB_SANITIZE=', '-DTB_COVERAGE=OFF', '-DTB_FUZZ=OFF'])
    tb.build_dir(bdir, ['test_memcontrol_selftests'])
    exe = os.path.join(bdir, 'tests/reclaim/test_memcontrol_selftests')
    if not os.path.exists(exe):
        raise OracleError(f'{exe} was not built')
    return exe


# the boot options the world takes (kernel-shim/world/boot.c); the guest's others stay its own
WORLD_OPTIONS = ('transparent_hugepage', 'thp_anon', 'cgroup.memory', 'cgroup_disable')


def world_cmdline(cmdline):
    opts = (BASE_CMDLINE + ' ' + (cmdline or '')).split()
    return ' '.join(o for o in opts if o.split('=')[0] in WORLD_OPTIONS)


def world_run(tb, exe, config, reserved_mb, cmdline=None, read_ahead_kb=0):
    env = tb.env({
                  # the guest's command line, the options the world boots with
                  'TB_ORACLE_CMDLINE': world_cmdline(cmdline),'TB_LRU_GEN': 'y' if config.startswith('mglru') else 'n',
                  'TB_ORACLE_SCALE': '1', 'TB_ORACLE_MEM_MB': str(MEM_MB),
                  'TB_ORACLE_SWAP_MB': str(SWAP_MB if 'swap' in config else 0),
                  # the guest's swap is a virtio disk: writes complete later
                  'TB_ORACLE_SWAP_DISK': '1',
                  'TB_ORACLE_RESERVED_MB': str(reserved_mb), 'TB_ORACLE_FIGURES': '1',
                  # the data disk the selftests' files are on reads ahead this much
                  'TB_ORACLE_READ_AHEAD_KB': str(read_ahead_kb)})
    t0 = time.time()
    p = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=env, timeout=600)
    return {'cases': parse_cmocka(p.stdout), 'seconds': time.time() - t0}


# ---- pairing and the table -------------------------------------------------
def pair_figures(case, real_runs, world):
    """[(label, [real values], world value or None)] in the world's order,
    then the real-only figures."""
    # tuples, also when read back from the results' JSON
    wfigs = [(tuple(k), v) for k, v in world['figs']] if world else []
    wkeys = [k for k, _ in wfigs]
    slots = [[] for _ in wfigs]
    extra = {}
    for run in real_runs:
        rc = run.get(case)
        if not rc:
            continue
        rkeys = [(port_name(case, k[0]),) + tuple(k[1:]) for k, _ in rc['figs']]
        pairs = align(rkeys, [v for _, v in rc['figs']], wkeys, [v for _, v in wfigs])
        matched = set()
        for a, b in pairs:
            slots[b].append(rc['figs'][a][1])
            matched.add(a)
        for i, (k, v) in enumerate(rc['figs']):
            if i not in matched:
                extra.setdefault(rkeys[i], []).append(v)
    rows = []
    for (k, wv), rv in zip(wfigs, slots):
        rows.append((label(k), rv, wv))
    for k, rv in extra.items():
        rows.append((label(k) + ' (real only)', rv, None))
    return rows


def align(rk, rv, wk, wv, gap=1.0):
    """Pairs (i, j) of reads of the same figure, in order on both sides,
    that leave the least unpaired and differ least: a global alignment
    whose pair cost is the relative difference and whose gap costs as much
    as a 100% difference. A side's extra polling reads (a wait loop the
    other side has not) stay unpaired; reads of one figure taken in another
    order are paired afterwards, in order."""
    n, m = len(rk), len(wk)
    inf = float('inf')
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    move = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            c = cost[i][j]
            if c == inf:
                continue
            steps = [(i + 1, j, c + gap), (i, j + 1, c + gap)]
            if i < n and j < m and rk[i] == wk[j]:
                base = max(abs(rv[i]), abs(wv[j]))
                steps.append((i + 1, j + 1, c + (abs(rv[i] - wv[j]) / base if base else 0.0)))
            for a, b, cc in steps:
                if a <= n and b <= m and cc < cost[a][b]:
                    cost[a][b], move[a][b] = cc, (i, j)
    pairs, i, j = [], n, m
    while (i, j) != (0, 0):
        pi, pj = move[i][j]
        if pi == i - 1 and pj == j - 1:
            pairs.append((pi, pj))
        i, j = pi, pj
    pairs.reverse()
    used_r = {a for a, _ in pairs}
    used_w = {b for _, b in pairs}
    for a in range(n):
        if a in used_r:
            continue
        for b in range(m):
            if b not in used_w and rk[a] == wk[b]:
                pairs.append((a, b))
                used_w.add(b)
                break
    return pairs


def label(k):
    cg, f, key = k
    return f'{cg} {f}' + ('' if key == '-' else f' {key}')


def diff_pct(real, world):
    if world is None or not real:
        return None
    med = statistics.median(real)
    if med == world:
        return 0.0
    base = max(abs(med), abs(world))
    return 100.0 * (world - med) / base if base else 0.0


def fmt_val(v):
    if v is None:
        return '-'
    if abs(v) >= 1 << 20:
        return f'{v / (1 << 20):.1f}M'
    return str(v)


def fmt_real(vals):
    if not vals:
        return '-'
    med = statistics.median(vals)
    s = fmt_val(int(med))
    if len(vals) > 1 and min(vals) != max(vals):
        s += f' [{fmt_val(min(vals))}..{fmt_val(max(vals))}]'
    return s


def verdicts(runs, case):
    vs = [r['cases'][case]['verdict'] if case in r['cases'] else 'absent' for r in runs]
    if len(set(vs)) == 1:
        return vs[0] + (f' {len(vs)}/{len(vs)}' if len(vs) > 1 else '')
    return ' '.join(f'{v} {vs.count(v)}/{len(vs)}' for v in sorted(set(vs)))


def render(res):
    out = []
    cases = []
    for cfg in res['configs']:
        for r in res['real'][cfg]:
            for c in r['cases']:
                if c not in cases:
                    cases.append(c)
    cfgs = res['configs']
    w = max(len(c) for c in cases) if cases else 10
    out.append('verdicts (real kernel: each run; world: its port)')
    out.append(f'{"case":<{w}}  ' + '  '.join(f'{c:<26}' for c in cfgs))
    out.append(f'{"":<{w}}  ' + '  '.join(f'{"real":<12} {"world":<13}' for _ in cfgs))
    for c in cases:
        cells = []
        for cfg in cfgs:
            wv = res['world'][cfg]['cases'].get(c)
            wtxt = wv['verdict'] if wv else 'not ported'
            real = verdicts(res['real'][cfg], c)
            mark = '' if wv is None or real.split()[0] == wtxt else ' !'
            cells.append(f'{real:<12} {wtxt + mark:<13}')
        out.append(f'{c:<{w}}  ' + '  '.join(cells))
    out.append('')
    out.append('figures (real: median [min..max] over the runs; diff: world vs real median)')
    for cfg in cfgs:
        out.append(f'-- {cfg}')
        for c in cases:
            wv = res['world'][cfg]['cases'].get(c)
            if not wv:
                continue
            rows = pair_figures(c, [r['cases'] for r in res['real'][cfg]], wv)
            for lab, rv, wval in rows:
                d = diff_pct(rv, wval)
                dtxt = '-' if d is None else f'{d:+.1f}%'
                out.append(f'  {c:<36} {lab:<44} {fmt_real(rv):<24} {fmt_val(wval):<10} {dtxt}')
    out.extend(context_rows(res))
    out.extend(post_rows(res))
    out.append('')
    t = res['timing']
    out.append('time: ' + ', '.join(f'{cfg} real {statistics.mean(t[cfg]["real"]):.1f}s/run '
                                    f'world {t[cfg]["world"]:.2f}s' for cfg in cfgs))
    return '\n'.join(out)


def context_rows(res):
    """Per run of the protection tests: the children's fill before the
    allocator (@@PRE) and C/D after it, beside the verdict."""
    out = []
    mib = lambda v: f'{v / 2**20:.1f}'
    for cfg in res['configs']:
        for r in res['real'][cfg]:
            for c, cv in r['cases'].items():
                pre = [v for (cg, _, _), v in cv.get('pre', [])][:3]
                after = [v for (cg, f, _), v in cv['figs']
                         if f == 'memory.current' and 'child_memcg_' in cg][:2]
                if len(pre) < 3 or len(after) < 2:
                    continue
                if not out:
                    out += ['', 'protection split per real run: C/D/E page cache before '
                            'A/G allocates (MiB) -> C/D after (the selftest wants 29/21 within 10%)']
                out.append(f'  {cfg:<13} {c:<16} {"/".join(map(mib, pre)):<16} -> '
                           f'{"/".join(map(mib, after)):<10} {cv["verdict"]}')
    return out


def post_rows(res):
    """The protection tests' subtree after A/G's first allocation, by
    memory.stat item (@@POST), real runs beside the world: where A/B's and
    its children's memory.current come from."""
    out = []
    # memory.stat's event counts are printed as they are, its sizes in MiB
    counts = ('pgscan', 'pgsteal', 'pswpout', 'pgfault', 'pgmajfault', 'zswpout',
              'pgscan_direct', 'pgsteal_direct')
    for cfg in res['configs']:
        world = res['world'].get(cfg, {}).get('cases', {})
        for c, wc in world.items():
            wpost = {tuple(k): v for k, v in wc.get('post', [])}
            if not wpost:
                continue
            reals = []
            for r in res['real'][cfg]:
                first = {}
                # the real side writes them after each allocation: the first's
                for k, v in r['cases'].get(c, {}).get('post', []):
                    first.setdefault((port_name(c, k[0]),) + tuple(k[1:]), v)
                reals.append(first)
            if not any(reals):
                continue
            if not out:
                out += ['', "after A/G's first allocation (and where a case reads max "
                        "events), by memory.stat item (sizes in MiB): real runs | world"]
            for key, wv in wpost.items():
                mib = (lambda v: str(v)) if key[2] in counts else (lambda v: f'{v / 2**20:.2f}')
                rv = [r[key] for r in reals if key in r]
                if not wv and not any(rv):
                    continue
                name = f'{key[0]} {key[2] if key[2] != "-" else key[1]}'
                out.append(f'  {cfg:<13} {c:<16} {name:<24} '
                           f'{" ".join(map(mib, rv)) or "-":<20} | {mib(wv)}')
    return out


def selftests(tb, m, say):
    a = tb.a
    runs = a.runs or 3
    configs = (a.configs or ','.join(CONFIGS)).split(',')
    for c in configs:
        if c not in CONFIGS:
            raise OracleError(f'--configs: unknown configuration {c!r} (have {",".join(CONFIGS)})')
    named_differences(tb.repo)
    bins = build_selftests(tb, say)
    kernel = tb_vm.kernel_for(tb, a.patch and os.path.abspath(a.patch), say)
    exe = world_port(tb, m, say)
    say(f'oracle: {", ".join(bins)} on {kernel["what"]} ({kernel["release"]}), '
        f'{len(configs)} configuration(s) x {runs} run(s); the world\'s port beside it')
    res = {'kernel': kernel['what'], 'release': kernel['release'], 'configs': configs,
           'real': {}, 'world': {}, 'timing': {}, 'runs': runs,
           'date': time.strftime('%Y-%m-%d %H:%M'), 'cmdline': BASE_CMDLINE + ' ' + (a.cmdline or '')}
    for cfg in configs:
        res['real'][cfg] = []
        for i in range(runs):
            r = real_run(tb, kernel, cfg, bins, a.cmdline, say)
            say(f'oracle: {cfg} run {i + 1}/{runs}: {r["seconds"]:.1f}s, '
                + ', '.join(f'{sum(1 for c in r["cases"].values() if c["verdict"] == v)} {v}'
                            for v in ('pass', 'fail', 'skip')))
            res['real'][cfg].append(r)
        used = statistics.median(r['used_mb'] for r in res['real'][cfg])
        ra = max(r.get('read_ahead_kb', 0) for r in res['real'][cfg])
        w = world_run(tb, exe, cfg, int(used), a.cmdline, ra)
        res['world'][cfg] = w
        res['timing'][cfg] = {'real': [r['seconds'] for r in res['real'][cfg]],
                              'world': w['seconds']}
    text = render(res)
    print(text)
    # the published results are the stock ones; a patched kernel's or other
    # boot options' go beside them
    name = 'selftests.json' if not (a.cmdline or a.patch) else 'selftests-custom.json'
    out = os.path.join(tb_vm.vm_dir(tb, 'oracle'), name)
    with open(out, 'w') as f:
        json.dump(res, f, indent=1, default=str)
    say(f'oracle: results in {os.path.relpath(out, tb.repo)}')
    panics = [f'{cfg} run {i + 1}: {p["why"]} (console log: '
              f'{os.path.relpath(p["console"], tb.repo)})'
              for cfg in configs for i, r in enumerate(res['real'][cfg])
              for p in r.get('panics', [])]
    if panics:
        say('oracle: the real kernel panicked and the run was done again: ' + '; '.join(panics))
    bad, known = mismatches(res, named_differences(tb.repo))
    if known:
        say('oracle: named differences (tests/oracle/differences.txt): ' + '; '.join(known))
    if bad:
        say('oracle: verdicts differ with no named reason: ' + '; '.join(bad))
        return 1
    say('oracle: every verdict agrees or differs for a named reason')
    return 0


def named_differences(repo):
    """tests/oracle/differences.txt: {(case, config, real verdict): reason}"""
    out = {}
    path = os.path.join(repo, 'tests', 'oracle', 'differences.txt')
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            parts = [p.strip() for p in line.rstrip('\n').split(' | ')]
            if len(parts) != 4 or parts[1] not in CONFIGS + ['*']:
                raise OracleError(f'{os.path.relpath(path, repo)}:{n}: want '
                                  f'"case | configuration | real verdict | reason"')
            out[tuple(parts[:3])] = parts[3]
    return out


def mismatches(res, named):
    """(unexplained, explained) verdict differences, as 'case (config)' strings"""
    bad, known = [], []
    for cfg in res['configs']:
        for c, wv in res['world'][cfg]['cases'].items():
            if c in PORT_ONLY:
                continue
            rv = {r['cases'].get(c, {}).get('verdict') for r in res['real'][cfg]} - {None}
            for v in sorted(rv - {wv['verdict']}):
                hit = (c, cfg, v) in named or (c, '*', v) in named
                (known if hit else bad).append(f'{c} ({cfg}: real {v}, '
                                                                 f'world {wv["verdict"]})')
    return bad, known


# ---- docs/fidelity.md ------------------------------------------------------
BEGIN = '<!-- tools/tb oracle publish: generated from build/vm/oracle/*.json; do not edit -->'
END = '<!-- end of tools/tb oracle publish -->'


def explanations(repo, series=None):
    """The reasons of tests/oracle/explanations.txt for a tree of series
    (all without one): lines before any '@ X.Y' line, and those of the
    sections that series falls in"""
    out, want = [], None
    with open(os.path.join(repo, 'tests', 'oracle', 'explanations.txt')) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            v = VERSION_RE.match(line)
            if v:
                want = v.group(1)
                continue
            parts = [p.strip() for p in line.rstrip('\n').split(' | ')]
            if len(parts) != 5:
                raise OracleError(f'tests/oracle/explanations.txt:{n}: want "scenario | '
                                  f'configuration | case | figure regex | reason"')
            if version_matches(want, series):
                out.append(parts)
    return out


def markers(series):
    """The lines around the published tables of a tree of series in
    docs/fidelity.md: the default series' stand alone, another's sit in its
    own section"""
    if series == DEFAULT_SERIES:
        return BEGIN, END
    return (f'<!-- tools/tb oracle publish, {series}: generated from build/linux-{series}/vm/'
            f'oracle/*.json; do not edit -->', f'<!-- end of tools/tb oracle publish, {series} -->')


def explain(expl, scenario, cfg, case, lab):
    for sc, c, cs, rx, why in expl:
        if sc == scenario and c in ('*', cfg) and cs in ('*', case) and re.search(rx, lab):
            return why
    return None


def selftest_rows(res, expl):
    """(paired figures, within 10%, [rows outside 10%])"""
    total, within, rows = 0, 0, []
    for cfg in res['configs']:
        for c, wv in res['world'][cfg]['cases'].items():
            for lab, rv, w in pair_figures(c, [r['cases'] for r in res['real'][cfg]], wv):
                d = diff_pct(rv, w)
                if d is None:
                    continue
                total += 1
                if abs(d) <= 10:
                    within += 1
                    continue
                why = explain(expl, 'selftests', cfg, c, lab)
                rows.append((f'selftests, {cfg}: {c}', lab, fmt_val(w), fmt_real(rv),
                             f'{d:+.1f}%', why or 'not explained'))
    return total, within, rows


def publish(tb, say):
    odir = os.path.join(tb.build, 'vm', 'oracle')

    def load(name):
        try:
            with open(os.path.join(odir, name)) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None
    st = load('selftests.json')
    # the tables' series: the release the results were measured on
    series = (st and series_of(st.get('release') or '')) or tb.series or DEFAULT_SERIES
    expl = explanations(tb.repo, series)
    begin, end = markers(series)
    out = [begin, '']
    if st:
        total, within, rows = selftest_rows(st, expl)
        bad, known = mismatches(st, named_differences(tb.repo))
        out.append(f'**Selftests** (`tools/tb oracle selftests`, {st["date"]}, {st["kernel"]}, '
                   f'{st["runs"]} run(s) per configuration, kernel command line '
                   f'`{st["cmdline"].strip()}`): {within} of {total} paired figures within 10%; '
                   f'verdicts: {len(bad)} unexplained difference(s), {len(known)} named '
                   f'(tests/oracle/differences.txt). Time per real run: '
                   + ', '.join(f'{c} {statistics.mean(st["timing"][c]["real"]):.0f} s'
                               for c in st['configs'])
                   + '; the world: ' + ', '.join(f'{st["timing"][c]["world"]:.2f} s'
                                                 for c in st['configs']) + '.')
        out.append('')
        out.append('| scenario | figure | world | real kernel (median [range]) | difference | explanation |')
        out.append('|---|---|---|---|---|---|')
        for r in rows:
            out.append('| ' + ' | '.join(str(x).replace('|', '/') for x in r) + ' |')
        for k in known + bad:
            out.append(f'| selftests: verdict | {k} | | | | '
                       f'{"named in tests/oracle/differences.txt" if k in known else "not explained"} |')
        out.append('')
    for num, name, opt in (('000', '000', ''), ('001', '001', ''), ('002', '002', ''),
                           ('002', '002-nodes4', ' --nodes 4')):
        d = load(f'seed_{name}.json')
        if d:
            import tb_oracle_seeds
            out.append(f'**Seed {num}** (`tools/tb oracle seed {num}{opt}`):')
            out.append('')
            out.append('```')
            out.append(tb_oracle_seeds.RENDER[num](d))
            out.append('```')
            out.append('')
    out.append(end)
    path = os.path.join(tb.repo, 'docs', 'fidelity.md')
    text = ''
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
    if begin in text and end in text:
        text = text[:text.index(begin)] + '\n'.join(out) + text[text.index(end) + len(end):]
    else:
        text = text.rstrip('\n') + '\n\n' + '\n'.join(out) + '\n'
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    say(f'oracle: wrote {os.path.relpath(path, tb.repo)} from {os.path.relpath(odir, tb.repo)}')
    return 0


def cmd_oracle(tb, m):
    what = tb.a.what or []
    try:
        if what == ['publish']:
            return publish(tb, m.say)
        if what == ['selftests']:
            return selftests(tb, m, m.say)
        if len(what) == 2 and what[0] == 'seed':
            import tb_oracle_seeds
            return tb_oracle_seeds.run(tb, m, what[1])
        raise OracleError(f'unknown oracle {" ".join(what)!r}')
    except (OracleError, tb_vm.VmError) as e:
        m.fail(f'oracle: {e}')
