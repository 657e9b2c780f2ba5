# SPDX-License-Identifier: GPL-2.0-only
"""tb matrix: the suites of `tools/tb test` over a list of kernel trees.

Every tree (tools/tb_trees.py names them) is built at one path,
build/matrix/.work/ (tools/tb test's options): the tree behind the symlink
.work/tree, a fresh build directory .work/build, one compiler cache
.work/ccache. Two trees' compiles of the same content are then the same
command in the same directory, and ccache (direct mode: it hashes each
file the compile read) serves the second from the first; only what
differs is compiled. Every test labelled unit or stress runs alone with
CMocka's per-case XML (tools/tb run's run_one_test); the tree's logs and
XML are kept in build/matrix/<label>/. Per tree: fetch, configure or build
failed (one line), or per suite (tools/tb_features.py's SUITES) the cases
passed of those run, or the suite skipped and why. Then the cases whose
verdict differs between neighbouring trees, and build/matrix/matrix.json.
`--write-docs` rewrites the generated part of docs/versions.md from that
file.
"""
import concurrent.futures
import copy
import fcntl
import fnmatch
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tb_features  # noqa: E402
import tb_trees  # noqa: E402

OTHER = 'other'
DOC_BEGIN = ('<!-- tools/tb matrix --write-docs: begin (generated from '
             'build/matrix/matrix.json; edits here are overwritten) -->')
DOC_END = '<!-- tools/tb matrix --write-docs: end -->'
RAN = ('passed', 'failed')  # a tree whose tests ran


def suite_of(test, suites=tb_features.SUITES):
    """the SUITES entry whose test patterns match a ctest name, or OTHER"""
    for name, patterns, _, _ in suites:
        if any(fnmatch.fnmatchcase(test, p) for p in patterns):
            return name
    return OTHER


def case_name(test, case, repo):
    """'<test>: <case>', CMocka's group (the suite's __FILE__) made relative"""
    c = case
    if repo and c.startswith(repo.rstrip('/') + '/'):
        c = c[len(repo.rstrip('/')) + 1:]
    return c if c == test else f'{test}: {c}'


def suite_counts(result):
    """{suite: {'tests', 'run', 'passed', 'failed', 'skipped'}} of a tree's tests"""
    out = {}
    for t in result.get('tests', []):
        s = out.setdefault(t['suite'], {'tests': 0, 'run': 0, 'passed': 0, 'failed': 0,
                                        'skipped': 0})
        s['tests'] += 1
        for c in t['cases']:
            s[c['status']] += 1
            s['run'] += c['status'] != 'skipped'
    return out


def tree_status(result):
    """'passed', 'failed' (a case failed), or the failed step"""
    if result['status'] not in RAN:
        return result['status']
    return 'failed' if any(c['status'] == 'failed' for t in result['tests']
                           for c in t['cases']) else 'passed'


def columns(results):
    names = [s[0] for s in tb_features.SUITES] + [OTHER]
    used = set()
    for r in results:
        used |= set(suite_counts(r))
        used |= {s['suite'] for s in r.get('skipped_suites', [])}
    return [n for n in names if n in used]


def cell(result, suite):
    if any(s['suite'] == suite for s in result.get('skipped_suites', [])):
        return 'skipped'
    c = suite_counts(result).get(suite)
    if not c:
        return '-'
    return f'{c["passed"]}/{c["run"]}' + ('' if c['passed'] == c['run'] else '!')


def status_text(result):
    st = tree_status(result)
    if st == 'passed':
        return 'passed'
    if st == 'failed':
        n = sum(c['status'] == 'failed' for t in result['tests'] for c in t['cases'])
        return f'{n} case{"s" if n != 1 else ""} failed'
    return st


def totals(result):
    """'passed/run' of every case of a tree, and the cases skipped (tb_skip)"""
    cs = [c['status'] for t in result.get('tests', []) for c in t['cases']]
    if not cs:
        return '-', '-'
    run = sum(c != 'skipped' for c in cs)
    return f'{cs.count("passed")}/{run}', str(len(cs) - run)


