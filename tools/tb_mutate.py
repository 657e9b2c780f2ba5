# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb mutate FILE[:FUNCTION]: would a test notice this kernel line changing?

Mutants of the covered lines of one kernel file are built, one at a time,
from a scratch copy of the tree (hard links, the mutated file a copy of its
own: the tree itself is never written) in build/mutate, and the tests
labelled kfile:FILE run against each with a time limit. A mutant is killed
(by the tests that failed), survived, timed out or did not compile.
"""
import difflib
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import threading
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

import tb_output
from tb_mutate_schema import build_schema, kind_of  # noqa: F401 (tests)
from tb_mutate_ops import (OPERATORS, Source, functions_of,  # noqa: F401 (tb.py, tests)
                           mutants_of_line)
from tb_trees import VERSION_RE, version_matches  # noqa: F401 (mutate_stamp.py)

# ---- the run ----------------------------------------------------------------
def covered_lines(cov_bdir, tree, path):
    """{line: count} of path (relative to tree) in the coverage build"""
    out = os.path.join(cov_bdir, 'mutate-cov.json')
    cmd = ['gcovr', '--root', tree, '--filter', re.escape(os.path.join(tree, path)) + '$',
           '--object-directory', cov_bdir, '--json', out, '--gcov-ignore-parse-errors', cov_bdir]
    if shutil.which('gcov-12'):
        cmd[1:1] = ['--gcov-executable', 'gcov-12']
    subprocess.run(cmd, check=True, capture_output=True, timeout=900)
    with open(out) as f:
        data = json.load(f)
    counts = {}
    # the filter leaves path alone (the same file may come from several objects)
    for fd in data.get('files', []):
        for ln in fd['lines']:
            if not ln.get('gcovr/noncode'):
                counts[ln['line_number']] = counts.get(ln['line_number'], 0) + ln['count']
    return counts


def scratch_tree(tree, scratch, path, patched=()):
    """a hard-link copy of tree whose path is a file of its own; patched
    names the files a patch changed in tree. A file patched in the previous
    copy becomes a copy of its own in the next one too: a hard link back to
    the unpatched file keeps a time older than the objects built from the
    patched one, and the build would not notice the change."""
    stamp = os.path.join(scratch, '.tb-mutate-of')
    sums = {}
    for f in patched:
        with open(os.path.join(tree, f), 'rb') as fh:
            sums[f] = hashlib.sha1(fh.read()).hexdigest()
    want = {'tree': tree, 'patched': sums}
    have = {}
    if os.path.exists(stamp):
        try:
            with open(stamp) as f:
                have = json.load(f)
        except ValueError:
            have = {}
    if have != want:
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(os.path.dirname(scratch), exist_ok=True)
        subprocess.run(['cp', '-al', tree, scratch], check=True)
        for f in set(have.get('patched', {})) | set(sums):
            own = os.path.join(scratch, f)
            if os.path.isfile(own):
                with open(own) as fh:
                    write_own(own, fh.read())
        with open(stamp, 'w') as f:
            json.dump(want, f)
    target = os.path.join(scratch, path)
    with open(os.path.join(tree, path)) as f:
        text = f.read()
    write_own(target, text)
    return target, text


def write_own(target, text):
    """replace target by a file of its own (never write through a hard link)"""
    if os.path.exists(target):
        os.unlink(target)
    with open(target, 'w') as f:
        f.write(text)


def label_tests(bdir, label, unbuilt=None):
    """the tests of a label: [{name, command, cwd, target, env}]; env is
    the test's ENVIRONMENT property (the _mglru twins' TB_LRU_GEN=y).
    ctest names no command for a test whose executable is not built yet:
    such tests' names go to the list unbuilt, when given."""
    p = subprocess.run(['ctest', '--test-dir', bdir, '--show-only=json-v1', '-L', label],
                       check=True, capture_output=True, text=True)
    out = []
    for t in json.loads(p.stdout).get('tests', []):
        cmd = t.get('command') or []
        if not cmd and unbuilt is not None:
            unbuilt.append(t['name'])
        if not cmd or cmd[0].endswith(('python3', 'python')):
            continue
        cwd, env = os.path.dirname(cmd[0]), {}
        for prop in t.get('properties', []):
            if prop.get('name') == 'WORKING_DIRECTORY':
                cwd = prop['value']
            elif prop.get('name') == 'ENVIRONMENT':
                env = dict(v.split('=', 1) for v in prop['value'])
        out.append({'name': t['name'], 'command': cmd, 'cwd': cwd, 'env': env,
                    'target': os.path.basename(cmd[0])})
    return out


def build(bdir, targets, jobs, timeout):
    return build_output(bdir, targets, jobs, timeout)[0]


def build_output(bdir, targets, jobs, timeout):
    """build, and (ok, the build's output)"""
    cmd = ['cmake', '--build', bdir, '-j', str(jobs)]
    for t in targets:
        cmd += ['--target', t]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, ''
    return p.returncode == 0, p.stdout + p.stderr


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    p.wait()


# TB_MUTATE_ORDER=fastest: the tests of every mutant fastest first (to
# measure what the learned order saves)
FASTEST_FIRST = os.environ.get('TB_MUTATE_ORDER') == 'fastest'


class KillOrder:
    """The order a mutant's tests run in. A killed mutant costs the tests
    run before the one that fails, so the tests that have killed mutants of
    the same function so far in this run go first: ranked by the seconds a
    test takes over its estimated chance of failing (its kills in the
    function, shrunk towards its kills in the whole file). With no kills
    yet, fastest first. The verdicts do not depend on the order."""

    def __init__(self, secs):
        self.secs = secs
        self.lock = threading.Lock()
        self.in_func = {}
        self.in_file = {}
        self.kills = {}

    def order(self, func, run):
        with self.lock:
            tf = self.in_func.get(func, {})
            nf, ng = self.kills.get(func, 0), self.kills.get(None, 0)

            def cost(t):
                n = t['name']
                pg = (self.in_file.get(n, 0) + 0.1) / (ng + 1)
                pf = (tf.get(n, 0) + 2 * pg) / (nf + 2)
                return self.secs.get(n, 1.0) / pf
            return run if FASTEST_FIRST else sorted(run, key=cost)

    def record(self, c):
        if c['status'] != 'killed' or not c['by']:
            return
        with self.lock:
            n, f = c['by'][0], c['function']
            tf = self.in_func.setdefault(f, {})
            tf[n] = tf.get(n, 0) + 1
            self.in_file[n] = self.in_file.get(n, 0) + 1
            self.kills[f] = self.kills.get(f, 0) + 1
            self.kills[None] = self.kills.get(None, 0) + 1

