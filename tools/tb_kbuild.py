# SPDX-License-Identifier: GPL-2.0-only
"""tb_kbuild.py - a bootable x86_64 bzImage from a kernel tree, for `tools/tb vm`.

  full_tree(tb, series)                  Debian's linux-source-X.Y extracted whole
  build_kernel(tb, tree, patch=None)     bzImage of tree (or of a patched scratch copy)

Config: `make tinyconfig`, then the fragment tools/vm/kernel.config merged
with scripts/kconfig/merge_config.sh, then olddefconfig. Everything is built
in (no modules). After the config step every symbol the fragment names is
checked against the resulting .config; one that kconfig changed (a missing
dependency, a symbol the tree does not have) is a one-line error naming it.

The user's tree is never written to. Every build runs in a scratch copy of
it, <build>/vm/kbuild/<tree>-<hash>/: hard links to the tree's files (kept
in step with it: a file the tree replaced, added or removed is followed at
each build), except the files the current patch touches, which are copies
of their own. The build is out of tree, in the scratch copy's tb-out/
(make O=tb-out: kbuild names every source relative to it, so ccache, with
CC="ccache gcc", hits across trees), and make's own dependency tracking
makes a build with nothing changed cost seconds. Switching to another patch
(or to none) copies each file the previous patch touched back from the
tree (a fresh mtime, so kbuild rebuilds exactly those), removes the files
it created, then applies the new patch: a one-file patch change rebuilds in
seconds. The bookkeeping is in the scratch tree's .tb-kbuild.json.
"""
import fcntl
import hashlib
import json
import glob
import os
import re
import shutil
import subprocess
import time

# Debian packages a kernel build from a tree needs with this config: make,
# the compiler, kconfig's flex and bison, timeconst's bc, objtool's libelf,
# ccache, the tarball's xz, and patch for --patch (no module signing, so no
# openssl). cpio and busybox belong to the VM's initramfs, not to the build.
KBUILD_PKGS = ['make', 'gcc', 'libc6-dev', 'flex', 'bison', 'bc', 'libelf-dev', 'ccache',
               'xz-utils', 'patch']

FRAGMENT = os.path.join('tools', 'vm', 'kernel.config')
STATE = '.tb-kbuild.json'
ARCH = 'x86_64'
# a stable build identity: the same sources give the same objects (ccache
# hits across build directories) and the same `uname -v`
KBUILD_ENV = {'KBUILD_BUILD_USER': 'tb', 'KBUILD_BUILD_HOST': 'tb',
              'KBUILD_BUILD_TIMESTAMP': 'Thu Jan  1 00:00:00 UTC 1970'}


class KbuildError(Exception):
    """One line for the user (naming the log that says more)"""


def _say_default(msg):
    print(f'tb: {msg}', flush=True)


def _rel(path, root):
    from tb import rel
    return rel(path, root)


# ---- trees --------------------------------------------------------------------
def tree_version(tree):
    """VERSION.PATCHLEVEL.SUBLEVEL from a tree's Makefile ('' if unreadable)"""
    v = {}
    try:
        with open(os.path.join(tree, 'Makefile'), errors='replace') as f:
            for line in f.readlines()[:12]:
                m = re.match(r'^(VERSION|PATCHLEVEL|SUBLEVEL)\s*=\s*(\d+)', line)
                if m:
                    v[m.group(1)] = m.group(2)
    except OSError:
        return ''
    if len(v) < 3:
        return ''
    return f'{v["VERSION"]}.{v["PATCHLEVEL"]}.{v["SUBLEVEL"]}'


def check_full_tree(tree):
    """A whole kernel source tree with x86 in it, or KbuildError naming what is missing"""
    if not os.path.isdir(tree):
        raise KbuildError(f'kernel tree {tree}: no such directory')
    need = ['Makefile', 'Kconfig', 'mm', 'scripts/kconfig', 'arch/x86/Makefile',
            'init', 'kernel']
    missing = [n for n in need if not os.path.exists(os.path.join(tree, n))]
    if missing:
        return_what = ('not a kernel source tree' if 'Makefile' in missing or 'mm' in missing
                       else 'not a whole kernel source tree')
        raise KbuildError(f'kernel tree {tree}: {return_what} (no {", ".join(missing)}); '
                          'a bootable kernel needs the whole tree')
    if not tree_version(tree):
        raise KbuildError(f'kernel tree {tree}: its Makefile names no VERSION/PATCHLEVEL/SUBLEVEL')
    # an in-tree build's leftovers make `make O=` refuse the tree
    for n in ('.config', 'include/config'):
        if os.path.exists(os.path.join(tree, n)):
            raise KbuildError(f'kernel tree {tree}: it has been configured in place ({n}); '
                              'an out-of-tree build needs `make mrproper` there first')
    return os.path.abspath(tree)


