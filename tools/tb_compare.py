# SPDX-License-Identifier: GPL-2.0-only
"""tb_compare.py - `tools/tb compare`: what a patch changes.

  tools/tb compare --patch FILE [--kernel DIR]
  tools/tb compare --before DIR --after DIR

The patch is applied to a scratch copy of the tree (build/compare/after-tree:
hard links, each file the patch touches a copy of its own), never to the
user's tree. Each side is built twice, under build/compare/: a coverage
build (<side>-cov: the suites' verdicts per test case and the line coverage
of the touched kernel files) and a release build (<side>-rel: the
benchmarks and the seed experiments). Benchmarks run in interleaved rounds
(before, after, before, after, ...), one repetition each, and are compared
with Google Benchmark's own tools (Debian's libbenchmark-tools, gbench's
get_difference_report: the Mann-Whitney U test of compare.py).

One screen: tests that changed verdict (with the failing assertion), line
coverage of the touched files, benchmarks (after/before, spread, p), the
seeds' metrics that changed; --json FILE writes everything.
"""
import concurrent.futures
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

import tb_output
import tb_trees

GBENCH_DIRS = ['/usr/share/benchmark']  # Debian's libbenchmark-tools
DEFAULT_ROUNDS = 9                       # compare.py's UTEST_OPTIMAL_REPETITIONS
BENCH_MIN_TIME = '0.05'                  # seconds per benchmark and round
ALPHA = 0.05                             # compare.py's default --alpha
TREE_DIRS = ('mm', 'include', 'lib')


class CompareError(Exception):
    """One line for the user (and the log that says more)"""


def is_tree(d):
    return os.path.isfile(os.path.join(d, 'Makefile')) and os.path.isdir(os.path.join(d, 'mm'))


def check_tree(d, what):
    if not os.path.isdir(d):
        raise CompareError(f'{what} {d}: no such directory')
    if not is_tree(d):
        raise CompareError(f'{what} {d}: not a kernel source tree (no Makefile or mm/)')
    return os.path.abspath(d)


