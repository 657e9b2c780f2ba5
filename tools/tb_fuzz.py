# SPDX-License-Identifier: GPL-2.0-only
"""tb_fuzz.py - tools/tb fuzz, fuzz-triage and coverage --fuzz.

fuzz TARGET --seconds N [--engine afl|libfuzzer] [--jobs N] [--no-pin]
    AFL++ (persistent mode): one main instance (-M main) and N-1 secondaries
    (-S s1..) sharing build/fuzz/TARGET/, instance i and its target's
    threads on host CPU i (mod the CPUs; --no-pin: wherever the host
    scheduler puts them); libFuzzer: -jobs=N -workers=N in
    build/fuzz/TARGET-libfuzzer/. A summary line every few seconds (execs/s
    over the last interval, corpus, crashes, hangs; AFL++'s StatsD reports),
    a table at the end (fuzzer_stats: execs/s is execs over the run time).
    Crashes go to fuzz-triage.
fuzz-triage TARGET
    every crash of the last run (all instances, both engines) minimized
    with afl-tmin, replayed in the ASan build (build/asan) for a symbolized
    stack, grouped by its top kernel-code frames; one regression input per
    group, tests/regress/TARGET/crash-<file>-L<line>-<sha>, beside its
    report (.txt, not replayed); the queues minimized with afl-cmin into
    build/fuzz/TARGET-cmin/.
coverage --fuzz TARGET
    the coverage build's replay_TARGET over the corpus, the last run's
    minimized queue and the regression inputs: kernel lines reached.
"""
import ctypes
import glob
import hashlib
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import time

AFL_ENV = {'AFL_NO_UI': '1', 'AFL_SKIP_CPUFREQ': '1',
           'AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES': '1', 'AFL_NO_AFFINITY': '1'}
# the summary line's period (seconds)
PERIOD = 5


def _tb():
    # tb.py's helpers (say, fail, rel, coverage_table): it runs as __main__
    return sys.modules['__main__']


def targets(repo):
    """{target: [kernel files]} from the table of tests/fuzz/CMakeLists.txt"""
    out = {}
    with open(os.path.join(repo, 'tests', 'fuzz', 'CMakeLists.txt')) as f:
        for m in re.finditer(r'^\s*"([A-Za-z0-9_]+)\|[^|]*\|([^"]*)"', f.read(), re.M):
            out[m.group(1)] = [k for k in m.group(2).split(',') if k]
    return out


def check_target(tb, t):
    """t must be in the table of tests/fuzz/CMakeLists.txt, with its harness"""
    have = sorted(x for x in targets(tb.repo)
                  if os.path.exists(os.path.join(tb.repo, 'tests', 'fuzz', f'fuzz_{x}.c')))
    if t not in have:
        _tb().fail(f'no fuzz target {t} (tests/fuzz/fuzz_{t}.c in the table of '
                   f'tests/fuzz/CMakeLists.txt; targets: {", ".join(have) or "none"})')


def dictionary(tb, t):
    d = os.path.join(tb.repo, 'tests', 'fuzz', 'dict', f'{t}.dict')
    return d if os.path.exists(d) else None


def fuzz_build(tb, t, engine):
    """configure and build fuzz_<t> for engine; the executable's path"""
    if engine == 'afl':
        bdir = os.path.join(tb.build, 'fuzz-afl')
        env = {'CC': 'afl-clang-fast', 'CXX': 'afl-clang-fast++', 'AFL_QUIET': '1'}
        defs = ['-DTB_FUZZ=ON', '-DTB_FUZZ_ENGINE=afl', '-DTB_BENCH=OFF',
                '-DTB_SANITIZE=', '-DTB_COVERAGE=OFF']
    else:
        bdir = os.path.join(tb.build, 'fuzz-libfuzzer')
        env = {'CC': 'clang', 'CXX': 'clang++'}
        flags = '-fsanitize=fuzzer-no-link -g'
        defs = ['-DTB_FUZZ=ON', '-DTB_FUZZ_ENGINE=libfuzzer', '-DTB_BENCH=OFF',
                '-DTB_SANITIZE=address', '-DTB_COVERAGE=OFF',
                f'-DCMAKE_C_FLAGS={flags}', f'-DCMAKE_CXX_FLAGS={flags}']
    tb.configure(os.path.basename(bdir), defs, env=env)
    tb.build_dir(bdir, [f'fuzz_{t}'])
    exe = os.path.join(bdir, 'tests', 'fuzz', f'fuzz_{t}')
    if not os.path.exists(exe):
        _tb().fail(f'{_tb().rel(exe, tb.repo)} was not built '
                   f'(is {t} in the table of tests/fuzz/CMakeLists.txt?)')
    return exe