def run_tests(tests, env, jobs, limits, stop_early=True):
    """Run tests (fastest first), jobs at a time, each within limits[name]
    seconds; with stop_early the first failure or timeout ends the run (the
    others are killed: one test that notices is enough).
    Returns (verdict, [tests that failed], {name: seconds}, output tail):
    'killed' (a test failed: an assertion, a crash, the shim's watchdog),
    'timeout' (a test overran its limit and none failed), 'survived'."""
    pending, running = list(tests), {}
    failed, timed, secs, tail = [], [], {}, ''
    while pending or running:
        while pending and len(running) < jobs and not (stop_early and (failed or timed)):
            t = pending.pop(0)
            log = tempfile.TemporaryFile()
            p = subprocess.Popen(t['command'], cwd=t['cwd'], env=dict(env, **t.get('env', {})),
                                 stdout=log,
                                 stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 start_new_session=True)
            running[p] = (t, time.time(), log)
        if stop_early and (failed or timed):
            for p in list(running):
                kill_group(p)
                running.pop(p)[2].close()
            break
        time.sleep(0.02)
        for p in list(running):
            t, t0, log = running[p]
            el = time.time() - t0
            if p.poll() is None:
                if el <= limits[t['name']]:
                    continue
                kill_group(p)
                timed.append(t['name'])
            elif p.returncode != 0:
                failed.append(t['name'])
                log.seek(0)
                tail = tail or log.read()[-2000:].decode(errors='replace')
            secs[t['name']] = round(el, 2)
            log.close()
            del running[p]
    if failed:
        return 'killed', failed, secs, tail
    if timed:
        return 'timeout', timed, secs, tail
    return 'survived', [], secs, tail


# ---- mutants left out of the run (tests/mutate/equivalent.txt) -------------
# Two classes. "equivalent": the kernel behaves the same on every input it
# can see; left out of the score. "unobservable (PART)": the kernel would
# behave differently, but the world or the shim cannot show it; counted as
# not killed, and PART names what would show it.
# FILE:LINE/STAMP: STAMP is old_stamp() of the statement the mutant
# changes, which finds the entry's mutant wherever the tree moved it
EQUIV_RE = re.compile(r'^(\S+):(\d+)(?:/([0-9a-f]{8}))? \[([^\]]+)\] (.*\S)\s*$')
# '@ 6.12': the entries below were written for that kernel version (their
# line numbers and the reasons are that tree's)
# an entry's first reason line: its class, then why
UNOBSERVABLE_KINDS = ('world', 'shim', 'stub', 'config')
CLASS_RE = re.compile(r'^(?:(equivalent)|unobservable \((race|(?:' + '|'.join(UNOBSERVABLE_KINDS)
                      + r'): [^()]*[^()\s])\)):(?:\s+(\S.*))?$')
CLASS_FORM = ("'equivalent: WHY' or 'unobservable (PART): WHY', PART one of "
              "'world: ...', 'shim: ...', 'stub: ...', 'config: ...', 'race'")
CLASSES = ('equivalent', 'unobservable')


def load_equivalents(path, version=None):
    """{(file, line, operator, mutated line stripped): {'class', 'part',
    'why'}} from a file of entries 'FILE:LINE [OPERATOR] MUTATED LINE',
    each followed by indented lines: the first names the class
    ('equivalent: WHY' or 'unobservable (PART): WHY'), the rest go on
    saying why; with a tree version, only the entries of its '@ X.Y'
    sections (and those before any section). Every entry is checked
    either way: a malformed one is a ValueError naming the file and line"""
    eq, key, want, keep, entry, entry_n = {}, None, None, True, None, 0

    def close():
        if entry is not None and entry['class'] is None:
            raise ValueError(f'{path}:{entry_n}: an entry with no class line under it '
                             f'({CLASS_FORM})')

    if not os.path.exists(path):
        return eq
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            if line[0] in ' \t':
                if entry is None:
                    raise ValueError(f'{path}:{n}: a reason with no entry above it')
                text = line.strip()
                if entry['class'] is None:
                    m = CLASS_RE.match(text)
                    if not m:
                        raise ValueError(f'{path}:{n}: not a class line: {CLASS_FORM}')
                    entry['class'] = 'equivalent' if m.group(1) else 'unobservable'
                    entry['part'] = None if m.group(1) else ' '.join(m.group(2).split())
                    text = m.group(3) or ''
                entry['why'] = (entry['why'] + ' ' + text).strip()
                continue
            close()
            entry = None
            v = VERSION_RE.match(line)
            if v:
                want, key = v.group(1), None
                continue
            m = EQUIV_RE.match(line)
            if not m:
                raise ValueError(f'{path}:{n}: not FILE:LINE [OPERATOR] MUTATED-LINE')
            key = (m.group(1), int(m.group(2)), m.group(4), ' '.join(m.group(5).split()))
            entry, entry_n = {'class': None, 'part': None, 'why': '', 'stamp': m.group(3)}, n
            if version_matches(want, version):
                if key in eq:
                    raise ValueError(f'{path}:{n}: {key[0]}:{key[1]} [{key[2]}] is listed twice')
                eq[key] = entry
    close()
    for k, e in eq.items():
        if not e['why']:
            raise ValueError(f'{path}: {k[0]}:{k[1]} [{k[2]}]: a class with no reason')
    return eq


def old_stamp(old):
    """8 hex digits naming the original statement a mutant changes (its
    text with the blanks made one space)"""
    return hashlib.sha1(' '.join(old.split()).encode()).hexdigest()[:8]


def follow_moved_lines(eq, path, cands):
    """equivalent.txt's entries of path keyed to this tree's mutants: a
    stamped entry is the mutant with its operator, mutated text and
    stamp nearest its line (the tree's edits move lines; a statement that
    changed is no longer the entry's); an unstamped one the mutant with
    its line, operator and text. Returns (entries, number moved)."""
    by = {}
    for c in cands:
        by.setdefault((c['operator'], ' '.join(c['new'].split()), old_stamp(c['old'])),
                      []).append(c['line'])
    out, moved = {}, 0
    for k, e in eq.items():
        lines = by.get((k[2], k[3], e.get('stamp'))) if k[0] == path and e.get('stamp') else None
        if not lines:
            out[k] = e
            continue
        # identical statements: each entry its nearest mutant not taken
        free = [x for x in lines if (k[0], x, k[2], k[3]) not in out] or lines
        ln = min(free, key=lambda x: abs(x - k[1]))
        moved += ln != k[1]
        out[(k[0], ln, k[2], k[3])] = e
    return out, moved


def class_counts(eq, path=None):
    """{file: {'equivalent': n, 'unobservable': n, 'parts': {part: n}}}"""
    out = {}
    for (f, *_), e in eq.items():
        if path and f != path:
            continue
        s = out.setdefault(f, {'equivalent': 0, 'unobservable': 0, 'parts': {}})
        s[e['class']] += 1
        if e['part']:
            s['parts'][e['part']] = s['parts'].get(e['part'], 0) + 1
    return out


def equiv_key(path, c):
    """an equivalent.txt key: the mutated text with its blanks (and the
    line breaks of a multi-line mutant) each made one space"""
    return (path, c['line'], c['operator'], ' '.join(c['new'].split()))


