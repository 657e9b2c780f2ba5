# SPDX-License-Identifier: GPL-2.0-only
"""A cache of the build's extraction steps (tools/kextract, tools/kdeclare
header), by content, shared by every build directory that names it.

The coverage and release builds of `tools/tb run`, the sanitizer builds,
a build directory made again, and the matrix's trees of one series run
the same extractions on the same files; each is about 0.3 s of Python.
A step's key is the digest of the tools' code and its arguments, with
the build directory's path written as a placeholder (two build
directories of one tree give the same key). The entry keeps what the run
read: every file opened for reading (by content), every directory listed
or path tested for existence, and what each `grep` printed (unchanged
while the files it searched keep their size, times and inodes); and what
it wrote (its outputs and its stderr). A later step with
the same key whose reads are all as recorded takes the outputs from the
entry (written only where their text changed, as the tools write them);
any other difference runs the tool, which records a new entry.

A run that does anything else (another subprocess than unifdef and grep,
an output naming a path of the build directory it cannot replace) is not
kept.
"""
import builtins
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = '@@TB_BUILD@@'
VERSION = b'kgen-cache 1\n'
# the code whose behaviour a step's outputs depend on
TOOLS = ('kextract', 'kdeclare', 'kgen_cache.py', 'tb_features.py')

# the cache's size before the least recently used entries go (an edit of
# a kernel file adds one entry of some 70 kB; a tree's build about 150)
MAX_BYTES = 256 << 20

_active = None


def _digest(data):
    return hashlib.sha1(data).hexdigest()


class _Listing:
    """os.scandir()'s entries, read at once: recorded, and still the
    context-manager iterator os.walk() uses"""

    def __init__(self, entries):
        self.entries = iter(entries)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.entries)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def close(self):
        pass


