#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tb.py - the work behind tools/tb (configure, build, run, report).

tools/tb parses the user's command line, checks packages, and calls this
with normalized arguments:  tb.py <command> --repo DIR -j N [--kernel DIR] ...

Reports: `tb run` prints a list of report sections (REPORT_SECTIONS) and
writes them to build/run/summary.json.  A section is a class with `name`,
`title`, `collect(ctx) -> data` (JSON-able) and `render(data) -> str`.

Seed experiments: tools/seeds/seed_NNN.py, a module with
  TITLE    one line
  TARGETS  cmake targets it needs from the release build (build/release)
  run(ctx) -> data (JSON-able); ctx = {'tb', 'bdir', 'outdir', 'quick'}
           (outdir: build/seeds/NNN, for plots and raw files; quick: a
           shorter run for `tb run`)
  render(data) -> str
`tb seed NNN` runs one; `tb run` appends one section per module.
"""
import importlib.util
import argparse
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tb_output  # noqa: E402

TEST_LABELS = 'unit|stress'
SLOW_LABEL = 'slow'  # tests over ~5 s: tools/tb test --slow and CI, not tools/tb test
DEFAULT_SERIES = '6.12'  # the Debian linux-source-X.Y used without --kernel
SANITIZER_ENV = {
    # suppressions: tests/tsan.supp, added per repository in TB.env();
    # history_size=7: the longest access history, so the stack of the
    # earlier access is restored and the suppressions can match it (with
    # the default, stress runs reported "[failed to restore the stack]")
    'TSAN_OPTIONS': 'halt_on_error=1:second_deadlock_stack=1:history_size=7',
    'ASAN_OPTIONS': 'detect_leaks=1:abort_on_error=1',
    'UBSAN_OPTIONS': 'halt_on_error=1:print_stacktrace=1',
}
AFL_DRIVER = '/usr/lib/afl/libAFLDriver.a'
# Parts of a kernel file with a coverage figure of their own: (name, file,
# CONFIG symbol): the lines of the file's largest `#ifdef SYMBOL` up to its
# own #else or #endif, found in the tree's file at every run.
COVERAGE_REGIONS = [
    ('vmscan.c (MGLRU part)', 'mm/vmscan.c', 'CONFIG_LRU_GEN'),
]


# a thread's own lines (tb run's background release build), printed when
# the main thread takes its result
_out = threading.local()


def say(msg):
    lines = getattr(_out, 'lines', None)
    if lines is not None:
        lines.append((sys.stdout, f'tb: {msg}'))
        return
    print(f'tb: {msg}', flush=True)


def fail(msg, code=1):
    lines = getattr(_out, 'lines', None)
    if lines is not None:
        lines.append((sys.stderr, f'tb: {msg}'))
    else:
        print(f'tb: {msg}', file=sys.stderr, flush=True)
    sys.exit(code)


def rel(path, repo):
    try:
        r = os.path.relpath(path, repo)
        return path if r.startswith('..') else r
    except ValueError:
        return path


class TB:
    def __init__(self, a):
        self.a = a
        self.repo = os.path.abspath(a.repo)
        # TB_BUILD_DIR / TB_KERNEL_CACHE_DIR move the build tree (for
        # experiments); the default layout is <repo>/build/<variant>.
        self.build = os.path.abspath(os.environ.get('TB_BUILD_DIR') or
                                     os.path.join(self.repo, 'build'))
        self.kcache = os.path.abspath(os.environ.get('TB_KERNEL_CACHE_DIR') or
                                      os.path.join(self.build, 'kernel-trees'))
        self.jobs = a.jobs
        self.verbose = getattr(a, 'verbose', False)
        # --kernel (tools/tb_trees.py): 6.12 or 6.1, the installed
        # linux-source-X.Y (extracted and cached by cmake, like the default);
        # another series or an exact version, Debian's package fetched from
        # the archive and extracted into the cache, then used in place like
        # a directory; a directory, in place. matrix takes a list.
        self.series, self.kernel, self.debian = '', '', None
        if a.kernel and a.command != 'matrix':
            self.series, self.kernel, self.debian = kernel_choice(a.kernel, self.kcache)
        self.tree = None
        self.tree_version = None
        self.tree_before = None  # KERNEL_SRC_BEFORE (6.1): files named 'x.c@6.1'
        self.tree_before_version = None
        self.regions = {}  # COVERAGE_REGIONS' figures, after gcovr()
        self.html_job = None  # gcovr's HTML report, written in the background

    # ---- cmake ---------------------------------------------------------
    def configure(self, variant, defs=(), env=None, fatal=True):
        """Configure build/<variant> (or skip it: same options as last time).
        A failure ends tb with one line, or, with fatal=False, raises
        ConfigureError with that line."""
        bdir = os.path.join(self.build, variant)
        os.makedirs(bdir, exist_ok=True)
        rb = rel(bdir, self.repo)
        cmd = (['cmake', '-S', self.repo, '-B', bdir]
               + tb_output.generator_args(bdir, defs, say, rb) + tb_output.python_args()
               + [f'-DKERNEL_CACHE_DIR={self.kcache}', f'-DKERNEL_SRC={self.kernel}',
                  f'-DTB_CCACHE_DIR={os.path.join(self.build, "ccache")}',
                  f'-DTB_KGEN_CACHE_DIR={os.path.join(self.build, "kgen-cache")}',
                  f'-DKERNEL_SERIES={self.series or DEFAULT_SERIES}']
               + list(defs))
        # configured with the same options: the build system re-runs cmake
        # by itself when a CMakeLists.txt changed, and a kernel file's edit
        # needs no configure
        key = {'cmd': cmd, 'env': env or {}, 'package': self.package_stamp()}
        st = tb_output.configured_state(bdir, key)
        if st:
            for k in ('tree', 'tree_version', 'tree_before', 'tree_before_version'):
                setattr(self, k, st.get(k))
            say(f'{rb}: configured (kernel tree {self.tree}, {self.tree_version})')
            return bdir
        tb_output.forget_state(bdir)
        log = os.path.join(bdir, 'tb-configure.log')
        say(f'configuring {rb}' + ('' if self.verbose else f' (log: {rel(log, self.repo)})'))
        t0 = time.time()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, env=self.env(env))
        with open(log, 'w') as f:
            f.write(' '.join(cmd) + '\n' + p.stdout)
        if self.verbose:
            print(p.stdout, end='', flush=True)
        if p.returncode != 0:
            msg = f'configure failed: {cmake_error(p.stdout)} (log: {rel(log, self.repo)})'
            if not fatal:
                raise ConfigureError(msg)
            fail(msg)
        m = re.search(r'^-- Kernel tree: (.*) \(([^()]*)\)\s*$', p.stdout, re.M)
        if m:
            self.tree, self.tree_version = m.group(1), m.group(2)
        m = re.search(r'^-- Kernel tree \(before\): (.*) \(([^()]*)\)\s*$', p.stdout, re.M)
        if m:
            self.tree_before, self.tree_before_version = m.group(1), m.group(2)
        for line in p.stdout.splitlines():
            if line.startswith(('-- Extracting', '-- Suite ', '-- Fuzz target ')):
                say(line[3:])
            if line.startswith('CMake Warning'):
                say(f'configure warning: see {rel(log, self.repo)}')
        say(f'kernel tree {self.tree} ({self.tree_version}); '
            f'configured in {time.time() - t0:.1f}s')
        tb_output.save_state(bdir, key, self)
        return bdir

    def package_stamp(self):
        """The Debian tarball the tree comes from, as a stat (no dpkg-query:
        the edit loop configures nothing): an upgraded linux-source-X.Y
        re-configures, so the build takes the new tree."""
        if self.kernel:
            return None
        tarball = f'/usr/src/linux-source-{self.series or DEFAULT_SERIES}.tar.xz'
        try:
            st = os.stat(tarball)
        except OSError:
            return None
        return [st.st_size, int(st.st_mtime)]

    def build_dir(self, bdir, targets=(), fatal=True):
        """Build (the targets of) bdir; its output goes to tb-build.log unless
        -v. A failure prints the error and the log's path; it ends tb, or,
        with fatal=False, returns (one line, log path)."""
        cmd = tb_output.build_command(bdir, self.jobs, targets)
        rb = rel(bdir, self.repo)
        what = f' ({len(targets)} targets)' if len(targets) > 3 else (
            f' ({" ".join(targets)})' if targets else '')
        log = os.path.join(bdir, 'tb-build.log')
        t0 = time.time()
        if self.verbose:
            say(f'building {rb}{what}')
            p = subprocess.run(cmd, env=self.env())
            if p.returncode != 0:
                if not fatal:
                    return f'build of {rb} failed', None
                fail(f'build of {rb} failed', p.returncode)
            say(f'built in {time.time() - t0:.1f}s')
            return None
        say(f'building {rb}{what} (log: {rel(log, self.repo)})')
        with open(log, 'w') as f:
            f.write(' '.join(cmd) + '\n')
            f.flush()
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=self.env())
        with open(log, errors='replace') as f:
            text = f.read()
        if p.returncode != 0:
            line, excerpt = tb_output.build_failure(text)
            if not fatal:
                return line, log
            print('\n'.join(excerpt), file=sys.stderr)
            fail(f'build of {rb} failed: {line} (log: {rel(log, self.repo)})', p.returncode)
        n = tb_output.build_steps(text)
        say(f'built in {time.time() - t0:.1f}s ({n} step{"s" if n != 1 else ""})')
        return None

    def env(self, extra=None):
        e = dict(os.environ)
        for k, v in SANITIZER_ENV.items():
            e.setdefault(k, v)
        supp = os.path.join(self.repo, 'tests', 'tsan.supp')
        if 'suppressions=' not in e['TSAN_OPTIONS'] and os.path.exists(supp):
            e['TSAN_OPTIONS'] += ':suppressions=' + supp
        if extra:
            e.update(extra)
        return e

    def ctest(self, bdir, extra=(), env=None, what=None, labels=TEST_LABELS, listing=None,
              test_dir=None):
        """listing: ctest_listing() of bdir when the caller has it (for the table);
        test_dir: the ctest directory to run, when not bdir (ctest_subset())"""
        cmd = ['ctest', '--test-dir', test_dir or bdir, '--output-on-failure', '--no-tests=error',
               '-L', labels, '-j', str(self.jobs)] + list(extra)
        if self.verbose:
            say('running ' + ' '.join(cmd[:1] + cmd[3:]))
            sys.stdout.flush()
            return subprocess.run(cmd, env=self.env(env)).returncode
        log = os.path.join(bdir, 'tb-test.log')
        junit = os.path.join(bdir, 'tb-test.xml')
        if os.path.exists(junit):
            os.unlink(junit)
        say(f'running {what or "the tests labelled " + labels}, {self.jobs} at a time '
            f'(log: {rel(log, self.repo)})')
        t0 = time.time()
        with open(log, 'w') as f:
            f.write(' '.join(cmd) + '\n')
            f.flush()
            # whole outputs: a passing test's is cut at 1 KiB by default
            p = subprocess.run(cmd + ['--output-junit', junit, '--test-output-size-passed',
                                      '4000000', '--test-output-size-failed', '4000000'], stdout=f,
                               stderr=subprocess.STDOUT, env=self.env(env))
        secs = time.time() - t0
        results = tb_output.parse_junit(junit)
        if not results:
            with open(log, errors='replace') as f:
                print(''.join(f.readlines()[-15:]), end='')
            say(f'ctest ran no test (status {p.returncode}; log: {rel(log, self.repo)})')
            return p.returncode or 1
        listing = listing or tb_output.ctest_listing(bdir, self.env(), '.')
        print()
        print(tb_output.test_table(results, tb_output.test_areas(listing, self.repo, bdir)))
        failed = [r for r in results if r['status'] == 'failed']
        for r in failed:
            print()
            print(f'FAILED {r["name"]}:')
            print('\n'.join('  ' + l for l in tb_output.failure_excerpt(r['output'])))
        print()
        npass = sum(r['status'] == 'passed' for r in results)
        say(f'{npass} of {len(results)} tests passed in {secs:.1f}s'
            + (f'; failed: {", ".join(r["name"] for r in failed)}; log: {rel(log, self.repo)}'
               if failed else ''))
        return p.returncode

    def list_tests(self, bdir):
        p = subprocess.run(['ctest', '--test-dir', bdir, '--show-only=json-v1',
                            '-L', TEST_LABELS], stdout=subprocess.PIPE, text=True,
                           env=self.env())
        if p.returncode != 0:
            fail('ctest --show-only=json-v1 failed')
        tests = []
        for t in json.loads(p.stdout).get('tests', []):
            labels = []
            for prop in t.get('properties', []):
                if prop.get('name') == 'LABELS':
                    labels = prop.get('value') or []
            tests.append({'name': t['name'], 'labels': labels,
                          'kfiles': [l[6:] for l in labels if l.startswith('kfile:')]})
        return tests

    # ---- coverage ------------------------------------------------------
    def coverage_build(self, variant='coverage'):
        # the counters' flags are the kernel sources' own (CMakeLists.txt's
        # tb_coverage_kernel_sources()); the empty flags replace the
        # -fprofile-update=atomic an older build directory has cached
        bdir = self.configure(variant, ['-DTB_COVERAGE=ON', '-DTB_BENCH=OFF',
                                           '-DTB_SANITIZE=', '-DTB_FUZZ=OFF',
                                           '-DCMAKE_C_FLAGS=', '-DCMAKE_CXX_FLAGS='])
        self.build_dir(bdir)
        n = 0
        for root, _, names in os.walk(bdir):
            for f in names:
                if f.endswith('.gcda'):
                    os.unlink(os.path.join(root, f))
                    n += 1
        if n:
            say(f'reset {n} old .gcda counter files')
        return bdir

    def gcovr(self, bdir, html_later=False):
        """Line coverage of the kernel files: {file: figures}, the HTML
        report's path, the summary JSON's. html_later: the HTML pages (a
        third of gcovr's time, on one core) are written from the per-line
        JSON by a second gcovr in the background; gcovr_html_wait() ends it."""
        if not self.tree:
            fail('unknown kernel tree: cannot name kernel files for coverage')
        tree = self.tree.rstrip('/')
        html = os.path.join(bdir, 'index.html')
        js = os.path.join(bdir, 'coverage.json')
        lines_js = os.path.join(bdir, 'coverage-lines.json')
        for old in glob.glob(os.path.join(bdir, 'index*.html')):
            os.unlink(old)
        # the before tree's files (6.1's list_lru.c, its vmscan.c extract)
        # are reported too, named 'mm/list_lru.c@6.1' as the kfile labels
        before = self.tree_before.rstrip('/') if self.tree_before else None
        extra = ['--filter', re.escape(before + '/')] if before else []
        base = ['gcovr', '--root', tree, '--filter', re.escape(tree + '/')] + extra
        html_args = ['--html-details', html, '--html-title', f'mm test bed: {self.tree_version}']
        cmd = base + ['--object-directory', bdir, '-j', str(self.jobs)] + \
            ([] if html_later else html_args) + [
               '--json-summary', js, '--json-summary-pretty', '--json', lines_js,
               '--gcov-ignore-parse-errors']
        if shutil.which('gcov-12'):
            cmd += ['--gcov-executable', 'gcov-12']
        cmd.append(bdir)
        say('gcovr: kernel files of ' + tree)
        try:
            # gcovr 5.2 can hang when a worker fails: never wait forever
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=900)
        except subprocess.TimeoutExpired:
            fail('gcovr did not finish in 900s')
        if p.returncode != 0:
            print(p.stdout)
            fail('gcovr failed')
        if html_later:
            log = open(os.path.join(bdir, 'tb-gcovr-html.log'), 'w')
            self.html_job = (subprocess.Popen(base + ['--add-tracefile', lines_js] + html_args,
                                              stdout=log, stderr=subprocess.STDOUT), log)
        with open(js) as f:
            data = json.load(f)
        files = {}
        for f in data.get('files', []):
            name = f['filename'] = self.tree_file_name(tree, before, f['filename'])
            files[name] = {'lines': f.get('line_total', 0),
                           'covered': f.get('line_covered', 0),
                           'percent': f.get('line_percent', 0.0),
                           'functions': f.get('function_total', 0),
                           'functions_covered': f.get('function_covered', 0)}
        if before:
            with open(js, 'w') as f:
                json.dump(data, f, indent=2)
        self.regions = region_coverage(tree, lines_js)
        return files, html, js

    def gcovr_html_wait(self):
        """Wait for the background HTML report of gcovr(html_later=True)"""
        job, self.html_job = self.html_job, None
        if not job:
            return
        p, log = job
        try:
            rc = p.wait(timeout=900)
        except subprocess.TimeoutExpired:
            p.kill()
            rc = 'a timeout'
        log.close()
        if rc != 0:
            say(f'gcovr: the HTML report failed ({rc}; {rel(log.name, self.repo)})')

    def tree_file_name(self, tree, before, name):
        """gcovr's name of a kernel file: relative to the tree; the before
        tree's files (outside --root) get '@<major.minor>' as in 'kfile:' labels."""
        if not (os.path.isabs(name) or name.startswith('..')):
            return name
        path = os.path.normpath(os.path.join(tree, name))
        if before and path.startswith(before + '/'):
            ver = '.'.join((self.tree_before_version or '6.1').split('.')[:2])
            return os.path.relpath(path, before) + '@' + ver
        fail(f'gcovr named a file outside the kernel trees: {name}')


def kernel_choice(spec, kcache):
    """(series, kernel dir, Debian tree or None) for --kernel spec; the
    archive's package fetched once (tools/tb_trees.py)"""
    import tb_trees
    archive = tb_trees.Archive(kcache, say)
    try:
        t = tb_trees.resolve(spec, archive)
        if t.kind == 'installed':
            return t.series, '', t
        path = tb_trees.provide(t, archive)
    except tb_trees.TreeError as e:
        fail(str(e))
    return '', path, (t if t.kind == 'archive' else None)


class ConfigureError(Exception):
    pass


def cmake_error(out):
    """The message of the first 'CMake Error' block, on one line."""
    lines = out.splitlines()
    for i, l in enumerate(lines):
        if l.startswith('CMake Error'):
            msg = []
            for m in lines[i + 1:]:
                if m.startswith(('Call Stack', 'CMake ', '-- ')):
                    break
                if m.strip():
                    msg.append(m.strip())
            if msg:
                return ' '.join(msg)
            return l.strip()
    tail = [l for l in lines if l.strip()][-1:] or ['(no output)']
    return tail[0].strip()


def coverage_table(files):
    w = max([len(n) for n in files] + [len('kernel file')])
    out = [f'{"kernel file":<{w}}  {"lines":>6}  {"covered":>7}  {"%":>6}']
    tl = tc = 0
    for n in sorted(files):
        c = files[n]
        tl += c['lines']
        tc += c['covered']
        out.append(f'{n:<{w}}  {c["lines"]:>6}  {c["covered"]:>7}  {pct(c["covered"], c["lines"]):>6}')
    out.append(f'{"total":<{w}}  {tl:>6}  {tc:>7}  {pct(tc, tl):>6}')
    return '\n'.join(out)


def pct(a, b):
    return f'{100.0 * a / b:.1f}' if b else '-'


def ifdef_regions(lines, sym):
    """[(first, last)]: the lines inside each `#ifdef sym` of lines, up to
    its own #else, #elif or #endif (nested conditionals skipped)"""
    opener = re.compile(r'^\s*#\s*ifdef\s+' + re.escape(sym) + r'\b(?!\w)')
    out = []
    for i, line in enumerate(lines):
        if not opener.match(line):
            continue
        depth = 0
        for j in range(i + 1, len(lines)):
            d = re.match(r'^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b', lines[j])
            if not d:
                continue
            if d.group(1).startswith('if'):
                depth += 1
            elif depth == 0:
                out.append((i + 2, j))
                break
            elif d.group(1) == 'endif':
                depth -= 1
    return out


def ifdef_region(path, sym):
    """(first, last) lines of the largest `#ifdef sym` of path (6.12's
    vmscan.c opens its MGLRU part with its first CONFIG_LRU_GEN block, 7.3's
    has a small one before it), or None."""
    with open(path, errors='replace') as f:
        spans = ifdef_regions(f.read().splitlines(), sym)
    return max(spans, key=lambda s: s[1] - s[0]) if spans else None


def region_coverage(tree, lines_js):
    """Line coverage of COVERAGE_REGIONS from gcovr's per-line JSON: {name:
    {file, first, last, lines, covered, percent, uncovered_functions}}."""
    with open(lines_js) as f:
        data = json.load(f)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tb_mutate
    out = {}
    for name, kfile, sym in COVERAGE_REGIONS:
        src = os.path.join(tree, kfile)
        span = ifdef_region(src, sym) if os.path.exists(src) else None
        if not span:
            continue
        counts = {}
        # a file compiled into several objects comes once per object
        for fd in data.get('files', []):
            if fd.get('file') != kfile:
                continue
            for ln in fd.get('lines', []):
                if not ln.get('gcovr/noncode') and span[0] <= ln['line_number'] <= span[1]:
                    n = ln['line_number']
                    counts[n] = counts.get(n, 0) + ln.get('count', 0)
        with open(src, errors='replace') as f:
            owner = tb_mutate.functions_of(f.read().splitlines())
        per_fn = {}
        for n, c in counts.items():
            fn = per_fn.setdefault(owner.get(n) or '(outside functions)', [0, 0])
            fn[0] += 1
            fn[1] += c > 0
        unc = sorted(((f, t - c, t) for f, (t, c) in per_fn.items() if c < t),
                     key=lambda x: (-x[1], x[0]))
        covered = sum(1 for c in counts.values() if c > 0)
        out[name] = {'file': kfile, 'first': span[0], 'last': span[1], 'lines': len(counts),
                     'covered': covered,
                     'percent': round(100.0 * covered / len(counts), 1) if counts else None,
                     'uncovered_functions': [{'function': f, 'uncovered': u, 'lines': t}
                                             for f, u, t in unc]}
    return out


def region_table(regions, top=8):
    """'vmscan.c (MGLRU part): 61.7% (...)' and its least covered functions"""
    out = []
    for name, r in regions.items():
        if not r['lines']:  # e.g. a tree whose reclaim suites are skipped
            out.append(f'{name}: not compiled in this build ({r["file"]}:{r["first"]}-{r["last"]})')
            continue
        out.append(f'{name}: {pct(r["covered"], r["lines"])}% ({r["covered"]} of {r["lines"]} '
                   f'compiled lines, {r["file"]}:{r["first"]}-{r["last"]})')
        fns = r['uncovered_functions'][:top]
        if fns:
            out.append('  most lines uncovered: ' + ', '.join(
                f'{f["function"]} {f["uncovered"]}/{f["lines"]}' for f in fns))
    return '\n'.join(out)


# ---- commands ------------------------------------------------------------
def test_defs(sanitize=None):
    """cmake options of tools/tb test's build directories; no benchmarks: no
    test runs them (tools/tb bench and run build them in build/release)"""
    return [f'-DTB_SANITIZE={sanitize or ""}', '-DTB_COVERAGE=OFF', '-DTB_FUZZ=OFF',
            '-DTB_BENCH=OFF']


def cmd_test(tb):
    variant = {'': 'default', 'address': 'asan', 'thread': 'tsan'}[tb.a.sanitize or '']
    try:
        pat = tb.a.regex and re.compile(tb.a.regex)
    except re.error as e:
        fail(f'-R {tb.a.regex}: not a regular expression ({e})')
    bdir = tb.configure(variant, test_defs(tb.a.sanitize))
    if tb.a.slow:
        tb.build_dir(bdir)
        return tb.ctest(bdir, labels=SLOW_LABEL)
    if pat:
        return test_matching(tb, bdir, pat)
    if not tb.a.file:
        tb.build_dir(bdir)
        return tb.ctest(bdir)
    # --file: the suites that run the changed lines of those kernel files,
    # and only their executables built
    files = [tb_output.kfile_name(f, tb.tree) for f in tb.a.file]
    cov = os.path.join(tb.build, 'coverage')
    if tb.a.map:
        make_line_maps(tb, files, tb.a.cases)
    # the tests as the CMakeLists.txt files say now: a suite added since
    # the last build is listed only after the build re-runs cmake (an
    # error here shows again in the build below); not when no file cmake
    # reads changed since it wrote build.ninja (~0.2 s of the edit loop)
    if not tb_output.manifest_current(bdir):
        subprocess.run(tb_output.build_command(bdir, None, ['build.ninja']),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=tb.env())
    listing = tb_output.ctest_listing(bdir, tb.env(), TEST_LABELS) or []
    variants = []
    if not tb.a.with_variants:
        # a suite once, in its base configuration: its variant runs (more
        # nodes, the same code) are left to tools/tb test, but for those a
        # line map saw run a changed line their base test does not
        listing, variants = tb_output.split_variants(listing)
        for v in variants:
            b = tb_output.variant_base(v, listing)
            v['base'] = b and b['name']

    per_file, picked = {}, {}

    def pick(f, hit):
        per_file[f] = {}
        out, note = tb_output.select_by_lines(
            hit, f, tb.tree, cov, tb.repo,
            variants=[v for v in variants if 'kfile:' + f in v['labels']],
            cases=per_file[f] if tb.a.cases else None)
        say(note)
        picked[f] = {t['name'] for t in out}
        return out
    tests, targets, err = tb_output.select_by_files(listing, files, bdir, pick)
    if err:
        fail(err)
    note = tb_output.variants_note([v for v in variants if v not in tests], files)
    if note:
        say(note)
    # a test limited to some of its cases for every file that wants it:
    # their union (a test another file wants whole runs whole)
    cases = {}
    for t in tests:
        sel = [per_file[f].get(t['name']) for f in files if t['name'] in picked.get(f, ())]
        if sel and all(sel):
            cases[t['name']] = sorted(set().union(*sel))
    # kernel_checks: the symbol checks of kernel_require(), run by a whole build
    tb.build_dir(bdir, targets + ['kernel_checks'] if targets else ())
    what = (f'{len(tests)} test{"s" if len(tests) != 1 else ""} labelled '
            + ' or '.join('kfile:' + f for f in files))
    names = [t['name'] for t in tests]
    subset = os.path.join(bdir, 'tb-cases')
    if cases and tb_output.ctest_subset(bdir, names, cases, subset):
        n = sum(len(c) for c in cases.values())
        what += f' ({n} case{"s" if n != 1 else ""} of {len(cases)} of them)'
        return tb.ctest(bdir, [], what=what, listing=listing if targets else None,
                        test_dir=subset)
    # the listing names each test's executable only once it was built
    return tb.ctest(bdir, ['-R', tb_output.name_regex(names)], what=what,
                    listing=listing if targets else None)


def test_matching(tb, bdir, pat):
    """tools/tb test -R: the tests of tools/tb test's labels whose name
    matches pat, after a whole build (a suite may share a helper library)"""
    regex = pat.pattern
    tb.build_dir(bdir)
    listing = tb_output.ctest_listing(bdir, tb.env(), TEST_LABELS) or []
    tests = [t for t in listing if pat.search(t['name'])]
    if not tests:
        fail(f'-R {regex}: no test labelled {TEST_LABELS} matches '
             f'(of {len(listing)} tests)')
    what = f'{len(tests)} test{"s" if len(tests) != 1 else ""} matching {regex}'
    return tb.ctest(bdir, ['-R', tb_output.name_regex(t['name'] for t in tests)], what=what,
                    listing=listing)


def make_line_maps(tb, files, cases=False):
    """tools/tb test --map: the per-test line map of each file (tools/tb
    mutate's), from the coverage build, each test alone; tb_output.
    select_by_lines reads it. cases (--cases): also the per-case map
    (tools/tb mutate --cases's), each case alone; tb_output.select_cases
    reads it"""
    import tb_mutate
    cov = tb.coverage_build()
    tree = tb.tree.rstrip('/')
    for f in files:
        if not os.path.isfile(os.path.join(tree, f)):
            fail(f'{tree}: {f}: no such file in the kernel tree')
        with open(os.path.join(tree, f)) as fh:
            statements = tb_mutate.Source(fh.read()).statements()
        label = '^' + re.escape('kfile:' + f) + '$'
        tb_mutate.test_map(tb, cov, tree, f, label, statements, say)
        if cases:
            tb_mutate.case_map(tb, cov, tree, f, label, say)


def cmd_coverage(tb):
    if tb.a.fuzz:
        return fuzz_module().cmd_coverage_fuzz(tb)
    bdir = tb.coverage_build()
    rc = tb.ctest(bdir)
    files, html, js = tb.gcovr(bdir)
    print()
    print(coverage_table(files))
    if tb.regions:
        print()
        print(region_table(tb.regions))
    print()
    say(f'coverage report: {rel(html, tb.repo)}, {rel(js, tb.repo)}')
    return rc


def cmd_bench(tb):
    bdir = release_build(tb)
    exes = sorted(p for p in glob.glob(os.path.join(bdir, 'bench', '**', 'bench_*'), recursive=True)
                  if os.path.isfile(p) and os.access(p, os.X_OK))
    if not exes:
        say('no benchmark built (bench/bench_* executables): nothing to run')
        return 0
    outdir = os.path.join(tb.build, 'bench')
    os.makedirs(outdir, exist_ok=True)
    rc = 0
    rows = []
    for exe in exes:
        name = os.path.basename(exe)
        out = os.path.join(outdir, f'{name}.json')
        cmd = [exe, f'--benchmark_out={out}', '--benchmark_out_format=json']
        if tb.a.filter is not None:
            cmd.append(f'--benchmark_filter={tb.a.filter}')
            # a binary with nothing matching is skipped, not a failure
            ls = subprocess.run([exe, '--benchmark_list_tests', f'--benchmark_filter={tb.a.filter}'],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                env=tb.env())
            if not ls.stdout.strip():
                continue
        say('running ' + ' '.join([rel(exe, tb.repo)] + cmd[1:]))
        p = subprocess.run(cmd, env=tb.env())
        if p.returncode != 0:
            say(f'{name} failed with status {p.returncode}')
            rc = rc or p.returncode
            continue
        try:
            with open(out) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            say(f'{name}: no JSON results ({e})')
            rc = rc or 1
            continue
        scale = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}
        for b in data.get('benchmarks', []):
            if b.get('run_type') == 'aggregate' and b.get('aggregate_name') != 'mean':
                continue
            s = scale.get(b.get('time_unit', 'ns'), 1)
            rows.append((name, b['name'], b.get('real_time', 0) * s,
                         b.get('cpu_time', 0) * s, b.get('iterations', 0)))
    if rows:
        w = max(len(r[1]) for r in rows + [('', 'benchmark')])
        print()
        print(f'{"benchmark":<{w}}  {"ns/op":>12}  {"cpu ns/op":>12}  {"iterations":>12}')
        last = None
        for exe, n, real, cpu, it in rows:
            if exe != last:
                print(f'[{exe}]')
                last = exe
            print(f'{n:<{w}}  {real:>12.1f}  {cpu:>12.1f}  {it:>12}')
        print()
        say(f'JSON results in {rel(outdir, tb.repo)}/')
    if rows and not tb.a.no_insn:
        rc = bench_insn(tb, bdir, rows, outdir) or rc
    return rc