def table(results):
    """tree x suite: cases passed of those run ('!': some failed), 'skipped'
    (the tree cannot run the suite), '-' (nothing ran); then every case of
    the tree, and those a case skipped itself (tb_skip)"""
    cols = columns(results)
    head = ['tree', 'status'] + cols + ['cases', 'skipped']
    rows = [[r['label'], status_text(r)] + [cell(r, c) for c in cols] + list(totals(r))
            for r in results]
    w = [max(len(str(x[i])) for x in rows + [head]) for i in range(len(head))]
    out = []
    for x in [head] + rows:
        out.append('  '.join(f'{str(v):<{w[i]}}' if i < 2 else f'{str(v):>{w[i]}}'
                             for i, v in enumerate(x)).rstrip())
    return '\n'.join(out)


def trees_text(labels):
    return ', '.join(labels)


def notes(results):
    """one line per tree that failed a step; per suite skipped, the trees
    that skip it for the same reason (the tree's version in the reason
    read as 'the tree')"""
    out = []
    for r in results:
        if r['status'] not in RAN:
            out.append(f'{r["label"]}: {r["status"]}: {r["reason"]}')
    groups = {}
    for r in results:
        ver = r.get('tree_version') or ''
        for s in r.get('skipped_suites', []):
            why = s['reason']
            if ver and why.startswith(ver + ' '):
                why = 'the tree' + why[len(ver):]
            groups.setdefault((s['suite'], why), []).append(r['label'])
    for (suite, why), labels in groups.items():
        out.append(f'suite {suite} skipped on {trees_text(labels)}: {why}')
    return out


FRAMING = re.compile(r'^(Internal ctest changing into directory|Test project |\s*\d+/\d+ Test +#|'
                     r'\s*Start +\d+:|\d+% tests passed|Errors while running CTest)')
WHOLE_TEST = ('ctest reported failure', 'the test process failed outside its test cases')


def why_line(excerpt):
    """one line of a failed test's output excerpt that says why: a Python
    traceback's last line, else the first line that is not ctest's framing"""
    lines = [l.strip() for l in excerpt or [] if l.strip() and not FRAMING.match(l)]
    if not lines:
        return ''
    if any(l.startswith('Traceback (most recent call last)') for l in lines):
        return lines[-1]
    return lines[0]


def cases_of(result):
    """a tree's cases; a failure of a whole test (no CMocka case of its
    own) gets the line of its output that says why"""
    for t in result.get('tests', []):
        for c in t['cases']:
            if c['status'] == 'failed' and t.get('excerpt') and (
                    c['name'] == t['name'] or c['name'].endswith('(process)') or
                    c.get('message') in WHOLE_TEST or c.get('whole')):
                c = dict(c, message=why_line(t['excerpt']) or c.get('message', ''))
            yield c


def failed_cases(results, limit=40):
    """the failed cases, each once with the trees it fails on and the first
    line of its message (on the first of them)"""
    groups = {}
    for r in results:
        for c in cases_of(r):
            if c['status'] == 'failed':
                g = groups.setdefault(c['name'], {'labels': [], 'message': c.get('message')})
                g['labels'].append(r['label'])
    out = []
    for name, g in list(groups.items())[:limit]:
        msg = (g['message'] or '').strip().splitlines()
        out.append(f'{name} on {trees_text(g["labels"])}' + (f'  ({msg[0]})' if msg else ''))
    if len(groups) > limit:
        out.append(f'... and {len(groups) - limit} more (build/matrix/matrix.json)')
    return out


def case_verdicts(result):
    return {c['name']: c for c in cases_of(result)}


def differences(results):
    """[{'before', 'after', 'changed': [{case, before, after, message}],
    'common'}] for each pair of neighbouring trees whose tests ran (a tree
    that failed to fetch, configure or build is passed over)"""
    ran = [r for r in results if r['status'] in RAN]
    out = []
    for a, b in zip(ran, ran[1:]):
        va, vb = case_verdicts(a), case_verdicts(b)
        common = [n for n in va if n in vb]
        changed = []
        for n in common:
            x, y = va[n]['status'], vb[n]['status']
            if x != y and {x, y} == {'passed', 'failed'}:
                msg = (vb[n] if y == 'failed' else va[n]).get('message') or ''
                changed.append({'case': n, 'before': x, 'after': y,
                                'message': msg.splitlines()[0] if msg else ''})
        out.append({'before': a['label'], 'after': b['label'], 'common': len(common),
                    'changed': changed})
    return out


