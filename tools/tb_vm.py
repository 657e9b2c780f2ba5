# SPDX-License-Identifier: GPL-2.0-only
"""tb vm: the real kernel under QEMU, beside the simulated world.

The guest is a busybox initramfs: /init mounts proc, sysfs, devtmpfs and
cgroup2 (memory controller enabled for children), an ext4 data disk on
/data (the command's working directory) and an optional swap disk, runs
the command with its output on the second serial port (ttyS1), writes
its exit status there, and reboots (QEMU runs with -no-reboot, so that
ends it). The kernel's console goes to ttyS0, kept as console.log.

Kernels: for a Debian tree without a patch, Debian's prebuilt
linux-image-*-cloud-amd64-unsigned of the exact same package version
(apt-get download + dpkg -x, nothing installed); otherwise a bzImage
built from the tree (tools/tb_kbuild.py).
"""
import glob
import json
import lzma
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

VM_PKGS = ['qemu-system-x86', 'busybox-static', 'e2fsprogs', 'cpio', 'xz-utils']
BUSYBOX = '/bin/busybox'
MARK = '@@TB-EXIT@@'
START = '@@TB-START@@'
# boots whose kernel panics before the command starts, tried again: under
# TCG one boot in CI ended in "Fatal exception in interrupt" at 4 s, and
# none of 34 boots here did; such a panic says nothing of the command
BOOT_TRIES = 3
# what the guest needs of a Debian cloud image's drivers: built in, or
# loaded as modules with what they depend on (6.1 has virtio as modules)
DEBIAN_MODULES = ['kernel/drivers/virtio/virtio_pci.ko', 'kernel/drivers/block/virtio_blk.ko']
KEEP_RUNS = 20

INIT = r'''#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin:/tb/bin
mkdir -p /proc /sys /dev /tmp /data
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
ip link set lo up 2>/dev/null
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
for m in /lib/tb-modules/*.ko; do [ -e "$m" ] && insmod "$m"; done
i=0
while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
mount -t ext4 /dev/vda /data || echo "tb-init: no data disk" > /dev/ttyS0
[ -b /dev/vdb ] && swapon /dev/vdb
stty -F /dev/ttyS1 raw -echo 2>/dev/null
cd /data
echo "@@TB-START@@" > /dev/ttyS1
sh /tb/cmd > /dev/ttyS1 2>&1 < /dev/null
rc=$?
echo "@@TB-EXIT@@ $rc" > /dev/ttyS1
cd /
swapoff -a 2>/dev/null
umount /data 2>/dev/null
sync
reboot -f
'''


# a guest script's line that prints what its workload can have of the RAM
MEMFREE_CMD = 'echo "@@MEMFREE $(grep -E "^MemFree:" /proc/meminfo | tr -s " " | cut -d" " -f2)"'


def reserved_mib(output, mem_mib):
    """What the guest's workload cannot have of its mem_mib of RAM (the
    kernel's image and reservations, what init and the kernel hold), from
    MEMFREE_CMD's line in output; 0 when it is missing."""
    m = re.search(r'^@@MEMFREE (\d+)\s*$', output, re.M)
    return mem_mib - int(m.group(1)) // 1024 if m else 0


class VmError(Exception):
    """One line for the user: what is missing or what went wrong."""


def parse_size(s, what):
    """'512M', '2G', '4096' (MiB) -> MiB"""
    m = re.fullmatch(r'(\d+)([MmGg]?)(i?[Bb])?', str(s).strip())
    if not m or int(m.group(1)) == 0:
        raise VmError(f'{what} wants a size like 512M or 2G, not {s!r}')
    n = int(m.group(1))
    return n * 1024 if m.group(2) in ('G', 'g') else n


def vm_dir(tb, *parts):
    d = os.path.join(tb.build, 'vm', *parts)
    os.makedirs(d, exist_ok=True)
    return d


def run_logged(cmd, log, cwd=None):
    with open(log, 'a') as f:
        f.write('$ ' + ' '.join(shlex.quote(c) for c in cmd) + '\n')
        f.flush()
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd)
    return p.returncode


