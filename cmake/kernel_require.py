#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""kernel_require.py TREE FILE STAMP SYMBOL...: the build-time half of
kernel_require() (cmake/KernelTree.cmake): every SYMBOL must be defined in
TREE/FILE; on success STAMP is touched, else one line names the tree, the
file and the first missing symbol."""
import os
import re
import sys


def main(argv):
    if len(argv) < 4:
        sys.stderr.write('usage: kernel_require.py TREE FILE STAMP SYMBOL...\n')
        return 2
    tree, path, stamp, syms = argv[0], argv[1], argv[2], argv[3:]
    try:
        with open(os.path.join(tree, path), errors='replace') as f:
            text = f.read()
    except OSError as e:
        sys.stderr.write(f'kernel tree {tree}: {path}: {e.strerror}\n')
        return 1
    for sym in syms:
        # a definition: the name at the start of a line or after its return
        # type, its parameter list, then the opening brace
        if not re.search(r'\n([A-Za-z_][^\n;=(]*[ \t*])?' + re.escape(sym) +
                         r'\([^;{]*\)[ \t\n]*{', text):
            sys.stderr.write(f'kernel tree {tree}: {path}: symbol \'{sym}\' missing\n')
            return 1
    os.makedirs(os.path.dirname(stamp), exist_ok=True)
    with open(stamp, 'w'):
        pass
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