def render_differences(diffs, limit=40):
    if not diffs:
        return ['fewer than two trees ran their tests: no neighbours to compare']
    out = []
    for d in diffs:
        if not d['changed']:
            out.append(f'{d["before"]} -> {d["after"]}: no case changed verdict '
                       f'({d["common"]} cases on both)')
            continue
        out.append(f'{d["before"]} -> {d["after"]}: {len(d["changed"])} of {d["common"]} '
                   'cases changed verdict')
        for c in d['changed'][:limit]:
            out.append(f'  {c["before"]} -> {c["after"]}  {c["case"]}'
                       + (f'  ({c["message"]})' if c['message'] else ''))
        if len(d['changed']) > limit:
            out.append(f'  ... and {len(d["changed"]) - limit} more (build/matrix/matrix.json)')
    return out


# ---- docs/versions.md ------------------------------------------------------
def docs_section(m, repo=None):
    """the generated part of docs/versions.md from matrix.json's content
    (paths under repo made relative)"""
    text = _docs_section(m)
    return text.replace(repo.rstrip('/') + '/', '') if repo else text


def _docs_section(m):
    results = m['trees']
    cols = columns(results)
    runs = {}
    for r in results:
        run = r.get('run', run_of(m))
        runs.setdefault((run['date'], run['command']), (run, []))[1].append(r['label'])
    if len(runs) <= 1:
        out = [f'Generated by `tools/tb matrix --write-docs` from the run of {m["date"]} '
               f'(`{m["command"]}`, -j {m.get("jobs", "?")}, {m["seconds"]:.0f} s, load average '
               f'{m["load"]} at its start).', '']
    else:
        out = ['Generated by `tools/tb matrix --write-docs` from the runs of '
               + '; '.join(f'{run["date"]} (`{run["command"]}`, -j {run.get("jobs", "?")}, load '
                           f'average {run["load"]} at its start: {", ".join(labels)})'
                           for run, labels in runs.values())
               + f'; the last took {m["seconds"]:.0f} s.', '']
    out.append('| tree | Debian package | status | ' + ' | '.join(cols) + ' | cases | skipped |')
    out.append('|---' * (5 + len(cols)) + '|')
    for r in results:
        t = r['tree']
        pkg = (f'`{t["package"]}` {t["version"]} ({", ".join(t["suites"]) or "installed"})'
               if t['kind'] != 'dir' else f'`{t["path"]}`')
        out.append(f'| {r["label"]} | {pkg} | {status_text(r)} | '
                   + ' | '.join(cell(r, c) for c in cols) + ' | '
                   + ' | '.join(totals(r)) + ' |')
    out.append('')
    out.append('A suite\'s cell is the cases passed of those run (`!`: some failed), '
               '`skipped` (the tree lacks what the suite needs), `-` (nothing ran); '
               '`cases`: every case of the tree, `skipped`: the cases that skipped '
               'themselves on this tree (`tb_skip`).')
    ns = notes(results)
    if ns:
        out.append('')
        out += [f'- {n}' for n in ns]
    fc = failed_cases(results)
    if fc:
        out += ['', 'Failed cases:', '']
        out += [f'- {n}' for n in fc]
    diffs = differences(results)
    moved = [d for d in diffs if d['changed']]
    out.append('')
    if not diffs:
        out.append('Verdicts between neighbouring trees: fewer than two trees ran their tests.')
    elif not moved:
        out.append('Verdicts between neighbouring trees: no case changed.')
    else:
        out.append('Cases whose verdict changed between neighbouring trees:')
        out.append('')
        for d in moved:
            out.append(f'- {d["before"]} -> {d["after"]}: ' + ', '.join(
                f'`{c["case"]}` ({c["before"]} -> {c["after"]})' for c in d['changed'][:10])
                + (f' and {len(d["changed"]) - 10} more' if len(d['changed']) > 10 else ''))
    return '\n'.join(out)


def replace_section(text, section):
    """text with the part between DOC_BEGIN and DOC_END replaced, or None"""
    i, j = text.find(DOC_BEGIN), text.find(DOC_END)
    if i < 0 or j < i:
        return None
    return text[:i + len(DOC_BEGIN)] + '\n' + section.rstrip('\n') + '\n' + text[j:]