def bench_insn(tb, bdir, rows, outdir):
    """Instructions per operation of each benchmark (tools/tb_insn.py)."""
    sys.path.insert(0, os.path.join(tb.repo, 'tools'))
    import callgrind_split
    import tb_insn
    for d in (tb.kernel, tb.tree, tb.tree_before):
        if d:
            callgrind_split.KERNEL_DIRS.append(d)
    cgdir = os.path.join(outdir, 'callgrind')
    os.makedirs(cgdir, exist_ok=True)
    say(f'counting instructions: one callgrind run per benchmark ({len(rows)}; --no-insn skips)')
    res = []
    for exe, name, *_ in rows:
        path = os.path.join(bdir, 'bench', exe)
        res.append((name, tb_insn.measure(path, name, cgdir, tb.env())))
    print()
    print('\n'.join(tb_insn.table(res)))
    print()
    out = os.path.join(outdir, 'insn.json')
    with open(out, 'w') as f:
        json.dump({n: r for n, r in res}, f, indent=1)
    say(f'instruction counts in {rel(out, tb.repo)}, profiles in {rel(cgdir, tb.repo)}/')
    return 1 if any('error' in r for _, r in res) else 0


# ---- seed experiments ------------------------------------------------------
def seed_modules(repo):
    mods = []
    for p in sorted(glob.glob(os.path.join(repo, 'tools', 'seeds', 'seed_*.py'))):
        num = os.path.basename(p)[5:-3]
        spec = importlib.util.spec_from_file_location(f'seed_{num}', p)
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        m.NUM = num
        mods.append(m)
    return mods


