# SPDX-License-Identifier: GPL-2.0-only
"""tb_trees: what `--kernel` names, and Debian's kernel sources fetched from
the archive without installing anything.

`--kernel` takes
  6.12, 6.1         a series tools/tb installs (linux-source-X.Y, the system's
                    apt): the tree as cmake/KernelTree.cmake's kernel_tree()
                    extracts it; nothing here runs
  7.3, 7.2, ...     another series: the newest linux-source-X.Y the archive
                    offers, fetched
  6.12.115, 7.3-rc7 an upstream version: the newest Debian revision of it in
                    the archive (the installed linux-source-X.Y when it is of
                    that version), fetched
  6.12.115-2~deb12u1  a Debian version, exactly
  DIR               a tree used in place

Fetching: a sources list of every suite that carries kernels (SUITES), apt's
lists and cache of its own under <kernel-trees>/apt/ (`apt-get -o
Dir::Etc::SourceList=... update`, `apt-cache madison`), `apt-get download
linux-source-X.Y=VERSION`, `dpkg -x` into a scratch directory, and from the
tarball only what the build takes (cmake/KernelTree.cmake's KERNEL_TREE_DIRS,
plus the cgroup selftests tools/tb oracle builds) into
<kernel-trees>/linux-source-X.Y_<version>/ with its `.extracted` marker: the
layout kernel_tree() makes. The build then uses that directory in place
(KERNEL_SRC). A tree extracted once is used again without the network; the
lists are renewed when older than LISTS_MAX_AGE, or when an exact version is
not in them.
"""
import functools
import os
import re
import shlex
import shutil
import subprocess
import time

DEFAULT_SERIES = '6.12'
# the series tools/tb installs with the system's apt (the default tree and
# the "before" tree): --kernel X.Y of these is today's installed package
INSTALLED_SERIES = ('6.1', '6.12')
# the series whose every version `tools/tb matrix` runs by default; of any
# other linux-source-X.Y the archive has, the newest
ALL_VERSIONS_SERIES = ('6.1', '6.12')
# (archive, suites): every suite that carries Debian's kernels today
SUITES = [
    ('debian', ['bookworm', 'bookworm-updates', 'bookworm-backports', 'trixie',
                'trixie-updates', 'trixie-backports', 'sid',
                'experimental']),
    ('debian-security', ['bookworm-security', 'trixie-security']),
]
DEFAULT_MIRRORS = {'debian': 'http://deb.debian.org/debian',
                   'debian-security': 'http://security.debian.org/debian-security'}
KEYRING = '/usr/share/keyrings/debian-archive-keyring.gpg'
LISTS_MAX_AGE = 24 * 3600
# what tools/tb oracle builds from a tree (tools/tb_oracle.py's SELFTEST_SRC):
# taken too, when the tarball has it
OPTIONAL_DIRS = ['tools/testing/selftests/cgroup', 'tools/testing/selftests/kselftest.h',
                 'tools/testing/selftests/kselftest', 'tools/testing/selftests/clone3',
                 'tools/testing/selftests/pidfd', 'tools/testing/selftests/lib.mk',
                 'tools/include']


class TreeError(Exception):
    """one line: why a tree could not be named or provided"""


class NeedRoot(TreeError):
    """the archive work needs root: the message holds the commands"""


# ---- names -----------------------------------------------------------------
SERIES_RE = re.compile(r'^\d+\.\d+$')
UPSTREAM_RE = re.compile(r'^(\d+\.\d+)(\.\d+)?([-~]rc\d+)?$')
DEBVER_RE = re.compile(r'^(\d+\.\d+)[0-9A-Za-z.+~]*-[0-9A-Za-z.+~]+$')


def classify(spec):
    """(kind, value) of a --kernel value: ('series', '7.3'), ('upstream',
    '6.12.115' or '7.3~rc7'), ('debian', '6.12.115-2~deb12u1'), ('dir', path)"""
    if SERIES_RE.match(spec):
        return 'series', spec
    if UPSTREAM_RE.match(spec):
        return 'upstream', spec.replace('-rc', '~rc')
    if DEBVER_RE.match(spec) and not os.path.exists(spec):
        return 'debian', spec
    return 'dir', spec


