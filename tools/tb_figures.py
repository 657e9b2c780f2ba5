# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb figures: re-measure the figures the docs publish and write
docs/figures.md; --check compares the deterministic ones with that page.

A group of figures is a function measure(tb) -> {'command': what reproduces
it, 'values': {name: number} (deterministic, checked), 'timings': {name:
number} (recorded, never checked)}; GROUPS lists them with their tolerance
(relative; 0: exact) and whether they are fast (CI runs
`tools/tb figures --check --fast`). The page keeps every group's data as
JSON in a comment at its end, which --check and a partial run read.
"""
import datetime
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

import tb_kbuild
import tb_output

PAGE = os.path.join('docs', 'figures.md')
DATA_START = '<!-- figures-data'
DATA_END = 'figures-data -->'


def loadavg():
    try:
        with open('/proc/loadavg') as f:
            return ' '.join(f.read().split()[:3])
    except OSError:
        return '?'


# ---- the groups ------------------------------------------------------------
def measure_tests(tb, tbm):
    """ctest tests per label and per kernel file; cases per suite folder
    (CMocka's count of the cases each suite ran)."""
    bdir = tb.configure('default', tbm.test_defs())
    tb.build_dir(bdir)
    every = tb_output.ctest_listing(bdir, tb.env(), '.') or []
    values = {}
    for label in ('unit', 'stress', 'slow', tb_output.VARIANT_LABEL):
        values[f'ctest tests labelled {label}'] = sum(label in t['labels'] for t in every)
    kfiles = {}
    for t in every:
        for k in (l[6:] for l in t['labels'] if l.startswith('kfile:')):
            kfiles[k] = kfiles.get(k, 0) + 1
    for k in sorted(kfiles):
        values[f'tests labelled kfile:{k}'] = kfiles[k]
    junit = os.path.join(bdir, 'tb-figures.xml')
    t0 = time.time()
    p = subprocess.run(['ctest', '--test-dir', bdir, '-L', tbm.TEST_LABELS, '-j', str(tb.jobs),
                        '--output-junit', junit, '--test-output-size-passed', '4000000',
                        '--test-output-size-failed', '4000000'],
                       stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=tb.env())
    secs = time.time() - t0
    results = tb_output.parse_junit(junit) or []
    if p.returncode != 0 or not results:
        raise FigureError(f'the tests failed in {bdir} (tools/tb test shows which)')
    areas = tb_output.test_areas(every, tb.repo, bdir)
    cases = {}
    for r in results:
        c = tb_output.cmocka_cases(r['output'])
        area = areas.get(r['name'], 'other')
        cases[area] = cases.get(area, 0) + (c[0] if c else 0)
    for a in sorted(cases):
        if cases[a]:  # not the script and replay tests' folders
            values[f'CMocka cases run, {a}'] = cases[a]
    values['CMocka cases run, total'] = sum(cases.values())
    return {'command': 'tools/tb test', 'values': values,
            'timings': {'tests, seconds (wall)': round(secs, 1)}}


def measure_seeds(tb, tbm):
    """Seeds 001 and 004 run on virtual time: their figures are exact."""
    bdir = tbm.release_build(tb, ['seed_001', 'seed_004'])
    mods = {m.NUM: m for m in tbm.seed_modules(tb.repo)}
    values, timings = {}, {}
    d = tbm.run_seed(tb, mods['001'], bdir)
    timings['seed 001, seconds'] = d['seconds']
    r = d['results']
    values['seed 001: charge batch (pages)'] = r['charge_batch']
    for row in r['penalty_ms']:
        values[f'seed 001: calculate_high_delay at {row["usage_mb"]}M (ms)'] = \
            row['calculate_high_delay_ms']
        values[f'seed 001: handle_over_high sleeps at {row["usage_mb"]}M (ms)'] = \
            row['handle_over_high_sleeps_ms']
    values['seed 001: throttle plateau (us per MB)'] = r['mdf_plateau_us']
    d = tbm.run_seed(tb, mods['004'], bdir)
    timings['seed 004, seconds'] = d['seconds']
    for row in d['results']['traces']:
        values[f'seed 004: {row["trace"]}, before (single slot) miss %'] = row['before_miss_pct']
        values[f'seed 004: {row["trace"]}, after (6.12) miss %'] = row['after_miss_pct']
    return {'command': 'tools/tb seed 001; tools/tb seed 004', 'values': values,
            'timings': timings}


INSN_BENCH = ('bench_page_counter', ['BM_charge_uncharge/depth:1/real_time/threads:1',
                                     'BM_charge_uncharge/depth:4/real_time/threads:1'])


def measure_insn(tb, tbm):
    """Instructions per operation (callgrind) of the cheapest benchmarks."""
    sys.path.insert(0, os.path.join(tb.repo, 'tools'))
    import callgrind_split
    import tb_insn
    exe_name, names = INSN_BENCH
    bdir = tbm.release_build(tb, [exe_name])
    for d in (tb.kernel, tb.tree, tb.tree_before):
        if d and d not in callgrind_split.KERNEL_DIRS:
            callgrind_split.KERNEL_DIRS.append(d)
    outdir = os.path.join(tb.build, 'figures', 'callgrind')
    os.makedirs(outdir, exist_ok=True)
    values = {}
    t0 = time.time()
    for n in names:
        r = tb_insn.measure(os.path.join(bdir, 'bench', exe_name), n, outdir, tb.env())
        if 'error' in r:
            raise FigureError(f'{n}: {r["error"]}')
        values[f'{n}: instructions per {r["unit"]}'] = r['insn']
        values[f'{n}: kernel-code instructions'] = r['kernel']
    return {'command': f'tools/tb bench --filter BM_charge_uncharge ({exe_name} under callgrind)',
            'values': values, 'timings': {'callgrind runs, seconds': round(time.time() - t0, 1)}}


def measure_coverage(tb, tbm):
    """Line coverage of every kernel file by the unit and stress tests."""
    bdir = tb.coverage_build()
    t0 = time.time()
    rc = tb.ctest(bdir)
    if rc != 0:
        raise FigureError('a test failed in the coverage build')
    files, _, _ = tb.gcovr(bdir)
    values = {}
    for n in sorted(files):
        if n.split('@')[0].endswith('.c'):
            values[f'{n}: lines'] = files[n]['lines']
            values[f'{n}: covered'] = files[n]['covered']
    for name, r in tb.regions.items():
        values[f'{name}: lines'] = r['lines']
        values[f'{name}: covered'] = r['covered']
    return {'command': 'tools/tb coverage', 'values': values,
            'timings': {'tests and gcovr, seconds': round(time.time() - t0, 1)}}


MUTATE = [('mm/page_counter.c', [])]


def measure_mutation(tb, tbm):
    """Mutation scores of the files whose every mutant runs in minutes."""
    values, timings = {}, {}
    for path, extra in MUTATE:
        js = os.path.join(tb.build, 'figures', path.replace('/', '_') + '.json')
        os.makedirs(os.path.dirname(js), exist_ok=True)
        cmd = [os.path.join(tb.repo, 'tools', 'tb'), 'mutate', path, '-j', str(tb.jobs),
               '--json', js] + extra
        if tb.kernel or tb.series:
            cmd += ['--kernel', tb.kernel or tb.series]
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            raise FigureError(f'tools/tb mutate {path} failed: {p.stderr.strip()[-300:]}')
        with open(js) as f:
            d = json.load(f)
        # the tree the runs used (a run of this group alone configures nothing here)
        tb.tree_version = tb.tree_version or tb_kbuild.tree_version(d['tree'])
        tot = {}
        for s in d['by_function'].values():
            for k, v in s.items():
                tot[k] = tot.get(k, 0) + v
        for k in ('mutants', 'killed', 'survived', 'timeout', 'no-compile', 'equivalent',
                  'unobservable'):
            values[f'{path}: {k}'] = tot.get(k, 0)
        timings[f'{path}: seconds per mutant'] = d['seconds_per_mutant']
    return {'command': '; '.join(f'tools/tb mutate {p} {" ".join(e)}'.strip() for p, e in MUTATE),
            'values': values, 'timings': timings}


# the edit loop: a one-line edit inside each function, then --file
LOOP_EDITS = [('mm/page_counter.c', 'page_counter_try_charge'), ('mm/shrinker.c', 'shrink_slab'),
              ('mm/memcontrol.c', 'try_charge_memcg'), ('mm/vmscan.c', 'shrink_lruvec')]
LOOP_RUNS = 3


def measure_loop(tb, tbm):
    """A clean build and test, then the edit loop, in a build directory of
    its own over a hard-link copy of the tree (an edited file is replaced
    by a copy of its own first: the tree is never written): without a line
    map (every test of the file's label), then after --map --cases (the
    tests that run the edited line), then with --cases (of those, only the
    cases that run it). Each file is put back as it was after its edits,
    so the next file's edits find the other maps still holding."""
    tb.configure('default', tbm.test_defs())  # the tree's path
    base = os.path.join(tb.build, 'figures')
    tree, bdir = os.path.join(base, 'tree'), os.path.join(base, 'loop-build')
    subprocess.run(['rm', '-rf', tree, bdir], check=True)
    os.makedirs(base, exist_ok=True)
    subprocess.run(['cp', '-al', tb.tree, tree], check=True)
    env = dict(os.environ, TB_BUILD_DIR=bdir, TB_KERNEL_CACHE_DIR=tb.kcache)
    tbcmd = [os.path.join(tb.repo, 'tools', 'tb'), 'test', '-j', str(tb.jobs), '--kernel', tree]

    def run(extra):
        """wall seconds, CPU seconds (tb and everything it ran), output, parser"""
        t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(tbcmd + extra, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=env)
        c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            raise FigureError(f'tools/tb test {" ".join(extra)} failed: {p.stdout[-300:]}')
        num = lambda pat: float((re.search(pat, p.stdout) or [0, 0])[1])  # noqa: E731
        cpu = c1.ru_utime - c0.ru_utime + c1.ru_stime - c0.ru_stime
        return time.time() - t0, cpu, num

    def edits(path, fn, what, extra=()):
        src = os.path.join(tree, path)
        with open(src) as f:
            text = f.read()
        lines = text.split('\n')
        start = next(i for i, l in enumerate(lines) if re.match(r'^\w.*[ *]' + fn + r'\(', l))
        n = next(i for i in range(start + 1, len(lines)) if lines[i].rstrip().endswith(';'))
        line = lines[n].rstrip()
        walls, cpus = [], []
        for _ in range(LOOP_RUNS):
            # an edit of its own: ccache must not find an earlier pass's
            edited[path] = edited.get(path, 0) + 1
            lines[n] = line + ' ;' * edited[path]
            os.unlink(src)  # a file of its own, never written through the link
            with open(src, 'w') as f:
                f.write('\n'.join(lines))
            secs, cpu, num = run(['--file', path] + list(extra))
            walls.append(secs)
            cpus.append(cpu)
        os.unlink(src)
        with open(src, 'w') as f:
            f.write(text)
        # built back as it was, unrecorded: otherwise the next file's first
        # run would rebuild this one too (its suites link both)
        run(['--file', path] + list(extra))
        values[f'--file {path}{what}: tests run'] = int(num(r'running (\d+) tests? labelled'))
        if extra:
            values[f'--file {path}{what}: tests limited to some of their cases'] = \
                int(num(r'running \d+ tests? labelled \S+ \(\d+ cases? of (\d+) of them\)'))
            values[f'--file {path}{what}: cases those run'] = \
                int(num(r'running \d+ tests? labelled \S+ \((\d+) cases? of'))
        values[f'--file {path}{what}: variant runs left to tools/tb test'] = \
            int(num(r'(\d+) variant runs? of these suites'))
        timings[f'--file {path}{what} after a one-line edit, seconds ({LOOP_RUNS} runs)'] = \
            ' / '.join(f'{w:.2f}' for w in walls)
        timings[f'--file {path}{what} after a one-line edit, CPU seconds'] = \
            ' / '.join(f'{c:.2f}' for c in cpus)

    values, timings, edited = {}, {}, {}
    secs, cpu, num = run([])
    timings['clean build and tests, seconds'] = round(secs, 1)
    timings['clean build and tests, CPU seconds'] = round(cpu, 1)
    timings['clean build and tests: build, seconds'] = num(r'built in ([\d.]+)s')
    timings['clean build and tests: tests, seconds'] = num(r'passed in ([\d.]+)s')
    # the build directory made again, the compiler cache (build/ccache)
    # kept: `rm -rf build/default && tools/tb test`
    subprocess.run(['rm', '-rf', os.path.join(bdir, 'default')], check=True)
    secs, cpu, num = run([])
    what = 'rm -rf build/default, then build and tests (ccache kept)'
    timings[f'{what}, seconds'] = round(secs, 1)
    timings[f'{what}, CPU seconds'] = round(cpu, 1)
    timings[f'{what}: build, seconds'] = num(r'built in ([\d.]+)s')
    timings[f'{what}: tests, seconds'] = num(r'passed in ([\d.]+)s')
    for path, fn in LOOP_EDITS:
        edits(path, fn, '')
    secs, _, _ = run(sum((['--file', p] for p, _ in LOOP_EDITS), []) + ['--map', '--cases'])
    timings['--map --cases of the four files (coverage build, each test alone, each case '
            'alone), seconds'] = round(secs)
    for path, fn in LOOP_EDITS:
        edits(path, fn, ' with a line map')
    for path, fn in LOOP_EDITS:
        edits(path, fn, ' with a case map (--cases)', ['--cases'])
    files = ', '.join(f for _, f in LOOP_EDITS)
    return {'command': f'TB_BUILD_DIR=build/figures/loop-build tools/tb test --kernel '
                       f'build/figures/tree, again after rm -rf build/figures/loop-build/default; '
                       f'[--file F] (a line of {files} edited before each '
                       f'--file run); then once --file F... --map --cases and the same edits, '
                       f'then again with --cases',
            'values': values, 'timings': timings}


def measure_first_run(tb, tbm):
    """tools/tb run as a fresh clone's first: a build directory, compiler
    cache and kernel-tree cache of its own, all empty (the Debian packages
    are the machine's: apt's own time is measured only on a fresh machine).
    Each phase ends at the line tb prints when it is done."""
    bdir = os.path.join(tb.build, 'figures', 'first-run')
    subprocess.run(['rm', '-rf', bdir], check=True)
    env = dict(os.environ, TB_BUILD_DIR=bdir,
               TB_KERNEL_CACHE_DIR=os.path.join(bdir, 'kernel-trees'))
    t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen([os.path.join(tb.repo, 'tools', 'tb'), 'run', '-j', str(tb.jobs)],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines = [(time.time() - t0, line) for line in p.stdout]
    rc = p.wait()
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = ''.join(line for _, line in lines)
    if rc != 0:
        raise FigureError(f'tools/tb run failed: {out[-300:]}')
    # the release build runs beside the tests and gcovr (its lines come
    # when the seeds take it): its own time is what its line says
    phases = [('configure and extract the trees', r'configured in'),
              ('coverage build', r'built in'),
              ('tests (coverage build)', r'tests passed'),
              ('gcovr and the tables, then the release build\'s rest',
               r'configuring .*release|building .*release'),
              (None, r'built in'),
              ('seeds', r'passed, \d+ failed')]
    timings, last, i = {}, 0.0, 0
    for at, line in lines:
        if i < len(phases) and re.search(phases[i][1], line):
            if phases[i][0]:
                timings[f'{phases[i][0]}, seconds'] = round(at - last, 1)
                last = at
            i += 1
    m = re.search(r'building \S*release.*\n(?:.*\n)*?tb: built in ([\d.]+)s', out)
    if m:
        timings['release build (the seeds\' programs, beside the tests and gcovr '
                'at nice 10), seconds'] = float(m[1])
    timings['tools/tb run, seconds'] = round(time.time() - t0, 1)
    timings['tools/tb run, CPU seconds'] = round(
        c1.ru_utime - c0.ru_utime + c1.ru_stime - c0.ru_stime, 1)
    m = re.search(r'\d+ of (\d+) tests passed \(\d+ of (\d+) cases\)', out)
    values = {'tests': int(m[1]) if m else 0, 'cases': int(m[2]) if m else 0}
    shutil.rmtree(bdir, ignore_errors=True)
    cmd = ('TB_BUILD_DIR=build/figures/first-run '
           'TB_KERNEL_CACHE_DIR=build/figures/first-run/kernel-trees tools/tb run '
           '(every directory empty, the packages installed)')
    fresh = first_run_record(tb)
    if fresh:
        timings.update(fresh)
        cmd += '; and this machine\'s own first tools/tb run, as it recorded in build/first-run.json'
    return {'command': cmd, 'values': values, 'timings': timings}


def first_run_record(tb):
    """The timings of build/first-run.json, which `tools/tb run` writes on
    a fresh machine (packages missing, no build): the only measure that
    counts apt"""
    try:
        with open(os.path.join(tb.build, 'first-run.json')) as f:
            r = json.load(f)
        when = f'{r["date"]}, {r["kernel"]}, load average at the end {r["load"]}'
        return {f'fresh machine ({when}): tools/tb run, apt included, seconds': r['seconds'],
                f'fresh machine: apt-get install of {r["packages"]} packages, seconds':
                    r['apt_seconds'],
                'fresh machine: tests / cases / failed':
                    f'{r["tests"]} / {r["cases"]:,} / {r["failed"]}'}
    except (OSError, ValueError, KeyError):
        return {}


def measure_matrix(tb, tbm):
    """tools/tb matrix over the default list of trees, twice, in a build
    directory of its own: from nothing (an empty compiler cache; a tree
    not yet in the kernel-tree cache is fetched, and its fetch is counted
    apart), then again (each tree's build parked, the passes reused). A
    tree that fails a step or a case is counted, not an error."""
    bdir = os.path.join(tb.build, 'figures', 'matrix')
    subprocess.run(['rm', '-rf', bdir], check=True)
    env = dict(os.environ, TB_BUILD_DIR=bdir, TB_KERNEL_CACHE_DIR=tb.kcache)
    values, timings = {}, {}
    for what in ('from nothing', 'again'):
        t0, c0 = time.time(), resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run([os.path.join(tb.repo, 'tools', 'tb'), 'matrix', '-j', str(tb.jobs)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            with open(os.path.join(bdir, 'matrix', 'matrix.json')) as f:
                m = json.load(f)
        except (OSError, ValueError):
            raise FigureError(f'tools/tb matrix wrote no matrix.json: {p.stdout[-300:]}')
        trees = m['trees']
        values['trees'] = len(trees)
        values[f'{what}: trees passed'] = sum(r['status'] == 'passed' for r in trees)
        timings[f'{what}: tools/tb matrix, seconds'] = round(time.time() - t0, 1)
        timings[f'{what}: tools/tb matrix, CPU seconds'] = round(
            c1.ru_utime - c0.ru_utime + c1.ru_stime - c0.ru_stime, 1)
        timings[f'{what}: fetching trees, seconds'] = round(
            sum(r.get('fetch_seconds', 0) for r in trees), 1)
        for r in trees:
            timings[f'{what}: {r["label"]}: configure and build / tests, seconds '
                    f'(tests reused)'] = (f'{r.get("build_seconds", "-")} / '
                                          f'{r.get("test_seconds", "-")} '
                                          f'({r.get("tests_reused", 0)})')
        if what == 'from nothing':
            series = {}
            for r in trees:
                if 'build_seconds' in r:
                    series.setdefault('.'.join(r['label'].split('.')[:2]), []).append(
                        r['build_seconds'])
            later = sorted(x for b in series.values() for x in b[1:])
            if later:
                timings['from nothing: configure and build of a later tree of its series, '
                        f'seconds (median of {len(later)})'] = later[len(later) // 2]
    shutil.rmtree(bdir, ignore_errors=True)
    return {'command': 'TB_BUILD_DIR=build/figures/matrix tools/tb matrix (the default list '
                       'of trees, from an empty build directory and compiler cache), then '
                       'again', 'values': values, 'timings': timings}


FUZZ_TARGETS = ('page_counter', 'shrinker', 'list_lru', 'memcg', 'reclaim')
FUZZ_SECONDS = 60


def measure_fuzz(tb, tbm):
    """tools/tb fuzz T --seconds 60 for every target, one AFL++ instance
    pinned to a core (the queue of each run starts from the repository's
    corpus): the execs per second of its table, and per CPU-second"""
    timings = {}
    for t in FUZZ_TARGETS:
        p = subprocess.run([os.path.join(tb.repo, 'tools', 'tb'), 'fuzz', t, '--seconds',
                            str(FUZZ_SECONDS)], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            raise FigureError(f'tools/tb fuzz {t} failed: {p.stdout[-300:]}')
        m = re.search(r'^\S+\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s*$', p.stdout, re.M)
        per_cpu = re.search(r'(\d+) execs per CPU-second', p.stdout)
        if not m:
            raise FigureError(f'tools/tb fuzz {t}: no table in its output: {p.stdout[-300:]}')
        timings[f'{t}: execs/s'] = int(m[3])
        timings[f'{t}: corpus at the end'] = int(m[4])
        if per_cpu:
            timings[f'{t}: execs per CPU-second'] = int(per_cpu[1])
    return {'command': f'tools/tb fuzz T --seconds {FUZZ_SECONDS} for T in '
                       f'{", ".join(FUZZ_TARGETS)} (one AFL++ instance, pinned)',
            'values': {'targets': len(FUZZ_TARGETS)}, 'timings': timings}


KBUILD_EDIT = 'mm/vmscan.c'


def measure_kbuild(tb, tbm):
    """The kernel tools/tb vm --patch builds from the tree
    (tools/tb_kbuild.py: tinyconfig and tools/vm/kernel.config), in a
    build directory and compiler cache of its own, both empty: the cold
    build, the same again (nothing changed), then a one-line patch of
    mm/vmscan.c. The whole tree is build/vm/src's (extracted once,
    not counted)."""
    import types
    tree = tb_kbuild.full_tree(tb, tb.series or tbm.DEFAULT_SERIES)
    bdir = os.path.join(tb.build, 'figures', 'kbuild')
    subprocess.run(['rm', '-rf', bdir], check=True)
    sub = types.SimpleNamespace(repo=tb.repo, jobs=tb.jobs, build=bdir)
    saved = os.environ.pop('CCACHE_DIR', None)  # the build's own, empty
    timings = {}
    try:
        for what, patch in (('cold (empty compiler cache)', None), ('again, nothing changed', None),
                            (f'a one-line patch of {KBUILD_EDIT}', 'edit')):
            if patch:
                patch = os.path.join(bdir, 'edit.patch')
                with open(patch, 'w') as f:
                    f.write(one_line_patch(tree, KBUILD_EDIT))
            c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            r = tb_kbuild.build_kernel(sub, tree, patch, say=lambda m: None)
            c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            timings[f'{what}, seconds'] = r['seconds']
            timings[f'{what}, CPU seconds'] = round(
                c1.ru_utime - c0.ru_utime + c1.ru_stime - c0.ru_stime, 1)
            if not patch and what.startswith('cold'):
                timings.update(compiled_per_directory(r['log'], 'cold'))
        release = r['release']
    except tb_kbuild.KbuildError as e:
        raise FigureError(str(e))
    finally:
        if saved is not None:
            os.environ['CCACHE_DIR'] = saved
    shutil.rmtree(bdir, ignore_errors=True)
    return {'command': 'python3 tools/tb_kbuild.py 6.12 with TB_BUILD_DIR=build/figures/kbuild '
                       '(empty), again, then with --patch of a one-line change to '
                       f'{KBUILD_EDIT}', 'values': {'kernel': release.split('-')[0]},
            'timings': timings}


def compiled_per_directory(log, what, top=8):
    """kbuild's `CC <object>` lines of a build log, counted by the
    object's top directory: where a cold kernel build's compiles go"""
    counts = {}
    try:
        with open(log, errors='replace') as f:
            for m in re.finditer(r'^\s+CC\s+(\S+)', f.read(), re.M):
                d = m.group(1).split('/')[0]
                counts[d] = counts.get(d, 0) + 1
    except OSError:
        return {}
    out = {f'{what}: C files compiled': sum(counts.values())}
    for d, n in sorted(counts.items(), key=lambda x: -x[1])[:top]:
        out[f'{what}: C files compiled in {d}/'] = n
    return out


def one_line_patch(tree, path):
    """a unified diff adding one line of code at the end of path: a static
    variable, so the preprocessed file changes and the compile is real (a
    comment would be a ccache hit)"""
    with open(os.path.join(tree, path)) as f:
        lines = f.read().split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    n = len(lines) - 2
    body = [f'--- a/{path}', f'+++ b/{path}', f'@@ -{n},3 +{n},4 @@']
    body += [' ' + x for x in lines[-3:]] + ['+static int __maybe_unused tb_figures_edit;']
    return '\n'.join(body) + '\n'


# name, title, fast (CI), relative tolerance, function
GROUPS = [
    ('tests', 'Tests and test cases', True, 0, measure_tests),
    ('seeds', 'Seed experiments on virtual time (001, 004)', True, 0, measure_seeds),
    ('insn', 'Instructions per operation (callgrind)', True, 0.01, measure_insn),
    ('coverage', 'Line coverage per kernel file', False, 0, measure_coverage),
    ('mutation', 'Mutation testing', False, 0, measure_mutation),
    ('loop', 'The test loop: a clean build, and an edit of one kernel file', False, 0,
     measure_loop),
    ('first-run', 'The main job from nothing: tools/tb run of a fresh clone', False, 0,
     measure_first_run),
    ('matrix', 'Every tree: tools/tb matrix over the default list', False, 0, measure_matrix),
    ('fuzz', 'Fuzzing: execs per second of each target', False, 0, measure_fuzz),
    ('kbuild', 'The kernel tools/tb vm --patch builds from the tree', False, 0, measure_kbuild),
]


class FigureError(Exception):
    pass


# ---- the page --------------------------------------------------------------
def read_page(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return {}
    m = re.search(re.escape(DATA_START) + r'\n(.*?)\n' + re.escape(DATA_END), text, re.S)
    return json.loads(m.group(1)) if m else {}


def fmt(v):
    if isinstance(v, float):
        return f'{v:,.2f}'.rstrip('0').rstrip('.') if v != int(v) else f'{int(v):,}'
    if isinstance(v, int):
        return f'{v:,}'
    return str(v)


def render_page(data, tree):
    out = ['# Figures', '',
           'Generated by `tools/tb figures`; do not edit by hand, run it again. '
           '`tools/tb figures --check` measures the deterministic figures again and fails '
           'when one differs from this page (CI runs `tools/tb figures --check --fast`, '
           'the groups marked fast). Timings are recorded with the load average of the '
           'machine at the time and never checked: on a shared 2-core machine they move '
           'with the load.', '']
    if tree:
        out += [f'Kernel tree: {tree}.', '']
    for name, title, fast, tol, _ in GROUPS:
        g = data.get(name)
        if not g:
            continue
        out += [f'## {title}', '',
                f'`{g["command"]}` on {g["date"]}'
                + (f', kernel tree {g["kernel"]}' if g.get('kernel') else '')
                + f', load average {g["load"]}'
                + (' (fast: checked in CI)' if fast else '')
                + (f'; checked within {tol:.0%}' if tol else '; checked exactly') + '.', '',
                '| figure | value |', '|---|---:|']
        out += [f'| {k} | {fmt(v)} |' for k, v in g['values'].items()]
        if g.get('timings'):
            out += ['', 'Timings (not checked):', '', '| timing | value |', '|---|---:|']
            out += [f'| {k} | {fmt(v)} |' for k, v in g['timings'].items()]
        out.append('')
    out += [DATA_START, page_data(data), DATA_END, '']
    return '\n'.join(out)


def page_data(data):
    """The data block: the groups and their fields sorted, each group's
    figures in the order measured, which is the order of its tables (a
    partial run renders the other groups from this block: sorted keys would
    sort their rows)."""
    fixed = {}
    for name in sorted(data):
        g = data[name]
        fixed[name] = {k: g[k] for k in sorted(g)} if isinstance(g, dict) else g
    return json.dumps(fixed, indent=1)


def compare(name, tol, published, measured):
    """Lines naming each deterministic figure that drifted."""
    out = []
    pv, mv = published.get('values', {}), measured['values']
    for k in sorted(set(pv) | set(mv)):
        if k not in pv:
            out.append(f'{name}: {k}: not published, measured {fmt(mv[k])}')
        elif k not in mv:
            out.append(f'{name}: {k}: published {fmt(pv[k])}, not measured')
        else:
            a, b = pv[k], mv[k]
            if a == b:
                continue
            if tol and isinstance(a, (int, float)) and isinstance(b, (int, float)) \
                    and abs(b - a) <= tol * max(abs(a), 1e-9):
                continue
            out.append(f'{name}: {k}: published {fmt(a)}, measured {fmt(b)}')
    return out


def page_tree(path):
    """the 'Kernel tree: X.' the page was last generated with"""
    try:
        with open(path) as f:
            m = re.search(r'^Kernel tree: (.*)\.$', f.read(), re.M)
    except OSError:
        return None
    return m.group(1) if m else None


def cmd_figures(tb, tbm, say, fail):
    page = os.path.join(tb.repo, PAGE)
    data = read_page(page)
    # groups measured before figures said their tree: the page's tree then
    old_tree = page_tree(page)
    for g in data.values():
        if isinstance(g, dict) and old_tree and not g.get('kernel'):
            g['kernel'] = old_tree
    only = [n for n in tb.a.group.split(',') if n]
    groups = [g for g in GROUPS if (g[2] or not tb.a.fast) and (not only or g[0] in only)]
    drift, failed = [], []
    for name, title, fast, tol, fn in groups:
        say(f'figures: {title} ...')
        t0 = time.time()
        try:
            g = fn(tb, tbm)
        except FigureError as e:
            failed.append(f'{name}: {e}')
            say(f'figures: {name}: {e}')
            continue
        g['date'] = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
        g['load'] = loadavg()
        # a partial run (--fast) leaves the other groups as they were
        # measured: each says its own tree
        g['kernel'] = tb.tree_version
        g['timings']['group, seconds'] = round(time.time() - t0, 1)
        say(f'figures: {name}: {len(g["values"])} figures in {time.time() - t0:.0f}s '
            f'(load average {g["load"]})')
        if tb.a.check:
            if name not in data:
                drift.append(f'{name}: not on {PAGE} (run tools/tb figures)')
            else:
                drift += compare(name, tol, data[name], g)
        else:
            data[name] = g
    if failed:
        for f in failed:
            print(f, file=sys.stderr)
        fail(f'{len(failed)} group(s) could not be measured')
    if tb.a.check:
        if drift:
            print()
            print('\n'.join(drift))
            print()
            fail(f'{len(drift)} figure(s) differ from {PAGE}: if the change is meant, '
                 f'run tools/tb figures{" --fast" if tb.a.fast else ""} and commit {PAGE}')
        say(f'figures: every measured figure equals {PAGE} '
            f'({", ".join(g[0] for g in groups)})')
        return 0
    with open(page, 'w') as f:
        f.write(render_page(data, tb.tree_version and f'{tb.tree_version}'))
    say(f'figures: wrote {PAGE} ({", ".join(g[0] for g in groups)} re-measured)')
    return 0