def release_configure(tb):
    return tb.configure('release', ['-DCMAKE_BUILD_TYPE=RelWithDebInfo', '-DTB_BENCH=ON',
                                    '-DTB_KERNEL_COST=ON',
                                    '-DTB_SANITIZE=', '-DTB_COVERAGE=OFF', '-DTB_FUZZ=OFF'])


def release_build(tb, targets=()):
    bdir = release_configure(tb)
    if targets:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import tb_doctor
        missing = tb_doctor.missing_targets(bdir, targets)
        if missing:
            fail(f'kernel tree {tb.tree} ({tb.tree_version}) builds no {" ".join(missing)}: '
                 f'its suites are skipped (tools/tb doctor says why)')
    tb.build_dir(bdir, targets)
    return bdir


def release_seed_build(tb):
    """build/release with the seeds' programs only: all that tb run runs
    there (the tests and benchmarks in it were half its build)"""
    bdir = release_configure(tb)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tb_doctor
    targets = sorted({t for m in seed_modules(tb.repo) for t in m.TARGETS})
    missing = set(tb_doctor.missing_targets(bdir, targets))
    targets = [t for t in targets if t not in missing]
    if targets:
        tb.build_dir(bdir, targets)
    return bdir


class Background:
    """release_seed_build(tb) in a thread at nice 10, beside tb run's
    coverage tests and gcovr: it takes the CPU they leave idle (the last
    suites, gcovr's one thread) and little else. Its lines are printed when
    the seeds take its result."""

    def __init__(self, tb):
        self.lines, self.bdir, self.code = [], None, None
        self.thread = threading.Thread(target=self.run, args=(tb,), daemon=True)
        self.thread.start()

    def run(self, tb):
        _out.lines = self.lines
        try:
            # Linux's nice is a thread's, and the processes it starts inherit it
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
        except (OSError, AttributeError):
            pass
        try:
            self.bdir = release_seed_build(tb)
        except SystemExit as e:
            self.code = e.code if isinstance(e.code, int) else 1
        except Exception as e:  # noqa: BLE001 - reported in the main thread
            self.lines.append((sys.stderr, f'tb: release build: {type(e).__name__}: {e}'))
            self.code = 1

    def result(self):
        self.thread.join()
        for stream, line in self.lines:
            print(line, file=stream, flush=True)
        if self.code is not None:
            sys.exit(self.code)
        return self.bdir


