# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb mutate FILE[:FUNCTION]: would a test notice this kernel line changing?

Mutants of the covered lines of one kernel file are built, one at a time,
from a scratch copy of the tree (hard links, the mutated file a copy of its
own: the tree itself is never written) in build/mutate, and the tests
labelled kfile:FILE run against each with a time limit. A mutant is killed
(by the tests that failed), survived, timed out or did not compile.
"""
import difflib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# ---- mutation operators (one source line in, variants out) ----------------
REL_FLIP = {'==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>'}
BOUNDARY = {'<': '<=', '<=': '<', '>': '>=', '>=': '>'}
# a comparison operator, not part of ->, <<, >>, <<=, >>=, or an #include
REL_RE = re.compile(r'(?<![<>=!\-])(==|!=|<=|>=|<|>)(?![<>=])')
LOGIC_RE = re.compile(r'&&|\|\|')
INT_RE = re.compile(r'(?<![\w.])(\d+)(?![\w.])')
RETURN_RE = re.compile(r'^(\s*return\s+)(.+?)(;\s*)$')
DECL_RE = re.compile(r'^\s*(const\s+|static\s+|unsigned\s+|signed\s+)*'
                     r'(struct\s+\w+|enum\s+\w+|union\s+\w+|\w+)\s+[\*\s]*\w+\s*(=|;|\[|,)')
KEYWORDS = ('return', 'break', 'continue', 'goto', 'case', 'default', 'else', 'do')


def code_part(line):
    """the line without a trailing // or /* comment, and whether it is code"""
    s = line.split('//')[0]
    s = s.split('/*')[0]
    st = s.strip()
    if not st or st.startswith(('#', '*')):
        return s, False
    return s, True


def in_string(s, pos):
    return s[:pos].count('"') % 2 == 1


def matching_paren(s, i):
    depth = 0
    for j in range(i, len(s)):
        if s[j] == '(':
            depth += 1
        elif s[j] == ')':
            depth -= 1
            if depth == 0:
                return j
    return -1


def mutants_of_line(line):
    """(operator, new line) pairs for one line of C"""
    code, ok = code_part(line)
    if not ok:
        return []
    out = []
    rest = line[len(code):]
    for m in REL_RE.finditer(code):
        op = m.group(1)
        if in_string(code, m.start()):
            continue
        if op in ('<', '>') and re.search(r'#include|<\w+\.h>', code):
            continue
        a, b = code[:m.start()], code[m.end():]
        out.append(('comparison flip', a + REL_FLIP[op] + b + rest))
        if op in BOUNDARY:
            out.append(('boundary shift', a + BOUNDARY[op] + b + rest))
    for m in LOGIC_RE.finditer(code):
        if in_string(code, m.start()):
            continue
        new = '||' if m.group(0) == '&&' else '&&'
        out.append(('&& / ||', code[:m.start()] + new + code[m.end():] + rest))
    for m in re.finditer(r'\b(if|while)\s*\(', code):
        i = code.index('(', m.start())
        j = matching_paren(code, i)
        if j > 0:
            out.append(('condition negation',
                        code[:i + 1] + '!(' + code[i + 1:j] + '))' + code[j + 1:] + rest))
    for m in INT_RE.finditer(code):
        if in_string(code, m.start()) or code.strip().startswith('case'):
            continue
        n = int(m.group(1))
        a, b = code[:m.start()], code[m.end():]
        out.append(('constant + 1', a + str(n + 1) + b + rest))
        if n > 0:
            out.append(('constant - 1', a + str(n - 1) + b + rest))
    m = RETURN_RE.match(code)
    # "return NULL" -> "return 0" would be the same program
    if m and m.group(2).strip() != 'NULL':
        val = m.group(2).strip()
        repl = {'true': 'false', 'false': 'true', '0': '1'}.get(val, '0')
        out.append(('return value', m.group(1) + repl + m.group(3) + rest))
    st = code.strip()
    if (st.endswith(';') and not st.startswith(KEYWORDS) and not DECL_RE.match(code)
            and ('=' in st.replace('==', '') or '++' in st or '--' in st or re.search(r'\w\s*\(', st))
            and st.count('(') == st.count(')')):
        indent = line[:len(line) - len(line.lstrip())]
        out.append(('statement deletion', indent + ';' + ('\n' if line.endswith('\n') else '')))
    seen, uniq = {line}, []
    for o in out:
        # a change two operators make alike (return 0 -> 1) is one mutant
        if o[1] not in seen:
            seen.add(o[1])
            uniq.append(o)
    return uniq


