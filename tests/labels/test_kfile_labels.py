#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The edit loop's guard: a test labelled kfile:F is built from F.

`tools/tb test --file F` runs the tests labelled kfile:F and builds only
their executables. A label on a test that is not built from F (a script,
or an executable without F's code) makes the loop run and build what an
edit of F cannot change. This test reads every ctest test of a build
directory and fails when
  - a test labelled kfile:F runs something that is not an executable of
    the build directory (a script, a shell command), or
  - the debug line tables of its executable, and of the build's shared
    libraries it loads (the kernel libraries of the plain test build),
    name no file F of the kernel trees (no code of F was linked into it), or
  - a test labelled `slow` carries a kfile label (`--file` would run it), or
  - a test labelled `variant` (which `--file` leaves out) has no base test:
    a test without that label that runs the same command, has the same
    labels otherwise, and whose environment is the variant's without
    TB_NODES (the variant must set TB_NODES: more nodes, the same code).
    A test that runs other code (another environment switch, such as
    TB_LRU_GEN's multi-gen LRU) is no variant: --file must run it; and
  - a test that is such a variant of another (the same command and
    labels, TB_NODES added to its environment) lacks the label: --file
    would run the suite again on more nodes (how its tests grew from 35
    to 57 for memcontrol.c).
It does not depend on timing. The converse (an executable holding code of
F without the label) is allowed: kfile:F names the suites that test F, and
much of the kernel code is linked into every world (page_counter.c behind
every memcg charge); `tools/tb test` without --file runs them all.

usage: test_kfile_labels.py BUILD_DIR TREE [BEFORE_TREE BEFORE_VERSION]
"""
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools'))
import tb_output  # noqa: E402


# a table of readelf's line dump: its heading, then its lines up to a blank
# line (or the next heading); the line programs between are skipped whole
LINE_TABLE = re.compile(r'The (Directory|File Name) Table[^\n]*\n'
                        r'((?:(?![ \t]*The (?:Directory|File Name) Table)[ \t]*\S[^\n]*\n)*)')
DIR_ENTRY = re.compile(r'\s*\d+\s+(?:\([^)]*\):\s*)?(.*)$')
FILE_ENTRY = re.compile(r'\s*\d+\s+(\d+)\s+(?:\([^)]*\):\s*)?(.*)$')


def elf_sections(data):
    """{name: bytes} of a little-endian ELF64 file's sections, or None
    (another kind of ELF, compressed debug sections)."""
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        return None
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    heads = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize) for i in range(shnum)]
    stroff, strsize = heads[shstrndx][4], heads[shstrndx][5]
    names = data[stroff:stroff + strsize]
    out = {}
    for name, typ, flags, _, off, size in heads:
        n = names[name:names.index(b'\0', name)].decode()
        if n.startswith('.debug') and flags & 0x800:  # SHF_COMPRESSED
            return None
        if typ != 8:  # SHT_NOBITS
            out[n] = data[off:off + size]
    return out


def uleb(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return v, i


def cstr(b, i):
    j = b.index(b'\0', i)
    return b[i:j].decode(errors='replace'), j + 1


def line_table_files(exe):
    """What debug_files() gives, read from the line tables' headers in
    the ELF file itself (DWARF 5, as gcc writes it): readelf prints every
    line program too, megabytes of text a test executable. None when the
    file is not of that kind (debug_files() asks readelf then)."""
    with open(exe, 'rb') as f:
        secs = elf_sections(f.read())
    if secs is None or '.debug_line' not in secs:
        return None
    line, lstr, dstr = secs['.debug_line'], secs.get('.debug_line_str', b''), secs.get('.debug_str', b'')
    files = set()
    i = 0
    while i < len(line):
        length, = struct.unpack_from('<I', line, i)
        off = 4
        if length == 0xffffffff:
            length, = struct.unpack_from('<Q', line, i + 4)
            off = 12
        end = i + off + length
        version, = struct.unpack_from('<H', line, i + off)
        if version != 5:
            return None
        j = i + off + 2 + 2 + (8 if off == 12 else 4) + 5  # sizes, header_length, 5 bytes
        opcode_base = line[j - 1]
        j += opcode_base - 1

        def entries(j):
            nfmt = line[j]
            j += 1
            fmts = []
            for _ in range(nfmt):
                ct, j = uleb(line, j)
                form, j = uleb(line, j)
                fmts.append((ct, form))
            count, j = uleb(line, j)
            rows = []
            for _ in range(count):
                row = {}
                for ct, form in fmts:
                    if form == 0x08:  # string
                        v, j = cstr(line, j)
                    elif form in (0x1f, 0x0e):  # line_strp, strp
                        w = 8 if off == 12 else 4
                        o = int.from_bytes(line[j:j + w], 'little')
                        j += w
                        v, _ = cstr(lstr if form == 0x1f else dstr, o)
                    elif form == 0x0f:  # udata
                        v, j = uleb(line, j)
                    elif form in (0x0b, 0x05, 0x06, 0x07, 0x1e):  # data1/2/4/8/16
                        w = {0x0b: 1, 0x05: 2, 0x06: 4, 0x07: 8, 0x1e: 16}[form]
                        v = int.from_bytes(line[j:j + w], 'little')
                        j += w
                    elif form == 0x09:  # block
                        w, j = uleb(line, j)
                        v = line[j:j + w]
                        j += w
                    else:
                        raise ValueError(f'{exe}: DWARF form {form:#x} in a line table header')
                    row[ct] = v
                rows.append(row)
            return rows, j

        dirs, j = entries(j)
        names, j = entries(j)
        dirs = [d.get(1, '') for d in dirs]
        for n in names:
            k = n.get(2, 0)
            d = dirs[k] if k < len(dirs) else ''
            files.add(os.path.normpath(os.path.join(d, n.get(1, ''))))
        i = end
    return files


def debug_files(exe):
    """Absolute paths of the files named by exe's DWARF line tables."""
    got = line_table_files(exe)
    if got is not None:
        return got
    return readelf_files(exe)


def readelf_files(exe):
    """debug_files() as readelf --debug-dump=line prints the tables."""
    p = subprocess.run(['readelf', '--debug-dump=line', exe], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, errors='replace')
    files, dirs = set(), []
    for t in LINE_TABLE.finditer(p.stdout):
        if t.group(1) == 'Directory':
            dirs = []
            for line in t.group(2).splitlines():
                m = DIR_ENTRY.match(line)
                if m:
                    dirs.append(m.group(1).strip())
            continue
        for line in t.group(2).splitlines():
            m = FILE_ENTRY.match(line)
            if m:
                i = int(m.group(1))
                d = dirs[i] if i < len(dirs) else ''
                files.add(os.path.normpath(os.path.join(d, m.group(2).strip())))
    return files


def loaded_libraries(exe, bdir):
    """The shared objects of the build directory bdir that exe loads: its
    DT_NEEDED entries found in its DT_RUNPATH (or DT_RPATH) directories."""
    p = subprocess.run(['readelf', '-d', exe], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    needed = re.findall(r'\(NEEDED\)\s+Shared library: \[(.*)\]', p.stdout)
    dirs = []
    for m in re.findall(r'\((?:RUNPATH|RPATH)\)\s+Library r(?:un)?path: \[(.*)\]', p.stdout):
        dirs += [d.replace('$ORIGIN', os.path.dirname(exe)) for d in m.split(':')]
    broot = os.path.realpath(bdir) + os.sep
    out = []
    for n in needed:
        for d in dirs:
            f = os.path.realpath(os.path.join(d, n))
            if os.path.isfile(f):
                if f.startswith(broot):
                    out.append(f)
                break
    return out


def kernel_files(paths, trees):
    """kfile names ('mm/x.c', 'mm/x.c@6.1') of the .c files under trees,
    a list of (tree, suffix); the first tree that holds a path names it."""
    out = set()
    for f in paths:
        if not f.endswith('.c'):
            continue
        for tree, suffix in trees:
            if f.startswith(tree.rstrip('/') + '/'):
                out.add(os.path.relpath(f, tree) + suffix)
                break
    return out


def check(tests, bdir, linked):
    """Errors (one line each) of tests [{name, command, labels}]; linked(exe)
    gives the kfile names an executable is built from."""
    errors = []
    broot = os.path.realpath(bdir) + os.sep
    for t in tests:
        kl = sorted(l[6:] for l in t['labels'] if l.startswith('kfile:'))
        if not kl:
            continue
        if 'slow' in t['labels']:
            errors.append(f'{t["name"]}: labelled slow and kfile:{kl[0]}: '
                          f'tools/tb test --file would run a slow test')
        exe = (t['command'] or [''])[0]
        if not (os.path.realpath(exe).startswith(broot) and os.path.isfile(exe)):
            errors.append(f'{t["name"]}: labelled kfile:{kl[0]} but runs {exe or "nothing"}, '
                          f'not an executable of {bdir}: drop its kfile labels')
            continue
        have = linked(exe)
        for k in kl:
            if k not in have:
                errors.append(f'{t["name"]}: labelled kfile:{k} but {os.path.basename(exe)} '
                              f'holds no code of {k}')
    return errors


def check_variants(tests):
    """Errors (one line each) of the tests labelled `variant` without their
    base test (tb_output.VARIANT_LABEL's rule)."""
    errors = []
    base = [t for t in tests if tb_output.VARIANT_LABEL not in t['labels']]
    for t in tests:
        if tb_output.VARIANT_LABEL not in t['labels']:
            continue
        env = t.get('env') or []
        if len(tb_output.variant_base_env(env)) == len(env):
            errors.append(f'{t["name"]}: labelled {tb_output.VARIANT_LABEL} but sets none of '
                          f'{", ".join(tb_output.VARIANT_ENV)}')
            continue
        want = sorted(tb_output.variant_base_env(env))
        same = [b for b in base if b['command'] == t['command']]
        if not same:
            errors.append(f'{t["name"]}: labelled {tb_output.VARIANT_LABEL} but no test '
                          f'without that label runs {" ".join(t["command"]) or "its command"}')
        elif not tb_output.variant_base(t, base):
            errors.append(f'{t["name"]}: labelled {tb_output.VARIANT_LABEL} but no test of its '
                          f'command ({", ".join(b["name"] for b in same)}) has its labels and '
                          f'the environment {" ".join(want) or "(none)"}')
    # the converse: a variant of a base test without the label
    for t in base:
        env = t.get('env') or []
        want = sorted(tb_output.variant_base_env(env))
        if len(want) == len(env):
            continue
        of = [b['name'] for b in base if b is not t and b['command'] == t['command']
              and sorted(b['labels']) == sorted(t['labels'])
              and sorted(b.get('env') or []) == want]
        if of:
            errors.append(f'{t["name"]}: {of[0]} again with '
                          f'{" ".join(e for e in env if e not in want)}: label it '
                          f'{tb_output.VARIANT_LABEL} (tools/tb test --file runs it otherwise)')
    return errors


def self_check():
    """The checker reports what it must (so the guard can fail)."""
    fake = [{'name': 'script', 'command': ['/bin/sh', 'x.sh'], 'labels': ['unit', 'kfile:mm/a.c']},
            {'name': 'exe', 'command': [__file__], 'labels': ['unit', 'kfile:mm/a.c', 'kfile:mm/b.c']},
            {'name': 'slowexe', 'command': [__file__], 'labels': ['slow', 'kfile:mm/a.c']},
            {'name': 'plain', 'command': ['/bin/sh'], 'labels': ['unit']}]
    errs = check(fake, os.path.dirname(__file__), lambda exe: {'mm/a.c'})
    want = [r'^script: .*not an executable', r'^exe: .*kfile:mm/b.c.*no code of mm/b.c',
            r'^slowexe: labelled slow']
    for w in want:
        if not any(re.search(w, e) for e in errs):
            sys.exit(f'self-check: no error matching {w!r} in {errs}')
    if len(errs) != len(want):
        sys.exit(f'self-check: unexpected errors {errs}')
    var = [{'name': 'a', 'command': ['/x/a'], 'labels': ['unit', 'kfile:mm/a.c'], 'env': []},
           {'name': 'a_2nodes', 'command': ['/x/a'], 'labels': ['unit', 'kfile:mm/a.c', 'variant'],
            'env': ['TB_NODES=2']},
           {'name': 'a_lru', 'command': ['/x/a'], 'labels': ['unit', 'kfile:mm/a.c'],
            'env': ['TB_LRU_GEN=y']},
           {'name': 'a_lru_4nodes', 'command': ['/x/a'],
            'labels': ['unit', 'kfile:mm/a.c', 'variant'], 'env': ['TB_NODES=4', 'TB_LRU_GEN=y']},
           {'name': 'a_lru_var', 'command': ['/x/a'], 'labels': ['unit', 'kfile:mm/a.c', 'variant'],
            'env': ['TB_LRU_GEN=y']},
           {'name': 'b_2nodes', 'command': ['/x/b'], 'labels': ['unit', 'variant'],
            'env': ['TB_NODES=2']},
           {'name': 'a_labels', 'command': ['/x/a'], 'labels': ['unit', 'variant'],
            'env': ['TB_NODES=2']},
           {'name': 'a_env', 'command': ['/x/a'], 'labels': ['unit', 'kfile:mm/a.c', 'variant'],
            'env': ['TB_NODES=2', 'TB_OTHER=1']},
           {'name': 'a_lru_2nodes', 'command': ['/x/a'], 'labels': ['unit', 'kfile:mm/a.c'],
            'env': ['TB_LRU_GEN=y', 'TB_NODES=2']},
           {'name': 'c_4nodes', 'command': ['/x/c'], 'labels': ['unit'], 'env': ['TB_NODES=4']}]
    errs = check_variants(var)
    want = [r'^a_lru_var: .*sets none of TB_NODES', r'^b_2nodes: .*no test without that label',
            r'^a_labels: .*has its labels', r'^a_env: .*environment TB_OTHER=1',
            r'^a_lru_2nodes: a_lru again with TB_NODES=2: label it variant']
    for w in want:
        if not any(re.search(w, e) for e in errs):
            sys.exit(f'self-check: no variant error matching {w!r} in {errs}')
    if len(errs) != len(want):
        sys.exit(f'self-check: unexpected variant errors {errs}')
    trees = [('/t/a', ''), ('/t/b', '@6.1')]
    got = kernel_files({'/t/a/mm/x.c', '/t/b/mm/x.c', '/t/a/include/y.h', '/u/z.c'}, trees)
    if got != {'mm/x.c', 'mm/x.c@6.1'}:
        sys.exit(f'self-check: kernel_files gave {sorted(got)}')


def main():
    if len(sys.argv) not in (3, 5):
        sys.exit(__doc__.strip().splitlines()[-1])
    self_check()
    bdir = sys.argv[1]
    # a tree as named (tools/tb matrix names each through one symlink,
    # which the line tables keep) and as it is
    trees = [(p, '') for p in dict.fromkeys((os.path.abspath(sys.argv[2]),
                                             os.path.realpath(sys.argv[2])))]
    if len(sys.argv) == 5:
        ver = '.'.join(sys.argv[4].split('.')[:2])
        trees += [(p, '@' + ver) for p in dict.fromkeys((os.path.abspath(sys.argv[3]),
                                                         os.path.realpath(sys.argv[3])))]
    tests = tb_output.ctest_listing(bdir, None, '.')
    if tests is None:
        sys.exit(f'ctest --show-only failed in {bdir}')
    exes = sorted({t['command'][0] for t in tests if t['command'] and
                   any(l.startswith('kfile:') for l in t['labels']) and
                   os.path.isfile(t['command'][0])})
    # the reader of the line tables reads what readelf reads (the first
    # executable, both ways)
    if exes and line_table_files(exes[0]) not in (None, readelf_files(exes[0])):
        sys.exit(f'{exes[0]}: the line tables read here differ from readelf\'s')
    # the plain test build's kernel code is in shared libraries, each read once
    lib_files = {}

    def linked(exe):
        files = set(debug_files(exe))
        for lib in loaded_libraries(exe, bdir):
            if lib not in lib_files:
                lib_files[lib] = debug_files(lib)
            files |= lib_files[lib]
        return files
    found = {e: kernel_files(linked(e), trees) for e in exes}
    empty = [e for e in exes if not found[e]]
    errors = check(tests, bdir, lambda exe: found.get(exe, set()))
    errors += check_variants(tests)
    for e in empty:
        errors.append(f'{os.path.basename(e)}: no kernel file in its debug line tables '
                      f'(built without -g?)')
    labelled = sum(1 for t in tests if any(l.startswith('kfile:') for l in t['labels']))
    for e in errors:
        print(e)
    nvar = sum(tb_output.VARIANT_LABEL in t['labels'] and
               any(l.startswith('kfile:') for l in t['labels']) for t in tests)
    print(f'{labelled} tests with kfile labels ({nvar} of them {tb_output.VARIANT_LABEL} runs), '
          f'{len(exes)} executables read, {len(errors)} error(s)')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