def seed_dir(tb, t):
    corpus = os.path.join(tb.repo, 'tests', 'fuzz', 'corpus', t)
    if os.path.isdir(corpus) and any(os.path.isfile(os.path.join(corpus, f))
                                     for f in os.listdir(corpus)):
        return corpus
    seeds = os.path.join(tb.build, 'fuzz', f'{t}-seed')
    os.makedirs(seeds, exist_ok=True)
    with open(os.path.join(seeds, 'empty'), 'wb') as f:
        f.write(b'\0' * 16)
    _tb().say(f'no corpus in {_tb().rel(corpus, tb.repo)}: starting from one zero input')
    return seeds


def read_stats(path):
    stats = {}
    try:
        with open(path) as f:
            for line in f:
                if ':' in line:
                    k, v = line.split(':', 1)
                    stats[k.strip()] = v.strip()
    except OSError:
        pass
    return stats


def num(s, default=0):
    try:
        return float(s)
    except (TypeError, ValueError):
        return default


def subreaper():
    """Become the reaper of orphans (PR_SET_CHILD_SUBREAPER): a persistent
    target process outlives its killed fork server, and only a reaped
    process's CPU time counts in RUSAGE_CHILDREN."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def reap(ours):
    """wait for every exited orphan that is not one of ours (Popen's)"""
    while True:
        try:
            st = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if st is None or st.si_pid in ours:
            return
        os.waitpid(st.si_pid, 0)


def afl_instances(n):
    return ['main'] + [f's{i}' for i in range(1, n)]


# ---- tools/tb fuzz ----------------------------------------------------------
class StatsD:
    """afl-fuzz's StatsD reports (AFL_STATSD, every second, tagged with
    each instance's -T banner) on a local UDP socket: fuzzer_stats is
    written only once a minute."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(('127.0.0.1', 0))
        self.sock.settimeout(0.2)
        self.stats = {}

    def env(self):
        return {'AFL_STATSD': '1', 'AFL_STATSD_HOST': '127.0.0.1',
                'AFL_STATSD_PORT': str(self.sock.getsockname()[1]),
                'AFL_STATSD_TAGS_FLAVOR': 'dogstatsd'}

    def poll(self, until):
        while time.time() < until:
            try:
                data = self.sock.recv(65536).decode(errors='replace')
            except socket.timeout:
                continue
            for line in data.splitlines():
                m = re.match(r'fuzzing\.(\w+):([-\d.]+)\|g\|#banner:([^,]*)', line)
                if m:
                    self.stats.setdefault(m.group(3), {})[m.group(1)] = float(m.group(2))


def cpu_for(i):
    """the host CPU of instance i: AFL++'s one instance per core, its target's
    threads (the world's workers, RCU callbacks) on that core with it, so a
    hand-off between them is a switch on one CPU rather than a cross-CPU
    wake-up (an IPI, a VM exit on a virtual machine)"""
    cpus = sorted(os.sched_getaffinity(0))
    return cpus[i % len(cpus)]


def pin(cpu):
    return lambda: os.sched_setaffinity(0, {cpu})


def run_afl(tb, t, exe, seconds, jobs, pinned=True):
    outdir = os.path.join(tb.build, 'fuzz', t)
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    seeds = seed_dir(tb, t)
    sd = StatsD()
    fenv = dict(os.environ)
    fenv.update(AFL_ENV)
    fenv.update(sd.env())
    d = dictionary(tb, t)
    procs = []
    for i, name in enumerate(afl_instances(jobs)):
        # -t 1000: afl-fuzz's own timeout is scaled from calibration (~20 ms),
        # which a loaded machine's scheduling exceeds (a hang that replays
        # in 1 ms); the world's watchdog catches a real hang anyway
        cmd = ['afl-fuzz', '-i', seeds, '-o', outdir, '-V', str(seconds), '-T', name,
               '-t', '1000']
        if jobs > 1:
            cmd += ['-M' if name == 'main' else '-S', name]
        if d:
            cmd += ['-x', d]
        cmd += ['--', exe]
        log = os.path.join(outdir, f'{name}.log')
        cpu = cpu_for(i) if pinned else None
        where = f' (on CPU {cpu})' if pinned else ''
        _tb().say('running ' + ' '.join(_tb().rel(c, tb.repo) for c in cmd) + where)
        lf = open(log, 'w')
        procs.append((name, subprocess.Popen(cmd, env=fenv, stdout=lf, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL,
                                             preexec_fn=pin(cpu) if pinned else None),
                      lf, log))
    # without -M/-S afl-fuzz names its one instance's directory "default"
    names = afl_instances(jobs)
    dirs = names if jobs > 1 else ['default']
    t0 = time.time()
    last = {n: (0, t0) for n in names}
    deadline = t0 + seconds + 300
    ours = {p.pid for _, p, _, _ in procs}
    while any(p.poll() is None for _, p, _, _ in procs):
        sd.poll(time.time() + PERIOD)
        reap({pid for pid in ours if pid})
        if time.time() > deadline:
            for _, p, _, _ in procs:
                p.kill()
            _tb().fail('afl-fuzz did not stop in time')
        rate, corpus, crashes, hangs, parts = 0.0, 0, 0, 0, []
        for n in names:
            s = sd.stats.get(n, {})
            done, now = s.get('execs_done', 0), time.time()
            r = (done - last[n][0]) / max(now - last[n][1], 1e-3)
            last[n] = (done, now)
            rate += r
            corpus = max(corpus, int(s.get('corpus_count', 0)))
            crashes += int(s.get('saved_crashes', 0))
            hangs += int(s.get('saved_hangs', 0))
            parts.append(f'{n} {r:.0f}')
        print(f'  [{time.time() - t0:4.0f}s] {rate:8.0f} execs/s ({", ".join(parts)}); '
              f'corpus {corpus}; crashes {crashes}; hangs {hangs}', flush=True)
    rows = []
    for (name, p, lf, log), n in zip(procs, dirs):
        lf.close()
        s = read_stats(os.path.join(outdir, n, 'fuzzer_stats'))
        if not s:
            with open(log) as f:
                print(''.join(f.readlines()[-25:]))
            _tb().fail(f'afl-fuzz {name} failed (status {p.returncode}; log {_tb().rel(log, tb.repo)})')
        rows.append({'instance': name, 'execs_done': int(num(s.get('execs_done'))),
                     'run_time': int(num(s.get('run_time'))),
                     'execs_per_sec': num(s.get('execs_per_sec')),
                     'corpus_count': int(num(s.get('corpus_count'))),
                     'crashes': int(num(s.get('saved_crashes', s.get('unique_crashes')))),
                     'hangs': int(num(s.get('saved_hangs', s.get('unique_hangs'))))})
    crashes = sorted(glob.glob(os.path.join(outdir, '*', 'crashes', 'id:*')))
    return rows, crashes


def run_libfuzzer(tb, t, exe, seconds, jobs, pinned=True):
    outdir = os.path.join(tb.build, 'fuzz', f'{t}-libfuzzer')
    shutil.rmtree(outdir, ignore_errors=True)
    art = os.path.join(outdir, 'artifacts') + '/'
    work = os.path.join(outdir, 'corpus')
    os.makedirs(art)
    os.makedirs(work)
    seeds = seed_dir(tb, t)
    cmd = [exe, f'-max_total_time={seconds}', f'-artifact_prefix={art}', '-print_final_stats=1']
    d = dictionary(tb, t)
    if d:
        cmd.append(f'-dict={d}')
    if jobs > 1:
        # jobs run one after another on `workers` processes; as many of each
        # as asked, each for the whole time
        cmd += [f'-jobs={jobs}', f'-workers={jobs}']
    cmd += [work, seeds]
    # one process: pinned as an AFL++ instance is; -jobs' workers are
    # libFuzzer's own processes, left to the host scheduler
    pinned = pinned and jobs == 1
    cpu = cpu_for(0) if pinned else None
    where = f' (on CPU {cpu})' if pinned else ''
    _tb().say('running ' + ' '.join(_tb().rel(c, tb.repo) for c in cmd) + where)
    log = os.path.join(outdir, 'libfuzzer.log')
    t0 = time.time()
    with open(log, 'w') as lf:
        # -jobs writes fuzz-<n>.log into the working directory
        p = subprocess.Popen(cmd, cwd=outdir, stdout=lf, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL,
                             preexec_fn=pin(cpu) if pinned else None)
        logs = ([os.path.join(outdir, f'fuzz-{i}.log') for i in range(jobs)]
                if jobs > 1 else [log])
        last = [0] * len(logs)
        while p.poll() is None:
            try:
                p.wait(PERIOD)
            except subprocess.TimeoutExpired:
                pass
            if time.time() > t0 + seconds + 300:
                p.kill()
                _tb().fail('libFuzzer did not stop in time')
            now = [libfuzzer_progress(l) for l in logs]
            rate = sum(max(n[0] - o, 0) for n, o in zip(now, last)) / PERIOD
            last = [n[0] for n in now]
            print(f'  [{time.time() - t0:4.0f}s] {rate:8.0f} execs/s; corpus '
                  f'{max([n[1] for n in now] + [0])}; crashes '
                  f'{len(glob.glob(art + "*"))}', flush=True)
    elapsed = max(time.time() - t0, 1e-3)
    rows = []
    for i, l in enumerate(logs):
        with open(l, errors='replace') as f:
            text = f.read()
        m = re.search(r'stat::number_of_executed_units:\s*(\d+)', text)
        execs = int(m.group(1)) if m else libfuzzer_progress(l)[0]
        rows.append({'instance': f'job{i}' if jobs > 1 else 'libfuzzer', 'execs_done': execs,
                     'run_time': int(elapsed), 'execs_per_sec': execs / elapsed,
                     'corpus_count': libfuzzer_progress(l)[1],
                     'crashes': text.count('Test unit written to'),
                     'hangs': 0})
    crashes = sorted(glob.glob(art + '*'))
    if p.returncode != 0 and not crashes:
        with open(log, errors='replace') as f:
            print(f.read()[-3000:])
        _tb().fail(f'libFuzzer failed (status {p.returncode}; log {_tb().rel(log, tb.repo)})')
    return rows, crashes


def libfuzzer_progress(log):
    """(execs, corpus) of the last '#N ... corp: C/...' line of a log"""
    execs = corp = 0
    try:
        with open(log, errors='replace') as f:
            for m in re.finditer(r'^#(\d+)\s+\w+.*?corp: (\d+)', f.read(), re.M):
                execs, corp = int(m.group(1)), int(m.group(2))
    except OSError:
        pass
    return execs, corp


def table(rows):
    hdr = ['instance', 'execs', 'seconds', 'execs/s', 'corpus', 'crashes', 'hangs']
    body = [[r['instance'], str(r['execs_done']), str(r['run_time']),
             f'{r["execs_per_sec"]:.0f}', str(r['corpus_count']), str(r['crashes']),
             str(r['hangs'])] for r in rows]
    if len(rows) > 1:
        body.append(['total', str(sum(r['execs_done'] for r in rows)),
                     str(max(r['run_time'] for r in rows)),
                     f'{sum(r["execs_per_sec"] for r in rows):.0f}',
                     str(max(r['corpus_count'] for r in rows)),
                     str(sum(r['crashes'] for r in rows)), str(sum(r['hangs'] for r in rows))])
    w = [max(len(x[i]) for x in body + [hdr]) for i in range(len(hdr))]
    out = ['  '.join(h.ljust(w[i]) if i == 0 else h.rjust(w[i]) for i, h in enumerate(hdr))]
    for x in body:
        out.append('  '.join(c.ljust(w[i]) if i == 0 else c.rjust(w[i]) for i, c in enumerate(x)))
    return '\n'.join(out)


def cmd_fuzz(tb):
    a = tb.a
    t = a.target
    check_target(tb, t)
    jobs = a.fuzz_jobs or 1
    exe = fuzz_build(tb, t, a.engine)
    load = os.getloadavg()
    _tb().say(f'load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} '
              f'({os.cpu_count()} CPUs)')
    subreaper()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if a.engine == 'afl':
        rows, crashes = run_afl(tb, t, exe, a.seconds, jobs, not a.no_pin)
    else:
        rows, crashes = run_libfuzzer(tb, t, exe, a.seconds, jobs, not a.no_pin)
    time.sleep(0.5)
    reap(set())
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    load = os.getloadavg()
    print()
    print(f'fuzz {t} ({a.engine}, {a.seconds}s, {jobs} instance(s))')
    print(table(rows))
    # the CPU time of the fuzzers and their targets (reaped as orphans):
    # the rate per core, whatever else shares the machine
    execs = sum(r['execs_done'] for r in rows)
    print(f'CPU time of the fuzzer(s) and target(s): {cpu:.1f} s; '
          f'{execs / max(cpu, 1e-3):.0f} execs per CPU-second; '
          f'load average after: {load[0]:.2f}')
    if not crashes:
        print('  no crash')
        return 0
    print()
    _tb().say(f'{len(crashes)} crash input(s); triage: minimize, group, one regression test per group')
    triage(tb, t, crashes)
    return 1


# ---- tools/tb fuzz-triage -------------------------------------------------
def last_crashes(tb, t):
    base = os.path.join(tb.build, 'fuzz')
    return sorted(glob.glob(os.path.join(base, t, '*', 'crashes', 'id:*')) +
                  glob.glob(os.path.join(base, f'{t}-libfuzzer', 'artifacts', '*')))


def asan_replay(tb, t):
    bdir = tb.configure('asan', ['-DTB_SANITIZE=address', '-DTB_COVERAGE=OFF', '-DTB_FUZZ=OFF'])
    tb.build_dir(bdir, [f'replay_{t}'])
    return os.path.join(bdir, 'tests', 'fuzz', f'replay_{t}')


FRAME = re.compile(r'^\s*#(\d+) 0x[0-9a-f]+ in (\S+) (\S+?):(\d+)(?::\d+)?\s*$')


def frames(report):
    """[(function, file, line)] of the first stack of an ASan report"""
    out = []
    for line in report.splitlines():
        m = FRAME.match(line)
        if m:
            if m.group(1) == '0' and out:
                break
            out.append((m.group(2), m.group(3), int(m.group(4))))
    return out


def kernel_file(tb, path):
    """'mm/page_counter.c' for a file of a kernel tree, else None"""
    path = os.path.normpath(path)
    roots = [r for r in (tb.tree, tb.tree_before, tb.kernel) if r]
    roots.append(tb.kcache)
    for r in roots:
        r = os.path.normpath(r)
        if path.startswith(r + '/'):
            relp = os.path.relpath(path, r)
            if r == os.path.normpath(tb.kcache):
                relp = relp.split('/', 1)[1] if '/' in relp else relp
            return relp
    m = re.search(r'/linux[^/]*/((?:mm|lib|include)/.*)$', path)
    return m.group(1) if m else None


def signature(tb, report):
    """(key, chain, file, line, is_kernel): key, the innermost kernel-code
    frame (function file:line), the group; chain, the top 3 kernel frames
    (the callers differ within a group). With no kernel frame, the top
    frames outside the sanitizer and libc."""
    fr = frames(report)
    kern = [(f, kernel_file(tb, p), l) for f, p, l in fr if kernel_file(tb, p)]
    own = [(f, os.path.basename(p), l) for f, p, l in fr
           if not re.search(r'compiler-rt|sanitizer|libc|/usr/', p)]
    top = kern[:3] or own[:3]
    if not top:
        first = next((l for l in report.splitlines() if l.strip()), 'no report')
        return (first.strip()[:120], '', 'unknown', 0, False)
    chain = ' <- '.join(f'{f} {k}:{l}' for f, k, l in top)
    return (chain.split(' <- ')[0], chain, top[0][1], top[0][2], bool(kern))


def replay_report(tb, replay, path):
    env = tb.env({'ASAN_OPTIONS': 'detect_leaks=1:abort_on_error=1:handle_abort=1:symbolize=1',
                  'ASAN_SYMBOLIZER_PATH': shutil.which('llvm-symbolizer') or
                  shutil.which('llvm-symbolizer-14') or ''})
    try:
        p = subprocess.run([replay, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors='replace', env=env, timeout=120)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        return -9, (e.stdout or '') + '\nreplay: timed out after 120 s'


def tmin(tb, t, src, dst):
    """afl-tmin of src into dst with the AFL++ build; False if it failed"""
    exe = os.path.join(tb.build, 'fuzz-afl', 'tests', 'fuzz', f'fuzz_{t}')
    if not os.path.exists(exe):
        return False
    env = dict(os.environ)
    env.update(AFL_ENV)
    try:
        p = subprocess.run(['afl-tmin', '-i', src, '-o', dst, '--', exe], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors='replace', timeout=300)
    except subprocess.TimeoutExpired:
        return False
    return p.returncode == 0 and os.path.exists(dst)


def slug(s):
    return re.sub(r'[^A-Za-z0-9_.]+', '_', s)


def triage(tb, t, crashes, regress=None, per_group=3):
    """Group the crash inputs by the signature of their ASan replay, then
    minimize the per_group smallest of each group with afl-tmin, keeping
    the smallest minimized input that still has the group's signature;
    one regression input (and its report) per group."""
    regress = regress or os.path.join(tb.repo, 'tests', 'regress', t)
    replay = asan_replay(tb, t)
    if not os.path.exists(os.path.join(tb.build, 'fuzz-afl', 'tests', 'fuzz', f'fuzz_{t}')):
        fuzz_build(tb, t, 'afl')
    work = os.path.join(tb.build, 'fuzz', f'{t}-triage')
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    groups, flaky = {}, 0
    _tb().say(f'replaying {len(crashes)} crash input(s) in {_tb().rel(replay, tb.repo)}')
    for c in crashes:
        rc, report = replay_report(tb, replay, c)
        if rc == 0:
            flaky += 1
            continue
        key, chain, kfile, line, is_kernel = signature(tb, report)
        g = groups.setdefault(key, {'kfile': kfile, 'line': line, 'kernel': is_kernel,
                                    'inputs': [], 'report': report, 'chains': {}})
        g['inputs'].append((os.path.getsize(c), c))
        g['chains'][chain] = g['chains'].get(chain, 0) + 1
    os.makedirs(regress, exist_ok=True)
    print()
    print(f'triage {t}: {len(crashes)} crash input(s) in {len(groups)} group(s)'
          + (f'; {flaky} did not crash in the ASan replay (not kept)' if flaky else ''))
    written = []
    n = 0
    for key, g in sorted(groups.items(), key=lambda kv: -len(kv[1]['inputs'])):
        best = None
        for size, c in sorted(g['inputs'])[:per_group]:
            mini = os.path.join(work, f'min-{n:04d}')
            n += 1
            if tmin(tb, t, c, mini):
                rc, report = replay_report(tb, replay, mini)
                if rc != 0 and signature(tb, report)[0] == key:
                    cand = (os.path.getsize(mini), mini, c, report)
                else:
                    cand = (size, c, c, g['report'])
            else:
                cand = (size, c, c, g['report'])
            if best is None or cand[0] < best[0]:
                best = cand
        size, path, orig, report = best
        with open(path, 'rb') as f:
            data = f.read()
        sha = hashlib.sha1(data).hexdigest()
        name = f'crash-{slug(os.path.basename(g["kfile"]))}-L{g["line"]}-{sha[:12]}'
        dst = os.path.join(regress, name)
        with open(dst, 'wb') as f:
            f.write(data)
        with open(dst + '.txt', 'w') as f:
            f.write(f'fuzz target {t}: {len(g["inputs"])} crash input(s) in this group; '
                    f'this one {size} bytes (afl-tmin of {os.path.basename(orig)})\n')
            f.write(f'crashing {"kernel-code " if g["kernel"] else ""}frame: {key}\n')
            for ch, k in sorted(g['chains'].items(), key=lambda x: -x[1]):
                f.write(f'  {k:4d} x  {ch}\n')
            f.write(f'replay: build/asan/tests/fuzz/replay_{t} tests/regress/{t}/{name}\n\n')
            f.write(report[-6000:])
        written.append(dst)
        print(f'  {len(g["inputs"]):4d} x  {key}')
        for ch, k in sorted(g['chains'].items(), key=lambda x: -x[1]):
            if ch != key:
                print(f'             {k:4d} x  {ch}')
        print(f'         -> {_tb().rel(dst, tb.repo)} ({size} bytes; report {name}.txt)')
    if written:
        print(f'  (ctest replay_{t}, and regress_{t}_<name> from the next configure, replay them)')
    return written


def cmin(tb, t):
    """afl-cmin over every instance's queue: build/fuzz/<t>-cmin"""
    exe = os.path.join(tb.build, 'fuzz-afl', 'tests', 'fuzz', f'fuzz_{t}')
    queues = glob.glob(os.path.join(tb.build, 'fuzz', t, '*', 'queue'))
    if not queues or not os.path.exists(exe):
        return None
    allq = os.path.join(tb.build, 'fuzz', f'{t}-queues')
    out = os.path.join(tb.build, 'fuzz', f'{t}-cmin')
    shutil.rmtree(allq, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(allq)
    n = 0
    for q in queues:
        inst = os.path.basename(os.path.dirname(q))
        for f in os.listdir(q):
            p = os.path.join(q, f)
            if os.path.isfile(p):
                shutil.copyfile(p, os.path.join(allq, f'{inst}-{n:06d}'))
                n += 1
    env = dict(os.environ)
    env.update(AFL_ENV)
    env['AFL_ALLOW_TMP'] = '1'  # a TB_BUILD_DIR under /tmp
    p = subprocess.run(['afl-cmin', '-i', allq, '-o', out, '--', exe], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors='replace')
    if p.returncode != 0:
        print(p.stdout[-2000:])
        return None
    m = len(os.listdir(out))
    print(f'afl-cmin: {n} queue input(s) of {len(queues)} instance(s) -> {m} in '
          f'{_tb().rel(out, tb.repo)}')
    return out


def cmd_fuzz_triage(tb):
    t = tb.a.target
    check_target(tb, t)
    crashes = last_crashes(tb, t)
    if not crashes:
        _tb().say(f'no crash input in build/fuzz/{t}/*/crashes or '
                  f'build/fuzz/{t}-libfuzzer/artifacts: nothing to triage')
    else:
        triage(tb, t, crashes)
    if not os.path.exists(os.path.join(tb.build, 'fuzz-afl', 'tests', 'fuzz', f'fuzz_{t}')):
        fuzz_build(tb, t, 'afl')
    print()
    cmin(tb, t)
    return 0


# ---- tools/tb coverage --fuzz ---------------------------------------------
def cmd_coverage_fuzz(tb):
    t = tb.a.fuzz
    check_target(tb, t)
    T = _tb()
    bdir = tb.configure('coverage', ['-DTB_COVERAGE=ON', '-DTB_BENCH=OFF', '-DTB_SANITIZE=',
                                     '-DTB_FUZZ=OFF',
                                     '-DCMAKE_C_FLAGS=',
                                     '-DCMAKE_CXX_FLAGS='])
    tb.build_dir(bdir, [f'replay_{t}'])
    for root, _, names in os.walk(bdir):
        for f in names:
            if f.endswith('.gcda'):
                os.unlink(os.path.join(root, f))
    inputs = [os.path.join(tb.repo, 'tests', 'fuzz', 'corpus', t),
              os.path.join(tb.repo, 'tests', 'regress', t)]
    cm = os.path.join(tb.build, 'fuzz', f'{t}-cmin')
    queues = glob.glob(os.path.join(tb.build, 'fuzz', t, '*', 'queue'))
    if os.path.isdir(cm):
        inputs.append(cm)
    else:
        inputs += queues
    inputs = [d for d in inputs if os.path.isdir(d)]
    replay = os.path.join(bdir, 'tests', 'fuzz', f'replay_{t}')
    n = sum(len([f for f in os.listdir(d) if not f.startswith('.')]) for d in inputs)
    T.say(f'replaying {n} input(s): ' + ', '.join(T.rel(d, tb.repo) for d in inputs))
    p = subprocess.run([replay] + inputs, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors='replace', env=tb.env())
    if p.returncode != 0:
        print(p.stderr[-3000:])
        T.fail(f'replay_{t} failed on the corpus (status {p.returncode})')
    files, html, js = tb.gcovr(bdir)
    want = set(targets(tb.repo).get(t, []))
    shown = {k: v for k, v in files.items() if k in want} or \
        {k: v for k, v in files.items() if v['covered']}
    print()
    print(f'kernel lines reached by the {t} corpus ({n} inputs):')
    print(T.coverage_table(shown))
    print()
    T.say(f'line by line: {T.rel(html, tb.repo)}')
    return 0