# a line "@ X.Y" of a file of per-version entries (tests/mutate/equivalent.txt,
# tests/oracle/explanations.txt): the entries below it are for trees of X.Y
VERSION_RE = re.compile(r'^@\s*(\d+(?:\.\d+)*)\s*$')


def version_matches(want, have):
    """'6.12' covers the tree version '6.12.117' (and '6.12'), not '6.1.192'"""
    return have is None or want is None or have == want or have.startswith(want + '.')


def series_of(version):
    m = re.match(r'^(?:\d+:)?(\d+\.\d+)', version)
    return m.group(1) if m else None


def upstream_of(debver):
    """'6.12.95-1~bpo12+1' -> '6.12.95'; '7.3~rc7-1~exp1' -> '7.3~rc7'"""
    v = debver.split(':', 1)[-1]
    return v.rsplit('-', 1)[0] if '-' in v else v


def label_of(version):
    """a directory name for an upstream version: '7.3~rc7' -> '7.3-rc7'"""
    return safe_name(version.replace('~', '-'))


def safe_name(s):
    """as cmake/KernelTree.cmake makes a package version a file name"""
    return re.sub(r'[^A-Za-z0-9.+-]', '_', s)


def tree_dir(kcache, package, debver):
    """where kernel_tree() extracts package at debver"""
    return os.path.join(kcache, f'{package}_{safe_name(debver)}')


def dir_label(path):
    return 'dir-' + safe_name(os.path.basename(os.path.normpath(path)) or 'root')


# ---- Debian version order (dpkg's) -----------------------------------------
def _order(c):
    if c == '':
        return 0
    if c.isdigit():
        return 0
    if c.isalpha():
        return ord(c)
    if c == '~':
        return -1
    return ord(c) + 256


def _cmp_part(a, b):
    i = j = 0
    while i < len(a) or j < len(b):
        while (i < len(a) and not a[i].isdigit()) or (j < len(b) and not b[j].isdigit()):
            ac = _order(a[i] if i < len(a) else '')
            bc = _order(b[j] if j < len(b) else '')
            if ac != bc:
                return -1 if ac < bc else 1
            i += 1
            j += 1
        m = re.match(r'0*(\d*)', a[i:])
        n = re.match(r'0*(\d*)', b[j:])
        x, y = m.group(1), n.group(1)
        i += m.end()
        j += n.end()
        if len(x) != len(y):
            return -1 if len(x) < len(y) else 1
        if x != y:
            return -1 if x < y else 1
    return 0


def version_compare(a, b):
    """dpkg --compare-versions: -1, 0, 1"""
    def split(v):
        e, _, rest = v.rpartition(':') if ':' in v else ('0', '', v)
        up, _, rev = rest.rpartition('-') if '-' in rest else (rest, '', '')
        return int(e or 0), up, rev
    ea, ua, ra = split(a)
    eb, ub, rb = split(b)
    if ea != eb:
        return -1 if ea < eb else 1
    return _cmp_part(ua, ub) or _cmp_part(ra, rb)


def version_key(v):
    import functools
    return functools.cmp_to_key(version_compare)(v)


# ---- apt's answers ---------------------------------------------------------
def parse_madison(text):
    """`apt-cache madison` -> {package: {version: [suite, ...]}}"""
    out = {}
    for line in text.splitlines():
        parts = [p.strip() for p in line.split('|')]
        if len(parts) < 3 or not parts[0] or not parts[1]:
            continue
        src = parts[2].split()
        suite = src[1].split('/')[0] if len(src) > 1 else '?'
        suites = out.setdefault(parts[0], {}).setdefault(parts[1], [])
        if suite not in suites:
            suites.append(suite)
    return out


