#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""check_names.py LIB PREFIX: every global symbol LIB defines starts with
PREFIX (or is the compiler's own), so two trees can share one binary."""
import subprocess
import sys

TOOLCHAIN = ('__gcov', '__odr_asan', '__asan', '__tsan', '__ubsan', '__sancov',
             '__llvm', '_GLOBAL_', '__profc', '__profd')
# what the linker defines in a shared object (the plain test build's):
# ld.bfd lists a section's hidden bounds too (linux/percpu.h's)
LINKER = ('__bss_start', '_edata', '_end', '_init', '_fini', '__start_kshim_percpu',
          '__stop_kshim_percpu')


def main():
    lib, prefix = sys.argv[1], sys.argv[2]
    out = subprocess.run(['nm', '-g', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    bad = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        name = parts[2]
        if not name.startswith(prefix) and not name.startswith(TOOLCHAIN) \
                and name not in LINKER:
            bad.append(name)
    if bad:
        sys.exit('%s: global symbols outside the %s namespace (add them to '
                 'mm/vmscan61/names.h): %s' % (lib, prefix, ' '.join(sorted(set(bad)))))


main()