# ---- running -----------------------------------------------------------------
WORK = '.work'  # build/matrix/.work: the one path every tree is built at
KEPT = ('tb-configure.log', 'tb-build.log', 'tb-matrix-xml')  # in build/matrix/<label>/
TREE_MARK = '.tb-matrix-tree'  # a parked build: the tree directory it was built from


def lock_work(mdir, fail):
    """build/matrix/.work is one build at a time: a second tools/tb matrix
    stops with one line rather than rebuild under the first"""
    work = os.path.join(mdir, WORK)
    os.makedirs(work, exist_ok=True)
    f = open(os.path.join(work, '.lock'), 'w')
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fail(f'{work} is in use by another tools/tb matrix')
    return f


def point_work_at(mdir, path, label):
    """.work/tree -> path (atomically), and in .work/build the tree's own
    build of the last run, parked in build/matrix/<label>/build (ninja
    then rebuilds what changed), or nothing: a tree's build never meets
    another tree's objects, only the compiler cache"""
    work = os.path.join(mdir, WORK)
    alias, tmp = os.path.join(work, 'tree'), os.path.join(work, 'tree.new')
    if os.path.lexists(tmp):
        os.unlink(tmp)
    os.symlink(os.path.abspath(path), tmp)
    os.replace(tmp, alias)
    bdir, parked = os.path.join(work, 'build'), os.path.join(mdir, label, 'build')
    shutil.rmtree(bdir, ignore_errors=True)
    try:
        with open(os.path.join(parked, TREE_MARK)) as f:
            same = f.read() == os.path.realpath(path)
    except OSError:
        same = False
    if same:  # built from this very directory: else mtimes could lie to ninja
        os.rename(parked, bdir)
    else:
        shutil.rmtree(parked, ignore_errors=True)
    return alias


def park(mdir, label, path):
    """the tree's logs and CMocka XML to build/matrix/<label>/, its build
    to build/matrix/<label>/build (usable only when moved back to .work/build,
    the path it was configured at)"""
    bdir, out = os.path.join(mdir, WORK, 'build'), os.path.join(mdir, label)
    os.makedirs(out, exist_ok=True)
    for n in os.listdir(out):  # the last run's logs (and a build of an older layout)
        shutil.rmtree(os.path.join(out, n)) if os.path.isdir(os.path.join(out, n)) \
            else os.unlink(os.path.join(out, n))
    if not os.path.isdir(bdir):
        return
    for n in KEPT:
        f = os.path.join(bdir, n)
        if os.path.isdir(f):
            shutil.move(f, os.path.join(out, n))
        elif os.path.exists(f):
            shutil.copy(f, os.path.join(out, n))
    with open(os.path.join(bdir, TREE_MARK), 'w') as f:
        f.write(os.path.realpath(path))
    os.rename(bdir, os.path.join(out, 'build'))


# ---- a passing verdict reused by content ------------------------------------
RESULTS = 'results'  # build/matrix/.work/results/<key>.json
REUSE_VERSION = '1'  # bump when what a key covers changes


def file_digest(path, memo):
    if path not in memo:
        h = hashlib.sha256()
        with open(path, 'rb') as f:
            for chunk in iter(lambda: f.read(1 << 20), b''):
                h.update(chunk)
        memo[path] = h.hexdigest()
    return memo[path]


def tree_digest(path, memo):
    """the bytes of a file, or of every file under a directory, by name"""
    if os.path.isfile(path):
        return file_digest(path, memo)
    h = hashlib.sha256()
    for root, dirs, names in os.walk(path):
        dirs.sort()
        for n in sorted(names):
            f = os.path.join(root, n)
            h.update(os.path.relpath(f, path).encode() + b'\0')
            h.update(file_digest(f, memo).encode())
    return h.hexdigest()


def loaded_libraries(exe):
    """[path] of the shared libraries the dynamic loader gives exe (ldd)"""
    p = subprocess.run(['ldd', exe], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True)
    if p.returncode != 0:
        return None
    return sorted(set(re.findall(r'=> (/\S+) \(', p.stdout)))