def run_seed(tb, m, bdir, quick=False, opts=None):
    outdir = os.path.join(tb.build, 'seeds', m.NUM)
    os.makedirs(outdir, exist_ok=True)
    t0 = time.time()
    ctx = {'tb': tb, 'bdir': bdir, 'outdir': outdir, 'quick': quick}
    ctx.update(opts or {})
    data = m.run(ctx)
    data = {'seed': m.NUM, 'title': m.TITLE, 'kernel': tb.tree_version,
            'seconds': round(time.time() - t0, 1), 'results': data}
    with open(os.path.join(outdir, f'seed_{m.NUM}.json'), 'w') as f:
        json.dump(data, f, indent=2)
    return data


def seed_unmet(tb, m):
    """why seed m's experiment does not apply to tb's tree (a feature of
    m.NEEDS it lacks), or None"""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tb_features
    for name in getattr(m, 'NEEDS', ()):
        f = tb_features.by_name(name)
        if not tb_features.probe(tb.tree, f)[0]:
            return (f'the tree ({tb.tree_version}) lacks {name}: {f.what}; '
                    f'{getattr(m, "NEEDS_WHY", "")}').rstrip('; ')
    return None


def cmd_seed(tb):
    m = next((m for m in seed_modules(tb.repo) if m.NUM == tb.a.target), None)
    if m is None:
        fail(f'no experiment for seed {tb.a.target}')
    release_configure(tb)
    why = seed_unmet(tb, m)
    if why:
        print(f'== seed {m.NUM}: {m.TITLE}')
        print(f'not run: {why}')
        return 0
    opts = {k: getattr(tb.a, k) for k in ('scale', 'rounds', 'nodes') if getattr(tb.a, k)}
    for k in opts:
        if k not in getattr(m, 'OPTIONS', ()):
            fail(f'seed {m.NUM} takes no --{k}')
    bdir = release_build(tb, m.TARGETS)
    data = run_seed(tb, m, bdir, opts=opts)
    print(f'== seed {m.NUM}: {m.TITLE}')
    print(m.render(data['results']))
    if tb.a.json:
        with open(tb.a.json, 'w') as f:
            json.dump(data, f, indent=2)
        say(f'wrote {tb.a.json}')
    say(f'seed {m.NUM} took {data["seconds"]}s; raw files in '
        f'{rel(os.path.join(tb.build, "seeds", m.NUM), tb.repo)}/')
    return 0


