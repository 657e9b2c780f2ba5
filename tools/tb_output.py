# SPDX-License-Identifier: GPL-2.0-only
"""tb_output.py - what tools/tb prints while it works, and the edit loop.

A command prints a few progress lines (`tb: ...`); the output of cmake, the
compiler and ctest goes to a log in the build directory, whose path is
printed, unless -v. On a failure the part of the log that matters is
printed: the compiler's or kextract's error, or the failed test cases with
their assertion.

The edit loop: a configured build directory is not configured again while
the options are the same (the generated build system re-runs cmake itself
when a CMakeLists.txt changes); Ninja where installed; `--file mm/X.c`
selects the tests labelled kfile:mm/X.c that run the lines changed since
the per-test line map was made (all of them without a map), and builds only
their executables.
"""
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

STATE = 'tb-configure.json'


# ---- configure only when something changed -----------------------------
def generator_args(bdir, defs, say, rel_bdir):
    """['-G', 'Ninja'] where ninja is installed and the caller chose none;
    a build directory made by another generator is re-created (cmake
    refuses to switch generators in place)."""
    if '-G' in defs or not shutil.which('ninja'):
        return []
    cache = os.path.join(bdir, 'CMakeCache.txt')
    if os.path.exists(cache):
        with open(cache, errors='replace') as f:
            m = re.search(r'^CMAKE_GENERATOR:INTERNAL=(.*)$', f.read(), re.M)
        if m and m.group(1) != 'Ninja':
            say(f'{rel_bdir} was made with {m.group(1)}: re-creating it with Ninja')
            shutil.rmtree(bdir)
            os.makedirs(bdir)
    return ['-G', 'Ninja']


def build_command(bdir, jobs, targets=()):
    """The command that builds targets of bdir: Ninja itself where the
    directory is Ninja's (what `cmake --build` runs, without the ~20 ms of
    starting cmake first: the edit loop builds twice), else cmake --build"""
    ninja = None
    if os.path.exists(os.path.join(bdir, 'build.ninja')):
        try:
            with open(os.path.join(bdir, 'CMakeCache.txt'), errors='replace') as f:
                m = re.search(r'^CMAKE_MAKE_PROGRAM:\w+=(.*)$', f.read(), re.M)
            ninja = m and m.group(1).strip()
        except OSError:
            pass
    if ninja and os.path.basename(ninja).startswith('ninja') and os.access(ninja, os.X_OK):
        return [ninja, '-C', bdir] + (['-j', str(jobs)] if jobs else []) + list(targets)
    cmd = ['cmake', '--build', bdir] + (['-j', str(jobs)] if jobs else [])
    for t in targets:
        cmd += ['--target', t]
    return cmd


def python_args():
    """Debian's python3 for the build's steps (kextract, checks): a Python
    found first in PATH may be a version manager's shim that adds ~150 ms to
    every step."""
    return ['-DPython3_EXECUTABLE=/usr/bin/python3'] if os.path.exists('/usr/bin/python3') else []


def configured_state(bdir, key):
    """The saved result of an earlier configure with the same key, or None
    when configure must run (new options, no build system, tree gone)."""
    try:
        with open(os.path.join(bdir, STATE)) as f:
            st = json.load(f)
    except (OSError, ValueError):
        return None
    if st.get('key') != key:
        return None
    if not os.path.exists(os.path.join(bdir, 'CMakeCache.txt')):
        return None
    if not any(os.path.exists(os.path.join(bdir, n)) for n in ('build.ninja', 'Makefile')):
        return None
    for t in (st.get('tree'), st.get('tree_before')):
        if t and not os.path.isdir(os.path.join(t, 'mm')):
            return None
    return st


def save_state(bdir, key, tb):
    st = {'key': key, 'tree': tb.tree, 'tree_version': tb.tree_version,
          'tree_before': tb.tree_before, 'tree_before_version': tb.tree_before_version}
    with open(os.path.join(bdir, STATE), 'w') as f:
        json.dump(st, f, indent=1)