def system_mirrors(texts):
    """The mirror of each archive in the system's sources (one-line or
    deb822 texts), else deb.debian.org's and security.debian.org's."""
    out = dict(DEFAULT_MIRRORS)
    uris = []
    for t in texts:
        for line in t.splitlines():
            line = line.split('#', 1)[0].strip()
            m = re.match(r'^deb\s+(?:\[[^]]*\]\s+)?(\S+)', line)
            if m:
                uris.append(m.group(1))
            m = re.match(r'^URIs:\s*(.*)$', line)
            if m:
                uris += m.group(1).split()
    seen = set()
    for u in uris:
        u = u.rstrip('/')
        for name in ('debian-security', 'debian'):
            if u.endswith('/' + name) and name not in seen:
                if name == 'debian' and u.endswith('/debian-security'):
                    continue
                out[name] = u
                seen.add(name)
    return out


def sources_text(mirrors):
    """the temporary sources list (one-line form), every suite of SUITES"""
    out = []
    for archive, suites in SUITES:
        for suite in suites:
            out.append(f'deb [signed-by={KEYRING}] {mirrors[archive]} {suite} main')
    return '\n'.join(out) + '\n'


class Tree:
    """One tree to build: kind 'installed' (the system's linux-source-X.Y,
    extracted by cmake), 'archive' (fetched here) or 'dir' (in place)."""

    def __init__(self, kind, label, spec, series='', package='', version='', suites=(),
                 path=''):
        self.kind, self.label, self.spec = kind, label, spec
        self.series, self.package, self.version = series, package, version
        self.suites, self.path = list(suites), path

    def describe(self, kcache=None):
        if self.kind == 'dir':
            return f'{self.label}: {self.path} (in place)'
        where = ', '.join(self.suites) if self.suites else ''
        how = 'installed' if self.kind == 'installed' else 'archive'
        if self.kind == 'archive' and kcache and extracted(
                tree_dir(kcache, self.package, self.version)):
            how += ', extracted'
        return (f'{self.label}: {self.package} {self.version} ({how}'
                + (f'; {where}' if where else '') + ')')

    def as_dict(self):
        return {'label': self.label, 'spec': self.spec, 'kind': self.kind,
                'series': self.series, 'package': self.package, 'version': self.version,
                'suites': self.suites, 'path': self.path}


