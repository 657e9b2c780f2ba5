# SPDX-License-Identifier: GPL-2.0-only
"""Mutant schemata: one build of a kernel file holding many of its mutants,
each switched on at run time by TB_MUTANT=<id> (tools/tb_mutant.h).

A mutant goes into the schema when its change stays inside one of these
shapes of statement, so that with its id not selected the program is the
original one, and with it selected the program is the mutant's:
- a simple statement (an expression, return, break, continue, goto):
      if (tb_mutant(1)) { MUTANT } else if ... else { ORIGINAL }
- the condition of an if, else if, while or do-while:
      if (tb_mutant(1) ? !!(MUTANT) : ... : !!(ORIGINAL)) {
- the initializer of a scalar local:
      T x = ({ __typeof__(x) tb_v_; if (tb_mutant(1)) tb_v_ = (MUTANT);
               else tb_v_ = (ORIGINAL); tb_v_; });
The original text stays on its own lines (gcov, ASan and WARNs report its
line numbers); the mutants' texts go on the statement's first line. The
mutate build is -O0: no optimisation moves code across the switches.
Anything else (declarations without an initializer, case labels, macros,
lines with comments) is built one mutant at a time, as before.
"""
import re

from tb_mutate_ops import DECL_RE, matching_paren

COND_RE = re.compile(r'^\s*(\}\s*)?(else\s+)?(if|while)\s*\(')


def joined(text):
    return ' '.join(text.split('\n')).strip()


def top_level(s, chars):
    """offsets of chars in s outside brackets"""
    depth, out = 0, []
    for i, c in enumerate(s):
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        elif depth == 0 and c in chars:
            out.append(i)
    return out


def kind_of(stmt):
    """'cond', 'simple', 'init' or None for a statement's text"""
    lines = stmt.split('\n')
    for ln in lines:
        if '//' in ln or '/*' in ln or '*/' in ln or ln.lstrip().startswith('#') \
                or ln.rstrip().endswith('\\'):
            return None
    code = stmt.strip()
    if code.count('(') != code.count(')'):
        return None
    if COND_RE.match(stmt):
        return 'cond'
    if not code.endswith(';'):
        return None
    if re.match(r'^\w+\s*:[^:]', code):
        return None     # a label
    if re.match(r'^(return|break|continue|goto)\b', code):
        return 'simple'
    # a macro that declares (DEFINE_MAX_SEQ(lruvec);, XA_STATE(xas, ...);):
    # in a branch its name would go out of scope
    if re.match(r'^(static\s+)?((DEFINE|DECLARE)_\w+|\w+_ITERATOR|L?H?LIST_HEAD|'
                r'[A-Z]+_STATE(_[A-Z]+)?)\s*\(', code):
        return None
    # checked at compile time in either branch: such a mutant does not compile
    if re.match(r'^(BUILD_BUG_ON\w*|BUILD_BUG|static_assert|_Static_assert)\s*\(', code):
        return None
    if DECL_RE.match(stmt):
        return 'init' if init_parts(stmt) else None
    # a declaration DECL_RE does not see (a function pointer, a qualifier first)
    if re.match(r'^(static|const|volatile|struct|union|enum|void|char|short|int|long|unsigned|'
                r'signed|bool)\b', code) or re.match(r'^\w[\w\s]*\(\s*\*\s*\w+\s*\)\s*\(', code):
        return None
    if re.match(r'^(case|default|else|do|if|for|while|switch)\b|^[{}]', code):
        return None
    return 'simple'


def cond_parts(stmt):
    """(prefix up to the condition's '(', condition, rest from its ')')"""
    m = COND_RE.match(stmt)
    if not m:
        return None
    i = m.end() - 1
    j = matching_paren(stmt, i)
    if j < 0:
        return None
    return stmt[:i + 1], stmt[i + 1:j], stmt[j:]


def init_parts(stmt):
    """(prefix up to '=', variable, initializer, rest from the final ';')
    of 'T x = E;' for a scalar or pointer x, else None"""
    eq = [i for i in top_level(stmt, '=')
          if stmt[i + 1:i + 2] != '=' and stmt[i - 1:i] not in ('=', '!', '<', '>')]
    if not eq:
        return None
    e = eq[0]
    pre, rest = stmt[:e], stmt[e + 1:]
    if re.search(r'\b(static|const|register)\b|\[', pre) or not rest.strip() \
            or rest.strip().startswith('{'):
        return None
    m = re.search(r'(\w+)\s*$', pre)
    if not m:
        return None
    end = rest.rfind(';')
    if end < 0 or rest[end + 1:].strip() or top_level(rest[:end], ','):
        return None
    return stmt[:e + 1], m.group(1), rest[:end], rest[end:]


def schema_of(stmt, variants):
    """the statement's text holding the variants [(id, mutant text)], and
    the ids it holds (those whose change fits the statement's shape)"""
    kind = kind_of(stmt)
    if not kind:
        return None, []
    nl = stmt.endswith('\n')
    body = stmt[:-1] if nl else stmt
    if kind == 'simple':
        alts = [(i, joined(v)) for i, v in variants if kind_of(v) == 'simple' or
                v.strip() == ';']
        if not alts:
            return None, []
        indent = body[:len(body) - len(body.lstrip())]
        head = ''.join(f'if (tb_mutant({i})) {{ {t} }} else ' for i, t in alts)
        text = indent + head + '{ ' + body.lstrip() + ' }'
    elif kind == 'cond':
        pre, cond, post = cond_parts(body)
        alts = []
        for i, v in variants:
            p = cond_parts(v.rstrip('\n'))
            if p and p[0] == pre and p[2] == post:
                alts.append((i, joined(p[1])))
        if not alts:
            return None, []
        head = ''.join(f'tb_mutant({i}) ? !!({t}) : ' for i, t in alts)
        text = pre + head + '!!(' + cond + ')' + post
    else:
        pre, var, init, post = init_parts(body)
        alts = []
        for i, v in variants:
            p = init_parts(v.rstrip('\n'))
            if p and p[0] == pre and p[3] == post:
                alts.append((i, joined(p[2])))
        if not alts:
            return None, []
        head = ''.join(f'if (tb_mutant({i})) tb_v_ = ({t}); else ' for i, t in alts)
        text = (pre + f' ({{ __typeof__({var}) tb_v_; ' + head + 'tb_v_ = (' + init
                + '); tb_v_; })' + post)
    if text.count('\n') != body.count('\n'):
        return None, []
    return text + ('\n' if nl else ''), [i for i, _ in alts]


def build_schema(lines, statements, muts, skip=()):
    """(text of the file holding the mutants, {id: (first, last)} of those
    it holds). muts: [(id, line, end, new)] (lines line..end become new);
    skip: statements (first, last) to leave as they are."""
    stmt_of = {}
    for first, last in statements:
        for ln in range(first, last + 1):
            stmt_of[ln] = (first, last)
    by_stmt = {}
    for mid, line, end, new in muts:
        st = stmt_of.get(line)
        if not st or end > st[1] or st in skip:
            continue
        first, last = st
        text = ''.join(lines[first - 1:line - 1]) + new + ''.join(lines[end:last])
        by_stmt.setdefault(st, []).append((mid, text))
    out, held = list(lines), {}
    for (first, last), variants in sorted(by_stmt.items()):
        stmt = ''.join(lines[first - 1:last])
        text, ids = schema_of(stmt, variants)
        if not ids:
            continue
        new = text.splitlines(keepends=True)
        out[first - 1:last] = new + [''] * (last - first + 1 - len(new))
        for i in ids:
            held[i] = (first, last)
    return ''.join(out), held
