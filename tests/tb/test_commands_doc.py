#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""docs/commands.md against `tools/tb help`: every command of the help has a
section `## \\`tools/tb <command>\\`` and every option of the help is defined
in its command's section (a list item `- \\`--option ...\\`: ...`; the options
of every command under `## Options of every command`), and the page has no
command or option the help lacks."""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
GLOBAL = '(every command)'
OPT = re.compile(r'(?<![\w-])(--?[a-z][\w-]*)')


def help_text():
    p = subprocess.run([os.path.join(ROOT, 'tools', 'tb'), 'help'], stdout=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        sys.exit('tools/tb help failed')
    return p.stdout


def parse_help(text):
    """{command: set of options}; GLOBAL: the options of every command"""
    out, section = {}, None
    for line in text.splitlines():
        if line == 'Commands:':
            section = 'commands'
            continue
        m = re.match(r'^Options (?:of (\S+?)|\(every command\)):$', line)
        if m:
            section = m.group(1) or GLOBAL
            out.setdefault(section, set())
            continue
        if not line.strip() or not line.startswith('  '):
            if not line.strip():
                continue
            section = None
            continue
        if section == 'commands':
            m = re.match(r'^  ([a-z][\w-]*)', line)
            if m:
                out.setdefault(m.group(1), set())
        elif section:
            m = re.match(r'^  (-\S.*?)(?:\s{2,}|$)', line)
            if m:
                out[section].update(OPT.findall(m.group(1)))
    return out


def parse_doc(text):
    out, section = {}, None
    for line in text.splitlines():
        m = re.match(r'^## `tools/tb (\S+)`\s*$', line)
        if m:
            section = m.group(1)
            out.setdefault(section, set())
            continue
        if line.strip() == '## Options of every command':
            section = GLOBAL
            out.setdefault(section, set())
            continue
        if line.startswith('#'):
            section = None
            continue
        m = re.match(r'^- (`.*?`(?:, `.*?`)*):', line)
        if section and m:
            for code in re.findall(r'`([^`]*)`', m.group(1)):
                out[section].update(OPT.findall(code))
    return out


def compare(helped, documented):
    errs = []
    for c in sorted(set(helped) - set(documented)):
        errs.append(f'tools/tb help has {"options of every command" if c == GLOBAL else c}, '
                    f'docs/commands.md has no section for it')
    for c in sorted(set(documented) - set(helped)):
        errs.append(f'docs/commands.md has a section for {c}, tools/tb help does not')
    for c in sorted(set(helped) & set(documented)):
        for o in sorted(helped[c] - documented[c]):
            errs.append(f'{c}: option {o} is in tools/tb help, not defined in docs/commands.md')
        for o in sorted(documented[c] - helped[c]):
            errs.append(f'{c}: option {o} is defined in docs/commands.md, not in tools/tb help')
    return errs


def self_check():
    h = parse_help('Commands:\n  run    x\n  test   y\n\nOptions (every command):\n'
                   '  -v, --verbose   z\nOptions of test:\n  --file F   only\n'
                   '  --before DIR --after DIR   two\n')
    want = {'run': set(), 'test': {'--file', '--before', '--after'},
            GLOBAL: {'-v', '--verbose'}}
    if h != want:
        sys.exit(f'self-check: parse_help gave {h}')
    d = parse_doc('## `tools/tb test`\n- `--file mm/X.c`: a\n- `--before DIR`, `--after DIR`: b\n'
                  'prose `--slow` is no definition\n## Options of every command\n'
                  '- `-v`, `--verbose`: c\n')
    errs = compare(h, d)
    if errs != ['tools/tb help has run, docs/commands.md has no section for it']:
        sys.exit(f'self-check: compare gave {errs}')


def main():
    self_check()
    helped = parse_help(help_text())
    with open(os.path.join(ROOT, 'docs', 'commands.md')) as f:
        documented = parse_doc(f.read())
    errs = compare(helped, documented)
    for e in errs:
        print(e)
    n = sum(len(v) for v in helped.values())
    print(f'{len(helped) - 1} commands and {n} options in tools/tb help; '
          f'{len(errs)} difference(s) with docs/commands.md')
    return 1 if errs else 0


if __name__ == '__main__':
    sys.exit(main())