def package_version(pkg):
    p = subprocess.run(['dpkg-query', '-W', '-f=${Version}', pkg], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() if p.returncode == 0 else ''


def full_tree(tb, series, say=_say_default):
    """Debian's linux-source-<series> extracted whole into
    <build>/vm/src/linux-source-<series>_<version>/ (once per package
    version); returns its path"""
    pkg = f'linux-source-{series}'
    tarball = f'/usr/src/{pkg}.tar.xz'
    if not os.path.isfile(tarball):
        raise KbuildError(f'kernel tree {pkg}: {tarball} is missing (apt-get install {pkg})')
    ver = package_version(pkg)
    if not ver:
        ver = time.strftime('%Y%m%d%H%M%S', time.gmtime(os.path.getmtime(tarball)))
    ver = re.sub(r'[^A-Za-z0-9.+-]', '_', ver)
    src = os.path.join(tb.build, 'vm', 'src')
    tree = os.path.join(src, f'{pkg}_{ver}')
    if os.path.exists(os.path.join(tree, '.extracted')):
        return tree
    os.makedirs(src, exist_ok=True)
    log = tree + '.log'
    with _lock(tree + '.lock'):
        if os.path.exists(os.path.join(tree, '.extracted')):
            return tree
        say(f'extracting {tarball} whole into {_rel(tree, tb.repo)} (log: {_rel(log, tb.repo)})')
        tmp = tree + '.tmp'
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        t0 = time.time()
        with open(log, 'w') as lf:
            p = subprocess.run(['tar', '-I', 'xz -T0', '-xf', tarball, '-C', tmp], stdout=lf,
                               stderr=subprocess.STDOUT)
            lf.write(f'tar exited with {p.returncode} after {time.time() - t0:.1f}s\n')
        if p.returncode != 0 or not os.path.isdir(os.path.join(tmp, pkg)):
            raise KbuildError(f'kernel tree {pkg}: extracting {tarball} failed '
                              f'(log: {_rel(log, tb.repo)})')
        shutil.rmtree(tree, ignore_errors=True)
        os.rename(os.path.join(tmp, pkg), tree)
        shutil.rmtree(tmp, ignore_errors=True)
        open(os.path.join(tree, '.extracted'), 'w').close()
    return tree


class _lock:
    """An exclusive flock on path for the with-block (two tb processes
    never build in one directory at once)"""
    def __init__(self, path):
        self.path = path

    def __enter__(self):
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self.f = open(self.path, 'w')
        fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def tree_key(tree):
    """A directory name for a tree: its base name and a hash of its path"""
    tree = os.path.abspath(tree)
    h = hashlib.sha1(tree.encode()).hexdigest()[:8]
    return f'{os.path.basename(tree.rstrip("/"))}-{h}'


# ---- patches and the scratch tree -------------------------------------------
def seed_patch(patches_dir, name, tree):
    """The form of seed patch `name` (e.g. 002-memcg-iter.patch) that applies
    to tree without fuzz: the file itself (for the newest tree it was
    written for), else a `<stem>@<version>.patch` beside it, newest version
    first. (path, None), or (None, why) naming what was tried."""
    stem = name[:-len('.patch')]
    alts = sorted(glob.glob(os.path.join(patches_dir, glob.escape(stem) + '@*.patch')),
                  key=lambda p: [int(x) for x in re.findall(r'\d+', p.rsplit('@', 1)[1])],
                  reverse=True)
    tried = []
    for path in [os.path.join(patches_dir, name)] + alts:
        if not os.path.exists(path):
            continue
        p = subprocess.run(['patch', '-p1', '--dry-run', '--batch', '--forward', '-F', '0',
                            '-d', tree, '-i', path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if p.returncode == 0:
            return path, None
        tried.append(os.path.basename(path))
    return None, (f'no form of {name} applies to {tree} without fuzz (tried: '
                  f'{", ".join(tried) or "none"})')


def patch_files(text):
    """The files a -p1 patch names, in order: (path, created, deleted) of each
    '--- a/x' / '+++ b/x' pair (created: --- /dev/null; deleted: +++ /dev/null)"""
    out, seen = [], set()
    lines = text.splitlines()
    for old, new in zip(lines, lines[1:]):
        mo = re.match(r'^--- (\S+)', old)
        mn = re.match(r'^\+\+\+ (\S+)', new)
        if not (mo and mn):
            continue
        created, deleted = mo.group(1) == '/dev/null', mn.group(1) == '/dev/null'
        name = mo.group(1) if deleted else mn.group(1)
        parts = name.split('/', 1)
        if len(parts) == 2 and parts[1] not in seen:
            seen.add(parts[1])
            out.append((parts[1], created, deleted))
    return out


def _own_copy_from(src, dst):
    """dst becomes a file of its own with src's content and a fresh mtime
    (never written through a hard link)"""
    tmp = dst + '.tb-own'
    shutil.copyfile(src, tmp)
    shutil.copymode(src, tmp)
    os.replace(tmp, dst)


def _patch_failure(out, patch):
    """The first line of patch's output that says what went wrong, with the
    file it was patching"""
    cur = None
    for line in out.splitlines():
        m = re.match(r'^(?:checking|patching) file (\S+)', line)
        if m:
            cur = m.group(1)
            continue
        if re.search(r'FAILED|can\'t find|No file|garbage|Reversed|malformed|not exist|'
                     r'No such|Only garbage', line):
            line = line.strip()
            return f'{cur}: {line}' if cur and cur not in line else line
    lines = out.strip().splitlines()
    return lines[-1] if lines else 'patch failed'


OUT = 'tb-out'  # the build's O= directory, inside the scratch tree


def _stamp(path):
    st = os.stat(path)
    return [st.st_ino, st.st_mtime_ns, st.st_size]


def make_scratch(base, scratch, say=None):
    """The hard-link copy of base (made once; a full copy where base is on
    another file system); returns its state"""
    state_path = os.path.join(scratch, STATE)
    if os.path.exists(state_path):
        with open(state_path) as f:
            st = json.load(f)
        if st.get('base') == base:
            return st
        shutil.rmtree(scratch)
    tmp = scratch + '.tmp'
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.dirname(scratch), exist_ok=True)
    p = subprocess.run(['cp', '-al', base, tmp], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        if say:
            say(f'{base} is on another file system than {os.path.dirname(scratch)}: '
                'copying it whole (no hard links)')
        p = subprocess.run(['cp', '-a', base, tmp], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise KbuildError(f'a scratch copy of {base} failed: '
                          f'{(p.stdout.strip().splitlines() or ["cp failed"])[-1]}')
    for n in (STATE, '.extracted'):
        if os.path.exists(os.path.join(tmp, n)):
            os.unlink(os.path.join(tmp, n))
    st = {'base': base, 'patch': None, 'sha': None, 'files': [], 'created': [], 'stamps': {}}
    _write_state(tmp, st)
    os.rename(tmp, scratch)
    return st


def _files(root):
    """(relative path, absolute path) of every file under root, but the
    build directory"""
    for d, dirs, files in os.walk(root):
        if d == root:
            dirs[:] = [x for x in dirs if x != OUT]
        for f in files:
            p = os.path.join(d, f)
            yield os.path.relpath(p, root), p


def sync_scratch(base, scratch, st):
    """Follow base's edits: a file base replaced (another inode) or added is
    linked again, one base removed is removed; the patch's own files and
    the build directory are left alone. Returns the number of changes."""
    own = set(st.get('files', [])) | {STATE, '.extracted'}
    n = 0
    seen = set()
    for rel, src in _files(base):
        seen.add(rel)
        if rel in own:
            continue
        dst = os.path.join(scratch, rel)
        try:
            if os.lstat(dst).st_ino == os.lstat(src).st_ino:
                continue
        except FileNotFoundError:
            os.makedirs(os.path.dirname(dst), exist_ok=True)
        tmp = dst + '.tb-link'
        try:
            os.link(src, tmp)
        except OSError:  # no hard links here: a copy
            shutil.copy2(src, tmp, follow_symlinks=False)
        os.replace(tmp, dst)
        n += 1
    for rel, path in list(_files(scratch)):
        if rel not in seen and rel not in own and not rel.startswith(STATE):
            os.unlink(path)
            n += 1
    return n


def _write_state(scratch, st):
    tmp = os.path.join(scratch, STATE + '.tmp')
    with open(tmp, 'w') as f:
        json.dump(st, f, indent=1)
    os.replace(tmp, os.path.join(scratch, STATE))


def restore_pristine(base, scratch, st):
    """Undo the applied patch: each file it touched copied back from base
    (a fresh mtime, so make rebuilds it), each file it created removed"""
    for f in st.get('files', []):
        dst, src = os.path.join(scratch, f), os.path.join(base, f)
        if os.path.isfile(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            _own_copy_from(src, dst)
        elif os.path.lexists(dst):
            os.unlink(dst)
    st.update({'patch': None, 'sha': None, 'files': [], 'created': [], 'stamps': {}})
    _write_state(scratch, st)
    return st


def _base_stamps(base, files):
    return {f: (_stamp(os.path.join(base, f)) if os.path.exists(os.path.join(base, f))
                else None) for f in files}


def apply_to_scratch(base, scratch, patch, log, say=None, follow=True):
    """scratch = base + patch (restoring the previous patch's files first;
    patch None: scratch = base). Returns (files the patch touches, changed:
    False when this patch was already applied to the same base files).
    KbuildError naming the file and hunk when it does not apply; the
    scratch tree is then left pristine. follow: keep up with base's edits
    (sync_scratch; needless for a tree tb extracted itself)."""
    st = make_scratch(base, scratch, say)
    if follow:
        sync_scratch(base, scratch, st)
    if patch is None:
        if st.get('files'):
            restore_pristine(base, scratch, st)
            return [], True
        return [], False
    with open(patch, 'rb') as f:
        raw = f.read()
    text = raw.decode('utf-8', 'replace')
    files = patch_files(text)
    if not files:
        raise KbuildError(f'patch {patch}: no file in it (not a unified diff)')
    names = [f for f, _, _ in files]
    sha = hashlib.sha256(raw).hexdigest()
    if st.get('sha') == sha and st.get('stamps') == _base_stamps(base, names):
        return names, False
    st = restore_pristine(base, scratch, st)
    # every file the patch touches becomes a file of its own before patch runs
    for f, created, _ in files:
        path = os.path.join(scratch, f)
        if os.path.isfile(path) and not created:
            _own_copy_from(path, path)
    cmd = ['patch', '-p1', '--batch', '--forward', '--no-backup-if-mismatch',
           '-d', scratch, '-i', os.path.abspath(patch)]
    with open(log, 'a') as lf:
        for dry in (True, False):
            c = cmd + (['--dry-run'] if dry else [])
            lf.write('$ ' + ' '.join(c) + '\n')
            p = subprocess.run(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            lf.write(p.stdout)
            if p.returncode != 0:
                if not dry:  # half applied: back to pristine
                    restore_pristine(base, scratch, dict(st, files=names))
                raise KbuildError(f'patch {patch} does not apply to {base}: '
                                  f'{_patch_failure(p.stdout, patch)}')
    st.update({'patch': os.path.abspath(patch), 'sha': sha, 'files': names,
               'created': [f for f, c, _ in files if c], 'stamps': _base_stamps(base, names)})
    _write_state(scratch, st)
    return names, True


# ---- config --------------------------------------------------------------------
def parse_config(text):
    """{SYMBOL: value} of a .config or a fragment: 'y', 'm', a string or
    number as written, or 'n' for '# CONFIG_X is not set'"""
    out = {}
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r'^CONFIG_(\w+)=(.*)$', line)
        if m:
            out[m.group(1)] = m.group(2)
            continue
        m = re.match(r'^# CONFIG_(\w+) is not set$', line)
        if m:
            out[m.group(1)] = 'n'
    return out


def verify_config(fragment_text, config_text):
    """[(symbol, asked, got)] of the fragment's symbols that the .config does
    not have as asked ('n' asked: absent counts as not set)"""
    want, have = parse_config(fragment_text), parse_config(config_text)
    bad = []
    for sym, v in want.items():
        got = have.get(sym, 'n')
        if got != v:
            bad.append((sym, v, 'not set' if got == 'n' and sym not in have else got))
    return bad


def config_mismatch_line(bad, fragment):
    """One line naming the first symbol kconfig did not give as asked (and
    how many more)"""
    def shown(v):
        return ' is not set' if v == 'n' else f'={v}'

    sym, asked, got = bad[0]
    gave = {'not set': 'no such symbol there (a dependency missing, or gone from the tree)',
            'n': 'it not set (a dependency missing)'}.get(got, f'it ={got}')
    more = ''
    if len(bad) > 1:
        more = f'; {len(bad) - 1} more: ' + ', '.join(b[0] for b in bad[1:6]) + \
            (' ...' if len(bad) > 6 else '')
    return f'kernel config: {fragment} asks CONFIG_{sym}{shown(asked)}; kconfig left {gave}{more}'


def _make(tb, tree, odir, targets, log, env, extra=()):
    cmd = ['make', '-C', tree, f'O={odir}', f'ARCH={ARCH}', 'CC=ccache gcc',
           'HOSTCC=ccache gcc', f'-j{max(1, tb.jobs)}', *extra, *targets]
    with open(log, 'a') as lf:
        lf.write('$ ' + ' '.join(cmd) + '\n')
        lf.flush()
        p = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, env=env)
    return p.returncode


def first_error(log):
    """The first compiler/linker/make error line of a build log"""
    try:
        with open(log, errors='replace') as f:
            lines = f.read().splitlines()
    except OSError:
        return ''
    for pat in (r'^\S+:\d+:\d+: (fatal )?error: ', r'^\S+:\d+: (fatal )?error: ',
                r'undefined reference to', r'^ld: .*', r'\*\*\* .*'):
        for line in lines:
            if re.search(pat, line):
                return line.strip()
    return lines[-1].strip() if lines else ''


def configure(tb, tree, odir, log, env, fragment):
    """O=odir/.config from tinyconfig + fragment, redone only when the
    fragment or the tree's Kconfig files changed; checks every fragment symbol"""
    with open(fragment) as f:
        frag = f.read()
    key = hashlib.sha256((frag + '\0' + tree_version(tree) + '\0' + ARCH + '\0' +
                          kconfig_stamp(tree)).encode()).hexdigest()
    keyf = os.path.join(odir, '.tb-config-key')
    cfg = os.path.join(odir, '.config')
    if os.path.exists(cfg) and os.path.exists(keyf) and open(keyf).read() == key:
        return False
    if os.path.exists(keyf):
        os.unlink(keyf)
    if _make(tb, tree, odir, ['tinyconfig'], log, env) != 0:
        raise KbuildError(f'make tinyconfig failed in {tree} (log: {_rel(log, tb.repo)})')
    merge = os.path.join(tree, 'scripts', 'kconfig', 'merge_config.sh')
    cmd = ['sh', merge, '-m', '-O', odir, cfg, fragment]
    with open(log, 'a') as lf:
        lf.write('$ ' + ' '.join(cmd) + '\n')
        lf.flush()
        p = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT, env=env, cwd=odir)
    if p.returncode != 0:
        raise KbuildError(f'merging {_rel(fragment, tb.repo)} failed (log: {_rel(log, tb.repo)})')
    if _make(tb, tree, odir, ['olddefconfig'], log, env) != 0:
        raise KbuildError(f'make olddefconfig failed in {tree} (log: {_rel(log, tb.repo)})')
    with open(cfg) as f:
        bad = verify_config(frag, f.read())
    if bad:
        raise KbuildError(config_mismatch_line(bad, _rel(fragment, tb.repo)))
    with open(keyf, 'w') as f:
        f.write(key)
    return True


def kconfig_stamp(tree):
    """Cheap identity of a tree's Kconfig files: their count and newest
    mtime (a patch that edits a Kconfig reconfigures)"""
    n, newest = 0, 0.0
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if not d.startswith('.')]
        for f in files:
            if f.startswith('Kconfig'):
                n += 1
                newest = max(newest, os.path.getmtime(os.path.join(root, f)))
    return f'{n}:{newest:.6f}'


def build_kernel(tb, tree, patch=None, say=_say_default):
    """bzImage of tree, with patch applied when given. The build runs in a
    hard-link scratch copy of tree (<build>/vm/kbuild/<tree>-<hash>/, the
    same for every patch of that tree) with O=<scratch>/tb-out: kbuild then
    names every source relative to the build directory, so ccache hits
    across trees. Returns {'bzimage', 'config', 'release', 'seconds',
    'cached', 'log', 'tree' (the scratch copy), 'odir', 'patch',
    'touched'}."""
    t0 = time.time()
    base = check_full_tree(tree)
    fragment = os.path.join(tb.repo, FRAGMENT)
    if not os.path.isfile(fragment):
        raise KbuildError(f'{FRAGMENT}: missing from the repository')
    if patch is not None and not os.path.isfile(patch):
        raise KbuildError(f'patch {patch}: no such file')
    vm = os.path.join(tb.build, 'vm')
    src = os.path.join(vm, 'kbuild', tree_key(base))
    odir = os.path.join(src, OUT)
    log = os.path.join(vm, 'kbuild', tree_key(base) + '.log')
    env = dict(os.environ, **KBUILD_ENV)
    env.setdefault('CCACHE_DIR', os.path.join(vm, 'ccache'))
    # ccache's depend mode: a miss compiles once, where the default mode
    # runs the preprocessor first to hash its output (a quarter of a cold
    # build's CPU: 635 -> 458 s); kbuild's -Wp,-MMD names the headers to hash
    env.setdefault('CCACHE_DEPEND', '1')
    env.pop('MAKEFLAGS', None)
    env.pop('MFLAGS', None)
    with _lock(src + '.lock'):
        with open(log, 'w') as lf:
            lf.write(f'tb kbuild: tree {base}, patch {patch or "(none)"}\n')
        own = base.startswith(os.path.join(vm, 'src') + os.sep)  # full_tree()'s: never edited
        touched, changed = apply_to_scratch(base, src, patch, log, say, follow=not own)
        if patch and changed:
            say(f'patch {_rel(patch, tb.repo)} applied to the scratch copy '
                f'{_rel(src, tb.repo)} ({", ".join(touched)})')
        os.makedirs(odir, exist_ok=True)
        bz = os.path.join(odir, 'arch', 'x86', 'boot', 'bzImage')
        before = os.stat(bz).st_mtime_ns if os.path.exists(bz) else None
        reconf = configure(tb, src, odir, log, env, fragment)
        ver = tree_version(src)
        what = f'{ver}' + (f' + {os.path.basename(patch)}' if patch else '')
        say(f'building the kernel {what} (bzImage, -j{tb.jobs}'
            f'{", new config" if reconf else ""}; log: {_rel(log, tb.repo)})')
        if _make(tb, src, odir, ['bzImage'], log, env) != 0:
            err = first_error(log)
            raise KbuildError(f'the kernel {what} does not build: {err} '
                              f'(log: {_rel(log, tb.repo)})')
        if not os.path.exists(bz):
            raise KbuildError(f'the kernel build made no {bz} (log: {_rel(log, tb.repo)})')
        after = os.stat(bz).st_mtime_ns
        with open(os.path.join(odir, 'include', 'config', 'kernel.release')) as f:
            release = f.read().strip()
        # tb-out is rebuilt by the next patch switch: each variant's image
        # is kept under a name of its own, so two kernels of one tree
        # (with and without a patch) can be booted one after the other
        bz = keep_image(odir, bz, patch)
    secs = time.time() - t0
    cached = before is not None and before == after
    say(f'kernel {release}: {_rel(bz, tb.repo)} '
        f'({"unchanged" if cached else "built"}, {secs:.0f}s)')
    return {'bzimage': bz, 'config': os.path.join(odir, '.config'), 'release': release,
            'seconds': round(secs, 1), 'cached': cached, 'log': log, 'tree': src,
            'odir': odir, 'patch': os.path.abspath(patch) if patch else None,
            'touched': touched}


def keep_image(odir, bz, patch):
    key = 'plain'
    if patch:
        with open(patch, 'rb') as f:
            key = hashlib.sha1(f.read()).hexdigest()[:12]
    src = os.path.dirname(odir)
    kept = os.path.join(os.path.dirname(src), 'images', f'{os.path.basename(src)}-{key}.bzImage')
    os.makedirs(os.path.dirname(kept), exist_ok=True)
    tmp = kept + '.tmp'
    shutil.copyfile(bz, tmp)
    os.replace(tmp, kept)
    return kept


def main(argv=None):
    """python3 tools/tb_kbuild.py [-j N] [--patch FILE] [X.Y|DIR]: build and
    print the result as JSON (what `tools/tb vm` does before it boots)"""
    import argparse
    import sys
    import types
    ap = argparse.ArgumentParser(prog='tb_kbuild.py')
    ap.add_argument('kernel', nargs='?', default='6.12')
    ap.add_argument('--patch')
    ap.add_argument('-j', dest='jobs', type=int, default=os.cpu_count() or 2)
    a = ap.parse_args(argv)
    repo = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    tb = types.SimpleNamespace(repo=repo, jobs=a.jobs, build=os.path.abspath(
        os.environ.get('TB_BUILD_DIR') or os.path.join(repo, 'build')))
    try:
        tree = full_tree(tb, a.kernel) if re.fullmatch(r'\d+\.\d+', a.kernel) else a.kernel
        print(json.dumps(build_kernel(tb, tree, a.patch), indent=1))
    except KbuildError as e:
        print(f'tb: {e}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