def cmd_classes(eq_path, path, fail):
    """tools/tb mutate --classes [FILE]: the listed mutants per file and
    class, the unobservable ones by part, largest first"""
    try:
        eq = load_equivalents(eq_path)
    except ValueError as e:
        fail(str(e))
    counts = class_counts(eq, path or None)
    if path and not counts:
        fail(f'{eq_path}: no entry of {path}')
    print(f'{"file":24s} {"equivalent":>10s} {"unobservable":>12s}')
    for f in sorted(counts):
        print(f'{f:24s} {counts[f]["equivalent"]:10d} {counts[f]["unobservable"]:12d}')
    parts = {}
    for f in sorted(counts):
        for p, n in counts[f]['parts'].items():
            parts.setdefault(p, {})[f] = n
    if parts:
        print('\nunobservable, by what would show them:')
    for p, per in sorted(parts.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        print(f'{sum(per.values()):5d}  {p}  (' + ', '.join(f'{f} {n}' for f, n in sorted(per.items()))
              + ')')
    return 0


def sample(cands, n, seed):
    """n of cands, the same n for the same seed and candidate list"""
    rng = random.Random(seed)
    return sorted(rng.sample(cands, n), key=lambda c: (c['line'], c['operator'], c['new']))


def changed_lines(old, new):
    """the lines (1-based) of the text new that differ from old: added or
    changed lines, and the two lines either side of a deletion"""
    a, b = old.splitlines(), new.splitlines()
    # the lines both share at the ends are unchanged: only the middle is
    # diffed (an edit of a few lines in a 6,000-line file took 0.25 s)
    lo = 0
    while lo < len(a) and lo < len(b) and a[lo] == b[lo]:
        lo += 1
    hi = 0
    while hi < len(a) - lo and hi < len(b) - lo and a[-1 - hi] == b[-1 - hi]:
        hi += 1
    out = set()
    sm = difflib.SequenceMatcher(None, a[lo:len(a) - hi], b[lo:len(b) - hi], autojunk=False)
    for tag, _, _, j1, j2 in sm.get_opcodes():
        j1, j2 = j1 + lo, j2 + lo
        if tag in ('replace', 'insert'):
            out.update(range(j1 + 1, j2 + 1))
        elif tag == 'delete':
            out.update(n for n in (j1, j1 + 1) if 1 <= n <= len(b))
    return out


def parse_shard(spec):
    """'I/N' -> (I, N), 1 <= I <= N; ValueError otherwise"""
    m = re.fullmatch(r'([1-9]\d*)/([1-9]\d*)', spec or '')
    if not m or int(m.group(1)) > int(m.group(2)):
        raise ValueError(f'--shard wants I/N with 1 <= I <= N, not {spec!r}')
    return int(m.group(1)), int(m.group(2))


def mutant_key(c):
    return (c['line'], c['operator'], c['new'])


def shard_of(cands, i, n):
    """the I-th of N shares of cands: every N-th mutant in line order, so
    each share has some of every part of the file"""
    return [c for k, c in enumerate(sorted(cands, key=mutant_key)) if k % n == i - 1]


def effective_counts(counts, statements):
    """{line: count} for every line of a statement gcov counted: a line
    gcov has no record of (the second line of a multi-line condition)
    takes the count of the statement's nearest line before it (or after)"""
    out = {}
    for first, last in statements:
        have = [n for n in range(first, last + 1) if n in counts]
        if not have:
            continue
        for n in range(first, last + 1):
            if n in counts:
                out[n] = counts[n]
            else:
                before = [h for h in have if h < n]
                out[n] = counts[before[-1] if before else have[0]]
    return out


def git_text(tree, ref, path, fail):
    """path as it was at ref in the git work tree tree ('' if it did not
    exist there)"""
    def git(*args):
        return subprocess.run(['git', '-C', tree] + list(args), capture_output=True, text=True)
    if git('rev-parse', '--is-inside-work-tree').stdout.strip() != 'true':
        fail(f'--since: the kernel tree {tree} is not a git work tree (--kernel DIR names one)')
    if git('rev-parse', '--verify', '--quiet', ref + '^{commit}').returncode != 0:
        fail(f'--since {ref}: no such revision in {tree}')
    p = git('show', f'{ref}:./{path}')
    return p.stdout if p.returncode == 0 else ''


# what the tests' reach depends on besides the mapped file: the test bed's
# sources and the tree's other files
STAMP_REPO = ('CMakeLists.txt', 'cmake', 'kernel-shim', 'mm', 'tests', 'tools/kextract')
STAMP_TREE = ('mm', 'include', 'lib', 'arch/x86/include', 'fs/ext4/inode.c')


def source_files(repo, tree, path):
    """{file: os.stat} of every file the map's tests are built from but path
    (the tools' own tests and pages, *.py and *.md, are not)"""
    out = {}
    skip = os.path.join(tree, path)
    for base, parts in ((repo, STAMP_REPO), (tree, STAMP_TREE)):
        for part in parts:
            top = os.path.join(base, part)
            if os.path.isfile(top):
                out[top] = os.stat(top)
            for root, _, names in os.walk(top):
                for n in names:
                    f = os.path.join(root, n)
                    if f != skip and not (base == repo and n.endswith(('.py', '.md'))):
                        out[f] = os.stat(f)
    return out


def file_sha1(f):
    with open(f, 'rb') as fh:
        return hashlib.sha1(fh.read()).hexdigest()


def sources_state(repo, tree, path):
    """{file: [mtime_ns, size, sha1]} of source_files()"""
    return {f: [st.st_mtime_ns, st.st_size, file_sha1(f)]
            for f, st in source_files(repo, tree, path).items()}


def source_changed(state, repo, tree, path):
    """a file added, removed or changed since sources_state() gave state,
    or None. Times and sizes first, contents only where they differ (a
    stat of every file is tens of milliseconds): a file edited and put
    back as it was is unchanged."""
    now = source_files(repo, tree, path)
    for f in sorted(set(now) ^ set(state)):
        return f
    for f, st in sorted(now.items()):
        mtime, size, sha1 = state[f]
        if (st.st_mtime_ns, st.st_size) != (mtime, size) and (
                st.st_size != size or file_sha1(f) != sha1):
            return f
    return None


def test_map(tb, cov, tree, path, label, statements, say):
    """{test: set of lines of path it executes}, each test run alone in the
    coverage build (gcov counts reset before each); cached in the coverage
    build until a test executable or the file changes. The cache keeps the
    file as mapped, its statements and sources_state(), for tools/tb test
    --file (tb_output.select_by_lines)."""
    tests = label_tests(cov, label)
    with open(os.path.join(tree, path), 'rb') as f:
        text = f.read()
    digest = hashlib.sha1(text).hexdigest()
    exes = {}
    for t in tests:
        st = os.stat(t['command'][0])
        exes[t['name']] = [st.st_mtime_ns, st.st_size]
    key = {'tree': tree, 'file': path, 'sha1': digest, 'executables': exes}
    cache = tb_output.map_file(cov, path)
    # the coverage build was just built from the sources as they are now
    extra = {'text': text.decode(errors='replace'), 'statements': [list(x) for x in statements],
             'sources': sources_state(tb.repo, tree, path)}
    if os.path.exists(cache):
        with open(cache) as f:
            data = json.load(f)
        if data.get('key') == key:
            if any(data.get(k) != v for k, v in extra.items()):
                with open(cache, 'w') as f:
                    json.dump(dict(data, **extra), f)
            say(f'test map of {path}: cached ({len(data["tests"])} tests)')
            return {n: {int(k): v for k, v in c.items()} for n, c in data['tests'].items()}
    say(f'test map of {path}: each of {len(tests)} tests alone in the coverage build')
    t0 = time.time()
    per = {}
    for t in tests:
        for root, _, names in os.walk(cov):
            for n in names:
                if n.endswith('.gcda'):
                    os.unlink(os.path.join(root, n))
        subprocess.run(['ctest', '--test-dir', cov, '-R', '^' + re.escape(t['name']) + '$'],
                       env=tb.env(), capture_output=True)
        per[t['name']] = covered_lines(cov, tree, path)
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache, 'w') as f:
        json.dump(dict({'key': key, 'tests': per}, **extra), f)
    say(f'test map of {path}: {time.time() - t0:.0f}s')
    return per