class Cache:
    def __init__(self, tool, top, build, argv):
        self.top, self.build = top, os.path.abspath(build)
        self.reads, self.seen, self.ignored = [], set(), set()
        self.keep, self.err, self.paused = True, [], 0
        self.real_open, self.real_scandir = builtins.open, os.scandir
        self.real_exists = os.path.exists
        h = hashlib.sha1(VERSION)
        for t in TOOLS:
            with open(os.path.join(HERE, t), 'rb') as f:
                h.update(_digest(f.read()).encode())
        h.update(json.dumps([tool, sys.version, self.norm(os.getcwd()),
                             [self.norm(a) for a in argv]]).encode())
        self.key = h.hexdigest()
        self.path = os.path.join(top, self.key[:2], self.key[2:] + '.json.z')

    def norm(self, text):
        return BUILD if text == self.build else text.replace(self.build + '/', BUILD + '/')

    def denorm(self, text):
        return self.build if text == BUILD else text.replace(BUILD + '/', self.build + '/')

    # -- reads -------------------------------------------------------

    def now(self, kind, path):
        """what the reads of kind at path give now (None: it cannot be read)"""
        try:
            if kind == 'file':
                with self.real_open(path, 'rb') as f:
                    return _digest(f.read())
            if kind == 'dir':
                names = sorted('%s%s' % (e.name, '/' if e.is_dir() else '')
                               for e in self.real_scandir(path))
                return _digest('\n'.join(names).encode())
            if kind == 'exists':
                return str(self.real_exists(path))
        except OSError:
            return None
        raise ValueError(kind)

    def same(self, kind, path, was):
        """whether a read recorded as was reads the same now"""
        if kind != 'grep':
            return self.now(kind, path) == was
        # the files under grep's directories as they were (size, times,
        # inode: the same files of the same tree) print what they printed;
        # else grep tells (another tree of the series behind one path)
        args = json.loads(path)
        if self.files_stat(args) == was[0]:
            return True
        res = subprocess.run(args, stdout=subprocess.PIPE)
        return _digest(res.stdout) == was[1]

    def files_stat(self, args):
        h, todo = hashlib.sha1(), [a for a in args[1:] if os.path.isabs(a)]
        while todo:
            try:
                with self.real_scandir(todo.pop()) as it:
                    entries = sorted(it, key=lambda e: e.name)
            except OSError:
                continue
            for e in entries:
                if e.is_dir(follow_symlinks=False):
                    todo.append(e.path)
                else:
                    st = e.stat(follow_symlinks=False)
                    h.update(('%s %d %d %d %d\n' % (e.path, st.st_size, st.st_mtime_ns,
                                                     st.st_ctime_ns, st.st_ino)).encode())
        return h.hexdigest()

    def note(self, kind, path):
        path = os.path.abspath(os.fspath(path))
        if not self.keep or self.paused or (kind, path) in self.seen or path in self.ignored:
            return
        self.seen.add((kind, path))
        self.reads.append([kind, self.norm(path), self.now(kind, path)])

    def install(self):
        real_listdir = os.listdir
        real_isfile, real_isdir, real_run = os.path.isfile, os.path.isdir, subprocess.run
        cache = self

        def open_(file, mode='r', *a, **kw):
            if isinstance(file, (str, os.PathLike)) and not set(mode) & set('wax+'):
                cache.note('file', file)
            return cache.real_open(file, mode, *a, **kw)

        def scandir(path='.'):
            cache.note('dir', path)
            with cache.real_scandir(path) as it:
                return _Listing(list(it))

        def listdir(path='.'):
            cache.note('dir', path)
            return real_listdir(path)

        def exists(path):
            cache.note('exists', path)
            return cache.real_exists(path)

        def isfile(path):
            cache.note('exists', path)
            return real_isfile(path)

        def isdir(path):
            cache.note('exists', path)
            return real_isdir(path)

        def run(args, *a, **kw):
            prog = os.path.basename(args[0]) if isinstance(args, list) else ''
            res = real_run(args, *a, **kw)
            if prog == 'grep' and res.stdout is not None:
                # what it printed is what the run saw of the files it read
                out = res.stdout
                cache.reads.append(['grep', cache.norm(json.dumps(args)),
                                    [cache.files_stat(args),
                                     _digest(out.encode() if isinstance(out, str) else out)]])
            elif prog != 'unifdef':
                cache.keep = False
            return res

        saved = (builtins.open, os.scandir, os.listdir, os.path.exists, os.path.isfile,
                 os.path.isdir, subprocess.run, sys.stderr)

        def uninstall():
            (builtins.open, os.scandir, os.listdir, os.path.exists, os.path.isfile,
             os.path.isdir, subprocess.run, sys.stderr) = saved
        self.uninstall = uninstall
        builtins.open, os.scandir, os.listdir = open_, scandir, listdir
        os.path.exists, os.path.isfile, os.path.isdir = exists, isfile, isdir
        subprocess.run = run
        err = sys.stderr

        class Tee:
            def write(self, s):
                cache.err.append(s)
                return err.write(s)

            def __getattr__(self, name):
                return getattr(err, name)
        sys.stderr = Tee()

    # -- entries -------------------------------------------------------

    def lookup(self):
        """the outputs of a recorded run whose reads are all as they are
        now, written; False if there is none"""
        try:
            with open(self.path, 'rb') as f:
                entry = json.loads(zlib.decompress(f.read()))
        except (OSError, ValueError, zlib.error):
            return False
        for kind, path, was in entry['reads']:
            if not self.same(kind, self.denorm(path), was):
                return False
        for path, text in entry['outputs']:
            write_atomic(self.denorm(path), self.denorm(text))
        sys.stderr.write(self.denorm(entry['stderr']))
        try:
            os.utime(self.path)     # recently used: the last to be pruned
        except OSError:
            pass
        return True

    def store(self, outputs):
        if not self.keep:
            return
        self.keep = False   # what storing reads is not the run's
        outs = []
        for path in outputs:
            with self.real_open(path) as f:
                text = f.read()
            if BUILD in text:
                return
            outs.append([self.norm(os.path.abspath(path)), self.norm(text)])
        entry = {'reads': self.reads, 'outputs': outs, 'stderr': self.norm(''.join(self.err))}
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix='.tmp.', dir=os.path.dirname(self.path))
        with os.fdopen(fd, 'wb') as f:
            f.write(zlib.compress(json.dumps(entry).encode(), 1))
        os.replace(tmp, self.path)
        if int(self.key[-2:], 16) < 4:      # one store in 64
            prune(self.top)


def prune(top, limit=MAX_BYTES):
    """the least recently used entries out, down to three quarters of limit"""
    found = []
    for base, _, files in os.walk(top):
        for f in files:
            p = os.path.join(base, f)
            try:
                st = os.stat(p)
            except OSError:
                continue
            found.append((st.st_mtime, st.st_size, p))
    total = sum(s for _, s, _ in found)
    if total <= limit:
        return
    for _, size, p in sorted(found):
        if total <= limit * 3 // 4:
            break
        try:
            os.unlink(p)
            total -= size
        except OSError:
            pass


def write_atomic(path, data):
    """Write via a temporary file + rename: no half-written output. An
    output whose text is unchanged is left alone (its mtime too), so the
    build recompiles nothing that includes it."""
    try:
        with builtins.open(path) as f:
            if f.read() == data:
                return
    except (OSError, UnicodeDecodeError):
        pass
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.%s.' % os.path.basename(path), dir=d)
    try:
        with os.fdopen(fd, 'w') as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def split(argv):
    """(argv without --kgen-cache DIR --kgen-build DIR, those two)"""
    rest, where, i = [], {}, 0
    while i < len(argv):
        if argv[i] in ('--kgen-cache', '--kgen-build') and i + 1 < len(argv):
            where[argv[i]] = argv[i + 1]
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    return rest, (where.get('--kgen-cache'), where.get('--kgen-build'))