def fuzz_module():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tb_fuzz
    return tb_fuzz


def cmd_fuzz(tb):
    return fuzz_module().cmd_fuzz(tb)


def cmd_fuzz_triage(tb):
    return fuzz_module().cmd_fuzz_triage(tb)


# ---- tb run: report sections ---------------------------------------------
class Section:
    name = ''
    title = ''

    def collect(self, ctx):
        raise NotImplementedError

    def render(self, data):
        raise NotImplementedError


class KernelTreeSection(Section):
    name = 'kernel'
    title = 'Kernel tree'

    def collect(self, ctx):
        tb = ctx['tb']
        deb = getattr(tb, 'debian', None)
        return {'path': tb.tree, 'version': tb.tree_version,
                'source': f'{deb.package} {deb.version} (Debian, fetched)'
                if deb and deb.kind == 'archive' else 'KERNEL_SRC' if tb.kernel else
                f'linux-source-{tb.series or DEFAULT_SERIES} (Debian)'}

    def render(self, d):
        return f'{d["path"]}\nversion {d["version"]} ({d["source"]})'


class KernelFilesSection(Section):
    name = 'kernel_files'
    title = 'Tests and line coverage per kernel file'

    def collect(self, ctx):
        cov = ctx['coverage']
        rows = {}
        for n in cov:
            rows[n] = {'file': n, 'tests': [], 'cases': 0, 'passed': 0}
        other = {'file': '(no kernel file)', 'tests': [], 'cases': 0, 'passed': 0}
        for t in ctx['tests']:
            targets = [rows.setdefault(k, {'file': k, 'tests': [], 'cases': 0, 'passed': 0})
                       for k in t['kfiles']] or [other]
            for r in targets:
                r['tests'].append(t['name'])
                r['cases'] += t['cases']
                r['passed'] += t['passed']
        out = []
        for n in sorted(rows, key=lambda n: (n.split('@')[0].endswith('.h'), not n.startswith('mm/'), n)):
            r = rows[n]
            c = cov.get(n)
            r['lines'] = c['lines'] if c else None
            r['covered'] = c['covered'] if c else None
            r['line_percent'] = round(100.0 * c['covered'] / c['lines'], 1) if c and c['lines'] else None
            out.append(r)
        if other['tests']:
            other.update(lines=None, covered=None, line_percent=None)
            out.append(other)
        return out

    def render(self, rows):
        w = max([len(r['file']) for r in rows] + [len('kernel file')])
        s = [f'{"kernel file":<{w}}  {"tests":>5}  {"cases":>5}  {"passed":>6}  '
             f'{"lines":>6}  {"covered":>7}  {"line %":>6}']
        for r in rows:
            lp = '-' if r['line_percent'] is None else f'{r["line_percent"]:.1f}'
            s.append(f'{r["file"]:<{w}}  {len(r["tests"]):>5}  {r["cases"]:>5}  {r["passed"]:>6}  '
                     f'{r["lines"] if r["lines"] is not None else "-":>6}  '
                     f'{r["covered"] if r["covered"] is not None else "-":>7}  {lp:>6}')
        return '\n'.join(s)