def default_tree(tb, m):
    """The cached Debian tree a configure without --kernel uses (configures
    the before side first when it is not extracted yet)."""
    pkg = 'linux-source-6.12'
    p = subprocess.run(['dpkg-query', '-W', '-f=${Version}', pkg], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    ver = re.sub(r'[^A-Za-z0-9.+-]', '_', p.stdout.strip()) if p.returncode == 0 else ''
    tree = os.path.join(tb.kcache, f'{pkg}_{ver}')
    if ver and tb_trees.extracted(tree):
        return tree
    side_configure(tb, m, 'before-cov', '', cov_defs())
    return tb.tree


# ---- the scratch tree -------------------------------------------------------
def patch_files(patch_text):
    """The files a -p1 patch names (tools/tb_kbuild.py reads the pairs)"""
    import tb_kbuild
    return [f for f, _, _ in tb_kbuild.patch_files(patch_text)]


def own_copy(path):
    """Replace path by a file of its own (never write through a hard link);
    a fresh mtime, so the build sees it changed."""
    if os.path.isfile(path):
        tmp = path + '.tb-own'
        shutil.copyfile(path, tmp)
        shutil.copymode(path, tmp)
        os.replace(tmp, path)


def scratch_tree(base, scratch, files):
    """A hard-link copy of base in scratch whose named files are copies of
    their own; files patched in the previous compare are copied too (a
    hard link back to the unpatched file keeps its old mtime, and the build
    would not notice the change)."""
    stamp = os.path.join(scratch, '.tb-compare')
    previous = []
    if os.path.exists(stamp):
        with open(stamp) as f:
            st = json.load(f)
        previous = st.get('files', []) if st.get('base') == base else []
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(os.path.dirname(scratch), exist_ok=True)
    tmp = scratch + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    # what a build takes (fs/ext4/inode.c only for a feature probe)
    for n in tb_trees.kernel_tree_dirs():
        if os.path.exists(os.path.join(base, n)):
            os.makedirs(os.path.dirname(os.path.join(tmp, n)), exist_ok=True)
            subprocess.run(['cp', '-al', os.path.join(base, n), os.path.join(tmp, n)],
                           check=True)
    os.rename(tmp, scratch)
    for f in set(previous) | set(files):
        own_copy(os.path.join(scratch, f))
    with open(stamp, 'w') as f:
        json.dump({'base': base, 'files': sorted(set(files))}, f)


def apply_patch(patch, base, scratch, log):
    """Apply patch (-p1) to a scratch copy of base; CompareError on failure"""
    with open(patch, errors='replace') as f:
        text = f.read()
    files = patch_files(text)
    if not files:
        raise CompareError(f'patch {patch}: no file in it (not a unified diff)')
    outside = [f for f in files if f.split('/')[0] not in TREE_DIRS]
    if outside:
        raise CompareError(f'patch {patch}: touches {", ".join(outside)}: the test bed builds '
                           f'only {", ".join(d + "/" for d in TREE_DIRS)} of a tree')
    scratch_tree(base, scratch, files)
    cmd = ['patch', '-p1', '--batch', '--forward', '--no-backup-if-mismatch',
           '-d', scratch, '-i', os.path.abspath(patch)]
    with open(log, 'w') as lf:
        for dry in (True, False):
            c = cmd + (['--dry-run'] if dry else [])
            lf.write(' '.join(c) + '\n')
            p = subprocess.run(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            lf.write(p.stdout)
            if p.returncode != 0:
                why = next((l.strip() for l in p.stdout.splitlines()
                            if re.search(r'FAILED|can\'t find|No file|garbage|Reversed|'
                                         r'malformed|not exist|No such', l)),
                           p.stdout.strip().splitlines()[-1] if p.stdout.strip() else
                           f'patch exited with {p.returncode}')
                raise CompareError(f'the patch does not apply to {base}: {why}')
    return files


def tree_diff(before, after):
    """Files of the built directories that differ between two trees"""
    out = []
    for d in TREE_DIRS:
        p = subprocess.run(['diff', '-rq', os.path.join(before, d), os.path.join(after, d)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for line in p.stdout.splitlines():
            m = re.match(r'^Files (\S+) and (\S+) differ$', line)
            if m:
                out.append(os.path.relpath(m.group(1), before))
                continue
            m = re.match(r'^Only in (\S+): (\S+)$', line)
            if m:
                path = os.path.join(m.group(1), m.group(2))
                root = before if path.startswith(before + '/') else after
                out.append(os.path.relpath(path, root))
    return sorted(set(out))


# ---- variants the patch replaces --------------------------------------------
def variant_hooks(repo):
    """{variant name: sorted names of the functions it replaces}: its
    manifests' `if variant_<name> wrap a,b` lines and its routes"""
    import tb_features
    out = {v.name: set(v.routes) for v in tb_features.VARIANTS}
    by_feature = {v.feature: v.name for v in tb_features.VARIANTS}
    for man in glob.glob(os.path.join(repo, 'mm', '**', '*.manifest'), recursive=True):
        with open(man) as f:
            for line in f:
                m = re.match(r'^if\s+(variant_\w+)\s+wrap\s+(\S+)', line)
                if m and m.group(1) in by_feature:
                    out[by_feature[m.group(1)]].update(m.group(2).split(','))
    return {k: sorted(v) for k, v in out.items()}


def function_text(path, name):
    """The definition of function name in a C file (from its first line to
    the closing brace in column 0), or None when the file defines none"""
    try:
        with open(path, errors='replace') as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    head = re.compile(r'^[A-Za-z_][^;#]*\b' + re.escape(name) + r'\s*\(')
    for i, line in enumerate(lines):
        if not head.match(line):
            continue
        j = i
        while j < len(lines) and '{' not in lines[j] and ';' not in lines[j]:
            j += 1
        if j >= len(lines) or ';' in lines[j].split('{')[0]:
            continue  # a declaration
        k = j
        while k < len(lines) and lines[k] != '}':
            k += 1
        return '\n'.join(lines[i:k + 1])
    return None


def variants_aside(repo, before, after, files):
    """[(variant, [functions])]: the variants whose replaced functions the
    patch changes (their text differs between before and after in a
    touched .c file); those step aside in the after build"""
    import tb_features
    hooks = variant_hooks(repo)
    out = []
    for v in tb_features.VARIANTS:
        if v.kfile not in files:
            continue
        changed = [n for n in hooks[v.name]
                   if function_text(os.path.join(before, v.kfile), n) !=
                   function_text(os.path.join(after, v.kfile), n)]
        if changed:
            out.append((v, changed))
    return out


def aside_note(v, changed):
    return (f'the patch changes {", ".join(changed)}, which the variant {v.name} '
            f'({v.path}, seed {v.seed}) replaces: it steps aside in the after build, '
            f'where the patch\'s code runs in its place')


# ---- builds ---------------------------------------------------------------
def cov_defs():
    return ['-DTB_COVERAGE=ON', '-DTB_BENCH=OFF', '-DTB_SANITIZE=', '-DTB_FUZZ=OFF',
            '-DCMAKE_C_FLAGS=',
            '-DCMAKE_CXX_FLAGS=']


def rel_defs():
    return ['-DCMAKE_BUILD_TYPE=RelWithDebInfo', '-DTB_BENCH=ON', '-DTB_SANITIZE=',
            '-DTB_COVERAGE=OFF', '-DTB_FUZZ=OFF']


def side_configure(tb, m, variant, tree, defs):
    tb.kernel = tree
    try:
        return tb.configure(os.path.join('compare', variant), defs, fatal=False)
    except m.ConfigureError as e:
        side = variant.split('-')[0]
        raise CompareError(f'the {side} tree does not build: {e}')


def side_build(tb, m, variant, tree, defs, targets=(), off=()):
    defs = list(defs) + [f'-DTB_VARIANTS_OFF={",".join(off)}']
    bdir = side_configure(tb, m, variant, tree, defs)
    err = tb.build_dir(bdir, targets, fatal=False)
    if err:
        line, log = err
        side = variant.split('-')[0]
        raise CompareError(f'the {side} tree does not build: {line}'
                           + (f' (log: {m.rel(log, tb.repo)})' if log else ''))
    return bdir, {'tree': tb.tree, 'version': tb.tree_version}


# ---- tests and coverage -------------------------------------------------------
def run_tests(tb, m, bdir, side, test_re):
    for root, _, names in os.walk(bdir):
        for f in names:
            if f.endswith('.gcda'):
                os.unlink(os.path.join(root, f))
    tests = tb.list_tests(bdir)
    if test_re:
        tests = [t for t in tests if re.search(test_re, t['name'])]
        if not tests:
            raise CompareError(f'--tests {test_re}: no test of {m.rel(bdir, tb.repo)} matches')
    xmldir = os.path.join(tb.build, 'compare', f'{side}-xml')
    shutil.rmtree(xmldir, ignore_errors=True)
    os.makedirs(xmldir)
    m.say(f'{side}: running {len(tests)} tests, {tb.jobs} at a time')
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=tb.jobs) as ex:
        for t, out in ex.map(lambda t: m.run_one_test(tb, bdir, t, xmldir), tests):
            ok = t['ctest_passed'] and t['passed'] == t['cases']
            t['output_tail'] = [] if ok else tb_output.failure_excerpt(out)
            t['why'] = '' if ok else tb_output.first_assertion(out)
            t['log'] = None
            if not ok:
                t['log'] = os.path.join(xmldir, f'{t["name"]}.log')
                with open(t['log'], 'w') as f:
                    f.write(out + '\n')
    cases = {}
    for t in tests:
        for c in t['case_list']:
            msg = (c['message'].splitlines() or [''])[0] if c['message'] else ''
            # a crash or a failure outside the cases: what the output says
            if c['status'] == 'failed' and (not msg or msg in (
                    'ctest reported failure',
                    'the test process failed outside its test cases')):
                msg = t['why'] or msg
            cases[f'{t["name"]}:{c["name"]}'] = {'status': c['status'], 'message': msg}
    n = {k: sum(c['status'] == k for c in cases.values()) for k in ('passed', 'failed', 'skipped')}
    m.say(f'{side}: {n["passed"]} cases passed, {n["failed"]} failed, {n["skipped"]} skipped '
          f'({time.time() - t0:.0f}s)')
    return {'tests': [{k: t[k] for k in ('name', 'cases', 'passed', 'ctest_passed', 'seconds',
                                         'why', 'log')}
                      for t in tests], 'cases': cases,
            'failure_tails': {t['name']: t['output_tail'] for t in tests if t['output_tail']}}


def before_key(bdir, test_re, res):
    return {'bdir': bdir, 'tests': test_re, 'tree': res['sides']['before']}


def cached_before(tb, m, bdir, test_re, res):
    """The before side's verdicts of the last compare, when its build has
    not changed since (the last build ran no step) and the same tests were
    asked for; its coverage counters are still those of that run."""
    path = os.path.join(tb.build, 'compare', 'before-results.json')
    try:
        with open(os.path.join(bdir, 'tb-build.log'), errors='replace') as f:
            if tb_output.build_steps(f.read()) != 0:
                return None
        with open(path) as f:
            saved = json.load(f)
    except (OSError, ValueError):
        return None
    if saved.get('key') != before_key(bdir, test_re, res):
        return None
    m.say(f'before: build unchanged since the last compare: its verdicts and coverage '
          f'reused ({m.rel(path, tb.repo)})')
    return saved['tests']


def save_before(tb, bdir, test_re, res, tests):
    path = os.path.join(tb.build, 'compare', 'before-results.json')
    with open(path, 'w') as f:
        json.dump({'key': before_key(bdir, test_re, res), 'tests': tests}, f)


def verdict_changes(before, after):
    """Cases whose verdict differs; a suite that ended without its cases'
    results on one side (a crash, an abort, the watchdog) is one row"""
    def by_test(side):
        out = {}
        for name, c in side['cases'].items():
            out.setdefault(name.split(':', 1)[0], {})[name] = c
        return out
    bt, at = by_test(before), by_test(after)
    info = {side: {t['name']: t for t in d['tests']} for side, d in
            (('before', before), ('after', after))}
    out = []
    for test in sorted(set(bt) | set(at)):
        b, a = bt.get(test, {}), at.get(test, {})
        whole = f'{test}:{test}'  # run_one_test's case for a suite without results
        lone = [s for s, d in (('before', b), ('after', a)) if list(d) == [whole]]
        if lone and b and a and len(b) + len(a) > 2:
            side = lone[0]
            t = info[side].get(test, {})
            out.append({'case': whole, 'before': 'failed' if side == 'before' else 'passed',
                        'after': 'failed' if side == 'after' else 'passed',
                        'message': 'the suite ended without its cases\' results: '
                                   + (t.get('why') or 'see its log'), 'log': t.get('log')})
            continue
        for name in sorted(set(b) | set(a)):
            bs = b[name]['status'] if name in b else 'absent'
            as_ = a[name]['status'] if name in a else 'absent'
            if bs != as_:
                msg = (a.get(name) or {}).get('message') if as_ == 'failed' else \
                    (b.get(name) or {}).get('message')
                side = 'after' if as_ == 'failed' else 'before'
                out.append({'case': name, 'before': bs, 'after': as_, 'message': msg or '',
                            'log': info[side].get(test, {}).get('log')})
    return out


def coverage(tb, bdir, tree, files, side):
    """{file: {lines, covered, percent}} of the touched files (gcovr)"""
    files = [f for f in files if f.endswith(('.c', '.h'))]
    if not files:
        return {}
    tree = tree.rstrip('/')
    js = os.path.join(tb.build, 'compare', f'{side}-coverage.json')
    cmd = ['gcovr', '--root', tree, '--object-directory', bdir, '-j', str(tb.jobs),
           '--json-summary', js, '--gcov-ignore-parse-errors']
    for f in files:
        cmd += ['--filter', re.escape(os.path.join(tree, f)) + '$']
    if shutil.which('gcov-12'):
        cmd += ['--gcov-executable', 'gcov-12']
    cmd.append(bdir)
    log = os.path.join(tb.build, 'compare', f'{side}-gcovr.log')
    with open(log, 'w') as lf:
        p = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, timeout=900)
    if p.returncode != 0:
        raise CompareError(f'gcovr failed on the {side} side (log: {log})')
    with open(js) as f:
        data = json.load(f)
    out = {f: None for f in files}
    for e in data.get('files', []):
        name = e['filename']
        if os.path.isabs(name):
            name = os.path.relpath(name, tree)
        out[name] = {'lines': e.get('line_total', 0), 'covered': e.get('line_covered', 0),
                     'percent': e.get('line_percent')}
    return out


# ---- benchmarks ----------------------------------------------------------------
def gbench_report():
    for d in GBENCH_DIRS:
        if os.path.exists(os.path.join(d, 'gbench', 'report.py')):
            sys.path.insert(0, d)
            try:
                from gbench import report
            except ImportError as e:
                raise CompareError(f'Google Benchmark\'s tools in {d} do not load ({e}; '
                                   'apt-get install python3-scipy)')
            return report
    raise CompareError('Google Benchmark\'s compare.py is missing '
                       '(apt-get install libbenchmark-tools)')


def bench_exes(bdir):
    return sorted(os.path.basename(p) for p in
                  glob.glob(os.path.join(bdir, 'bench', 'bench_*'))
                  if os.path.isfile(p) and os.access(p, os.X_OK))


def run_benchmarks(tb, m, bdirs, bench_re, rounds):
    """Interleaved rounds; {'results': {exe: {side: gbench json}}, 'errors': [...]}"""
    names = [n for n in bench_exes(bdirs['before']) if n in bench_exes(bdirs['after'])]
    outdir = os.path.join(tb.build, 'compare', 'bench')
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    runs = {}
    errors = []
    for exe in names:
        flt = [f'--benchmark_filter={bench_re}'] if bench_re else []
        ls = subprocess.run([os.path.join(bdirs['before'], 'bench', exe),
                             '--benchmark_list_tests'] + flt, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=tb.env())
        if ls.returncode == 0 and ls.stdout.strip():
            runs[exe] = {'before': [], 'after': []}
    if not runs:
        return {'rounds': rounds, 'results': {}, 'errors': []}
    m.say(f'benchmarks: {", ".join(runs)}; {rounds} rounds, before and after interleaved '
          f'(logs in {m.rel(outdir, tb.repo)})')
    t0 = time.time()
    for r in range(rounds):
        for exe in list(runs):
            for side in ('before', 'after'):
                out = os.path.join(outdir, f'{exe}.{side}.{r}.json')
                log = os.path.join(outdir, f'{exe}.{side}.{r}.log')
                cmd = [os.path.join(bdirs[side], 'bench', exe), f'--benchmark_out={out}',
                       '--benchmark_out_format=json', '--benchmark_repetitions=1',
                       f'--benchmark_min_time={BENCH_MIN_TIME}']
                if bench_re:
                    cmd.append(f'--benchmark_filter={bench_re}')
                with open(log, 'w') as lf:
                    p = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, env=tb.env())
                if p.returncode != 0 or not os.path.exists(out):
                    what = (f'killed by signal {-p.returncode}' if p.returncode < 0
                            else f'exit status {p.returncode}')
                    line = f'{exe} failed on the {side} side ({what}; log: {m.rel(log, tb.repo)})'
                    m.say(line)
                    errors.append(line)
                    del runs[exe]
                    break
                with open(out) as f:
                    runs[exe][side].append(json.load(f))
        m.say(f'benchmarks: round {r + 1} of {rounds} done ({time.time() - t0:.0f}s)')
    return {'rounds': rounds, 'results': runs, 'errors': errors}


def bench_table(bench):
    """Per benchmark: medians, after/before, the spread of the per-round
    ratios, and compare.py's U-test p-value (real time)"""
    if not bench['results']:
        return []
    report = gbench_report()
    rows = []
    for exe, sides in bench['results'].items():
        merged = {}
        errors = {}
        for side in ('before', 'after'):
            runs = [b for j in sides[side] for b in j.get('benchmarks', [])
                    if b.get('run_type', 'iteration') == 'iteration']
            # a benchmark that stopped itself (SkipWithError) has no time
            for b in runs:
                if b.get('error_occurred'):
                    errors.setdefault(b['name'], {})[side] = b.get('error_message', 'error')
            merged[side] = {'benchmarks': [b for b in runs if not b.get('error_occurred')]}
        for name, e in errors.items():
            rows.append({'binary': exe, 'name': name, 'error': e})
        diff = report.get_difference_report(merged['before'], merged['after'], utest=True)
        for d in diff:
            if d['name'] == 'OVERALL_GEOMEAN':
                continue
            bt = [x['real_time'] for x in d['measurements']]
            at = [x['real_time_other'] for x in d['measurements']]
            ratios = [a / b for a, b in zip(at, bt) if b]
            mb, ma = statistics.median(bt), statistics.median(at)
            u = d.get('utest') or {}
            rows.append({'binary': exe, 'name': d['name'], 'unit': d['time_unit'],
                         'before_median': mb, 'after_median': ma,
                         'ratio': ma / mb if mb else None,
                         'spread': [min(ratios), max(ratios)] if ratios else None,
                         'p_time': none_or_float(u.get('time_pvalue')),
                         'p_cpu': none_or_float(u.get('cpu_pvalue')),
                         'repetitions': len(bt),
                         'significant': bool(u.get('time_pvalue') is not None and
                                             u['time_pvalue'] < ALPHA)})
    return rows


def none_or_float(x):
    return None if x is None else float(x)


# ---- seeds -----------------------------------------------------------------------
def flatten(x, prefix=''):
    """{'a.b[2].c': number} of the numeric leaves of a seed's results"""
    out = {}
    if isinstance(x, dict):
        for k, v in x.items():
            out.update(flatten(v, f'{prefix}.{k}' if prefix else str(k)))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            out.update(flatten(v, f'{prefix}[{i}]'))
    elif isinstance(x, bool):
        out[prefix] = int(x)
    elif isinstance(x, (int, float)):
        out[prefix] = x
    return out


def run_seeds(tb, m, bdirs, infos, wanted):
    mods = [s for s in m.seed_modules(tb.repo) if wanted is None or s.NUM in wanted]
    out = {}
    for s in mods:
        out[s.NUM] = {'title': s.TITLE}
        # before, after, before again: the two before runs give each
        # metric's run-to-run spread (threads, wall clock)
        for run in ('before', 'after', 'before2'):
            side = run.rstrip('2')
            tb.tree, tb.tree_version = infos[side]['tree'], infos[side]['version']
            outdir = os.path.join(tb.build, 'compare', f'{run}-seeds', s.NUM)
            os.makedirs(outdir, exist_ok=True)
            t0 = time.time()
            try:
                out[s.NUM][run] = s.run({'tb': tb, 'bdir': bdirs[side], 'outdir': outdir,
                                         'quick': True})
            except Exception as e:  # a seed that crashes is one line, not the end
                msg = f'{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ""}'
                out[s.NUM][run] = {'error': msg}
                m.say(f'seed {s.NUM} failed on the {side} side: {msg}')
            with open(os.path.join(outdir, f'seed_{s.NUM}.json'), 'w') as f:
                json.dump(out[s.NUM][run], f, indent=1, default=str)
            m.say(f'seed {s.NUM} ({run}): {time.time() - t0:.0f}s')
    return out


def rel_change(b, a):
    if b is None or a is None:
        return float('inf')
    if not b:
        return float('inf') if a else 0.0
    return abs(a / b - 1.0)


def seed_changes(seeds):
    """Per seed, the metrics whose after value lies outside what the two
    before runs give: any change of a metric the before runs agree on; for
    one they disagree on, a distance from their mean over twice their
    difference. The rest is counted: unchanged, or within run-to-run noise."""
    rows = {}
    for num, d in seeds.items():
        b, a, b2 = d.get('before', {}), d.get('after', {}), d.get('before2', {})
        errs = {k: v.get('error') for k, v in (('before', b), ('after', a), ('before again', b2))}
        if any(errs.values()):
            rows[num] = {'error': errs}
            continue
        fb, fa, fb2 = flatten(b), flatten(a), flatten(b2)
        changed, noisy, same = [], 0, 0
        for k in sorted(set(fb) | set(fa)):
            x, y, x2 = fb.get(k), fa.get(k), fb2.get(k, fb.get(k))
            if x == y and x2 == x:
                same += 1
                continue
            if None not in (x, y, x2) and x != x2:
                if abs(y - (x + x2) / 2) <= 2 * abs(x - x2):
                    noisy += 1
                    continue
            elif x == y:
                noisy += 1
                continue
            changed.append({'metric': k, 'before': x, 'before_again': x2, 'after': y})
        # the largest relative changes first (a metric gone or new: first)
        changed.sort(key=lambda c: -rel_change(c['before'], c['after']))
        rows[num] = {'changed': changed, 'unchanged': same, 'within_noise': noisy}
    return rows


# ---- the screen --------------------------------------------------------------------
def fmt_num(v):
    if v is None:
        return '-'
    if isinstance(v, float) and not v.is_integer():
        return f'{v:.4g}'
    return f'{int(v):,}'


def render(res, max_seed_rows=8):
    out = []
    hdr = res['sides']
    out.append(f'== tb compare: before {hdr["before"]["tree"]} ({hdr["before"]["version"]})')
    out.append(f'              after  {hdr["after"]["tree"]} ({hdr["after"]["version"]})'
               + (f', patch {res["patch"]}' if res.get('patch') else ''))
    out.append(f'touched: {", ".join(res["touched"]) or "(none)"}')
    for v in res.get('variants_aside', []):
        out.append(f'variant {v["variant"]} ({v["file"]}) stepped aside in the after build: '
                   f'the patch changes {", ".join(v["changed"])}')
    if 'tests' in res:
        t = res['tests']
        nb, na = len(t['before']['cases']), len(t['after']['cases'])
        fb = sum(c['status'] == 'failed' for c in t['before']['cases'].values())
        fa = sum(c['status'] == 'failed' for c in t['after']['cases'].values())
        out.append('')
        out.append(f'Tests: {nb} cases before ({fb} failed), {na} after ({fa} failed); '
                   f'{len(t["changed"])} changed verdict')
        logged = set()
        for c in t['changed'][:15]:
            test, _, case = c['case'].partition(':')
            case = case.rsplit(':', 1)[-1]
            case = '(the whole suite)' if case == test else case
            after = c['after'].upper() if c['after'] == 'failed' else c['after']
            out.append(f'  {test}: {case}: {c["before"]} -> {after}')
            if c['message']:
                out.append(f'      {c["message"][:150]}')
            if c.get('log') and c['after'] == 'failed' and c['log'] not in logged:
                logged.add(c['log'])
                out.append(f'      (output: {c["log"]})')
        if len(t['changed']) > 15:
            out.append(f'  ... {len(t["changed"]) - 15} more (--json)')
    if res.get('coverage'):
        out.append('')
        out.append('Line coverage of the touched files (coverage build, the suites above)')
        w = max(len(f) for f in res['coverage']) + 2
        out.append(f'  {"file":<{w}}{"before":>18}{"after":>18}')
        for f, c in res['coverage'].items():
            def cell(x):
                return '-' if not x else f'{x["covered"]}/{x["lines"]} {x["percent"]:.1f}%'
            out.append(f'  {f:<{w}}{cell(c["before"]):>18}{cell(c["after"]):>18}')
    if res.get('bench') is not None:
        b = res['bench']
        out.append('')
        out.append(f'Benchmarks: after/before of the median real time over {b["rounds"]} '
                   'interleaved rounds; spread: the lowest and highest per-round ratio; '
                   f'p: U test (Google Benchmark compare.py), * below {ALPHA}')
        if b['rows']:
            w = max(len(r['name']) for r in b['rows']) + 2
            out.append(f'  {"benchmark":<{w}}{"before":>12}{"after":>12}{"ratio":>8}'
                       f'{"spread":>16}{"p":>8}')
            for r in b['rows']:
                if 'error' in r:
                    out.append(f'  {r["name"]:<{w}}  ' + '; '.join(
                        f'{k}: {v}' for k, v in r['error'].items()) + ' (no time)')
                    continue
                sp = f'{r["spread"][0]:.2f}-{r["spread"][1]:.2f}' if r['spread'] else '-'
                p = '-' if r['p_time'] is None else f'{r["p_time"]:.3f}'
                out.append(f'  {r["name"]:<{w}}{r["before_median"]:>10.4g}{r["unit"]:>2}'
                           f'{r["after_median"]:>10.4g}{r["unit"]:>2}'
                           f'{r["ratio"]:>8.3f}{sp:>16}{p:>7}{"*" if r["significant"] else " "}')
        elif not b['errors']:
            out.append('  (no benchmark selected)')
        for e in b['errors']:
            out.append(f'  {e}')
    if res.get('seeds'):
        out.append('')
        out.append('Seeds (quick form; run before, after, before again): the metrics that changed')
        for num, r in res['seeds'].items():
            title = res['seed_titles'].get(num, '')
            if 'error' in r:
                out.append(f'  seed {num}: FAILED: ' + '; '.join(
                    f'{k}: {v or "ok"}' for k, v in r['error'].items()))
                continue
            out.append(f'  seed {num} ({title}): {len(r["changed"])} changed, '
                       f'{r["unchanged"]} unchanged, {r["within_noise"]} within the '
                       'before runs\' spread')
            for c in r['changed'][:max_seed_rows]:
                ratio = ''
                if isinstance(c['before'], (int, float)) and isinstance(c['after'], (int, float)) \
                        and c['before']:
                    ratio = f'  (x{c["after"] / c["before"]:.3g})'
                out.append(f'    {c["metric"]}: {fmt_num(c["before"])} -> {fmt_num(c["after"])}{ratio}')
            if len(r['changed']) > max_seed_rows:
                out.append(f'    ... {len(r["changed"]) - max_seed_rows} more (--json)')
    return '\n'.join(out)


# ---- the command --------------------------------------------------------------------
def cmd_compare(tb, m):
    try:
        return compare(tb, m)
    except CompareError as e:
        m.fail(str(e))


def compare(tb, m):
    a = tb.a
    t0 = time.time()
    work = os.path.join(tb.build, 'compare')
    os.makedirs(work, exist_ok=True)
    seeds_wanted = None
    if a.seeds:
        seeds_wanted = [] if a.seeds == 'none' else a.seeds.split(',')
        have = [s.NUM for s in m.seed_modules(tb.repo)]
        bad = [s for s in seeds_wanted if s not in have]
        if bad:
            raise CompareError(f'no experiment for seed {", ".join(bad)} (have: {", ".join(have)})')
    bench_re = None if a.bench == 'none' else a.bench
    if a.bench and a.bench != 'none':
        try:
            re.compile(a.bench)
        except re.error as e:
            raise CompareError(f'--bench {a.bench}: not a regular expression ({e})')
    if a.tests:
        try:
            re.compile(a.tests)
        except re.error as e:
            raise CompareError(f'--tests {a.tests}: not a regular expression ({e})')
    rounds = a.rounds or DEFAULT_ROUNDS
    if a.bench != 'none':
        gbench_report()  # missing tools: say so before building anything

    if a.patch:
        if not os.path.isfile(a.patch):
            raise CompareError(f'patch {a.patch}: no such file')
        base = check_tree(tb.kernel, 'kernel tree') if tb.kernel else default_tree(tb, m)
        trees = {'before': base, 'after': os.path.join(work, 'after-tree')}
        log = os.path.join(work, 'patch.log')
        touched = apply_patch(a.patch, base, trees['after'], log)
        m.say(f'patch applied to a scratch copy of {base}: {m.rel(trees["after"], tb.repo)} '
              f'({", ".join(touched)})')
        src = {'before': tb.kernel, 'after': trees['after']}
    else:
        trees = {'before': check_tree(a.before, 'before tree'),
                 'after': check_tree(a.after, 'after tree')}
        touched = tree_diff(trees['before'], trees['after'])
        m.say(f'{len(touched)} files differ: {", ".join(touched[:8])}'
              + (' ...' if len(touched) > 8 else ''))
        src = trees
    aside = variants_aside(tb.repo, trees['before'], trees['after'], touched)
    for v, changed in aside:
        m.say(aside_note(v, changed))
    off = {'before': (), 'after': tuple(v.name for v, _ in aside)}
    res = {'patch': os.path.abspath(a.patch) if a.patch else None, 'touched': touched,
           'sides': {}, 'variants_aside': [{'variant': v.name, 'file': v.path, 'seed': v.seed,
                                            'changed': changed} for v, changed in aside]}

    # coverage builds: verdicts and coverage
    cov = {}
    for side in ('before', 'after'):
        cov[side], res['sides'][side] = side_build(tb, m, f'{side}-cov', src[side], cov_defs(),
                                                   off=off[side])
    tests = {}
    # a patch that makes a suite hang costs 10 s of it, not the default 30
    saved = os.environ.get('TB_WATCHDOG_SECONDS')
    os.environ.setdefault('TB_WATCHDOG_SECONDS', '10')
    try:
        for side in ('before', 'after'):
            tests[side] = cached_before(tb, m, cov[side], a.tests, res) if side == 'before' \
                else None
            if tests[side] is None:
                tests[side] = run_tests(tb, m, cov[side], side, a.tests)
            if side == 'before':
                save_before(tb, cov[side], a.tests, res, tests[side])
    finally:
        if saved is None:
            del os.environ['TB_WATCHDOG_SECONDS']
    res['tests'] = {'before': tests['before'], 'after': tests['after'],
                    'changed': verdict_changes(tests['before'], tests['after'])}
    res['coverage'] = {}
    for side in ('before', 'after'):
        c = coverage(tb, cov[side], res['sides'][side]['tree'], touched, side)
        for f, v in c.items():
            res['coverage'].setdefault(f, {})[side] = v

    # release builds: benchmarks and seeds
    run_bench = a.bench != 'none'
    run_seeds_ = seeds_wanted != []
    if run_bench or run_seeds_:
        rel = {}
        for side in ('before', 'after'):
            rel[side], _ = side_build(tb, m, f'{side}-rel', src[side], rel_defs(),
                                      off=off[side])
        if run_bench:
            bench = run_benchmarks(tb, m, rel, bench_re, rounds)
            res['bench'] = {'rounds': rounds, 'rows': bench_table(bench),
                            'errors': bench['errors']}
        if run_seeds_:
            seeds = run_seeds(tb, m, rel, res['sides'], seeds_wanted)
            res['seed_titles'] = {k: v['title'] for k, v in seeds.items()}
            res['seed_results'] = {k: {s: v.get(s) for s in ('before', 'after', 'before2')}
                                   for k, v in seeds.items()}
            res['seeds'] = seed_changes(seeds)
    res['seconds'] = round(time.time() - t0, 1)
    print()
    print(render(res))
    print()
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(res, f, indent=1, default=str)
        m.say(f'wrote {a.json}')
    m.say(f'compare took {res["seconds"]:.0f}s; builds and logs in {m.rel(work, tb.repo)}/')
    worse = any(c['after'] == 'failed' for c in res['tests']['changed'])
    errors = bool(res.get('bench', {}).get('errors')) or any(
        'error' in r for r in res.get('seeds', {}).values())
    return 1 if worse or errors else 0