def forget_state(bdir):
    try:
        os.unlink(os.path.join(bdir, STATE))
    except OSError:
        pass


# ---- build logs ----------------------------------------------------------
# a kextract warning (an unbalanced #endif it ignores) is not why a build failed
ERROR_RE = re.compile(r'(error:|Error:|^FAILED: |kernel tree .*: |^kextract: (?!warning: )|'
                      r'CMake Error|undefined reference|No rule to make target|'
                      r'missing and no known rule)')


def build_steps(text):
    """How many steps the build ran (Ninja's [n/N] lines, make's [ x%])"""
    return sum(1 for l in text.splitlines() if re.match(r'^\[\s*\d+(/\d+|%)\]', l))


def build_failure(text, max_lines=25):
    """(one line, excerpt lines) of a failed build's log: the first error
    and what the compiler said around it, without the command lines."""
    lines = text.splitlines()
    first = next((l.strip() for l in lines if ERROR_RE.search(l) and not l.startswith('FAILED: ')),
                 None)
    excerpt = []
    for i, l in enumerate(lines):
        if not l.startswith('FAILED: '):
            continue
        excerpt.append(l)
        # Ninja prints the command after FAILED:, then the tool's output
        for m in lines[i + 2:]:
            if re.match(r'^\[\d+/\d+\] ', m) or m.startswith(('ninja: ', 'FAILED: ')):
                break
            excerpt.append(m)
        break
    if not excerpt:
        idx = [i for i, l in enumerate(lines) if ERROR_RE.search(l)]
        for i in idx[:5]:
            excerpt += lines[max(0, i - 2):i + 4]
    if not excerpt:
        excerpt = [l for l in lines if l.strip()][-15:]
    if first is None:
        first = next((l.strip() for l in excerpt if l.strip() and not l.startswith('FAILED: ')),
                     '(no error message; see the log)')
    return first, excerpt[:max_lines]


# ---- tests ----------------------------------------------------------------
def _ctest_files_key(bdir):
    """(path, mtime, size) of every CTestTestfile.cmake ctest would read:
    the top one and the subdirs() it names, recursively"""
    key, todo = [], [bdir]
    while todo:
        d = todo.pop()
        f = os.path.join(d, 'CTestTestfile.cmake')
        try:
            st = os.stat(f)
            with open(f) as fh:
                text = fh.read()
        except OSError:
            continue
        key.append([f, st.st_mtime_ns, st.st_size])
        todo += [os.path.join(d, m) for m in re.findall(r'^subdirs\("([^"]+)"\)', text, re.M)]
    return key


def ctest_listing(bdir, env, label_re):
    """[{name, labels, command, env}] of the tests whose labels match
    label_re (env: the test's ENVIRONMENT, a list of 'NAME=value').
    Kept in bdir until a CTestTestfile.cmake changes: ctest's JSON listing
    is ~50 ms of the edit loop."""
    cache = os.path.join(bdir, 'tb-ctest-listing.json')
    key = _ctest_files_key(bdir)
    try:
        with open(cache) as f:
            c = json.load(f)
        if c['key'] == key and label_re in c['listings']:
            return c['listings'][label_re]
        listings = c['listings'] if c['key'] == key else {}
    except (OSError, ValueError, KeyError, TypeError):
        listings = {}
    out = _ctest_listing(bdir, env, label_re)
    if out is not None and key:
        listings[label_re] = out
        try:
            with open(cache + '.tmp', 'w') as f:
                json.dump({'key': key, 'listings': listings}, f)
            os.replace(cache + '.tmp', cache)
        except OSError:
            pass
    return out