class RegionsSection(Section):
    name = 'coverage_regions'
    title = 'Line coverage of kernel file parts'

    def collect(self, ctx):
        return ctx['tb'].regions

    def render(self, data):
        return region_table(data) if data else 'none'


class FailuresSection(Section):
    name = 'failures'
    title = 'Failed test cases'

    def collect(self, ctx):
        return [{'test': t['name'], 'case': c['name'], 'message': c['message']}
                for t in ctx['tests'] for c in t['case_list'] if c['status'] == 'failed']

    def render(self, rows):
        if not rows:
            return 'none'
        return '\n'.join(f'{r["test"]}: {r["case"]}: {r["message"].splitlines()[0] if r["message"] else ""}'
                         for r in rows)


class SeedSection(Section):
    """A seed experiment as a `tb run` section (built and run on build/release)."""

    def __init__(self, m):
        self.m = m
        self.name = f'seed_{m.NUM}'
        self.title = f'Seed {m.NUM}: {m.TITLE}'

    def collect(self, ctx):
        if 'release' not in ctx:
            bg = ctx.get('background')
            ctx['release'] = bg.result() if bg else release_seed_build(ctx['tb'])
        why = seed_unmet(ctx['tb'], self.m)
        if why:
            return {'skipped': why}
        import tb_doctor
        missing = tb_doctor.missing_targets(ctx['release'], self.m.TARGETS)
        if missing:
            return {'skipped': f'this tree builds no {" ".join(missing)} '
                               '(see the suites skipped on this tree)'}
        try:
            return run_seed(ctx['tb'], self.m, ctx['release'], quick=True)['results']
        except Exception as e:  # a failed experiment is reported, not fatal to the run
            return {'error': f'{type(e).__name__}: {e}'}

    def render(self, data):
        if isinstance(data, dict) and 'error' in data and len(data) == 1:
            return f'FAILED: {data["error"]}'
        if isinstance(data, dict) and 'skipped' in data and len(data) == 1:
            return f'skipped: {data["skipped"]}'
        return self.m.render(data)


