# SPDX-License-Identifier: GPL-2.0-only
"""tb doctor: which suites a kernel tree supports, and what it lacks, without
compiling.

Reads the tree's Makefile (version) and the files tools/tb_features.py
probes; prints one table of suites (supported, or skipped and why) and one
of features (present or not, with the file and symbol looked for). Then it
dry-runs what the build takes from the tree: configure (files, headers)
and every extraction step (tools/kextract, tools/kdeclare, kernel_require),
in a build directory of its own, nothing compiled, and lists every piece
missing: what would stop the build, the calls nothing provides, and the
header pieces the tree no longer defines.
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tb_features  # noqa: E402
import tb_trees  # noqa: E402

DEFAULT_SERIES = '6.12'


def default_tree(kcache, series=DEFAULT_SERIES):
    """The cached extraction of Debian's linux-source-<series>, as
    cmake/KernelTree.cmake names it, or (None, why)."""
    pkg = f'linux-source-{series}'
    tarball = f'/usr/src/{pkg}.tar.xz'
    if not os.path.exists(tarball):
        return None, (f'{tarball} is missing (apt-get install {pkg}, '
                      'or pass --kernel DIR)')
    try:
        ver = subprocess.run(['dpkg-query', '-W', '-f=${Version}', pkg],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True).stdout.strip()
    except OSError:
        ver = ''
    if not ver:
        ver = time.strftime('%Y%m%d%H%M%S', time.localtime(os.path.getmtime(tarball)))
    tree = os.path.join(kcache, f'{pkg}_' + re.sub(r'[^A-Za-z0-9.+-]', '_', ver))
    if not tb_trees.extracted(tree):
        return None, (f'{pkg} is not extracted yet into {kcache} '
                      '(tools/tb test extracts it once, or pass --kernel DIR)')
    return tree, ''


def table(rows, head):
    w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head) - 1)]
    out = []
    for r in [head] + rows:
        out.append('  '.join(f'{str(c):<{w[i]}}' for i, c in enumerate(r[:-1])) +
                   '  ' + str(r[-1]))
    return '\n'.join(out)


def report(tree):
    """The doctor's text for tree (a kernel source tree)."""
    version = tb_features.tree_version(tree)
    found = tb_features.detect(tree)
    suites = tb_features.suites(tree, found)
    nsup = sum(1 for s in suites if s[2])
    out = [f'kernel tree {tree}', f'version     {version}',
           f'suites      {nsup} of {len(suites)} supported', '']
    out.append(table([[name, 'supported' if ok else 'skipped', ', '.join(tests),
                       reason] for name, tests, ok, reason in suites],
                     ['suite', 'status', 'tests', 'why not']))
    out.append('')
    out.append(table([[f.name, 'yes' if found[f.name][0] else 'no', f.since,
                       found[f.name][1]] for f in tb_features.FEATURES],
                     ['feature (tools/tb_features.py)', 'has', 'since', 'looked for']))
    return '\n'.join(out)


DRIFT = re.compile(r'^(kextract: |kdeclare: |kernel tree |configure failed: )')