def gcov_tool():
    return 'gcov-12' if shutil.which('gcov-12') else 'gcov'


def notes_of(cov, src):
    """the .gcda files of the objects whose notes name src (an absolute path)"""
    out, needle = [], src.encode()
    for root, _, names in os.walk(cov):
        for n in names:
            if n.endswith('.gcno'):
                with open(os.path.join(root, n), 'rb') as f:
                    if needle in f.read():
                        out.append(os.path.join(root, n[:-len('.gcno')] + '.gcda'))
    return out


def gcov_lines(gcdas, src):
    """{line: count} of src in the counters of gcdas (gcov's own JSON: one
    file's objects read in milliseconds)"""
    counts = {}
    for gcda in gcdas:
        if not os.path.exists(gcda):
            continue
        p = subprocess.run([gcov_tool(), '--json-format', '--stdout', '-o',
                            os.path.dirname(gcda), gcda], capture_output=True, text=True,
                           cwd=tempfile.gettempdir())
        for row in p.stdout.splitlines():
            for f in json.loads(row).get('files', []):
                if f['file'] == src:
                    for ln in f['lines']:
                        counts[ln['line_number']] = counts.get(ln['line_number'], 0) + ln['count']
    return counts


def case_map(tb, cov, tree, path, label, say):
    """{test: {case: [seconds, [lines of path it executes]]}}: each case of
    each test (TB_LIST_CASES names them, TB_CASES runs one) alone in the
    coverage build; a test whose main() is not tb_run() has no cases here
    and runs whole. Cached in the coverage build as the per-test map is."""
    tests = label_tests(cov, label)
    src = os.path.join(tree, path)
    with open(src, 'rb') as f:
        digest = hashlib.sha1(f.read()).hexdigest()
    exes = {}
    for t in tests:
        st = os.stat(t['command'][0])
        exes[t['name']] = [st.st_mtime_ns, st.st_size]
    key = {'tree': tree, 'file': path, 'sha1': digest, 'executables': exes}
    cache = os.path.join(cov, 'mutate-casemap', path.replace('/', '_') + '.json')
    if os.path.exists(cache):
        with open(cache) as f:
            data = json.load(f)
        if data.get('key') == key:
            say(f'case map of {path}: cached')
            return data['cases']
    gcdas = notes_of(cov, src)
    t0 = time.time()
    env0 = tb.env()
    out, n = {}, 0
    for t in tests:
        env = dict(env0, **t['env'])
        p = subprocess.run(t['command'], cwd=t['cwd'], env=dict(env, TB_LIST_CASES='1'),
                           capture_output=True, text=True, timeout=600)
        names = re.findall(r'^tb-case: (\S+)$', p.stdout, re.M)
        if not names:
            continue
        out[t['name']] = {}
        for name in names:
            for g in gcdas:
                if os.path.exists(g):
                    os.unlink(g)
            t1 = time.time()
            subprocess.run(t['command'], cwd=t['cwd'], env=dict(env, TB_CASES=name),
                           capture_output=True, timeout=600)
            lines = sorted(ln for ln, c in gcov_lines(gcdas, src).items() if c > 0)
            out[t['name']][name] = [round(time.time() - t1, 3), lines]
            n += 1
    os.makedirs(os.path.dirname(cache), exist_ok=True)
    with open(cache, 'w') as f:
        json.dump({'key': key, 'cases': out}, f)
    say(f'case map of {path}: {n} cases of {len(out)} tests, {time.time() - t0:.0f}s')
    return out


def case_lines(cases, statements):
    """the case map with each case's lines as the per-test map has them
    (continuation lines included)"""
    out = {}
    for t, cm in cases.items():
        out[t] = {}
        for name, (secs, lines) in cm.items():
            eff = effective_counts({ln: 1 for ln in lines}, statements)
            out[t][name] = (secs, {ln for ln, c in eff.items() if c > 0})
    return out


def with_cases(run, cases, span):
    """the tests of run, each limited (TB_CASES) to its cases that execute a
    line of span, fastest first; a test with no case map (or none of whose
    cases the map says reaches span) runs whole"""
    out = []
    for t in run:
        cm = cases.get(t['name']) or {}
        sel = [(secs, name) for name, (secs, lines) in cm.items() if lines & span]
        if sel:
            t = dict(t, env=dict(t['env'], TB_CASES=','.join(n for _, n in sel)),
                     est=sum(s for s, _ in sel))
        else:
            t = dict(t, est=sum(s for s, _ in cm.values()) if cm else 1.0)
        out.append(t)
    out.sort(key=lambda t: t['est'])
    return out


def reached_lines(per, statements):
    """{test: lines it executes}, continuation lines included"""
    return {n: {ln for ln, c in effective_counts(cnt, statements).items() if c > 0}
            for n, cnt in per.items()}



def mutate_compiler():
    """the C compiler of the mutate build and its kernel code's -O level:
    clang -O1 unless TB_MUTATE_CC / TB_MUTATE_KOPT say otherwise"""
    return (os.environ.get('TB_MUTATE_CC') or 'clang',
            os.environ.get('TB_MUTATE_KOPT') or '-O1')