def _ctest_listing(bdir, env, label_re):
    p = subprocess.run(['ctest', '--test-dir', bdir, '--show-only=json-v1', '-L', label_re],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if p.returncode != 0:
        return None
    out = []
    for t in json.loads(p.stdout).get('tests', []):
        labels, tenv = [], []
        for prop in t.get('properties', []):
            if prop.get('name') == 'LABELS':
                labels = prop.get('value') or []
            elif prop.get('name') == 'ENVIRONMENT':
                tenv = prop.get('value') or []
        out.append({'name': t['name'], 'labels': labels, 'command': t.get('command') or [],
                    'env': tenv})
    return out


# A test labelled `variant` runs the executable of a test of the base
# configuration again, with only TB_NODES added to its environment (the
# world's RAM split over more nodes): the same code and cases, which reach
# mostly the same lines. tools/tb test runs them; --file leaves them out
# unless --with-variants, or a line map saw one run a changed line its base
# does not. tests/labels/test_kfile_labels.py checks that each has its base
# test, and that a test that is one carries the label.
VARIANT_LABEL = 'variant'
VARIANT_ENV = ('TB_NODES',)


def variant_base_env(env):
    """a variant's environment without what makes it a variant"""
    return [e for e in env if e.split('=', 1)[0] not in VARIANT_ENV]


def variant_base(t, listing):
    """The test of listing that the variant t runs again: the same command,
    its labels but `variant`, its environment without TB_NODES (None: none)"""
    labels = sorted(l for l in t['labels'] if l != VARIANT_LABEL)
    env = sorted(variant_base_env(t.get('env') or []))
    for b in listing:
        if (VARIANT_LABEL not in b['labels'] and b['command'] == t['command']
                and sorted(b['labels']) == labels and sorted(b.get('env') or []) == env):
            return b
    return None


def split_variants(listing):
    """(base tests, variant tests) of a ctest_listing()"""
    base = [t for t in listing if VARIANT_LABEL not in t['labels']]
    return base, [t for t in listing if VARIANT_LABEL in t['labels']]


def variants_note(variants, files):
    """One line: how many variant runs of the tests labelled kfile:F (F of
    files) --file leaves to tools/tb test, and what they vary; None: none"""
    left = [t for t in variants if any('kfile:' + f in t['labels'] for f in files)]
    if not left:
        return None
    how = sorted({e for t in left for e in t.get('env', [])
                  if e.split('=', 1)[0] in VARIANT_ENV},
                 key=lambda e: (e.split('=', 1)[0], len(e), e))
    return (f'{len(left)} variant run{"s" if len(left) != 1 else ""} of these suites (the same '
            f'executables again with {" or ".join(how) or "another environment"}) left to '
            f'tools/tb test; --with-variants runs them too')


def kfile_name(path, tree):
    """mm/X.c as the kfile: labels name it, from a path in the tree too"""
    if tree and os.path.isabs(path):
        r = os.path.relpath(os.path.realpath(path), os.path.realpath(tree))
        if not r.startswith('..'):
            return r
    return os.path.normpath(path).lstrip('./') if not os.path.isabs(path) else path


def manifest_current(bdir):
    """Whether bdir's build.ninja is newer than every file cmake read to
    write it (its RERUN_CMAKE step's inputs): then `ninja build.ninja`
    would only run cmake's glob check, twice (which can add no test: the
    glob is kernel_known()'s, of kernel-shim/ and mm/ sources), and the
    build that follows runs that check anyway. False for a directory that
    is not Ninja's."""
    manifest = os.path.join(bdir, 'build.ninja')
    try:
        mtime = os.stat(manifest).st_mtime_ns
        with open(manifest, errors='replace') as f:
            text = f.read()
    except OSError:
        return False
    head = '\nbuild build.ninja: RERUN_CMAKE '
    i = text.find(head)
    line = text[i + len(head):text.find('\n', i + 1)] if i >= 0 else ''
    if ' | ' not in line:
        return False
    deps = re.split(r'(?<!\$) ', line.split(' | ', 1)[1])
    for d in deps:
        d = re.sub(r'\$(.)', r'\1', d)
        if not d:
            continue
        try:
            if os.stat(os.path.join(bdir, d)).st_mtime_ns > mtime:
                return False
        except OSError:
            return False
    return True


def select_by_files(listing, files, bdir, pick=None):
    """(tests, targets, error): the tests labelled kfile:F for any F of
    files (those pick(F, tests) keeps, when given) and the executables they
    run (targets None: some are not known, build everything); error is one
    line when a file has no tests."""
    known = sorted({l[6:] for t in listing for l in t['labels'] if l.startswith('kfile:')})
    tests = []
    for f in files:
        hit = [t for t in listing if 'kfile:' + f in t['labels']]
        if not hit:
            return None, None, (f'no test is labelled kfile:{f} (files with tests: '
                                f'{", ".join(known)})')
        if pick:
            hit = pick(f, hit)
        tests += [t for t in hit if t not in tests]
    targets = set()
    for t in tests:
        cmd = t['command']
        if not cmd:
            return tests, None, None
        exe = cmd[0]
        if os.path.realpath(exe).startswith(os.path.realpath(bdir) + os.sep):
            targets.add(os.path.basename(exe))
        elif not re.search(r'python3?$', exe):
            return tests, None, None
    return tests, sorted(targets), None


def map_file(cov, path):
    """where tools/tb mutate keeps the per-test line map of path"""
    return os.path.join(cov, 'mutate-testmap', path.replace('/', '_') + '.json')


def case_map_file(cov, path):
    """where tools/tb mutate --cases keeps the per-case line map of path"""
    return os.path.join(cov, 'mutate-casemap', path.replace('/', '_') + '.json')


def select_cases(tests, path, cov, data, want):
    """{test name: [its cases]} of tests: the cases of each that execute a
    line of want, from the per-case line map (tools/tb mutate --cases's)
    made with the per-test map data (the same file and executables of the
    coverage build). A test is left out (runs whole) when the case map does
    not know it or none of its cases executes a line of want (a stress
    test, or one whose case map disagrees), and when all its cases do."""
    try:
        with open(case_map_file(cov, path)) as f:
            cm = json.load(f)
    except (OSError, ValueError):
        return {}
    if cm.get('key') != data.get('key'):
        return {}
    # a case runs a line of want when it runs a line of a statement that
    # holds it (tb_mutate.case_lines' continuation lines): the lines of
    # those statements, once, not every case's lines (1,059 cases of
    # mm/memcontrol.c: 1.3 s)
    trigger = set()
    for first, last in data['statements']:
        if any(first <= w <= last for w in want):
            trigger.update(range(first, last + 1))
    out = {}
    for t in tests:
        cases = cm['cases'].get(t['name'])
        if not cases or 'stress' in t['labels']:
            continue
        hit = [c for c, (_, lines) in cases.items() if not trigger.isdisjoint(lines)]
        if hit and len(hit) < len(cases):
            out[t['name']] = hit
    return out


def select_by_lines(tests, path, tree, cov, repo, variants=(), cases=None):
    """(tests, note): of tests (those labelled kfile:path), the ones that
    execute a line of path that differs from the file as the per-test line
    map saw it (tools/tb mutate's, in the coverage build cov), and those the
    map cannot speak for: the stress tests (what they reach varies from run
    to run) and tests it does not know. Every test when there is no map of
    this tree, when a file the tests are built from changed since (the map
    may no longer hold), or when a changed line is one no test of the map
    executes (a macro, a declaration outside a function, a line the map
    never saw run). note is one line saying which and why.
    variants: variant runs labelled kfile:path, each with 'base' (its base
    test's name), left out but for those the map saw run a changed line
    their base test does not run (more nodes can reach more of the file).
    cases: a dict that, when there is a per-case map of the same file and
    executables (--map --cases), gets {test: [its cases that execute a
    changed line]} for the selected tests that need only some of theirs
    (select_cases)."""
    every = f'all {len(tests)} tests labelled kfile:{path}'
    try:
        with open(map_file(cov, path)) as f:
            data = json.load(f)
    except (OSError, ValueError):
        data = {}
    if 'sources' not in data or data['key'].get('tree') != tree.rstrip('/'):
        return tests, f'{every}: no line map of {path} for this tree (--map makes one)'
    import tb_mutate  # only with a map: the loop without one stays as quick as it was
    with open(os.path.join(tree, path), errors='replace') as f:
        now = f.read()
    # lines of the mapped file that were changed or deleted, and the lines
    # either side of an insertion: what a test must run to see the change
    changed = sorted(tb_mutate.changed_lines(now, data['text']))
    if not changed:
        return tests, f'{every}: {path} is as the line map saw it'
    old, new = data['text'].split('\n'), now.split('\n')
    if block_change(old, new, changed):
        return tests, f'{every}: the edit of {path} opens or closes a block'
    if any(new[n - 1].lstrip().startswith('#') for n in tb_mutate.changed_lines(data['text'], now)):
        return tests, f'{every}: the edit of {path} has a preprocessor line'
    other = tb_mutate.source_changed(data['sources'], repo, tree.rstrip('/'), path)
    if other:
        for base in (tree, repo):
            if other.startswith(base.rstrip('/') + '/'):
                other = os.path.relpath(other, base)
        return tests, f'{every}: {other} changed since the line map of {path} (--map renews it)'
    per = {n: {int(k): v for k, v in c.items()} for n, c in data['tests'].items()}
    reach = tb_mutate.reached_lines(per, [tuple(x) for x in data['statements']])
    run = set().union(*reach.values())
    # a line gcov has no count for inside a function (a declaration, a
    # label) changes only that function: the tests that run the function;
    # a preprocessor line there, or any line outside a function, may
    # change the whole file
    owner = tb_mutate.functions_of(old)
    bodies = {}
    for n in changed:
        if n in run or n in bodies:
            continue
        fn = owner.get(n)
        runs = {ln for ln in run if owner.get(ln) == fn} if fn else set()
        if not runs or old[n - 1].lstrip().startswith('#'):
            return tests, (f'{every}: {path}:{n} (as mapped) is a line no test of the '
                           'line map executes')
        bodies[n] = runs
    # the head of a brace-less body: an edit of `foo();` under `if (c)`
    # into `foo(); bar();` reaches the tests that run the `if` without
    # running `foo()`
    heads = set()
    for n in changed:
        h = line_before(old, n)
        if not h or old[h - 1].rstrip().endswith((';', '{', '}', ':')):
            continue
        if h in run:
            heads.add(h)
        elif re.match(r'\s*(\}\s*)?(else|do)\b', old[h - 1]):
            return tests, (f'{every}: {path}:{n} (as mapped) is the body of an else or do '
                           'on the line before')
    want = set(changed) | heads | set().union(*bodies.values())
    out = [t for t in tests if 'stress' in t['labels'] or t['name'] not in reach
           or reach[t['name']] & want]
    more = [v for v in variants if v['name'] in reach and v.get('base') in reach
            and (reach[v['name']] & want) - reach[v['base']]]
    lines = ', '.join(str(n) for n in changed[:4]) + (', ...' if len(changed) > 4 else '')
    note = (f'{len(out)} of {len(tests)} tests labelled kfile:{path}: those that run '
            f'its changed line{"s" if len(changed) > 1 else ""} ({lines}, as mapped), '
            'and the stress tests')
    if len(more) == 1:
        note += f'; and the variant run {more[0]["name"]}, which runs a changed line its base does not'
    elif more:
        note += f'; and {len(more)} variant runs that run a changed line their base does not'
    if cases is not None:
        sel = select_cases(out + more, path, cov, data, want)
        if sel:
            total = sum(len(c) for c in sel.values())
            note += (f'; of {len(sel)} of them only the {total} case{"s" if total != 1 else ""} '
                     'that run a changed line (the case map)')
        cases.update(sel)
    return out + more, note


def block_change(old, new, changed):
    """True when the edit opens or closes a block around it (what the
    statements after it belong to changes): the changed lines of old or
    their counterpart in new leave a brace unmatched; a block opened and
    closed inside them (`{ x++; }`) is one statement"""
    def closed(lines):
        depth = 0
        for c in ''.join(lines):
            depth += (c == '{') - (c == '}')
            if depth < 0:
                return False
        return depth == 0
    lo, hi = min(changed), max(changed)
    # their counterpart in new: the same distance from the end of the file
    tail = len(old) - hi
    return not (closed(old[lo - 1:hi]) and closed(new[lo - 1:len(new) - tail]))


COMMENT_RE = re.compile(r'^\s*(//.*|/?\*.*|.*\*/)?\s*$|^\s*[{}]\s*$')


def line_before(lines, n):
    """the number of the nearest line before line n that is neither blank,
    a comment nor a brace alone (0: none)"""
    n -= 1
    while n >= 1 and COMMENT_RE.match(lines[n - 1]):
        n -= 1
    return n


def ctest_subset(bdir, names, cases, out):
    """Write a ctest directory out whose tests are bdir's tests of names,
    as bdir defines them (command, labels, environment, timeout, working
    directory, ...), each test of cases with TB_CASES set to its cases
    (tb_run() then runs only those): ctest takes no environment per test
    from its command line. bdir's cost data go along, so the longest
    tests still start first. False when ctest cannot list them."""
    p = subprocess.run(['ctest', '--test-dir', bdir, '--show-only=json-v1', '-R',
                        name_regex(names)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        return False

    def q(v):
        if isinstance(v, list):
            v = ';'.join(str(x).replace(';', '\\;') for x in v)
        elif isinstance(v, bool):
            v = 'ON' if v else 'OFF'
        elif isinstance(v, float) and v == int(v):
            v = int(v)
        return '"' + re.sub(r'([\\"$])', r'\\\1', str(v)) + '"'
    lines = [f'# written by tools/tb test --file from {bdir}: the cases of a case map\n']
    for t in json.loads(p.stdout).get('tests', []):
        props = {pr['name']: pr['value'] for pr in t.get('properties', [])}
        if t['name'] in cases:
            props['ENVIRONMENT'] = [e for e in props.get('ENVIRONMENT', [])
                                    if not e.startswith('TB_CASES=')]
            props['ENVIRONMENT'].append('TB_CASES=' + ','.join(cases[t['name']]))
        lines.append(f'add_test({t["name"]} {" ".join(q(c) for c in t["command"])})\n')
        if props:
            lines.append(f'set_tests_properties({t["name"]} PROPERTIES '
                         + ' '.join(f'{k} {q(v)}' for k, v in sorted(props.items())) + ')\n')
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, 'Testing', 'Temporary'))
    with open(os.path.join(out, 'CTestTestfile.cmake'), 'w') as f:
        f.write(''.join(lines))
    cost = os.path.join(bdir, 'Testing', 'Temporary', 'CTestCostData.txt')
    if os.path.exists(cost):
        shutil.copy(cost, os.path.join(out, 'Testing', 'Temporary'))
    return True


def name_regex(names):
    return '^(' + '|'.join(re.escape(n) for n in names) + ')$'


def parse_junit(path):
    """[{name, status ('passed'|'failed'|'skipped'), seconds, output}] of
    ctest's --output-junit file"""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return None
    out = []
    for tc in root.iter('testcase'):
        st = tc.get('status', 'run')
        status = 'passed'
        if tc.find('failure') is not None or st == 'fail':
            status = 'failed'
        elif tc.find('skipped') is not None or st in ('notrun', 'disabled'):
            status = 'skipped'
        so = tc.find('system-out')
        out.append({'name': tc.get('name'), 'status': status,
                    'seconds': float(tc.get('time') or 0),
                    'output': so.text if so is not None and so.text else ''})
    return out


def cmocka_cases(output):
    """(cases run, cases failed) from a CMocka suite's output, or None"""
    m = re.findall(r'^\[=+\] (\d+) test\(s\) run\.', output, re.M)
    if not m:
        return None
    failed = len(re.findall(r'^\[  FAILED  \] (?!\d)\S', output, re.M))
    return sum(int(x) for x in m), failed


FAILED_CASE_RE = re.compile(r'^\[  FAILED  \] (?!\d+ test)(\S+)')
WHY_RE = re.compile(r'^\[  ERROR   \]|^\[   LINE   \]|error:|Assertion|Sanitizer|'
                    r'WARNING|Segmentation|Aborted|Traceback|^\w*Error: |hung:|'
                    r'the test ended|expected|^tb watchdog: |^\S+: op \d+: ')


def failure_excerpt(output, max_lines=12):
    """The lines of a failed test's output that say why: the failed CMocka
    cases and their assertions (CMocka writes these to stderr, so they are
    not always next to their case), or the end of the output (a crash, a
    sanitizer report, a python traceback)."""
    lines = output.splitlines()
    cases = []
    for l in lines:
        m = FAILED_CASE_RE.match(l)
        if m and m.group(1) not in cases:
            cases.append(m.group(1))
    why = []
    for l in lines:
        if WHY_RE.search(l) and not FAILED_CASE_RE.match(l) and l not in why:
            why.append(l)
    ex = why[:max_lines - 1]
    if cases:
        ex.append('failed case(s): ' + ', '.join(cases))
    if not why:
        ex = [l for l in lines if l.strip()][-(max_lines - len(ex)):] + ex
    return ex[:max_lines]


def first_assertion(output):
    """One line: the first failed assertion (or the end of the output)"""
    for l in failure_excerpt(output):
        if re.search(r'error:|ERROR|Assert|assert|Sanitizer|Segmentation|Aborted|WARN|'
                     r'watchdog|: op \d+: ', l):
            return l.strip()
    ex = failure_excerpt(output)
    return ex[-1].strip() if ex else '(no output)'


def test_table(results, areas, max_rows=15):
    """Per test when few, else per suite folder (tests/<area>)"""
    rows = []
    if len(results) <= max_rows:
        head = ('test', 'result', 'cases', 'seconds')
        for r in results:
            c = cmocka_cases(r['output'])
            cases = f'{c[0] - c[1]}/{c[0]}' if c else '-'
            rows.append((r['name'], r['status'], cases, f'{r["seconds"]:.2f}'))
    else:
        head = ('suites', 'tests', 'passed', 'failed', 'seconds')
        groups = {}
        for r in results:
            g = groups.setdefault(areas.get(r['name'], 'other'), [0, 0, 0, 0.0])
            g[0] += 1
            g[1] += r['status'] == 'passed'
            g[2] += r['status'] == 'failed'
            g[3] += r['seconds']
        for a in sorted(groups):
            g = groups[a]
            rows.append((a, str(g[0]), str(g[1]), str(g[2]), f'{g[3]:.2f}'))
    w = [max(len(str(x[i])) for x in rows + [head]) for i in range(len(head))]
    out = ['  '.join(h.ljust(w[0]) if i == 0 else h.rjust(w[i]) for i, h in enumerate(head))]
    for r in rows:
        out.append('  '.join(str(x).ljust(w[0]) if i == 0 else str(x).rjust(w[i])
                             for i, x in enumerate(r)))
    return '\n'.join(out)


def test_areas(listing, repo, bdir):
    """{test name: 'tests/<folder>'}, from the paths in its command"""
    out = {}
    for t in listing or []:
        out[t['name']] = 'other'
        for c in t['command']:
            for base in (bdir, repo):
                parts = os.path.relpath(c, base).split(os.sep) if os.path.isabs(c) else []
                if len(parts) > 2 and parts[0] == 'tests':
                    out[t['name']] = 'tests/' + parts[1]
                    break
            if out[t['name']] != 'other':
                break
    return out
