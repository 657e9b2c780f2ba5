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
import subprocess
import sys
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
    if m:
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
    """ctest names and their executables' target names for a label"""
    p = subprocess.run(['ctest', '--test-dir', bdir, '--show-only=json-v1', '-L', label],
                       check=True, capture_output=True, text=True)
    tests = json.loads(p.stdout).get('tests', [])
    names = [t['name'] for t in tests]
    targets = sorted({os.path.basename(t['command'][0]) for t in tests
                      if t.get('command') and not t['command'][0].endswith(('python3', 'python'))})
    return names, targets


def build(bdir, targets, jobs, timeout):
    cmd = ['cmake', '--build', bdir, '-j', str(jobs)]
    for t in targets:
        cmd += ['--target', t]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return p.returncode == 0


def run_tests(tb, bdir, label, jobs, timeout):
    """('killed', [tests]) / ('survived', []) / ('timeout', [tests])"""
    cmd = ['ctest', '--test-dir', bdir, '-L', label, '-j', str(jobs), '--timeout', str(timeout)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=tb.env(),
                           timeout=timeout * 2 + 30)
    except subprocess.TimeoutExpired:
        return 'timeout', []
    failed = re.findall(r'^\s*\d+ - (\S+) \((\w+)\)', p.stdout, re.M)
    if not failed and p.returncode == 0:
        return 'survived', []
    if failed and all(kind == 'Timeout' for _, kind in failed):
        return 'timeout', [n for n, _ in failed]
    return 'killed', [n for n, _ in failed]


def cmd_mutate(tb, say, fail, rel):
    a = tb.a
    spec = a.target
    path, _, func = spec.partition(':')
    path = path.strip('/')
    label = '^' + re.escape('kfile:' + path) + '$'
    t_start = time.time()

    # the tree, and which of its lines the tests run (the coverage build)
    cov = tb.coverage_build()
    tree = tb.tree.rstrip('/')
    if not os.path.exists(os.path.join(tree, path)):
        fail(f'{tree}: {path}: no such file in the kernel tree')
    tb.ctest(cov)
    counts = covered_lines(cov, tree, path)
    if not counts:
        fail(f'{path}: no compiled lines in the coverage build (is it a file the test bed builds?)')

    # a build of the scratch tree
    scratch = os.path.join(tb.build, 'mutate-tree')
    target, pristine = scratch_tree(tree, scratch, path)
    user_kernel = tb.kernel
    tb.kernel = scratch
    bdir = tb.configure('mutate', ['-DTB_SANITIZE=', '-DTB_COVERAGE=OFF', '-DTB_FUZZ=OFF',
                                   '-DTB_BENCH=OFF'])
    tb.kernel = user_kernel
    names, targets = label_tests(bdir, label)
    if not names:
        fail(f'no test is labelled kfile:{path}')
    say(f'{len(names)} tests labelled kfile:{path}: {", ".join(names)}')
    t0 = time.time()
    if not build(bdir, targets, tb.jobs, 1800):
        fail(f'the unmutated scratch build of {rel(bdir, tb.repo)} failed')
    t1 = time.time()
    verdict, _ = run_tests(tb, bdir, label, tb.jobs, 600)
    test_secs = time.time() - t1
    base = time.time() - t0
    if verdict != 'survived':
        fail(f'the tests labelled kfile:{path} fail without any mutant')
    per_test_timeout = max(10, int(test_secs * 5) + 5)

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
    if a.max and len(cands) > a.max:
        rng = random.Random(a.seed)
        cands = sorted(rng.sample(cands, a.max), key=lambda c: (c['line'], c['operator']))
    say(f'{total} mutants of covered lines; running {len(cands)} '
        f'(tests {test_secs:.1f}s each run, limit {per_test_timeout}s per test)')

    results = []
    try:
        for i, c in enumerate(cands, 1):
            text = ''.join(lines[:c['line'] - 1]) + c['new'] + ''.join(lines[c['line']:])
            write_own(target, text)
            t0 = time.time()
            if not build(bdir, targets, tb.jobs, 900):
                c['status'], c['by'] = 'no-compile', []
            else:
                c['status'], c['by'] = run_tests(tb, bdir, label, tb.jobs, per_test_timeout)
            c['seconds'] = round(time.time() - t0, 1)
            results.append(c)
            print(f'  [{i}/{len(cands)}] {path}:{c["line"]} {c["function"]} '
                  f'{c["operator"]}: {c["status"]}'
                  + (f' by {", ".join(c["by"])}' if c['by'] else '') + f' ({c["seconds"]}s)',
                  flush=True)
    finally:
        write_own(target, pristine)
        build(bdir, targets, tb.jobs, 1800)

    report(results, path, say)
    summary = summarize(results)
    out = {'file': path, 'function': func or None, 'tree': tree, 'mutants_total': total,
           'mutants_run': len(results), 'seed': a.seed, 'seconds': round(time.time() - t_start),
           'baseline_seconds': round(base, 1), 'tests': names, 'by_function': summary,
           'mutants': [{k: c[k] for k in ('line', 'function', 'operator', 'count', 'status',
                                          'by', 'seconds', 'old', 'new')} for c in results]}
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
                                          'timeout': 0, 'no-compile': 0})
        s['mutants'] += 1
        s[c['status']] += 1
    return by


def score(s):
    ran = s['mutants'] - s['no-compile']
    return 100.0 * (s['killed'] + s['timeout']) / ran if ran else 100.0


def report(results, path, say):
    by = summarize(results)
    tot = {'mutants': 0, 'killed': 0, 'survived': 0, 'timeout': 0, 'no-compile': 0}
    print()
    print(f'{"function":32s} {"mutants":>7s} {"killed":>6s} {"survived":>8s} '
          f'{"timeout":>7s} {"no-cc":>5s} {"score":>6s}')
    for fn in sorted(by):
        s = by[fn]
        for k in tot:
            tot[k] += s[k]
        print(f'{fn:32s} {s["mutants"]:7d} {s["killed"]:6d} {s["survived"]:8d} '
              f'{s["timeout"]:7d} {s["no-compile"]:5d} {score(s):5.1f}%')
    print(f'{"total":32s} {tot["mutants"]:7d} {tot["killed"]:6d} {tot["survived"]:8d} '
          f'{tot["timeout"]:7d} {tot["no-compile"]:5d} {score(tot):5.1f}%')
    surv = [c for c in results if c['status'] == 'survived']
    if surv:
        print(f'\nsurvivors ({len(surv)}), each a diff of {path} and its line\'s coverage count:')
    for c in surv:
        print(f'\n# {c["function"]}: {c["operator"]}, line {c["line"]} ran {c["count"]} times')
        sys.stdout.writelines(difflib.unified_diff([c['old']], [c['new']],
                                                   f'a/{path}:{c["line"]}', f'b/{path}:{c["line"]}',
                                                   n=0, lineterm='\n'))