def installed_version(package):
    try:
        p = subprocess.run(['dpkg-query', '-W', '-f=${Version} ${db:Status-Abbrev}', package],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return ''
    v = p.stdout.split()
    if p.returncode != 0 or len(v) < 2 or v[1] != 'ii':
        return ''
    if not os.path.exists(f'/usr/src/{package}.tar.xz'):
        return ''
    return v[0]


# ---- the archive -----------------------------------------------------------
class Archive:
    """apt of our own under <kcache>/apt: lists, cache, an empty status"""

    def __init__(self, kcache, say=print, root=None, installed=installed_version):
        self.kcache = kcache
        self.dir = os.path.join(kcache, 'apt')
        self.say = say
        self.root = (os.geteuid() == 0) if root is None else root
        self.installed = installed
        self.log = os.path.join(self.dir, 'tb-fetch.log')
        self._madison = {}
        self.updated = False

    def opts(self):
        d = self.dir
        return ['-o', f'Dir::Etc::SourceList={d}/sources.list',
                '-o', 'Dir::Etc::SourceParts=/dev/null',
                '-o', f'Dir::State::Lists={d}/lists',
                '-o', f'Dir::State::status={d}/status',
                '-o', f'Dir::Cache={d}/cache',
                # the package cache kept (some images' apt.conf.d turns it
                # off): a look-up is then 0.1 s, not 3 s of parsing the lists
                '-o', f'Dir::Cache::pkgcache={d}/cache/pkgcache.bin',
                '-o', f'Dir::Cache::srcpkgcache={d}/cache/srcpkgcache.bin',
                '-o', 'Acquire::Languages=none']

    def _prepare(self):
        for sub in ('lists/partial', 'cache/archives/partial'):
            os.makedirs(os.path.join(self.dir, sub), exist_ok=True)
        texts = []
        for p in ['/etc/apt/sources.list'] + sorted(
                os.path.join('/etc/apt/sources.list.d', n)
                for n in (os.listdir('/etc/apt/sources.list.d')
                          if os.path.isdir('/etc/apt/sources.list.d') else [])
                if n.endswith(('.list', '.sources'))):
            try:
                with open(p) as f:
                    texts.append(f.read())
            except OSError:
                pass
        text = sources_text(system_mirrors(texts))
        src = os.path.join(self.dir, 'sources.list')
        old = None
        if os.path.exists(src):
            with open(src) as f:
                old = f.read()
        if old != text:
            with open(src, 'w') as f:
                f.write(text)
            self._forget_lists()
        status = os.path.join(self.dir, 'status')
        if not os.path.exists(status):
            open(status, 'w').close()

    def _stamp(self):
        return os.path.join(self.dir, 'lists', '.tb-updated')

    def _forget_lists(self):
        try:
            os.unlink(self._stamp())
        except OSError:
            pass

    def lists_age(self):
        try:
            return time.time() - os.path.getmtime(self._stamp())
        except OSError:
            return None

    def _run(self, cmd, cwd=None):
        with open(self.log, 'a') as f:
            f.write('$ ' + ' '.join(shlex.quote(c) for c in cmd) + '\n')
            f.flush()
            p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd,
                               stdin=subprocess.DEVNULL)
        return p.returncode

    def _tail(self, n=3):
        try:
            with open(self.log, errors='replace') as f:
                lines = [l.strip() for l in f if l.strip()]
        except OSError:
            return ''
        errs = [l for l in lines if l.startswith(('E:', 'Err:'))] or lines
        errs = [l for i, l in enumerate(errs) if l not in errs[:i]]
        return ' / '.join(errs[-n:])

    def _cmd_text(self, cmd, cwd=None):
        q = ' '.join(shlex.quote(c) for c in cmd)
        return f'(cd {shlex.quote(cwd)} && {q})' if cwd else q

    def update(self, why):
        """apt-get update of our lists (once per tb run)"""
        if self.updated:
            return
        os.makedirs(self.dir, exist_ok=True)
        self._prepare()
        cmd = ['apt-get'] + self.opts() + ['update']
        if not self.root:
            raise NeedRoot(
                f'{why}: the lists of Debian\'s archive are needed (apt-get update, as root); '
                'run this, then tools/tb again:\n    sudo ' + self._cmd_text(cmd)
                + f' && sudo touch {shlex.quote(self._stamp())}')
        self.say(f'{why}: updating the lists of Debian\'s archive '
                 f'({", ".join(s for _, ss in SUITES for s in ss)}; log: {self.log})')
        t0 = time.time()
        if self._run(cmd) != 0:
            raise TreeError(f'apt-get update failed: {self._tail()} (log: {self.log})')
        open(self._stamp(), 'w').close()
        self.updated = True
        self._madison = {}
        self.say(f'lists updated in {time.time() - t0:.1f}s')

    def ensure_lists(self, why, max_age=LISTS_MAX_AGE):
        # a sources list the code no longer writes (a suite added) makes
        # the lists stale whatever their age
        self._prepare()
        age = self.lists_age()
        if age is None or (max_age is not None and age > max_age):
            self.update(why)

    def madison(self, packages):
        """{package: {version: [suites]}} from our lists (no network)"""
        want = [p for p in packages if p not in self._madison]
        if want:
            p = subprocess.run(['apt-cache'] + self.opts() + ['madison'] + want,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            got = parse_madison(p.stdout)
            for w in want:
                self._madison[w] = got.get(w, {})
        return {p: self._madison[p] for p in packages}

    def series_names(self):
        """the linux-source-X.Y packages our lists have: ['6.1', '6.12', '7.2', ...]"""
        p = subprocess.run(['apt-cache'] + self.opts() + ['pkgnames', 'linux-source-'],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        names = {n.strip()[len('linux-source-'):] for n in p.stdout.split()}
        return sorted((n for n in names if SERIES_RE.match(n)), key=version_key)

    # ---- fetching ----
    def fetch(self, tree):
        """tree.path: extract tree.package at tree.version once into kcache"""
        dest = tree_dir(self.kcache, tree.package, tree.version)
        tree.path = dest
        if extracted(dest):
            return dest
        tmp = dest + '.tmp'
        debdir = os.path.join(tmp, 'deb')
        tarball = os.path.join(tmp, 'root', 'usr', 'src', f'{tree.package}.tar.xz')
        src = os.path.join(tmp, 'src')
        members = [f'{tree.package}/{d}' for d in kernel_tree_dirs() + OPTIONAL_DIRS]
        cmds = [(['apt-get'] + self.opts() + ['download', f'{tree.package}={tree.version}'], debdir),
                (['dpkg', '-x', os.path.join(debdir, '*.deb'), os.path.join(tmp, 'root')], None),
                (['tar', '-I', 'xz -T0', '-xf', tarball, '-C', src] + members, None)]
        if not self.root:
            q = shlex.quote

            def line(cmd, cwd):
                text = ' '.join('*.deb'.join(q(x) if x else '' for x in c.split('*.deb'))
                                for c in cmd)
                return (f'cd {q(cwd)} && ' if cwd else '') + 'sudo ' + text
            raise NeedRoot(
                f'{tree.package} {tree.version} is not extracted yet into {self.kcache}, and '
                'fetching it needs root (apt-get download); run these, then tools/tb again:\n'
                f'    sudo mkdir -p {q(debdir)} {q(src)} && sudo chmod 777 {q(debdir)}\n'
                + '\n'.join('    ' + line(c, cwd) for c, cwd in cmds) + '\n'
                f'    sudo mv {q(os.path.join(src, tree.package))} {q(dest)} && '
                f'sudo touch {q(os.path.join(dest, ".extracted"))} && sudo rm -rf {q(tmp)}')
        os.makedirs(self.dir, exist_ok=True)
        self._prepare()
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(debdir)
        os.makedirs(src)
        # apt-get download runs as _apt where it can: its directory must be writable
        os.chmod(debdir, 0o777)
        t0 = time.time()
        self.say(f'fetching {tree.package} {tree.version} from {", ".join(tree.suites) or "the archive"} '
                 f'(log: {self.log})')
        (dl, cwd), (dx, _), (tx, _) = cmds
        if self._run(dl, cwd=cwd) != 0:
            raise TreeError(f'apt-get download {tree.package}={tree.version} failed: '
                            f'{self._tail()} (log: {self.log})')
        debs = [n for n in os.listdir(debdir) if n.endswith('.deb')]
        if len(debs) != 1:
            raise TreeError(f'apt-get download {tree.package}={tree.version} left {len(debs)} '
                            f'.deb files in {debdir}')
        dx[2] = os.path.join(debdir, debs[0])
        if self._run(dx) != 0 or not os.path.exists(tarball):
            raise TreeError(f'dpkg -x {debs[0]} gave no {os.path.relpath(tarball, tmp)} '
                            f'(log: {self.log})')
        os.unlink(dx[2])
        return self._extract(tree, tarball, tx, tmp, dest, t0)

    def extract_installed(self, tree):
        """tree.path: the installed package's tarball extracted into kcache
        where cmake's kernel_tree() would put it (tools/tb matrix needs the
        directory before it configures)"""
        dest = tree_dir(self.kcache, tree.package, tree.version)
        tree.path = dest
        if extracted(dest):
            return dest
        tmp, tarball = dest + '.tmp', f'/usr/src/{tree.package}.tar.xz'
        src = os.path.join(tmp, 'src')
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(src)
        os.makedirs(self.dir, exist_ok=True)  # the log's
        members = [f'{tree.package}/{d}' for d in kernel_tree_dirs() + OPTIONAL_DIRS]
        return self._extract(tree, tarball, ['tar', '-I', 'xz -T0', '-xf', tarball, '-C', src]
                             + members, tmp, dest, time.time())

    def _extract(self, tree, tarball, tx, tmp, dest, t0):
        """tar tx (tarball's members into tmp/src), then tmp/src/<package> -> dest"""
        src = os.path.join(tmp, 'src')
        self.say(f'extracting {", ".join(kernel_tree_dirs())} and the cgroup selftests of '
                 f'{os.path.basename(tarball)} into {dest}')
        p = subprocess.run(tx, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with open(self.log, 'a') as f:
            f.write('$ ' + ' '.join(shlex.quote(c) for c in tx) + '\n' + p.stdout)
        if p.returncode != 0:
            missing = missing_members(p.stdout)
            required = [m for m in missing or []
                        if m.split('/', 1)[-1] not in OPTIONAL_DIRS]
            if missing is None or required:
                raise TreeError(f'tar failed on {os.path.basename(tarball)}: '
                                f'{p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.returncode}'
                                f' (log: {self.log})')
        top = os.path.join(src, tree.package)
        if not os.path.exists(os.path.join(top, 'Makefile')):
            raise TreeError(f'{os.path.basename(tarball)} has no {tree.package}/Makefile')
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(top, dest)
        open(os.path.join(dest, '.extracted'), 'w').close()
        shutil.rmtree(tmp, ignore_errors=True)
        self.say(f'{tree.package} {tree.version} ready in {time.time() - t0:.1f}s')
        return dest


def missing_members(tar_output):
    """the members tar reported 'Not found in archive', or None when it
    reported anything else"""
    out = []
    for line in tar_output.splitlines():
        m = re.match(r'^tar: (.*): Not found in archive$', line)
        if m:
            out.append(m.group(1))
        elif line.startswith('tar: Exiting with failure status') or not line.strip():
            continue
        else:
            return None
    return out


def extracted(dest):
    """dest is a finished extraction holding everything a build takes now
    (a tree cached before KERNEL_TREE_DIRS gained a member is not: it is
    extracted again)"""
    return os.path.exists(os.path.join(dest, '.extracted')) and all(
        os.path.exists(os.path.join(dest, d)) for d in kernel_tree_dirs())


def kernel_tree_dirs():
    """KERNEL_TREE_DIRS of cmake/KernelTree.cmake: what a build takes"""
    return list(_kernel_tree_dirs())


@functools.lru_cache(maxsize=None)
def _kernel_tree_dirs():
    """read once a run: extracted() asks for every tree of a list"""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'cmake',
                        'KernelTree.cmake')
    with open(path) as f:
        m = re.search(r'^set\(KERNEL_TREE_DIRS ([^)]*)\)', f.read(), re.M)
    return tuple(m.group(1).split())


# ---- resolution ------------------------------------------------------------
def archive_versions(archive, package, why, max_age=None):
    """{version: [suites]} of package, the lists updated when missing (or
    older than max_age seconds)"""
    archive.ensure_lists(why, max_age=max_age)
    return archive.madison([package])[package]


def newest(versions):
    return max(versions, key=version_key) if versions else None


def _ups_list(versions):
    ups = sorted({upstream_of(v) for v in versions}, key=version_key)
    return ', '.join(label_of(u) for u in ups)


def resolve(spec, archive):
    """The Tree a --kernel value names (nothing fetched yet)."""
    kind, value = classify(spec)
    if kind == 'dir':
        path = os.path.abspath(value)
        if not os.path.isdir(path):
            if '/' in spec:  # a path: the tree is what is missing
                raise TreeError(f'kernel tree {path}: no such directory')
            raise TreeError(f'--kernel {spec}: no such directory, and not a version '
                            '(X.Y, X.Y.Z, X.Y-rcN or a Debian version)')
        return Tree('dir', dir_label(path), spec, path=path)
    series = series_of(value)
    package = f'linux-source-{series}'
    inst = archive.installed(package) if series in INSTALLED_SERIES else ''
    if kind == 'series' and series in INSTALLED_SERIES:
        return Tree('installed', label_of(upstream_of(inst)) if inst else series, spec,
                    series=series, package=package, version=inst)
    if kind == 'upstream' and inst and upstream_of(inst) == value:
        return Tree('installed', label_of(value), spec, series=series, package=package,
                    version=inst)
    if kind == 'debian' and inst == value:
        return Tree('installed', label_of(upstream_of(value)), spec, series=series,
                    package=package, version=inst)
    why = f'--kernel {spec}'

    def pick(versions):
        if kind == 'series':
            return newest(list(versions))
        if kind == 'upstream':
            return newest([v for v in versions if upstream_of(v) == value])
        return value if value in versions else None

    # a series is the archive's newest: lists of an earlier day are renewed;
    # an exact version found in the lists needs no network
    versions = archive_versions(archive, package, why,
                                LISTS_MAX_AGE if kind == 'series' else None)
    v = pick(versions)
    if v is None and not archive.updated and (kind != 'series' or not versions):
        # not in lists of an earlier day: the archive may have it now
        archive.update(why)
        versions = archive.madison([package])[package]
        v = pick(versions)
    if v is None:
        if not versions:
            have = ', '.join(archive.series_names())
            raise TreeError(f'--kernel {spec}: the archive has no {package} '
                            f'(its linux-source series: {have or "none"})')
        if kind == 'debian':
            raise TreeError(f'--kernel {spec}: the archive has no {package} {value}; it has '
                            + ', '.join(sorted(versions, key=version_key)))
        raise TreeError(f'--kernel {spec}: the archive has no {package} of version '
                        f'{label_of(value)}; it has {_ups_list(versions)}')
    return Tree('archive', label_of(upstream_of(v)), spec, series=series, package=package,
                version=v, suites=versions[v])


def provide(tree, archive, installed_dir=False):
    """The directory to pass as KERNEL_SRC ('' for an installed series,
    which cmake extracts itself; with installed_dir, its directory in the
    cache, extracted here)"""
    if tree.kind == 'dir':
        return tree.path
    if tree.kind == 'installed':
        return archive.extract_installed(tree) if installed_dir else ''
    return archive.fetch(tree)


def default_list(archive):
    """tools/tb matrix's trees: every version of ALL_VERSIONS_SERIES (the
    newest Debian revision of each upstream version; the installed package
    where it is of that version), and the newest of every later series the
    archive has, in version order"""
    archive.ensure_lists('tools/tb matrix')
    names = archive.series_names()
    later = [s for s in names if s not in ALL_VERSIONS_SERIES and
             version_compare(s, max(ALL_VERSIONS_SERIES, key=version_key)) > 0]
    pkgs = [f'linux-source-{s}' for s in list(ALL_VERSIONS_SERIES) + later]
    got = archive.madison(pkgs)
    return trees_from_versions(got, later, archive.installed)


def trees_from_versions(got, later, installed=lambda p: ''):
    """the default list from madison's answer (see default_list)"""
    trees = []
    for series in ALL_VERSIONS_SERIES:
        package = f'linux-source-{series}'
        versions = got.get(package, {})
        inst = installed(package) if series in INSTALLED_SERIES else ''
        by_up = {}
        for v in versions:
            by_up.setdefault(upstream_of(v), []).append(v)
        if inst and upstream_of(inst) not in by_up:
            by_up[upstream_of(inst)] = []
        for up, vs in by_up.items():
            if inst and upstream_of(inst) == up:
                trees.append(Tree('installed', label_of(up), up, series=series, package=package,
                                  version=inst, suites=versions.get(inst, [])))
            else:
                v = newest(vs)
                trees.append(Tree('archive', label_of(up), label_of(up), series=series,
                                  package=package, version=v, suites=versions[v]))
    for series in later:
        package = f'linux-source-{series}'
        versions = got.get(package, {})
        v = newest(list(versions))
        if v:
            trees.append(Tree('archive', label_of(upstream_of(v)), series, series=series,
                              package=package, version=v, suites=versions[v]))
    trees.sort(key=lambda t: version_key(upstream_of(t.version) if t.version else t.series))
    return trees


def resolve_list(text, archive):
    """tools/tb matrix --kernel A,B,C: the trees in the order given, a label
    used twice made unique"""
    trees = []
    for spec in [s.strip() for s in text.split(',') if s.strip()]:
        trees.append(resolve(spec, archive))
    seen = {}
    for t in trees:
        n = seen.get(t.label, 0)
        seen[t.label] = n + 1
        if n:
            t.label = f'{t.label}.{n + 1}'
    return trees