def test_key(t, bdir, memo):
    """sha256 of everything a compiled test's verdict depends on: the bytes
    of its executable and of the build's libraries it loads, the system
    libraries it loads (path, size, mtime), its arguments (a file or
    directory argument by its bytes) and environment.
    None for a test that is not an executable of the build (a Python
    test reads the tree and the repository as it runs)."""
    cmd = t.get('command') or []
    broot = os.path.realpath(bdir) + os.sep
    if not cmd or not os.path.realpath(cmd[0]).startswith(broot) or \
            not os.path.isfile(cmd[0]):
        return None
    libs = loaded_libraries(cmd[0])
    if libs is None:
        return None
    h = hashlib.sha256(REUSE_VERSION.encode())
    h.update(b'exe\0' + file_digest(cmd[0], memo).encode())
    for lib in libs:
        if os.path.realpath(lib).startswith(broot):
            h.update(b'lib\0' + os.path.relpath(lib, bdir).encode() + file_digest(lib, memo).encode())
        else:
            st = os.stat(lib)
            h.update(f'sys\0{os.path.realpath(lib)}\0{st.st_size}\0{st.st_mtime_ns}'.encode())
    for arg in cmd[1:]:
        h.update(b'arg\0' + (tree_digest(arg, memo) if os.path.exists(arg) else arg).encode())
    for e in sorted(t.get('env') or []):
        h.update(b'env\0' + e.encode())
    return h.hexdigest()


def reused_result(mdir, key):
    if not key:
        return None
    try:
        with open(os.path.join(mdir, WORK, RESULTS, key + '.json')) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def keep_result(mdir, key, rec, label):
    """a passing test's record, for the next run of the same content (a
    failure is never kept: it runs again)"""
    if not key or not rec['ctest_passed']:
        return
    d = os.path.join(mdir, WORK, RESULTS)
    os.makedirs(d, exist_ok=True)
    write_json(os.path.join(d, key + '.json'),
               dict(rec, ran_on=label, ran=time.strftime('%Y-%m-%d %H:%M')))