def extraction_targets(bdir):
    """the build's extraction steps: kernel-gen outputs of custom commands"""
    p = subprocess.run(['ninja', '-C', bdir, '-t', 'targets', 'all'],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = []
    for line in p.stdout.splitlines():
        path, _, rule = line.rpartition(': ')
        if rule == 'CUSTOM_COMMAND' and 'kernel-gen/' in path and \
                not os.path.isabs(path) and path.endswith(('.c', '.h', '.stamp', '.txt')):
            out.append(path)
    return out


def read_lines(bdir, suffix):
    """{file: lines} of the kernel-gen files ending in suffix"""
    got = {}
    for base, _, files in os.walk(os.path.join(bdir, 'kernel-gen')):
        for f in sorted(files):
            if f.endswith(suffix):
                with open(os.path.join(base, f)) as fh:
                    lines = [l.strip() for l in fh if l.strip()]
                if lines:
                    got[os.path.join(base, f)] = lines
    return got


def dry_run(tb, tree, jobs):
    """(drift lines, gap lines, {header piece: gone names}, seconds)"""
    t0 = time.time()
    label = re.sub(r'[^A-Za-z0-9.+-]', '_', os.path.basename(tree.rstrip('/')))
    try:
        bdir = tb.configure(os.path.join('doctor', label), fatal=False)
    except Exception as e:  # tb.py's ConfigureError (tb.py runs as __main__)
        if type(e).__name__ != 'ConfigureError':
            raise
        return [str(e)], [], {}, time.time() - t0
    targets = extraction_targets(bdir)
    p = subprocess.run(['ninja', '-C', bdir, '-k', '0', '-j', str(jobs)] + targets,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    drift = sorted({l.strip() for l in p.stdout.splitlines()
                    if DRIFT.match(l.strip()) and ': warning: ' not in l})
    gaps = sorted({l for ls in read_lines(bdir, '.gaps').values() for l in ls})
    gone = {os.path.basename(f)[:-len('.gone')]: ls
            for f, ls in read_lines(bdir, '.gone').items()}
    return drift, gaps, gone, time.time() - t0


def drift_report(drift, gaps, gone):
    out = ['', 'What the build takes from the tree (configure and every extraction, '
           'nothing compiled):']
    if drift:
        out.append(f'  {len(drift)} piece(s) missing; the build stops on:')
        out += [f'    {l}' for l in drift]
    else:
        out.append('  every file, symbol and header piece the build wants is there')
    if gaps:
        out.append(f'  {len(gaps)} call(s) the extracted code makes that nothing provides '
                   '(inside an #if the compiler never sees, a call is harmless):')
        out += [f'    {l}' for l in gaps]
    if gone:
        n = sum(len(v) for v in gone.values())
        out.append(f'  {n} name(s) the header manifests ask for that this tree does not '
                   'define (an error only where code of the tree uses them):')
        out += [f'    {h}: {" ".join(v)}' for h, v in sorted(gone.items())]
    return '\n'.join(out)


def cmd_doctor(tb, say, fail):
    t0 = time.time()
    if tb.kernel:
        tree = tb.kernel
        if not os.path.exists(os.path.join(tree, 'Makefile')) or \
                not os.path.isdir(os.path.join(tree, 'mm')):
            fail(f'kernel tree {tree}: not a kernel source tree (no Makefile or mm/)')
    else:
        tree, why = default_tree(tb.kcache, getattr(tb, 'series', '') or DEFAULT_SERIES)
        if not tree:
            fail(why)
    if not tb_features.tree_version(tree):
        fail(f'kernel tree {tree}: Makefile has no VERSION/PATCHLEVEL/SUBLEVEL')
    print(report(tree))
    drift, gaps, gone, secs = dry_run(tb, tree, tb.jobs)
    print(drift_report(drift, gaps, gone))
    say(f'doctor: {time.time() - t0:.1f}s (extraction dry run {secs:.1f}s), nothing compiled')
    return 1 if drift else 0


def skipped_suites(bdir):
    """The suites the configured build in bdir left out, with the reason
    (tb-features.cmake.json, written by cmake/Features.cmake)."""
    try:
        with open(os.path.join(bdir, 'tb-features.cmake.json')) as f:
            js = json.load(f)
    except (OSError, ValueError):
        return []
    return [{'suite': s['suite'], 'tests': s['tests'], 'reason': s['reason']}
            for s in js.get('suites', []) if not s['supported']]


class SkippedSuitesSection:
    """tb run: the suites the tree cannot run, listed, never dropped silently."""
    name = 'skipped_suites'
    title = 'Suites skipped on this tree (tools/tb_features.py)'

    def collect(self, ctx):
        return skipped_suites(ctx['bdir'])

    def render(self, rows):
        if not rows:
            return 'none'
        return table([[r['suite'], ', '.join(r['tests']), r['reason']] for r in rows],
                     ['suite', 'tests', 'why'])


def help_targets(text):
    """the target names in `cmake --build DIR --target help` output:
    Make lists '... name', Ninja 'name: phony' (or the rule's name)"""
    have = set(re.findall(r'^\.\.\. (\S+)', text, re.M))
    have |= set(re.findall(r'^([^\s:]+): ', text, re.M))
    return have


def missing_targets(bdir, targets):
    """targets the configured build in bdir does not define."""
    p = subprocess.run(['cmake', '--build', bdir, '--target', 'help'],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    have = help_targets(p.stdout)
    return [t for t in targets if t not in have]