def start(tool, where, argv):
    """Whether a recorded run of tool with argv (split's) gave the outputs
    (then written); if not, the rest of this run's reads are recorded."""
    global _active
    top, build = where
    if not top or not build:
        return False
    cache = Cache(tool, top, build, argv)
    if cache.lookup():
        return True
    cache.install()
    _active = cache
    return False


def ignore(path):
    """path is a memo of the tool's own: its content never changes an
    output (the answers it holds are noted with note_file)"""
    if _active:
        _active.ignored.add(os.path.abspath(path))


class untracked:
    """with untracked(): reads that only decide whether the tool's own
    stamp still holds, not what it writes"""

    def __enter__(self):
        if _active:
            _active.paused += 1

    def __exit__(self, *exc):
        if _active:
            _active.paused -= 1
        return False


def note_file(path):
    """the output depends on path's content, though this run did not read
    it (a memo answered for it)"""
    if _active:
        _active.note('file', path)


def skip():
    """this run's outputs are not an answer to its reads (an early exit
    that trusted a stamp): keep no entry"""
    if _active:
        _active.keep = False


def store(outputs):
    """keep the run's entry: outputs are the files it wrote"""
    if _active:
        try:
            _active.store([p for p in outputs if p])
        except OSError:
            pass


_code_dir = None


def load_tool(name):
    """tools/NAME as a fresh module (not __main__), its compiled code kept
    in the cache directory when one is in use: kextract's 1,800 lines are
    50 ms to compile, as much as the rest of a served step"""
    import types
    with untracked():       # the tools' code is in every key already
        code = tool_code(name)
    mod = types.ModuleType(name)
    mod.__file__ = os.path.join(HERE, name)
    exec(code, mod.__dict__)
    return mod


def tool_code(name):
    import marshal
    path = os.path.join(HERE, name)
    with open(path, 'rb') as f:
        src = f.read()
    code, kept = None, None
    if _code_dir:
        kept = os.path.join(_code_dir, '%s-%s-%s' % (name, sys.implementation.cache_tag,
                                                       _digest(src)))
        try:
            with open(kept, 'rb') as f:
                code = marshal.load(f)
        except (OSError, ValueError, EOFError, TypeError):
            code = None
    if code is None:
        code = compile(src, path, 'exec')
        if kept:
            try:
                os.makedirs(_code_dir, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix='.tmp.', dir=_code_dir)
                with os.fdopen(fd, 'wb') as f:
                    marshal.dump(code, f)
                os.replace(tmp, kept)
            except OSError:
                pass
    return code


def run_tool(tool, argv):
    """tool's main(argv) in this process: its exit status"""
    try:
        rc = load_tool(tool).main(argv)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 1
        if not isinstance(e.code, int) and e.code is not None:
            sys.stderr.write('%s\n' % e.code)
    return rc or 0


def front(argv):
    """kgen_cache.py --kgen-cache DIR --kgen-build DIR TOOL ARGS [:: TOOL ARGS]...:
    each step in turn, from the cache or by the tool (kextract, kdeclare)
    run in this process: one Python start for a build step, not two"""
    global _active, _code_dir
    argv, where = split(argv)
    steps, cur = [], []
    for a in argv + ['::']:
        if a == '::':
            if cur:
                steps.append(cur)
            cur = []
        else:
            cur.append(a)
    top, build = where
    if top and build:
        _code_dir = os.path.join(top, 'code')
    for tool, *args in steps:
        if tool not in ('kextract', 'kdeclare'):
            sys.stderr.write('kgen_cache: %s: not an extraction tool\n' % tool)
            return 2
        if tool == 'kdeclare':
            # its own stamp first (the .key ninja lists as its output), then
            # the cache, which writes the stamp when it serves the step
            rc = run_tool(tool, args + (['--kgen-cache', top, '--kgen-build', build]
                                        if top and build else []))
            if rc:
                return rc
            continue
        cache = Cache(tool, top, build, args) if top and build else None
        if cache and cache.lookup():
            continue
        if cache:
            cache.install()
            _active = cache
        try:
            rc = run_tool(tool, args)
        finally:
            if cache:
                cache.uninstall()
                _active = None
        if rc:
            return rc
    return 0


if __name__ == '__main__':
    # the tools import this file as kgen_cache: one module, one _active
    sys.path.insert(0, HERE)
    import kgen_cache
    sys.exit(kgen_cache.front(sys.argv[1:]))