def run_tree(tb, tbm, tree, archive, mdir, say):
    """one tree: fetch, configure, build, every test alone -> result dict"""
    t0 = time.time()
    r = {'label': tree.label, 'tree': tree.as_dict(), 'status': None, 'reason': '',
         'log': '', 'tree_version': None, 'tests': [], 'skipped_suites': []}
    out = os.path.join(mdir, tree.label)
    bdir = os.path.join(mdir, WORK, 'build')
    path = None

    def done(status, reason='', log=''):
        park(mdir, tree.label, path or '')
        if log:
            log = os.path.join(out, os.path.basename(log))
        r.update(status=status, reason=reason, log=log and tbm.rel(log, tb.repo),
                 seconds=round(time.time() - t0, 1))
        r['tree'] = tree.as_dict()
        return r
    try:
        path = tb_trees.provide(tree, archive, installed_dir=True)
    except tb_trees.NeedRoot:
        raise
    except tb_trees.TreeError as e:
        return done('fetch failed', str(e))
    r['fetch_seconds'] = round(time.time() - t0, 1)
    sub = copy.copy(tb)
    sub.build = os.path.join(mdir, WORK)
    sub.series = tree.series if tree.kind == 'installed' else ''
    sub.kernel = point_work_at(mdir, path, tree.label)
    sub.debian = tree if tree.kind != 'dir' else None
    for k in ('tree', 'tree_version', 'tree_before', 'tree_before_version'):
        setattr(sub, k, None)
    try:
        sub.configure('build', tbm.test_defs(), fatal=False)
    except tbm.ConfigureError as e:
        m = re.match(r'^configure failed: (.*) \(log: (.*)\)$', str(e))
        return done('configure failed', m.group(1) if m else str(e), 'tb-configure.log')
    r['tree_version'] = sub.tree_version
    r['tree']['path'] = tree.path = os.path.abspath(path)
    from tb_doctor import skipped_suites
    r['skipped_suites'] = skipped_suites(bdir)
    err = sub.build_dir(bdir, fatal=False)
    if err:
        return done('build failed', err[0], err[1] or 'tb-build.log')
    r['build_seconds'] = round(time.time() - t0 - r['fetch_seconds'], 1)
    say(f'{tree.label}: configured and built in {r["build_seconds"]:.0f}s')
    tests = sub.list_tests(bdir)
    xmldir = os.path.join(bdir, 'tb-matrix-xml')
    listing = {x['name']: x for x in
               tbm.tb_output.ctest_listing(bdir, sub.env(), tbm.TEST_LABELS) or []}
    memo, keys, reused = {}, {}, {}
    for t in tests:
        keys[t['name']] = None if tb.a.fresh else test_key(listing.get(t['name'], {}), bdir, memo)
        rec = reused_result(mdir, keys[t['name']])
        if rec:
            reused[t['name']] = rec
    torun = [t for t in tests if t['name'] not in reused]
    say(f'{tree.label}: running {len(torun)} of {len(tests)} tests ({tb.jobs} at a time), '
        f'CMocka XML in {tbm.rel(os.path.join(out, "tb-matrix-xml"), tb.repo)}'
        + (f'; {len(reused)} passed before with the same executable, libraries, arguments '
           'and environment (--fresh runs them)' if reused else ''))
    t1 = time.time()
    outputs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=tb.jobs) as ex:
        futs = [ex.submit(tbm.run_one_test, sub, bdir, t, xmldir) for t in torun]
        for f in concurrent.futures.as_completed(futs):
            t, text = f.result()
            outputs[t['name']] = text
    for t in sorted(tests, key=lambda t: t['name']):
        if t['name'] in reused:
            old = reused[t['name']]
            r['tests'].append({k: old[k] for k in ('name', 'suite', 'ctest_passed', 'seconds',
                                                   'cases')}
                              | {'reused': {'tree': old.get('ran_on'), 'date': old.get('ran')}})
            continue
        rec = {'name': t['name'], 'suite': suite_of(t['name']),
               'ctest_passed': t['ctest_passed'], 'seconds': t['seconds'],
               'cases': [{'name': case_name(t['name'], c['name'], tb.repo),
                          'status': c['status'], 'message': c['message']}
                         for c in t['case_list']]}
        if not t['ctest_passed']:
            # why, for a test that is not a CMocka suite (a tool's test, a
            # crash outside the cases): its output's telling lines
            rec['excerpt'] = tbm.tb_output.failure_excerpt(outputs.get(t['name'], ''))
            for c in rec['cases']:
                if c['status'] == 'failed' and c['message'] in WHOLE_TEST:
                    c['whole'] = True
                    c['message'] = why_line(rec['excerpt']) or c['message']
        keep_result(mdir, keys[t['name']], rec, tree.label)
        r['tests'].append(rec)
    r['test_seconds'] = round(time.time() - t1, 1)
    r['tests_reused'] = len(reused)
    done('passed')
    r['status'] = tree_status(r)
    ncase = sum(len(t['cases']) for t in r['tests'])
    nfail = sum(c['status'] == 'failed' for t in r['tests'] for c in t['cases'])
    say(f'{tree.label}: {len(tests)} tests, {ncase} cases, {nfail} failed, in '
        f'{time.time() - t1:.0f}s')
    return r


def write_json(path, m):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + '.tmp', 'w') as f:
        json.dump(m, f, indent=1)
    os.replace(path + '.tmp', path)


def load_average():
    try:
        with open('/proc/loadavg') as f:
            return f.read().split()[0]
    except OSError:
        return '?'