def functions_of(lines):
    """{line number: function name} for the bodies of kernel-style functions"""
    owner, name, inside = {}, None, False
    for i, line in enumerate(lines, 1):
        if not inside:
            m = re.match(r'^[A-Za-z_].*?\b(\w+)\s*\(', line)
            if m and not line.rstrip().endswith(';') and not line.startswith(('#', 'typedef')):
                name = m.group(1)
            if line.startswith('{') and name:
                inside = True
            continue
        if line.startswith('}'):
            inside, name = False, None
            continue
        owner[i] = name
    return owner


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


def scratch_tree(tree, scratch, path):
    """a hard-link copy of tree whose path is a file of its own"""
    stamp = os.path.join(scratch, '.tb-mutate-of')
    if not (os.path.exists(stamp) and open(stamp).read() == tree):
        shutil.rmtree(scratch, ignore_errors=True)
        os.makedirs(os.path.dirname(scratch), exist_ok=True)
        subprocess.run(['cp', '-al', tree, scratch], check=True)
        with open(stamp, 'w') as f:
            f.write(tree)
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


def label_tests(bdir, label):
    """the tests of a label: [{name, command, cwd, target}]"""
    p = subprocess.run(['ctest', '--test-dir', bdir, '--show-only=json-v1', '-L', label],
                       check=True, capture_output=True, text=True)
    out = []
    for t in json.loads(p.stdout).get('tests', []):
        cmd = t.get('command') or []
        if not cmd or cmd[0].endswith(('python3', 'python')):
            continue
        cwd = os.path.dirname(cmd[0])
        for prop in t.get('properties', []):
            if prop.get('name') == 'WORKING_DIRECTORY':
                cwd = prop['value']
        out.append({'name': t['name'], 'command': cmd, 'cwd': cwd,
                    'target': os.path.basename(cmd[0])})
    return out


