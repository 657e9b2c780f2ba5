#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One definition of each symbol per test executable, in the plain test
build whose kernel code is in shared libraries (tb_kernel_library()).

A static link takes one definition of a symbol, the first archive member
that supplies it, and refuses two strong ones. The dynamic linker takes
the first module of the executable's scope (the executable, then its
libraries in DT_NEEDED order) that defines the name, weak or not, and a
kernel library built with -Bsymbolic-functions keeps its own for its own
calls. A name defined twice can thus bind to another body than the static
build's, or to two bodies at once. This test reads every test executable
of a build directory and the build's shared libraries it loads, and fails
when a name is defined in more than one of them (the linker's own
__bss_start, _edata, _end, and a variable copied into the executable by
an R_X86_64_COPY relocation are one object).

It also fails when a module uses a per-CPU variable (DEFINE_PER_CPU,
section kshim_percpu) of another module: each module finds the copies of
its own section only (linux/percpu.h), and a variable an executable uses
is moved out of its library's section into the executable (a copy
relocation).

usage: test_one_definition.py BUILD_DIR
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools'))
import tb_output  # noqa: E402
from test_kfile_labels import loaded_libraries  # noqa: E402

LINKER = {'__bss_start', '_edata', '_end', '_init', '_fini'}


def dynamic_symbols(path):
    """(names path defines, names it uses from elsewhere, names it defines
    in section kshim_percpu), from its dynamic symbol table"""
    p = subprocess.run(['readelf', '-SW', '--dyn-syms', path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    m = re.search(r'^\s*\[\s*(\d+)\] kshim_percpu\s', p.stdout, re.M)
    pcpu = m and m.group(1)
    defs, undef, percpu = set(), set(), set()
    for line in p.stdout.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name; a hidden one (ld.bfd's
        # section bounds) binds nothing outside its module
        if len(f) < 8 or not f[0].endswith(':') or f[4] not in ('GLOBAL', 'WEAK') \
                or f[5] in ('HIDDEN', 'INTERNAL'):
            continue
        name = f[7].split('@')[0]
        if f[6] == 'UND':
            undef.add(name)
        else:
            defs.add(name)
            if f[6] == pcpu:
                percpu.add(name)
    return defs - LINKER, undef, percpu


def copied(exe):
    """Names of exe's R_X86_64_COPY relocations: a library's variable,
    placed in the executable and used by the library from there."""
    p = subprocess.run(['readelf', '-rW', exe], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return {l.split()[4] for l in p.stdout.splitlines() if 'R_X86_64_COPY' in l}


def duplicates(scope):
    """[(name, [module, ...])] of the names defined in more than one of
    scope, a list of (module, {names}) in lookup order."""
    where = {}
    for mod, names in scope:
        for n in names:
            where.setdefault(n, []).append(mod)
    return sorted((n, m) for n, m in where.items() if len(m) > 1)


def foreign_percpu(scope):
    """[(module, name, owner)]: module of scope, a list of (module, defined,
    used, per-CPU names), uses a per-CPU variable owner defines"""
    owner = {n: mod for mod, _, _, pcpu in scope for n in pcpu}
    return sorted((mod, n, owner[n]) for mod, _, used, _ in scope for n in used
                  if n in owner and owner[n] != mod)


def self_check():
    """The checker reports what it must (so the guard can fail)."""
    got = duplicates([('exe', {'a', 'b'}), ('libx.so', {'b', 'c'}), ('liby.so', {'c', 'd'})])
    if got != [('b', ['exe', 'libx.so']), ('c', ['libx.so', 'liby.so'])]:
        sys.exit(f'self-check: duplicates gave {got}')
    got = foreign_percpu([('exe', set(), {'v'}, set()), ('libx.so', {'v'}, set(), {'v'}),
                          ('liby.so', {'w'}, {'w'}, {'w'})])
    if got != [('exe', 'v', 'libx.so')]:
        sys.exit(f'self-check: foreign_percpu gave {got}')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    self_check()
    bdir = sys.argv[1]
    tests = tb_output.ctest_listing(bdir, None, '.')
    if tests is None:
        sys.exit(f'ctest --show-only failed in {bdir}')
    broot = os.path.realpath(bdir) + os.sep
    exes = sorted({t['command'][0] for t in tests if t['command'] and
                   os.path.realpath(t['command'][0]).startswith(broot) and
                   os.path.isfile(t['command'][0])})
    exes = [e for e in exes if open(e, 'rb').read(4) == b'\x7fELF']
    libs, errors, nlibs = {}, [], 0
    for exe in exes:
        defs, used, percpu = dynamic_symbols(exe)
        cp = copied(exe)
        # a variable copied into the executable is the library's, used there
        scope = [(os.path.basename(exe), defs - cp, used | cp, percpu)]
        for lib in loaded_libraries(exe, bdir):
            if lib not in libs:
                libs[lib] = dynamic_symbols(lib)
            scope.append((os.path.basename(lib),) + libs[lib])
        nlibs += len(scope) - 1
        for name, mods in duplicates([(m, d) for m, d, _, _ in scope]):
            errors.append(f'{os.path.basename(exe)}: {name} is defined in {" and ".join(mods)}: '
                          f'the dynamic linker takes {mods[0]}\'s, the static link may not')
        for mod, name, owner in foreign_percpu(scope):
            errors.append(f'{os.path.basename(exe)}: {mod} uses {name}, a per-CPU variable of '
                          f'{owner}: it finds the copies of its own per-CPU section only')
    for e in errors:
        print(e)
    print(f'{len(exes)} executables read, {len(libs)} shared libraries of the build '
          f'({nlibs} loads), {len(errors)} error(s)')
    if not libs:
        print(f'{bdir}: no test loads a shared library of the build (a static build?)')
        return 1
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