def cmd_matrix(tb, tbm):
    say, fail = tbm.say, tbm.fail
    mdir = os.path.join(tb.build, 'matrix')
    js = os.path.join(mdir, 'matrix.json')
    if tb.a.write_docs:
        return write_docs(tb, js, say, fail, tbm)
    archive = tb_trees.Archive(tb.kcache, say)
    try:
        trees = (tb_trees.resolve_list(tb.a.kernel, archive) if tb.a.kernel
                 else tb_trees.default_list(archive))
    except tb_trees.TreeError as e:
        fail(str(e))
    if not trees:
        fail('no kernel tree to run (--kernel LIST)')
    if tb.a.list:
        for t in trees:
            print(t.describe(tb.kcache))
        say(f'{len(trees)} tree{"s" if len(trees) != 1 else ""}' + ('' if tb.a.kernel else
                                     ' (every 6.1 and 6.12 version the archive has, '
                                     'the newest of each later series)'))
        return 0
    t0 = time.time()
    command = 'tools/tb matrix' + (f' --kernel {tb.a.kernel}' if tb.a.kernel else '')
    m = {'date': time.strftime('%Y-%m-%d'), 'generated': time.strftime('%Y-%m-%dT%H:%M:%S%z'),
         'command': command, 'jobs': tb.jobs, 'load': load_average(), 'seconds': 0,
         'trees': [], 'differences': []}
    kept = kept_trees(js, [t.label for t in trees], fail, tbm.rel(js, tb.repo)) \
        if tb.a.keep else []
    lock = lock_work(mdir, fail)
    say(f'{len(trees)} tree{"s" if len(trees) != 1 else ""}: '
        f'{", ".join(t.label for t in trees)}; each built in '
        f'{tbm.rel(os.path.join(mdir, WORK), tb.repo)}/ (one compiler cache), '
        f'its logs in {tbm.rel(mdir, tb.repo)}/<tree>/')
    for i, t in enumerate(trees, 1):
        say(f'[{i}/{len(trees)}] {t.describe(tb.kcache)}')
        try:
            r = run_tree(tb, tbm, t, archive, mdir, say)
        except tb_trees.NeedRoot as e:
            fail(str(e))
        if r['status'] not in RAN:
            say(f'{t.label}: {r["status"]}: {r["reason"]}')
        r['run'] = run_of(m)
        m['trees'].append(r)
        m['seconds'] = round(time.time() - t0, 1)
        write_json(js, dict(m, trees=in_version_order(m['trees'] + kept)))
    lock.close()
    m['trees'] = in_version_order(m['trees'] + kept)
    m['differences'] = differences(m['trees'])
    m['seconds'] = round(time.time() - t0, 1)
    write_json(js, m)
    print()
    print('== Cases passed per tree and suite')
    print(table(m['trees']))
    ns = notes(m['trees'])
    if ns:
        print()
        print('\n'.join(ns))
    fc = failed_cases(m['trees'])
    if fc:
        print()
        print('== Failed cases')
        print('\n'.join(fc))
    print()
    print('== Verdicts that changed between neighbouring trees')
    print('\n'.join(render_differences(m['differences'])))
    print()
    bad = [r['label'] for r in m['trees'] if r['status'] != 'passed' and r not in kept]
    say(f'matrix: {len(trees) - len(bad)} of {len(trees)} trees passed in {m["seconds"]:.0f}s; '
        f'{tbm.rel(js, tb.repo)}')
    return 1 if bad else 0


def run_of(m):
    """what a tree's result says of the run that made it"""
    return {k: m.get(k, '?') for k in ('date', 'command', 'jobs', 'load')}


def kept_trees(js, labels, fail, name):
    """--keep: the last run's results of the trees this run does not run,
    each with the run that made it"""
    try:
        with open(js) as f:
            old = json.load(f)
    except OSError:
        return []
    except ValueError as e:
        fail(f'--keep: {name} is not JSON ({e})')
    kept = [r for r in old.get('trees', []) if r['label'] not in labels]
    for r in kept:
        r.setdefault('run', run_of(old))
    return kept


def version_key(label):
    """6.1.170 < 6.12.95 < 7.3-rc7 < 7.3.4; a directory's tree last"""
    m = re.match(r'(\d+)\.(\d+)(?:\.(\d+))?(?:-rc(\d+))?$', label)
    if not m:
        return (1, label)
    major, minor, sub, rc = m.groups()
    return (0, int(major), int(minor), int(sub or 0) if not rc else -1, int(rc or 0), label)


def in_version_order(results):
    return sorted(results, key=lambda r: version_key(r['label']))


def write_docs(tb, js, say, fail, tbm):
    try:
        with open(js) as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        fail(f'--write-docs: no matrix results ({tbm.rel(js, tb.repo)}: {e}); '
             'run tools/tb matrix first')
    doc = os.path.join(tb.repo, 'docs', 'versions.md')
    with open(doc) as f:
        text = f.read()
    new = replace_section(text, docs_section(m, tb.repo))
    if new is None:
        fail(f'docs/versions.md has no generated part (the lines {DOC_BEGIN!r} '
             f'and {DOC_END!r})')
    if new != text:
        with open(doc, 'w') as f:
            f.write(new)
        say(f'wrote docs/versions.md from {tbm.rel(js, tb.repo)} ({len(m["trees"])} trees)')
    else:
        say('docs/versions.md is up to date')
    return 0