REPORT_SECTIONS = [KernelTreeSection(), KernelFilesSection(), RegionsSection(),
                   FailuresSection()]


def parse_cmocka_xml(path):
    """Test cases of a CMocka XML file (which may hold several documents)."""
    with open(path, errors='replace') as f:
        text = f.read()
    text = re.sub(r'<\?xml[^>]*\?>', '', text)
    try:
        root = ET.fromstring(f'<all>{text}</all>')
    except ET.ParseError:
        return None
    cases = []
    for suite in root.iter('testsuite'):
        for tc in suite.iter('testcase'):
            st = 'passed'
            msg = ''
            for tag in ('failure', 'error'):
                e = tc.find(tag)
                if e is not None:
                    st, msg = 'failed', (e.text or e.get('message') or '').strip()
            if tc.find('skipped') is not None and st == 'passed':
                st = 'skipped'
            cases.append({'name': f'{suite.get("name")}:{tc.get("name")}', 'status': st,
                          'message': msg})
    return cases


def run_one_test(tb, bdir, t, xmldir):
    d = os.path.join(xmldir, t['name'])
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    # CMocka names the file after its group; tb_run's group is __FILE__, an
    # absolute path: give it the directories it will need.
    for root, dirs, _ in os.walk(tb.repo):
        dirs[:] = [x for x in dirs if x not in ('.git', 'build')]
        for x in dirs:
            p = os.path.join(root, x)
            os.makedirs(d + p, exist_ok=True)
            os.makedirs(os.path.join(d, os.path.relpath(p, tb.repo)), exist_ok=True)
    env = {'CMOCKA_MESSAGE_OUTPUT': 'xml', 'CMOCKA_XML_FILE': os.path.join(d, '%g.xml')}
    t0 = time.time()
    p = subprocess.run(['ctest', '--test-dir', bdir, '--output-on-failure', '--no-tests=error',
                        '-R', '^' + re.sub(r'([][.*+?^$(){}|\\])', r'\\\1', t['name']) + '$'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=tb.env(env))
    t['seconds'] = round(time.time() - t0, 2)
    t['ctest_passed'] = p.returncode == 0
    cases = []
    for root, _, names in os.walk(d):
        for n in sorted(names):
            if n.endswith('.xml'):
                c = parse_cmocka_xml(os.path.join(root, n))
                if c:
                    cases += c
    if not cases:
        # not a CMocka suite (replays, python tests): the test is one case
        cases = [{'name': t['name'], 'status': 'passed' if p.returncode == 0 else 'failed',
                  'message': '' if p.returncode == 0 else 'ctest reported failure'}]
    elif p.returncode != 0 and all(c['status'] != 'failed' for c in cases):
        cases.append({'name': f'{t["name"]}(process)', 'status': 'failed',
                      'message': 'the test process failed outside its test cases'})
    for root, _, _ in os.walk(d, topdown=False):
        if root != d and not os.listdir(root):
            os.rmdir(root)
    t['case_list'] = cases
    t['cases'] = sum(1 for c in cases if c['status'] != 'skipped')
    t['passed'] = sum(1 for c in cases if c['status'] == 'passed')
    # the test's own output, without the framing of this one-test ctest run
    out = []
    for line in p.stdout.splitlines():
        if re.match(r'^\d+% tests passed', line):
            break
        if not re.match(r'^(Test project |\s*Start\s+\d+: )', line):
            out.append(line)
    return t, '\n'.join(out).strip('\n')


def record_first_run(tb, totals):
    """build/first-run.json: the time of a fresh machine's first run, apt
    included. Written only when this run installed the packages (tools/tb
    passes TB_APT_INSTALLED: count, apt's seconds, the run's start) and
    found no build; tools/tb figures publishes it beside its own first-run
    figures, which cannot count apt on a machine that has the packages."""
    parts = os.environ.get('TB_APT_INSTALLED', '').split()
    if len(parts) != 3:
        return
    try:
        npkg, apt_secs = int(parts[0]), int(parts[1])
        # bash's EPOCHREALTIME takes the locale's decimal separator
        started = float(parts[2].replace(',', '.'))
    except ValueError:
        return
    rec = {'date': time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(started)),
           'packages': npkg, 'apt_seconds': apt_secs,
           'seconds': round(time.time() - started, 1),
           'tests': totals['tests'], 'cases': totals['cases'],
           'failed': len(totals['tests_failed']) + len(totals['seeds_failed']),
           'kernel': tb.tree_version, 'load': ' '.join(f'{x:.2f}' for x in os.getloadavg())}
    path = os.path.join(tb.build, 'first-run.json')
    with open(path, 'w') as f:
        json.dump(rec, f, indent=1)
    say(f'first run on this machine: {rec["seconds"]:.0f}s with apt\'s {apt_secs}s '
        f'({rel(path, tb.repo)})')