def configure_mutate_build(tb):
    """build/mutate, re-created when its compiler changed (cmake keeps the
    compiler of an existing cache; tb.configure re-creates it for Ninja)"""
    cc, kopt = mutate_compiler()
    bdir = os.path.join(tb.build, 'mutate')
    cache = os.path.join(bdir, 'CMakeCache.txt')
    if os.path.exists(cache):
        m = re.search(r'^CMAKE_C_COMPILER:\w+=(.*)$', open(cache, errors='replace').read(), re.M)
        if not m or os.path.basename(m.group(1)) != os.path.basename(shutil.which(cc) or cc):
            shutil.rmtree(bdir)
    # AddressSanitizer, as in tools/tb test --sanitize address: a mutant that
    # loses a kfree or frees too early is one the suites notice.
    # A local a mutant leaves uninitialised holds a poison pattern (as under
    # the kernel's INIT_STACK_ALL_PATTERN), not whatever the stack had.
    # tb_mutant.h: the switch of the mutant schemata (run_schema).
    # clang, and -O1 for everything: a mutant costs its tests' time, and
    # they run about twice as fast as with the kernel's code at -O0. Not
    # gcc at -O1: its constant propagation takes an uninitialised local
    # for the value of the path that did set it (a deleted
    # `err = f();` then reads as f's result: two deletions in
    # mm/shrinker.c survive), where clang stores the pattern.
    # No ccache: nearly every compile is of a mutant, never seen before
    # nor again (a miss, then a cache entry nobody takes).
    # The kernel code in shared libraries, as in the plain test build: a
    # mutant built on its own relinks one library, not the label's test
    # executables (a vmscan.c mutant: 4.9 s of build, not 16.9 s; 20 of
    # its mutants 7.4 s each, not 11.4, with --no-schemata; 5.1, not 6.2,
    # with schemata; the same verdicts but for a mutant at a test's time
    # limit, killed in one run and timed out in the other). The libraries'
    # one definition of each name is tools/tb test's check (one_definition:
    # 6 s over this build's ASan executables, left to the plain build)
    return tb.configure('mutate', ['-DTB_SANITIZE=address', '-DTB_COVERAGE=OFF',
                                         '-DTB_KERNEL_LIBRARIES=SHARED',
                                         '-DTB_FUZZ=OFF', '-DTB_BENCH=OFF', '-DTB_CCACHE=OFF',
                                         # a mutant's extract is never asked for again
                                         '-DTB_KGEN_CACHE_DIR=',
                                         '-DTB_KERNEL_OPT=' + kopt,
                                         '-DCMAKE_C_FLAGS=-O1 -ftrivial-auto-var-init=pattern '
                                         '-include ' + os.path.join(tb.repo, 'tools',
                                                                    'tb_mutant.h')],
                        env={'CC': cc})