# ---- Debian's prebuilt image --------------------------------------------
def source_version(series):
    p = subprocess.run(['dpkg-query', '-W', '-f=${Version}', f'linux-source-{series}'],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() if p.returncode == 0 else ''


def image_package(version, apt_opts=()):
    """Debian's cloud image package built from the same source version (the
    -unsigned one where both exist; 7.x in backports and experimental has
    only the signed name), in the machine's lists or, with apt_opts, in
    tools/tb_trees.py's lists of the whole archive."""
    p = subprocess.run(['apt-cache'] + list(apt_opts) + ['search', '--names-only',
                        r'^linux-image-.*-cloud-amd64(-unsigned)?$'],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    names = [l.split()[0] for l in p.stdout.splitlines() if l.strip()]
    if not names:
        return None
    p = subprocess.run(['apt-cache'] + list(apt_opts) + ['show', '--all-versions'] + names,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    pkg, found = None, []
    for line in p.stdout.splitlines():
        if line.startswith('Package: '):
            pkg = line.split()[1]
        elif line.startswith('Version: ') and line.split()[1] == version:
            found.append(pkg)
    unsigned = [n for n in found if n.endswith('-unsigned')]
    return (unsigned or found or [None])[0]


def image_parts(pkg, ver, apt_opts=()):
    """the packages of pkg's Depends that carry the kernel and its modules
    (linux-binary-*, linux-modules-*), at ver: none before 7.x"""
    p = subprocess.run(['apt-cache'] + list(apt_opts) + ['show', f'{pkg}={ver}'],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    m = re.search(r'^Depends: (.*)$', p.stdout, re.M)
    if not m:
        return []
    names = [d.strip().split()[0] for d in m.group(1).split(',')]
    return [n for n in names if n.startswith(('linux-binary-', 'linux-modules-'))]


def debian_image(tb, series, say, deb=None):
    """{'bzimage', 'modules', 'release', 'config', 'what'} of Debian's image
    for linux-source-<series>, or for deb (a tree tools/tb_trees.py fetched
    from the archive: `--kernel 7.3`), fetched once into build/vm/images."""
    opts = []
    if deb is not None:
        import tb_trees
        ver = deb.version
        opts = tb_trees.Archive(tb.kcache, say).opts()
    else:
        ver = source_version(series)
    if not ver:
        raise VmError(f'linux-source-{series} is not installed: no version to match an image to')
    pkg = image_package(ver, opts)
    if not pkg:
        return None
    dest = os.path.join(tb.build, 'vm', 'images', f'{pkg}_{re.sub(r"[^A-Za-z0-9.+-]", "_", ver)}')
    stamp = os.path.join(dest, '.extracted')
    if not os.path.exists(stamp):
        log = os.path.join(vm_dir(tb), 'tb-fetch.log')
        say(f'fetching {pkg} {ver} (Debian\'s image of the tree\'s version; log: '
            f'{os.path.relpath(log, tb.repo)})')
        tmp = dest + '.tmp'
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        # apt-get download runs as _apt when it can; a root-owned dir is fine
        os.chmod(tmp, 0o777)
        if run_logged(['apt-get'] + opts + ['download', f'{pkg}={ver}'], log, cwd=tmp) != 0:
            raise VmError(f'apt-get download {pkg}={ver} failed (log: {log})')
        # 7.x: linux-image-X is a meta package; the kernel and its modules
        # are its linux-binary-X and linux-modules-X of the same version
        for part in image_parts(pkg, ver, opts):
            if run_logged(['apt-get'] + opts + ['download', f'{part}={ver}'], log, cwd=tmp) != 0:
                raise VmError(f'apt-get download {part}={ver} failed (log: {log})')
        debs = glob.glob(os.path.join(tmp, '*.deb'))
        for deb in debs:
            if run_logged(['dpkg-deb', '-x', deb, os.path.join(tmp, 'root')], log) != 0:
                raise VmError(f'could not unpack {os.path.basename(deb)} (log: {log})')
            os.unlink(deb)
        if not debs:
            raise VmError(f'could not unpack {pkg} (log: {log})')
        shutil.rmtree(dest, ignore_errors=True)
        os.rename(tmp, dest)
        open(stamp, 'w').close()
    root = os.path.join(dest, 'root')
    bz = glob.glob(os.path.join(root, 'boot', 'vmlinuz-*'))
    if bz:
        release = os.path.basename(bz[0])[len('vmlinuz-'):]
        config = os.path.join(root, 'boot', f'config-{release}')
    else:
        # 7.x: the kernel beside its modules, /usr/lib/modules/<release>/
        bz = glob.glob(os.path.join(root, 'usr', 'lib', 'modules', '*', 'vmlinuz'))
        if not bz:
            raise VmError(f'{dest}: no boot/vmlinuz-* or usr/lib/modules/*/vmlinuz in {pkg}')
        release = os.path.basename(os.path.dirname(bz[0]))
        config = os.path.join(os.path.dirname(bz[0]), 'config')
    mods = guest_modules(root, release, dest, pkg)
    return {'bzimage': bz[0], 'modules': mods, 'release': release,
            'config': config, 'what': f'Debian {pkg} {ver}'}


def module_bytes(path):
    if path.endswith('.xz'):
        with lzma.open(path) as f:
            return f.read()
    with open(path, 'rb') as f:
        return f.read()


def module_depends(data):
    """the .modinfo 'depends=' list of a module's bytes"""
    i = data.find(b'\0depends=')
    if i < 0:
        return []
    j = data.index(b'\0', i + 1)
    return [d for d in data[i + 9:j].decode().split(',') if d]


def guest_modules(root, release, dest, pkg):
    """DEBIAN_MODULES and what they depend on (virtio itself is a module
    in Debian's 6.1 images), decompressed into dest, named in load order."""
    base = os.path.join(root, 'lib', 'modules', release)
    if not os.path.isdir(base):  # 7.x packages: /usr/lib/modules
        base = os.path.join(root, 'usr', 'lib', 'modules', release)
    index = {}
    for d, _, names in os.walk(os.path.join(base, 'kernel')):
        for n in names:
            m = re.fullmatch(r'(.*)\.ko(\.xz)?', n)
            if m:
                index[m.group(1).replace('-', '_')] = os.path.join(d, n)
    builtin = set()
    try:
        with open(os.path.join(base, 'modules.builtin')) as f:
            builtin = {os.path.basename(l.strip())[:-3].replace('-', '_') for l in f if l.strip()}
    except OSError:
        # 7.x's linux-modules-X ships no modules.builtin: a module it lacks
        # is taken as built in (virtio_pci is), and a missing one shows as
        # a guest without its disk
        builtin = None
    order, seen = [], set()

    def visit(name):
        if name in seen:
            return
        seen.add(name)
        if builtin is not None and name in builtin:
            return
        path = index.get(name)
        if not path and builtin is None:
            return
        if not path:
            raise VmError(f'{pkg} has no module {name}')
        data = module_bytes(path)
        for dep in module_depends(data):
            visit(dep.replace('-', '_'))
        order.append((name, data))

    for m in DEBIAN_MODULES:
        visit(os.path.basename(m)[:-3].replace('-', '_'))
    out = []
    for i, (name, data) in enumerate(order):
        path = os.path.join(dest, f'{i:02d}-{name}.ko')
        if not os.path.exists(path):
            with open(path, 'wb') as f:
                f.write(data)
        out.append(path)
    return out


def kernel_for(tb, patch, say, built=False):
    """The kernel to boot: Debian's image of the tree's exact version when
    the tree is Debian's and there is no patch (and built is not asked
    for), else one built from it."""
    series = tb.series or ('' if tb.kernel else '6.12')
    deb = getattr(tb, 'debian', None)
    deb = deb if deb is not None and getattr(deb, 'kind', '') == 'archive' else None
    if (series or deb) and not patch and not built:
        img = debian_image(tb, series, say, deb)
        if img:
            return img
        say(f'no Debian image of {deb.package + " " + deb.version if deb else "linux-source-" + series}'
            ': building one from the tree')
    import tb_kbuild
    if tb.kernel:
        tree = tb.kernel
    else:
        tree = tb_kbuild.full_tree(tb, series)
    try:
        k = tb_kbuild.build_kernel(tb, tree, patch=patch, say=say)
    except tb_kbuild.KbuildError as e:
        raise VmError(str(e))
    what = f'built from {tree}' + (f' + {os.path.basename(patch)}' if patch else '')
    return {'bzimage': k['bzimage'], 'modules': [], 'release': k['release'],
            'config': k['config'], 'what': what, 'build_seconds': k.get('seconds'),
            'cached': k.get('cached')}


def seed_patch(tb, patches_dir, name):
    """The form of a seed's patch that applies to the tree kernel_for()
    builds from (tb_kbuild.seed_patch())."""
    import tb_kbuild
    series = tb.series or ('' if tb.kernel else '6.12')
    tree = tb.kernel or tb_kbuild.full_tree(tb, series)
    path, why = tb_kbuild.seed_patch(patches_dir, name, tree)
    if not path:
        raise VmError(why)
    return path


# ---- the guest's disks ---------------------------------------------------
def cpio_from(root, out):
    names = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for n in sorted(dirs + files):
            names.append(os.path.relpath(os.path.join(d, n), root))
    with open(out, 'wb') as f:
        p = subprocess.run(['cpio', '-o', '-H', 'newc', '--quiet'], cwd=root,
                           input='\n'.join(names).encode() + b'\n', stdout=f,
                           stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise VmError('cpio failed: ' + p.stderr.decode(errors='replace').strip())


def initramfs(run, kernel, script, files):
    root = os.path.join(run, 'initramfs')
    for d in ('bin', 'tb/bin', 'lib/tb-modules', 'sys/fs/cgroup'):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    shutil.copy(BUSYBOX, os.path.join(root, 'bin', 'busybox'))
    with open(os.path.join(root, 'init'), 'w') as f:
        f.write(INIT)
    os.chmod(os.path.join(root, 'init'), 0o755)
    with open(os.path.join(root, 'tb', 'cmd'), 'w') as f:
        f.write(script)
    for m in kernel.get('modules', []):
        shutil.copy(m, os.path.join(root, 'lib', 'tb-modules'))
    for guest, host in (files or {}).items():
        dst = os.path.join(root, guest.lstrip('/'))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(host, dst)
    out = os.path.join(run, 'initramfs.cpio')
    cpio_from(root, out)
    shutil.rmtree(root)
    return out


def data_disk(run, mib, put):
    img = os.path.join(run, 'data.img')
    stage = os.path.join(run, 'data')
    os.makedirs(stage)
    for p in put or []:
        dst = os.path.join(stage, os.path.basename(p.rstrip('/')))
        if os.path.isdir(p):
            shutil.copytree(p, dst, symlinks=True)
        else:
            shutil.copy(p, dst)
    p = subprocess.run(['mke2fs', '-q', '-F', '-t', 'ext4', '-d', stage, img, f'{mib}M'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    shutil.rmtree(stage)
    if p.returncode != 0:
        raise VmError('mke2fs failed: ' + p.stdout.strip().splitlines()[-1])
    return img


def swap_disk(run, mib):
    img = os.path.join(run, 'swap.img')
    with open(img, 'wb') as f:
        f.truncate(mib << 20)
    p = subprocess.run(['mkswap', img], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        raise VmError('mkswap failed: ' + p.stdout.strip())
    return img


# ---- QEMU ----------------------------------------------------------------
def qemu_version():
    p = subprocess.run(['qemu-system-x86_64', '--version'], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return p.stdout.splitlines()[0] if p.stdout else ''


def numa_args(mem, cpus, nodes):
    if nodes <= 1:
        return ['-m', f'{mem}M']
    if mem % nodes:
        raise VmError(f'--mem {mem}M does not split evenly over {nodes} nodes')
    args = ['-m', f'{mem}M']
    per = max(1, cpus // nodes)
    for n in range(nodes):
        args += ['-object', f'memory-backend-ram,id=m{n},size={mem // nodes}M']
        lo = n * per
        hi = cpus - 1 if n == nodes - 1 else lo + per - 1
        node = f'node,nodeid={n},memdev=m{n}'
        if lo < cpus:
            node += f',cpus={lo}' + (f'-{hi}' if hi > lo else '')
        args += ['-numa', node]
    return args


def accel_args(accel):
    if accel == 'kvm':
        return ['-accel', 'kvm', '-cpu', 'host']
    return ['-accel', 'tcg,thread=multi', '-cpu', 'max']


class Guest:
    def __init__(self, run, kernel, accel, opts, script, files=None, put=None):
        self.run = run
        self.console = os.path.join(run, 'console.log')
        self.output = os.path.join(run, 'output.log')
        self.stderr = os.path.join(run, 'qemu.log')
        self.text = ''  # the command's output so far
        for f in (self.console, self.output):
            open(f, 'w').close()
        self.initrd = initramfs(run, kernel, script, files)
        self.disks = [data_disk(run, opts.get('disk', 1024), put)]
        if opts.get('swap'):
            self.disks.append(swap_disk(run, opts['swap']))
        cmdline = 'console=ttyS0 panic=-1 rdinit=/init ' + opts.get('cmdline', '')
        self.cmd = (['qemu-system-x86_64', '-nodefaults', '-no-reboot', '-display', 'none',
                     '-smp', str(opts.get('cpus', 2))]
                    + accel_args(accel)
                    + numa_args(opts.get('mem', 1024), opts.get('cpus', 2), opts.get('nodes', 1))
                    + ['-kernel', kernel['bzimage'], '-initrd', self.initrd,
                       '-append', cmdline.strip(),
                       '-serial', f'file:{self.console}', '-serial', f'file:{self.output}'])
        for i, d in enumerate(self.disks):
            self.cmd += ['-drive', f'file={d},format=raw,if=none,id=d{i},cache=unsafe',
                         '-device', f'virtio-blk-pci,drive=d{i}']

    def start(self):
        with open(os.path.join(self.run, 'qemu.cmd'), 'w') as f:
            f.write(' '.join(shlex.quote(c) for c in self.cmd) + '\n')
        self.err = open(self.stderr, 'w')
        self.p = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=self.err,
                                  stderr=subprocess.STDOUT)
        self.t0 = time.time()

    def wait(self, timeout, stream=None):
        """Wait for QEMU to end; stream(text) gets the command's output as
        it comes. Returns (status or None, output, why)."""
        pos, buf, why = 0, '', ''
        while True:
            done = self.p.poll() is not None
            with open(self.output, 'rb') as f:
                f.seek(pos)
                new = f.read()
            pos += len(new)
            if new:
                text = new.decode(errors='replace').replace('\r\n', '\n').replace('\r', '')
                if stream:
                    shown = buf + text
                    cut = shown.rfind('\n') + 1
                    stream(''.join(l for l in shown[:cut].splitlines(True)
                                   if not l.startswith((MARK, START))))
                    buf = shown[cut:]
                self.text += text
            if done:
                break
            with open(self.stderr, errors='replace') as f:
                err = f.read()
            if 'KVM internal error' in err or 'failed to initialize kvm' in err.lower():
                why = 'KVM internal error'
                self.p.kill()
            elif time.time() - self.t0 > timeout:
                why = f'timed out after {timeout}s'
                self.p.kill()
            time.sleep(0.1)
        self.p.wait()
        self.err.close()
        self.seconds = time.time() - self.t0
        out = self.text
        if stream and buf and not buf.startswith((MARK, START)):
            stream(buf)
        m = re.search(r'^' + MARK + r' (\d+)\s*$', out, re.M)
        status = int(m.group(1)) if m else None
        self.started = START in out
        out = '\n'.join(l for l in out.split('\n') if not l.startswith((MARK, START)))
        if status is None and not why:
            why = guest_end(self.console, self.stderr)
        return status, out, why

    def cleanup(self):
        for f in [self.initrd] + self.disks:
            if os.path.exists(f):
                os.unlink(f)


def guest_end(console, stderr):
    """Why a guest ended without the command's status, in one phrase."""
    with open(console, errors='replace') as f:
        con = f.read()
    m = re.search(r'Kernel panic - not syncing: ([^\n]*)', con)
    if m:
        # where it happened: the first oops' RIP, the first line that tells
        rip = re.search(r'RIP: [0-9a-f]{4}:(\S+)', con)
        return ('kernel panic: ' + m.group(1).strip()
                + (f' at {rip.group(1)}' if rip else ''))
    with open(stderr, errors='replace') as f:
        err = f.read().strip()
    if err:
        return 'qemu: ' + err.splitlines()[-1]
    return 'the guest stopped before the command ended'


def new_run(tb):
    runs = vm_dir(tb, 'runs')
    old = sorted(glob.glob(os.path.join(runs, '[0-9]*')), key=os.path.getmtime)
    for d in old[:-KEEP_RUNS]:
        shutil.rmtree(d, ignore_errors=True)
    d = os.path.join(runs, time.strftime('%Y%m%d-%H%M%S') + f'-{os.getpid()}')
    n = 0
    while os.path.exists(d + (f'.{n}' if n else '')):
        n += 1
    d += f'.{n}' if n else ''
    os.makedirs(d)
    return d


def accel_for(tb, kernel, say):
    """kvm when a guest really runs in it here, else tcg; probed once per
    (QEMU, host kernel, guest kernel) and remembered in build/vm/accel.json."""
    if os.environ.get('TB_VM_ACCEL') in ('kvm', 'tcg'):
        return os.environ['TB_VM_ACCEL']
    if not os.access('/dev/kvm', os.R_OK | os.W_OK):
        return 'tcg'
    key = f'{qemu_version()}|{os.uname().release}|{kernel["bzimage"]}'
    path = os.path.join(vm_dir(tb), 'accel.json')
    try:
        with open(path) as f:
            known = json.load(f)
    except (OSError, ValueError):
        known = {}
    if key in known:
        return known[key]['accel']
    run = new_run(tb)
    g = Guest(run, kernel, 'kvm', {'mem': 256, 'cpus': 1, 'disk': 16}, 'exit 0\n')
    g.start()
    status, _, why = g.wait(60)
    g.cleanup()
    accel = 'kvm' if status == 0 else 'tcg'
    say(f'vm: KVM {"works" if accel == "kvm" else "fails here (" + (why or "no exit status") + ")"}'
        f'; using {accel.upper()} (probe: {os.path.relpath(run, tb.repo)})')
    known[key] = {'accel': accel, 'why': why, 'date': time.strftime('%Y-%m-%d')}
    with open(path, 'w') as f:
        json.dump(known, f, indent=1)
    return accel


def boot(tb, kernel, script, opts, say, files=None, put=None, stream=None, timeout=1800):
    """Run script (sh) in a guest; returns a dict with status (None when
    the guest ended without it), output, why, seconds, run directory."""
    accel = accel_for(tb, kernel, say)
    for tries in range(1, BOOT_TRIES + 1):
        run = new_run(tb)
        g = Guest(run, kernel, accel, opts, script, files, put)
        g.start()
        status, out, why = g.wait(timeout, stream)
        g.cleanup()
        if status is not None or g.started or not why.startswith('kernel panic'):
            break
        say(f'vm: the kernel panicked while booting, before the command started ({why}; '
            f'console log: {os.path.relpath(g.console, tb.repo)})'
            + ('; booting again' if tries < BOOT_TRIES else ''))
    return {'status': status, 'output': out, 'why': why, 'seconds': g.seconds,
            'run': run, 'console': g.console, 'accel': accel}


def check_tools():
    for exe, pkg in (('qemu-system-x86_64', 'qemu-system-x86'), ('mke2fs', 'e2fsprogs'),
                     ('cpio', 'cpio'), ('mkswap', 'util-linux')):
        if not shutil.which(exe):
            raise VmError(f'{exe} is missing (apt-get install {pkg})')
    if not os.path.exists(BUSYBOX):
        raise VmError(f'{BUSYBOX} is missing (apt-get install busybox-static)')


def vm_opts(a):
    o = {'mem': parse_size(a.mem or '1G', '--mem'),
         'cpus': a.cpus or 2, 'nodes': a.nodes or 1,
         'disk': parse_size(a.disk or '1G', '--disk'),
         'swap': parse_size(a.swap, '--swap') if a.swap else 0,
         'cmdline': a.cmdline or ''}
    if not 1 <= o['nodes'] <= 8:
        raise VmError(f'--nodes wants 1 to 8, not {o["nodes"]}')
    if o['cpus'] < 1:
        raise VmError('--cpus wants at least 1')
    return o


def cmd_vm(tb, say, fail):
    a = tb.a
    try:
        check_tools()
        opts = vm_opts(a)
        if a.patch and not os.path.isfile(a.patch):
            raise VmError(f'no patch file {a.patch}')
        for p in a.put or []:
            if not os.path.exists(p):
                raise VmError(f'--put: no such file {p}')
        argv = a.cmd_argv or []
        if not argv:
            raise VmError('vm needs a command after --, e.g. tools/tb vm -- cat /proc/version')
        # one argument is a shell command line (tb vm -- 'a | b'), more are
        # an argv, quoted as given
        script = (argv[0] if len(argv) == 1 else ' '.join(shlex.quote(x) for x in argv)) + '\n'
        kernel = kernel_for(tb, a.patch and os.path.abspath(a.patch), say)
        say(f'vm: {kernel["what"]} ({kernel["release"]}), {opts["cpus"]} CPUs, '
            f'{opts["mem"]} MiB' + (f' on {opts["nodes"]} nodes' if opts['nodes'] > 1 else '')
            + (f', {opts["swap"]} MiB swap' if opts['swap'] else ''))
        r = boot(tb, kernel, script, opts, say, put=a.put,
                 stream=lambda s: (sys.stdout.write(s), sys.stdout.flush()),
                 timeout=a.timeout or 1800)
    except VmError as e:
        fail(f'vm: {e}')
    cons = os.path.relpath(r['console'], tb.repo)
    if r['status'] is None:
        fail(f'vm: {r["why"]} after {r["seconds"]:.1f}s (console log: {cons})', 125)
    say(f'vm: exit status {r["status"]} after {r["seconds"]:.1f}s ({r["accel"].upper()}; '
        f'console log: {cons})')
    return r['status']