def cmd_run(tb):
    t0 = time.time()
    fresh = not os.path.exists(os.path.join(tb.build, 'coverage', 'CMakeCache.txt'))
    bdir = tb.coverage_build()
    tests = tb.list_tests(bdir)
    if not tests:
        fail(f'no tests labelled {TEST_LABELS} in {rel(bdir, tb.repo)}')
    rundir = os.path.join(tb.build, 'run')
    xmldir = os.path.join(rundir, 'xml')
    shutil.rmtree(xmldir, ignore_errors=True)
    os.makedirs(xmldir)
    # the seeds' programs are built beside the tests and gcovr
    background = Background(tb) if seed_modules(tb.repo) else None
    say(f'running {len(tests)} tests ({tb.jobs} at a time), CMocka XML in {rel(xmldir, tb.repo)}')
    with concurrent.futures.ThreadPoolExecutor(max_workers=tb.jobs) as ex:
        futs = [ex.submit(run_one_test, tb, bdir, t, xmldir) for t in tests]
        for f in concurrent.futures.as_completed(futs):
            t, out = f.result()
            status = 'PASS' if t['ctest_passed'] and t['passed'] == t['cases'] else 'FAIL'
            if status == 'FAIL' or tb.verbose:
                print(f'  {status} {t["name"]:<32} {t["passed"]}/{t["cases"]} cases  '
                      f'{t["seconds"]:.2f}s', flush=True)
            if status == 'FAIL':
                print(out if tb.verbose else
                      '\n'.join('    ' + l for l in tb_output.failure_excerpt(out)))
    nfail = sum(1 for t in tests if not (t['ctest_passed'] and t['passed'] == t['cases']))
    say(f'{len(tests) - nfail} of {len(tests)} tests passed ({sum(t["passed"] for t in tests)} '
        f'of {sum(t["cases"] for t in tests)} cases)')
    cov, html, js = tb.gcovr(bdir, html_later=True)
    ctx = {'tb': tb, 'tests': tests, 'coverage': cov, 'bdir': bdir, 'background': background}
    summary = {'generated': time.strftime('%Y-%m-%dT%H:%M:%S%z'), 'sections': {}}
    print()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tb_doctor
    sections = REPORT_SECTIONS[:2] + [tb_doctor.SkippedSuitesSection()] + \
        REPORT_SECTIONS[2:] + [SeedSection(m) for m in seed_modules(tb.repo)]
    sfail = []
    for s in sections:
        # a seed timed by the wall clock runs alone
        if getattr(getattr(s, 'm', None), 'WALL_CLOCK', False):
            tb.gcovr_html_wait()
        data = s.collect(ctx)
        if isinstance(s, SeedSection) and isinstance(data, dict) and 'error' in data:
            sfail.append(s.name)
        summary['sections'][s.name] = {'title': s.title, 'data': data}
        print(f'== {s.title}')
        print(s.render(data))
        print()
    tb.gcovr_html_wait()
    ncases = sum(t['cases'] for t in tests)
    npass = sum(t['passed'] for t in tests)
    tfail = [t['name'] for t in tests if not (t['ctest_passed'] and t['passed'] == t['cases'])]
    summary['totals'] = {'tests': len(tests), 'tests_failed': tfail, 'cases': ncases,
                         'cases_passed': npass, 'cases_failed': ncases - npass,
                         'seeds_failed': sfail,
                         'seconds': round(time.time() - t0, 1)}
    summary['tests'] = [{k: t[k] for k in ('name', 'labels', 'kfiles', 'cases', 'passed',
                                            'ctest_passed', 'seconds', 'case_list')}
                        for t in tests]
    summary['coverage'] = {'html': rel(html, tb.repo), 'json': rel(js, tb.repo)}
    os.makedirs(rundir, exist_ok=True)
    with open(os.path.join(rundir, 'summary.json'), 'w') as f:
        json.dump(summary, f, indent=2)
    say(f'summary: {rel(os.path.join(rundir, "summary.json"), tb.repo)}; '
        f'coverage: {rel(html, tb.repo)}; {time.time() - t0:.0f}s')
    if fresh:
        record_first_run(tb, summary['totals'])
    print(f'{npass} passed, {ncases - npass} failed')
    if sfail:
        print(f'seed experiment(s) failed: {" ".join(sfail)}')
    return 0 if not tfail and not sfail else 1


def cmd_compare(tb):
    import tb_compare
    return tb_compare.cmd_compare(tb, sys.modules[__name__])


def cmd_doctor(tb):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tb_doctor
    return tb_doctor.cmd_doctor(tb, say, fail)


def cmd_figures(tb):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tb_figures
    return tb_figures.cmd_figures(tb, sys.modules[__name__], say, fail)


def cmd_mutate(tb):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import tb_mutate
    return tb_mutate.cmd_mutate(tb, say, fail, rel, sys.modules[__name__])


def cmd_matrix(tb):
    import tb_matrix
    return tb_matrix.cmd_matrix(tb, sys.modules[__name__])


def cmd_vm(tb):
    import tb_vm
    return tb_vm.cmd_vm(tb, say, fail)


def cmd_oracle(tb):
    import tb_oracle
    return tb_oracle.cmd_oracle(tb, sys.modules[__name__])


def main():
    ap = argparse.ArgumentParser(prog='tb.py')
    ap.add_argument('command', choices=['run', 'test', 'coverage', 'bench', 'fuzz', 'seed',
                                        'mutate', 'compare', 'doctor', 'fuzz-triage',
                                        'figures', 'vm', 'oracle', 'matrix'])
    ap.add_argument('--repo', required=True)
    ap.add_argument('-j', dest='jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--kernel')
    ap.add_argument('--sanitize', choices=['address', 'thread'])
    ap.add_argument('--filter')
    ap.add_argument('--no-insn', action='store_true')
    ap.add_argument('--no-pin', action='store_true')
    ap.add_argument('--slow', action='store_true')
    ap.add_argument('--regex')
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--fast', action='store_true')
    ap.add_argument('--group', default='')
    ap.add_argument('--target')
    ap.add_argument('--seconds', type=int)
    ap.add_argument('--engine', choices=['afl', 'libfuzzer'], default='afl')
    ap.add_argument('--fuzz-jobs', type=int)
    ap.add_argument('--fuzz')
    ap.add_argument('--json')
    ap.add_argument('--max', type=int)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--rerun')
    ap.add_argument('--update')
    ap.add_argument('--scale', type=int)
    ap.add_argument('--rounds', type=int)
    ap.add_argument('-v', '--verbose', action='store_true')
    ap.add_argument('--file', action='append')
    ap.add_argument('--map', action='store_true')
    ap.add_argument('--with-variants', action='store_true')
    ap.add_argument('--patch')
    ap.add_argument('--before')
    ap.add_argument('--after')
    ap.add_argument('--bench')
    ap.add_argument('--tests')
    ap.add_argument('--seeds')
    for o in ('--mem', '--swap', '--disk', '--cmdline', '--configs'):
        ap.add_argument(o)
    for o in ('--cpus', '--nodes', '--timeout', '--runs'):
        ap.add_argument(o, type=int)
    ap.add_argument('--put', action='append')
    ap.add_argument('--arg', dest='command_args', action='append')
    ap.add_argument('--what', action='append')
    ap.add_argument('--since')
    ap.add_argument('--shard')
    ap.add_argument('--merge', nargs='*')
    ap.add_argument('--no-test-map', action='store_true')
    ap.add_argument('--no-schemata', action='store_true')
    ap.add_argument('--cases', action='store_true')
    ap.add_argument('--survivors', action='store_true')
    ap.add_argument('--classes', action='store_true')
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--write-docs', action='store_true')
    ap.add_argument('--keep', action='store_true')
    ap.add_argument('--fresh', action='store_true')
    a = ap.parse_args()
    a.cmd_argv = a.command_args
    tb = TB(a)
    fn = {'run': cmd_run, 'test': cmd_test, 'coverage': cmd_coverage,
          'bench': cmd_bench, 'fuzz': cmd_fuzz, 'seed': cmd_seed,
          'mutate': cmd_mutate, 'compare': cmd_compare, 'doctor': cmd_doctor,
          'fuzz-triage': cmd_fuzz_triage, 'figures': cmd_figures, 'vm': cmd_vm,
          'oracle': cmd_oracle, 'matrix': cmd_matrix}[a.command]
    try:
        return fn(tb)
    except KeyboardInterrupt:
        return 130


if __name__ == '__main__':
    sys.exit(main())