def build(bdir, targets, jobs, timeout):
    cmd = ['cmake', '--build', bdir, '-j', str(jobs)]
    for t in targets:
        cmd += ['--target', t]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return p.returncode == 0


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    p.wait()


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
            p = subprocess.Popen(t['command'], cwd=t['cwd'], env=env, stdout=log,
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


# ---- equivalent mutants (tests/mutate/equivalent.txt) -----------------------
EQUIV_RE = re.compile(r'^(\S+):(\d+) \[([^\]]+)\] (.*\S)\s*$')
# '@ 6.12': the entries below were written for that kernel version (their
# line numbers and the reasons are that tree's)
VERSION_RE = re.compile(r'^@\s*(\d+(?:\.\d+)*)\s*$')


def version_matches(want, have):
    """'6.12' covers the tree version '6.12.117' (and '6.12'), not '6.1.192'"""
    return have is None or want is None or have == want or have.startswith(want + '.')


def load_equivalents(path, version=None):
    """{(file, line, operator, mutated line stripped): why} from a file of
    entries 'FILE:LINE [OPERATOR] MUTATED LINE' each followed by indented
    lines saying why the mutant cannot change behaviour; with a tree
    version, only the entries of its '@ X.Y' sections (and those before any
    section); the reasons of every entry are checked either way"""
    eq, key, want, keep = {}, None, None, True
    if not os.path.exists(path):
        return eq
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            if line[0] in ' \t':
                if key is None:
                    raise ValueError(f'{path}:{n}: a reason with no entry above it')
                if keep:
                    eq[key] = (eq[key] + ' ' + line.strip()).strip()
                continue
            v = VERSION_RE.match(line)
            if v:
                want, key = v.group(1), None
                continue
            m = EQUIV_RE.match(line)
            if not m:
                raise ValueError(f'{path}:{n}: not FILE:LINE [OPERATOR] MUTATED-LINE')
            key = (m.group(1), int(m.group(2)), m.group(3), m.group(4).strip())
            keep = version_matches(want, version)
            if keep:
                eq[key] = ''
    return eq


def equiv_key(path, c):
    return (path, c['line'], c['operator'], c['new'].strip())


def sample(cands, n, seed):
    """n of cands, the same n for the same seed and candidate list"""
    rng = random.Random(seed)
    return sorted(rng.sample(cands, n), key=lambda c: (c['line'], c['operator'], c['new']))


def cmd_mutate(tb, say, fail, rel):
    a = tb.a
    spec = a.target
    path, _, func = spec.partition(':')
    path = path.strip('/')
    label = '^' + re.escape('kfile:' + path) + '$'
    t_start = time.time()
    eq_path = os.path.join(tb.repo, 'tests', 'mutate', 'equivalent.txt')
    try:
        # parsed before the build: a malformed file stops here
        load_equivalents(eq_path)
    except ValueError as e:
        fail(str(e))

    # the tree, and which of its lines the label's tests run (the coverage
    # build): a line only other suites reach is not one these tests could guard
    cov = tb.coverage_build()
    # the entries of this tree's version (known once configured)
    equivalents = load_equivalents(eq_path, tb.tree_version)
    tree = tb.tree.rstrip('/')
    if not os.path.exists(os.path.join(tree, path)):
        fail(f'{tree}: {path}: no such file in the kernel tree')
    say(f'running the tests labelled kfile:{path} in {rel(cov, tb.repo)}')
    subprocess.run(['ctest', '--test-dir', cov, '-L', label, '-j', str(tb.jobs)],
                   env=tb.env(), capture_output=True)
    counts = covered_lines(cov, tree, path)
    if not counts:
        fail(f'{path}: no compiled lines in the coverage build (is it a file the test bed builds?)')

    # a build of the scratch tree
    scratch = os.path.join(tb.build, 'mutate-tree')
    target, pristine = scratch_tree(tree, scratch, path)
    user_kernel = tb.kernel
    tb.kernel = scratch
    # Ninja: a Makefile build spends seconds per mutant only deciding that
    # the other libraries are up to date
    gen = []
    if shutil.which('ninja'):
        gen = ['-G', 'Ninja']
        cache = os.path.join(tb.build, 'mutate', 'CMakeCache.txt')
        if os.path.exists(cache) and 'CMAKE_GENERATOR:INTERNAL=Ninja\n' not in open(cache).read():
            shutil.rmtree(os.path.join(tb.build, 'mutate'))
    # AddressSanitizer, as in tools/tb test --sanitize address: a mutant that
    # loses a kfree or frees too early is one the suites notice
    # A local a mutant leaves uninitialised holds a poison pattern (as under
    # the kernel's INIT_STACK_ALL_PATTERN), not whatever the stack had
    bdir = tb.configure('mutate', gen + ['-DTB_SANITIZE=address', '-DTB_COVERAGE=OFF',
                                         '-DTB_FUZZ=OFF', '-DTB_BENCH=OFF',
                                         '-DCMAKE_C_FLAGS=-ftrivial-auto-var-init=pattern'])
    tb.kernel = user_kernel
    # ctest names a test's executable only once it exists: the first build
    # is of everything, later ones of the label's executables only
    if not label_tests(bdir, label):
        say(f'building {rel(bdir, tb.repo)}')
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

    # the mutants
    lines = pristine.splitlines(keepends=True)
    owner = functions_of(lines)
    cands = []
    for ln, cnt in sorted(counts.items()):
        if cnt <= 0 or ln not in owner or ln > len(lines):
            continue
        if func and owner[ln] != func:
            continue
        for op, new in mutants_of_line(lines[ln - 1]):
            cands.append({'line': ln, 'function': owner[ln], 'operator': op,
                          'count': cnt, 'old': lines[ln - 1], 'new': new})
    if func and not cands:
        fail(f'{path}: no covered line in a function named {func}')
    total = len(cands)
    keys = {equiv_key(path, c) for c in cands}
    for k in equivalents:
        if k[0] == path and k not in keys and not func:
            say(f'equivalent.txt: {k[0]}:{k[1]} [{k[2]}] is no mutant of a covered line (stale?)')
    carried = []
    if a.rerun:
        # the mutants of an earlier run, all run again: a sample stays the
        # same sample when new tests reach more lines
        with open(a.rerun) as f:
            prev = json.load(f)
        bykey = {(c['line'], c['operator'], c['new']): c for c in cands}
        cands = []
        for m in prev['mutants']:
            c = bykey.get((m['line'], m['operator'], m['new']))
            if c is None:
                fail(f'{a.rerun}: {path}:{m["line"]} [{m["operator"]}] is no longer a mutant')
            cands.append(c)
    elif a.max and len(cands) > a.max:
        cands = sample(cands, a.max, a.seed)
    say(f'{total} mutants of covered lines; running {len(cands)}'
        + (f' (and {len(carried)} killed before, not re-run)' if carried else '')
        + f' (unmutated: build {build_secs:.1f}s, tests {test_secs:.1f}s; '
        f'limit {min(limits.values())}-{max(limits.values())}s per test)')

    results = []
    # a killed run still puts the pristine file back (the finally below)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        for i, c in enumerate(cands, 1):
            k = equiv_key(path, c)
            t0 = time.time()
            c['by'], c['tail'] = [], ''
            if k in equivalents:
                c['status'], c['why'] = 'equivalent', equivalents[k]
            else:
                text = ''.join(lines[:c['line'] - 1]) + c['new'] + ''.join(lines[c['line']:])
                write_own(target, text)
                if not build(bdir, targets, tb.jobs, 900):
                    c['status'] = 'no-compile'
                else:
                    c['status'], c['by'], _, c['tail'] = run_tests(tests, env, tb.jobs, limits)
            c['seconds'] = round(time.time() - t0, 1)
            results.append(c)
            print(f'  [{i}/{len(cands)}] {path}:{c["line"]} {c["function"]} '
                  f'{c["operator"]}: {c["status"]}'
                  + (f' by {", ".join(c["by"])}' if c['by'] else '') + f' ({c["seconds"]}s)',
                  flush=True)
    finally:
        write_own(target, pristine)
        build(bdir, targets, tb.jobs, 1800)

    ran = [c for c in results if c['status'] != 'equivalent']
    per_mutant = sum(c['seconds'] for c in ran) / len(ran) if ran else 0.0
    results = sorted(results + carried, key=lambda c: (c['line'], c['operator'], c['new']))
    report(results, path, say)
    summary = summarize(results)
    say(f'{per_mutant:.1f}s per mutant run (build and tests)')
    out = {'file': path, 'function': func or None, 'tree': tree, 'mutants_total': total,
           'mutants_run': len(ran), 'max': a.max, 'seed': a.seed, 'rerun_of': a.rerun,
           'seconds': round(time.time() - t_start), 'seconds_per_mutant': round(per_mutant, 1),
           'baseline_build_seconds': round(build_secs, 1),
           'baseline_test_seconds': {n: secs[n] for n in secs},
           'tests': [t['name'] for t in tests], 'by_function': summary,
           'mutants': [{k: c.get(k) for k in ('line', 'function', 'operator', 'count', 'status',
                                              'by', 'seconds', 'old', 'new', 'why', 'tail')}
                       for c in results]}
    js = a.json or os.path.join(tb.build, 'mutate-results', path.replace('/', '_') + '.json')
    os.makedirs(os.path.dirname(os.path.abspath(js)), exist_ok=True)
    with open(js, 'w') as f:
        json.dump(out, f, indent=1)
    say(f'JSON: {js}; {time.time() - t_start:.0f}s')
    return 0


def summarize(results):
    by = {}
    for c in results:
        s = by.setdefault(c['function'], {'mutants': 0, 'killed': 0, 'survived': 0,
                                          'timeout': 0, 'no-compile': 0, 'equivalent': 0})
        s['mutants'] += 1
        s[c['status']] += 1
    return by


def score(s):
    """detected (killed or timed out) of the mutants that could be detected"""
    ran = s['mutants'] - s['no-compile'] - s['equivalent']
    return 100.0 * (s['killed'] + s['timeout']) / ran if ran else 100.0


def report(results, path, say):
    by = summarize(results)
    tot = {'mutants': 0, 'killed': 0, 'survived': 0, 'timeout': 0, 'no-compile': 0,
           'equivalent': 0}
    print()
    print(f'{"function":32s} {"mutants":>7s} {"killed":>6s} {"survived":>8s} '
          f'{"timeout":>7s} {"no-cc":>5s} {"equiv":>5s} {"score":>6s}')
    for fn in sorted(by):
        s = by[fn]
        for k in tot:
            tot[k] += s[k]
        print(f'{fn:32s} {s["mutants"]:7d} {s["killed"]:6d} {s["survived"]:8d} '
              f'{s["timeout"]:7d} {s["no-compile"]:5d} {s["equivalent"]:5d} {score(s):5.1f}%')
    print(f'{"total":32s} {tot["mutants"]:7d} {tot["killed"]:6d} {tot["survived"]:8d} '
          f'{tot["timeout"]:7d} {tot["no-compile"]:5d} {tot["equivalent"]:5d} {score(tot):5.1f}%')
    surv = [c for c in results if c['status'] == 'survived']
    if surv:
        print(f'\nsurvivors ({len(surv)}), each a diff of {path} and its line\'s coverage count:')
    for c in surv:
        print(f'\n# {c["function"]}: [{c["operator"]}], line {c["line"]} ran {c["count"]} times')
        sys.stdout.writelines(difflib.unified_diff([c['old']], [c['new']],
                                                   f'a/{path}:{c["line"]}', f'b/{path}:{c["line"]}',
                                                   n=0, lineterm='\n'))