def cmd_mutate(tb, say, fail, rel, mod=None):
    a = tb.a
    if a.merge is not None:
        return cmd_merge(a.merge, a.json, say, fail)
    if getattr(a, 'classes', False):
        return cmd_classes(os.path.join(tb.repo, 'tests', 'mutate', 'equivalent.txt'),
                           a.target, fail)
    spec = a.target
    path, _, func = spec.partition(':')
    # FILE:f,g,h: the mutants of several functions in one run
    funcs = set(f for f in func.split(',') if f)
    path = path.strip('/')
    label = '^' + re.escape('kfile:' + path) + '$'
    t_start = time.time()
    eq_path = os.path.join(tb.repo, 'tests', 'mutate', 'equivalent.txt')
    try:
        # parsed before the build: a malformed file stops here
        load_equivalents(eq_path)
        shard = parse_shard(a.shard) if a.shard else None
    except ValueError as e:
        fail(str(e))
    prev_run = update_of(a, path, fail) if a.update else None
    since_text = None
    if a.since:
        if not tb.kernel:
            fail(f'--since {a.since}: the kernel tree is Debian\'s package, not a git work tree '
                 '(--kernel DIR names one)')
        if not os.path.isfile(os.path.join(tb.kernel, path)):
            fail(f'{tb.kernel}: {path}: no such file in the kernel tree')
        since_text = git_text(tb.kernel, a.since, path, fail)

    # the tree, and which of its lines the label's tests run (the coverage
    # build): a line only other suites reach is not one these tests could guard
    base_text, patched_files = None, []
    if a.patch:
        # the patch goes into a scratch copy; the mutants are of the patched file
        import tb_compare
        base = tb.kernel or tb_compare.default_tree(tb, mod)
        patched = os.path.join(tb.build, 'mutate-patched')
        try:
            files = tb_compare.apply_patch(a.patch, base, patched,
                                           os.path.join(tb.build, 'mutate-patch.log'))
        except tb_compare.CompareError as e:
            fail(str(e))
        if path not in files:
            fail(f'patch {a.patch} changes nothing in {path} (it touches {", ".join(files)})')
        patched_files = files
        with open(os.path.join(base, path)) as f:
            base_text = f.read()
        tb.kernel = patched
        say(f'patch applied to a scratch copy of {base}: {rel(patched, tb.repo)}')
        cov = tb.coverage_build('mutate-patch-coverage')
    else:
        cov = tb.coverage_build()
    # the entries of this tree's version (known once configured)
    equivalents = load_equivalents(eq_path, tb.tree_version)
    tree = tb.tree.rstrip('/')
    if not os.path.exists(os.path.join(tree, path)):
        fail(f'{tree}: {path}: no such file in the kernel tree')
    with open(os.path.join(tree, path)) as f:
        pristine = f.read()
    src = Source(pristine)
    statements = src.statements()
    only = None
    if a.since or a.patch:
        old = since_text if a.since else base_text
        only = changed_lines(old, pristine)
        what = f'since {a.since}' if a.since else f'by {os.path.basename(a.patch)}'
        if not only:
            say(f'no line of {path} changed {what}: no mutant to run')
            return 0
        say(f'{len(only)} lines of {path} changed {what}')
    per_test, cases = None, {}
    if a.no_test_map:
        say(f'running the tests labelled kfile:{path} in {rel(cov, tb.repo)}')
        subprocess.run(['ctest', '--test-dir', cov, '-L', label, '-j', str(tb.jobs)],
                       env=tb.env(), capture_output=True)
        counts = covered_lines(cov, tree, path)
    else:
        per = test_map(tb, cov, tree, path, label, statements, say)
        counts = {}
        for cnt in per.values():
            for ln, c in cnt.items():
                counts[ln] = counts.get(ln, 0) + c
        per_test = reached_lines(per, statements)
        if a.cases:
            cases = case_lines(case_map(tb, cov, tree, path, label, say), statements)
    if not counts:
        fail(f'{path}: no compiled lines in the coverage build (is it a file the test bed builds?)')

    # a build of the scratch tree
    scratch = os.path.join(tb.build, 'mutate-tree')
    target, _ = scratch_tree(tree, scratch, path, patched_files)
    user_kernel = tb.kernel
    tb.kernel = scratch
    bdir = configure_mutate_build(tb)
    tb.kernel = user_kernel
    # a suite registered since the last build is not in ctest's list until
    # the build system has re-run cmake: have it do so first
    for t in ('build.ninja', 'cmake_check_build_system'):   # Ninja's, Make's
        if subprocess.run(['cmake', '--build', bdir, '--target', t], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            break
    # ctest names a test's executable only once it exists: the first build
    # is of everything, and so is one after a suite was added (else its
    # tests would be left out); later ones of the label's executables only
    unbuilt = []
    if not label_tests(bdir, label, unbuilt) or unbuilt:
        why = f' ({len(unbuilt)} labelled tests not built yet)' if unbuilt else ''
        say(f'building {rel(bdir, tb.repo)}{why}')
        build(bdir, [], tb.jobs, 3600)
    tests = label_tests(bdir, label)
    if not tests:
        fail(f'no test is labelled kfile:{path}')
    targets = sorted({t['target'] for t in tests})
    say(f'{len(tests)} tests labelled kfile:{path}: {", ".join(t["name"] for t in tests)}')
    t0 = time.time()
    if not build(bdir, targets, tb.jobs, 1800):
        fail(f'the unmutated scratch build of {rel(bdir, tb.repo)} failed')
    build_secs = time.time() - t0
    env = tb.env()
    t1 = time.time()
    verdict, bad, secs, tail = run_tests(tests, env, tb.jobs,
                                         {t['name']: 600 for t in tests}, stop_early=False)
    test_secs = time.time() - t1
    if verdict != 'survived':
        fail(f'the tests labelled kfile:{path} fail without any mutant ({", ".join(bad)}):\n{tail}')
    # fastest first: most mutants are noticed by a quick suite
    tests.sort(key=lambda t: secs[t['name']])
    limits = {n: max(10, int(v * 5) + 5) for n, v in secs.items()}
    # the shim's hung-task watchdog (TB_WATCHDOG_SECONDS) turns a mutant's
    # deadlock into a failure with backtraces, sooner than the limit's kill
    env['TB_WATCHDOG_SECONDS'] = str(max(3, int(max(secs.values()) * 2) + 1))

    # the mutants: of every line of the statements the tests run
    lines = src.lines
    owner = src.owner
    eff = effective_counts(counts, statements)
    cands = []
    for first, last in statements:
        for op, ln, end, new in src.mutants(first, last):
            cnt = eff.get(ln, 0)
            if cnt <= 0 or ln not in owner:
                continue
            if func and owner[ln] not in funcs:
                continue
            if only is not None and not only & set(range(ln, end + 1)):
                continue
            cands.append({'line': ln, 'end': end, 'function': owner[ln], 'operator': op,
                          'count': cnt, 'old': ''.join(lines[ln - 1:end]), 'new': new})
    cands.sort(key=lambda c: c['line'])
    if func and not cands:
        fail(f'{path}: no covered line in a function named {" or ".join(sorted(funcs))}')
    if only is not None and not cands:
        say(f'no mutant of a covered line among the changed lines of {path}')
        return 0
    total = len(cands)
    equivalents, moved = follow_moved_lines(equivalents, path, cands)
    if moved:
        say(f'equivalent.txt: {moved} entries of {path} followed their line to where '
            f'this tree has it')
    keys = {equiv_key(path, c): old_stamp(c['old']) for c in cands}
    for k, e in equivalents.items():
        if (k[0] == path and (k not in keys or e.get('stamp') not in (None, keys[k]))
                and not func and only is None):
            say(f'equivalent.txt: {k[0]}:{k[1]} [{k[2]}] is no mutant of a covered line (stale?)')
    if a.rerun:
        # the mutants of an earlier run, all run again: a sample stays the
        # same sample when new tests reach more lines
        with open(a.rerun) as f:
            prev = json.load(f)
        bykey = {mutant_key(c): c for c in cands}
        cands = []
        for m in prev['mutants']:
            if a.survivors and m['status'] != 'survived':
                continue
            c = bykey.get(mutant_key(m))
            if c is None:
                fail(f'{a.rerun}: {path}:{m["line"]} [{m["operator"]}] is no longer a mutant')
            cands.append(c)
    elif a.max and len(cands) > a.max:
        cands = sample(cands, a.max, a.seed)
    carried = []
    if prev_run:
        cands, carried = updated_run(a.update, prev_run, cands, say)
    selected = len(cands) + len(carried)
    if shard:
        cands = shard_of(cands, *shard)
    say(f'{total} mutants of covered lines; running {len(cands)}'
        + (f' (their verdicts carried over: {len(carried)})' if carried else '')
        + (f' (shard {shard[0]}/{shard[1]} of {selected})' if shard else '')
        + f' (unmutated: build {build_secs:.1f}s, tests {test_secs:.1f}s; '
        f'limit {min(limits.values())}-{max(limits.values())}s per test)')

    results = list(carried)
    # a killed run still puts the pristine file back (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    t_mutants = time.time()
    schema_info = None
    try:
        single = []
        for c in cands:
            c['by'], c['tail'] = [], ''
            # only the tests that execute the mutant's lines can notice it
            run = tests
            if per_test is not None:
                span = set(range(c['line'], c['end'] + 1))
                run = [t for t in tests if per_test.get(t['name'], set()) & span] or tests
                if cases:
                    run = with_cases(run, cases, span)
            c['run'], c['tests'] = run, len(run)
            k = equiv_key(path, c)
            # a stamped entry is of its statement only, not of its line
            if k in equivalents and equivalents[k].get('stamp') in (None, old_stamp(c['old'])):
                e = equivalents[k]
                c['status'], c['why'], c['part'] = e['class'], e['why'], e['part']
                c['tests'], c['seconds'] = 0, 0.0
                results.append(c)
            else:
                single.append(c)
        total_run = len(single)

        order_by = KillOrder(secs)

        def show(c):
            order_by.record(c)
            results.append(c)
            print(f'  [{len(results) - len(carried)}/{len(cands)}] {path}:{c["line"]} {c["function"]} '
                  f'{c["operator"]}: {c["status"]}'
                  + (f' by {", ".join(c["by"])}' if c['by'] else '')
                  + f' ({c["seconds"]}s, {c["tests"]} tests)', flush=True)

        if not a.no_schemata and single:
            held, schema_info = run_schema(bdir, targets, target, path, src, statements,
                                           single, tests, env, limits, tb.jobs, say, show,
                                           order_by)
            single = [c for c in single if id(c) not in held]
        for c in single:
            t0 = time.time()
            text = ''.join(lines[:c['line'] - 1]) + c['new'] + ''.join(lines[c['end']:])
            write_own(target, text)
            # only the executables of those tests: the others are
            # rebuilt when a later mutant (or the pristine file) needs them
            if not build(bdir, sorted({t['target'] for t in c['run']}), tb.jobs, 900):
                c['status'] = 'no-compile'
            else:
                c['status'], c['by'], ran, c['tail'] = run_tests(
                    order_by.order(c['function'], c['run']), env, tb.jobs, limits)
                c['tests_run'] = len(ran)
            c['seconds'] = round(time.time() - t0, 1)
            show(c)
    finally:
        write_own(target, pristine)
        build(bdir, targets, tb.jobs, 1800)
    mutant_secs = time.time() - t_mutants

    results.sort(key=mutant_key)
    report(results, path, say)
    out = {'file': path, 'function': func or None, 'tree': tree, 'mutants_total': total,
           'compiler': ' '.join(mutate_compiler()),
           'mutants_selected': selected, 'shard': list(shard) if shard else None,
           'since': a.since, 'patch': os.path.abspath(a.patch) if a.patch else None,
           'test_map': per_test is not None, 'cases': bool(cases),
           'mutants_run': 0, 'max': a.max, 'seed': a.seed, 'rerun_of': a.rerun,
           'update_of': a.update, 'carried': len(carried),
           'seconds': round(time.time() - t_start),
           'baseline_build_seconds': round(build_secs, 1),
           'schemata': schema_info,
           'wall_seconds_per_mutant': round(mutant_secs / total_run, 2) if total_run else 0.0,
           'baseline_test_seconds': {n: secs[n] for n in secs},
           'tests': [t['name'] for t in tests],
           'mutants': [{k: c.get(k) for k in MUTANT_FIELDS} for c in results]}
    finish(out, say)
    say(f'{out["wall_seconds_per_mutant"]:.2f}s per mutant run, wall clock'
        + (f' ({schema_info["mutants"]} of {total_run} in one schema build)'
           if schema_info else ''))
    js = a.json or os.path.join(tb.build, 'mutate-results', path.replace('/', '_')
                                + (f'.{shard[0]}of{shard[1]}' if shard else '') + '.json')
    write_json(js, out)
    say(f'JSON: {js}; {time.time() - t_start:.0f}s')
    return 0


def run_schema(bdir, targets, target, path, src, statements, muts, tests, env, limits, jobs,
               say, show, order_by):
    """Build the mutants that fit a schema (tb_mutate_schema) into one build
    of the file and run each with TB_MUTANT=<its id>, jobs mutants at a time
    (each one's tests one after the other, fastest first: the first failure
    ends it). A statement the compiler rejects in the schema leaves it: its
    mutants are built one at a time, and a mutant that does not compile says
    so there. Returns ({id(c) of the mutants run}, the schema's figures)."""
    ids = {n: c for n, c in enumerate(muts, 1)}
    skip = set()
    t0 = time.time()
    for _ in range(8):
        text, held = build_schema(src.lines, statements,
                                  [(n, c['line'], c['end'], c['new']) for n, c in ids.items()],
                                  skip)
        if not held:
            return set(), None
        write_own(target, text)
        ok, out = build_output(bdir, targets, jobs, 1800)
        if ok:
            break
        # an error in a macro's expansion names the file's line in a note
        bad = {int(x) for x in re.findall(re.escape(os.path.basename(path))
                                          + r':(\d+):\d+: (?:error|note: in expansion)', out)}
        drop = {st for st in held.values() if any(st[0] <= b <= st[1] for b in bad)}
        if not drop:
            # "expected ';' before 'if'" is reported at the end of the line
            # before the schema's switch: a continuation line (one starting
            # with '?') taken for a statement of its own
            drop = {st for st in held.values() if any(st[0] == b + 1 for b in bad)}
        if not drop:
            log = os.path.join(bdir, 'tb-schema-build.log')
            with open(log, 'w') as f:
                f.write(out)
            say(f'the schema build failed where no mutant is (log: {log}): every mutant '
                'built on its own')
            return set(), None
        skip |= drop
    else:
        return set(), None
    build_secs = time.time() - t0
    # with no mutant switched on the schema is the file: the tests pass
    verdict, bad, _, tail = run_tests(tests, env, jobs, limits, stop_early=True)
    if verdict != 'survived':
        say(f'the schema build fails {", ".join(bad)} with no mutant on: every mutant built '
            f'on its own\n{tail}')
        return set(), None
    say(f'{len(held)} of {len(muts)} mutants in one schema build ({build_secs:.1f}s, '
        f'{len(skip)} statements left out by the compiler)')
    order = sorted(held)

    def one(n):
        c = ids[n]
        t1 = time.time()
        c['status'], c['by'], ran, c['tail'] = run_tests(order_by.order(c['function'], c['run']),
                                                         dict(env, TB_MUTANT=str(n)), 1, limits)
        c['tests_run'] = len(ran)
        c['seconds'] = round(time.time() - t1, 1)
        return c

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futs = [pool.submit(one, n) for n in order]
        for f in as_completed(futs):
            show(f.result())
    return {id(ids[n]) for n in order}, {'mutants': len(held), 'build_seconds': round(build_secs, 1),
                                         'statements_left_out': len(skip)}


def survivor_diff(path, c):
    """The mutant as a diff of the file, its hunks numbered as the file's
    lines (a statement over several lines: the line a term left is the one
    shown, not the statement's first)"""
    off = c['line'] - 1

    def renumber(m):
        def one(start, count):
            return f'{int(start) + off}' + (f',{count}' if count is not None else '')
        return f'@@ -{one(m[1], m[2])} +{one(m[3], m[4])} @@'
    out = difflib.unified_diff(c['old'].splitlines(keepends=True), c['new'].splitlines(keepends=True),
                               f'a/{path}', f'b/{path}', n=0, lineterm='\n')
    return [re.sub(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@', renumber, l) for l in out]


MUTANT_FIELDS = ('line', 'end', 'function', 'operator', 'count', 'status', 'by', 'tests',
                 'tests_run', 'seconds', 'old', 'new', 'why', 'part', 'tail', 'carried')


def update_of(a, path, fail):
    """the whole-file result that --update brings up to date"""
    js = a.update
    if a.rerun or a.max or a.shard or a.since or a.patch or ':' in a.target:
        fail('--update runs a whole file: not with FILE:F, --rerun, --max, --shard, '
             '--since or --patch')
    try:
        with open(js) as f:
            prev = json.load(f)
        # every mutant has the fields updated_run() reads
        {mutant_key(m): m['status'] for m in prev['mutants']}
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f'--update {js}: not a result of tools/tb mutate ({e})')
    if prev.get('file') != path:
        fail(f'--update {js}: a result of {prev.get("file")}, not of {path}')
    for k in ('shard', 'max', 'since', 'patch', 'function'):
        if prev.get(k):
            fail(f'--update {js}: not a whole-file run ({k} {prev[k]}); '
                 '--merge joins the shards of one first')
    return prev


def updated_run(js, prev, cands, say):
    """the mutants to run to bring the whole-file result js up to date: its
    survivors and the mutants of lines covered since; the other verdicts are
    carried over (tests added since kill at least what they killed)"""
    old = {mutant_key(m): m for m in prev['mutants']}
    run, carried, fresh = [], [], 0
    for c in cands:
        m = old.pop(mutant_key(c), None)
        fresh += m is None
        # an equivalent or unobservable one is judged again: the list may
        # have changed
        if m is None or m['status'] in ('survived', 'equivalent', 'unobservable'):
            run.append(c)
        else:
            carried.append(dict(m, carried=True))
    say(f'--update {js}: {len(run) - fresh} survivors and equivalents and {fresh} mutants of '
        f'newly covered lines to run, {len(carried)} verdicts carried over'
        + (f', {len(old)} of its mutants no longer of covered lines' if old else ''))
    return run, carried


def finish(out, say):
    """the figures a result derives from its mutants"""
    ran = [c for c in out['mutants'] if c['status'] not in CLASSES]
    per_mutant = sum(c['seconds'] for c in ran) / len(ran) if ran else 0.0
    out['mutants_run'] = len(ran)
    out['seconds_per_mutant'] = round(per_mutant, 2)
    out['by_function'] = summarize(out['mutants'])
    out['unobservable_by_part'] = by_part(out['mutants'])
    say(f'{per_mutant:.2f}s per mutant run (build and tests)')


def write_json(js, out):
    os.makedirs(os.path.dirname(os.path.abspath(js)), exist_ok=True)
    with open(js, 'w') as f:
        json.dump(out, f, indent=1)


# a run's settings: every shard of one run has the same
SHARD_SAME = ('file', 'function', 'tree', 'mutants_total', 'mutants_selected', 'since', 'patch',
              'max', 'seed', 'rerun_of')


def merge_shards(shards):
    """one result from the results of the N shards of a run; ValueError
    names what does not fit (another run's shard, a missing or repeated
    one, a mutant in two shards)"""
    if not shards:
        raise ValueError('no shard to merge')
    first = shards[0]
    for s in shards:
        if not s.get('shard'):
            raise ValueError(f'{s["_path"]}: not a shard (a run without --shard)')
        for k in SHARD_SAME:
            if s.get(k) != first.get(k):
                raise ValueError(f'{s["_path"]}: another run than {first["_path"]} '
                                 f'({k}: {s.get(k)!r} vs {first.get(k)!r})')
    n = first['shard'][1]
    idx = sorted(s['shard'][0] for s in shards)
    if any(s['shard'][1] != n for s in shards) or idx != list(range(1, n + 1)):
        missing = sorted(set(range(1, n + 1)) - set(idx))
        twice = sorted({i for i in idx if idx.count(i) > 1})
        raise ValueError(f'shards of {n}: ' + ', '.join(
            (['missing ' + ' '.join(f'{i}/{n}' for i in missing)] if missing else [])
            + (['twice ' + ' '.join(f'{i}/{n}' for i in twice)] if twice else [])
            + (['a shard of another count'] if any(s['shard'][1] != n for s in shards) else [])))
    mutants, seen = [], set()
    for s in shards:
        for c in s['mutants']:
            k = mutant_key(c)
            if k in seen:
                raise ValueError(f'{s["_path"]}: {s["file"]}:{c["line"]} [{c["operator"]}] '
                                 'is in two shards')
            seen.add(k)
            mutants.append(c)
    if len(mutants) != first['mutants_selected']:
        raise ValueError(f'the shards hold {len(mutants)} mutants, the run selected '
                         f'{first["mutants_selected"]}')
    out = {k: first.get(k) for k in SHARD_SAME}
    out.update({'shard': None, 'merged_from': [s['_path'] for s in shards],
                'test_map': all(s.get('test_map') for s in shards),
                'seconds': sum(s.get('seconds', 0) for s in shards),
                'tests': first.get('tests'),
                'mutants': sorted(mutants, key=mutant_key)})
    return out


def cmd_merge(paths, js, say, fail):
    shards = []
    for p in paths:
        try:
            with open(p) as f:
                s = json.load(f)
        except (OSError, ValueError) as e:
            fail(f'--merge: {p}: not a result of tools/tb mutate ({e})')
        if not isinstance(s, dict) or 'mutants' not in s:
            fail(f'--merge: {p}: not a result of tools/tb mutate')
        s['_path'] = p
        shards.append(s)
    try:
        out = merge_shards(shards)
    except ValueError as e:
        fail(f'--merge: {e}')
    report(out['mutants'], out['file'], say)
    finish(out, say)
    js = js or os.path.join(os.path.dirname(os.path.abspath(paths[0])),
                            out['file'].replace('/', '_') + '.merged.json')
    write_json(js, out)
    say(f'merged {len(shards)} shards ({len(out["mutants"])} mutants): JSON {js}')
    return 0


STATUSES = ('killed', 'survived', 'timeout', 'no-compile', 'equivalent', 'unobservable')


def summarize(results):
    by = {}
    for c in results:
        s = by.setdefault(c['function'], dict({'mutants': 0}, **{k: 0 for k in STATUSES}))
        s['mutants'] += 1
        s[c['status']] += 1
    return by


def by_part(results):
    """{part: mutants} of the unobservable mutants, largest first"""
    n = {}
    for c in results:
        if c['status'] == 'unobservable':
            n[c.get('part') or '?'] = n.get(c.get('part') or '?', 0) + 1
    return dict(sorted(n.items(), key=lambda kv: (-kv[1], kv[0])))


def score(s):
    """detected (killed or timed out) of the mutants that could be detected:
    an equivalent mutant is out of the count, an unobservable one is in it,
    not detected (the kernel would differ; the world cannot show it)"""
    ran = s['mutants'] - s['no-compile'] - s['equivalent']
    return 100.0 * (s['killed'] + s['timeout']) / ran if ran else 100.0


def report(results, path, say):
    by = summarize(results)
    tot = dict({'mutants': 0}, **{k: 0 for k in STATUSES})
    print()
    print(f'{"function":32s} {"mutants":>7s} {"killed":>6s} {"survived":>8s} '
          f'{"timeout":>7s} {"no-cc":>5s} {"equiv":>5s} {"unobs":>5s} {"score":>6s}')
    for fn in sorted(by):
        s = by[fn]
        for k in tot:
            tot[k] += s[k]
        print(f'{fn:32s} {s["mutants"]:7d} {s["killed"]:6d} {s["survived"]:8d} '
              f'{s["timeout"]:7d} {s["no-compile"]:5d} {s["equivalent"]:5d} '
              f'{s["unobservable"]:5d} {score(s):5.1f}%')
    print(f'{"total":32s} {tot["mutants"]:7d} {tot["killed"]:6d} {tot["survived"]:8d} '
          f'{tot["timeout"]:7d} {tot["no-compile"]:5d} {tot["equivalent"]:5d} '
          f'{tot["unobservable"]:5d} {score(tot):5.1f}%')
    parts = by_part(results)
    if parts:
        print(f'\nunobservable ({tot["unobservable"]}, counted as not killed), by what would '
              'show them:')
        for p, n in parts.items():
            print(f'  {n:5d}  {p}')
        for c in results:
            if c['status'] == 'unobservable':
                print(f'    {path}:{c["line"]} {c["function"]} [{c["operator"]}]: {c.get("part")}')
    surv = [c for c in results if c['status'] == 'survived']
    if surv:
        print(f'\nsurvivors ({len(surv)}), each a diff of {path} and its line\'s coverage count:')
    for c in surv:
        span = f'{c["line"]}-{c["end"]}' if c.get('end', c['line']) > c['line'] else f'{c["line"]}'
        print(f'\n# {c["function"]}: [{c["operator"]}], line {span} ran {c["count"]} times')
        sys.stdout.writelines(survivor_diff(path, c))
