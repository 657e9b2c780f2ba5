# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb mutate's mutation operators: kernel-style C in, mutants out.

Two kinds of operator:
- line operators (mutants_of_line): comparison flips, boundary shifts,
  && / ||, condition negation, constants, return values, statement
  deletion, each on one line of C;
- statement operators (Source.mutants): they need a whole statement or
  condition, which may span several lines, and the C precedence of its
  operators: operand swaps, loop bounds, arithmetic, min/max/clamp,
  break/continue removal, bool flips, mask flag drops, condition term
  drops, and the negation or deletion of a multi-line statement.
Source.mutants runs both on every line of a statement, so the second line
of a multi-line `while (a ||` condition gets its mutants like the first.
"""
import re

# every operator's name, as the results and tests/mutate/equivalent.txt say it
OPERATORS = ('comparison flip', 'boundary shift', '&& / ||', 'condition negation',
             'constant + 1', 'constant - 1', 'return value', 'statement deletion',
             'operand swap', 'loop bound + 1', 'loop bound - 1', 'arithmetic',
             'min/max swap', 'min/max argument', 'clamp bound drop', 'break/continue removal',
             'bool flip', 'mask flag drop', 'condition term drop')

# ---- line operators -----------------------------------------------------
REL_FLIP = {'==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>'}
BOUNDARY = {'<': '<=', '<=': '<', '>': '>=', '>=': '>'}
# a comparison operator, not part of ->, <<, >>, <<=, >>=, or an #include
REL_RE = re.compile(r'(?<![<>=!\-])(==|!=|<=|>=|<|>)(?![<>=])')
LOGIC_RE = re.compile(r'&&|\|\|')
INT_RE = re.compile(r'(?<![\w.])(\d+)(?![\w.])')
RETURN_RE = re.compile(r'^(\s*return\s+)(.+?)(;\s*)$')
DECL_RE = re.compile(r'^\s*(const\s+|static\s+|unsigned\s+|signed\s+)*'
                     r'(struct\s+\w+|enum\s+\w+|union\s+\w+|\w+)\s+[\*\s]*\w+\s*(=|;|\[|,)')
KEYWORDS = ('return', 'break', 'continue', 'goto', 'case', 'default', 'else', 'do')


def code_part(line):
    """the line without a trailing // or /* comment, and whether it is code"""
    s = line.split('//')[0]
    s = s.split('/*')[0]
    st = s.strip()
    if not st or st.startswith(('#', '*')):
        return s, False
    return s, True


def in_string(s, pos):
    return s[:pos].count('"') % 2 == 1


def matching_paren(s, i):
    depth = 0
    for j in range(i, len(s)):
        if s[j] == '(':
            depth += 1
        elif s[j] == ')':
            depth -= 1
            if depth == 0:
                return j
    return -1


def is_deletable(code):
    """a statement whose deletion is a mutant: it ends with ';', changes
    state (an assignment, ++/--, a call) and declares nothing"""
    st = code.strip()
    # '} while (c);' closes a do-while: without it the program does not compile
    return (st.endswith(';') and not st.startswith(KEYWORDS + ('}',)) and not DECL_RE.match(code)
            and ('=' in st.replace('==', '') or '++' in st or '--' in st
                 or re.search(r'\w\s*\(', st))
            and st.count('(') == st.count(')'))


def mutants_of_line(line):
    """(operator, new line) pairs for one line of C"""
    code, ok = code_part(line)
    if not ok:
        return []
    out = []
    rest = line[len(code):]
    for m in REL_RE.finditer(code):
        op = m.group(1)
        if in_string(code, m.start()):
            continue
        if op in ('<', '>') and re.search(r'#include|<\w+\.h>', code):
            continue
        a, b = code[:m.start()], code[m.end():]
        out.append(('comparison flip', a + REL_FLIP[op] + b + rest))
        if op in BOUNDARY:
            out.append(('boundary shift', a + BOUNDARY[op] + b + rest))
    for m in LOGIC_RE.finditer(code):
        if in_string(code, m.start()):
            continue
        new = '||' if m.group(0) == '&&' else '&&'
        out.append(('&& / ||', code[:m.start()] + new + code[m.end():] + rest))
    for m in re.finditer(r'\b(if|while)\s*\(', code):
        i = code.index('(', m.start())
        j = matching_paren(code, i)
        if j > 0:
            out.append(('condition negation',
                        code[:i + 1] + '!(' + code[i + 1:j] + '))' + code[j + 1:] + rest))
    for m in INT_RE.finditer(code):
        if in_string(code, m.start()) or code.strip().startswith('case'):
            continue
        n = int(m.group(1))
        a, b = code[:m.start()], code[m.end():]
        out.append(('constant + 1', a + str(n + 1) + b + rest))
        if n > 0:
            out.append(('constant - 1', a + str(n - 1) + b + rest))
    m = RETURN_RE.match(code)
    # "return NULL" -> "return 0" would be the same program
    if m and m.group(2).strip() != 'NULL':
        val = m.group(2).strip()
        repl = {'true': 'false', 'false': 'true', '0': '1'}.get(val, '0')
        out.append(('return value', m.group(1) + repl + m.group(3) + rest))
    if is_deletable(code):
        indent = line[:len(line) - len(line.lstrip())]
        out.append(('statement deletion', indent + ';' + ('\n' if line.endswith('\n') else '')))
    seen, uniq = {line}, []
    for o in out:
        # a change two operators make alike (return 0 -> 1) is one mutant
        if o[1] not in seen:
            seen.add(o[1])
            uniq.append(o)
    return uniq


def functions_of(lines):
    """{line number: function name} for the bodies of kernel-style functions"""
    owner, name, inside = {}, None, False
    for i, line in enumerate(lines, 1):
        if not inside:
            m = re.match(r'^[A-Za-z_].*?\b(\w+)\s*\(', line)
            if m and not line.rstrip().endswith(';') and not line.startswith(('#', 'typedef')):
                name = m.group(1)
            if line.startswith('{') and name:
                inside = True
            continue
        if line.startswith('}'):
            inside, name = False, None
            continue
        owner[i] = name
    return owner


# ---- the source as code: comments, literals and directives blanked -----------
def blank(text):
    """text of the same length and lines with comments, preprocessor lines
    and the insides of string and character literals turned into spaces:
    what is left is code, at the offsets of the original"""
    out = list(text)
    i, n = 0, len(text)
    bol = True  # at the start of a line (only blanks before)
    while i < n:
        c = text[i]
        if c == '\n':
            bol = True
            i += 1
            continue
        if bol and c == '#':
            # a directive, with its backslash continuations
            while i < n and not (text[i] == '\n' and text[i - 1] != '\\'):
                if text[i] != '\n':
                    out[i] = ' '
                i += 1
            continue
        if not c.isspace():
            bol = False
        if text.startswith('//', i):
            while i < n and text[i] != '\n':
                out[i] = ' '
                i += 1
            continue
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if text[k] != '\n':
                    out[k] = ' '
            i = j
            continue
        if c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            for k in range(i + 1, min(j, n)):
                out[k] = ' '
            i = j + 1
            continue
        i += 1
    return ''.join(out)


TOKEN_RE = re.compile(r'\w+|"[^"\n]*"|\'[^\'\n]*\'|->|\+\+|--|<<=|>>=|<=|>=|==|!=|&&|\|\|'
                      r'|[-+*/%&|^]=|<<|>>|\S')
# binary operators by C precedence (higher binds tighter)
PREC = {'*': 13, '/': 13, '%': 13, '+': 12, '-': 12, '<<': 11, '>>': 11,
        '<': 10, '<=': 10, '>': 10, '>=': 10, '==': 9, '!=': 9, '&': 8, '^': 7, '|': 6,
        '&&': 5, '||': 4, '?': 3, ':': 3, ',': 1}
ASSIGN = {'=', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '<<=', '>>='}
# words after which an operator is unary (or a keyword starts an operand)
STOP_WORDS = {'return', 'case', 'else', 'do', 'goto', 'if', 'while', 'for', 'switch'}
NOT_OPERAND = STOP_WORDS | {'sizeof', 'typeof', '__typeof__'}
RELATIONAL = ('<', '<=', '>', '>=')
ARITH_SWAP = {'+': '-', '-': '+', '*': '/', '/': '*', '<<': '>>', '>>': '<<',
              '+=': '-=', '-=': '+=', '*=': '/=', '/=': '*=', '<<=': '>>=', '>>=': '<<='}
MINMAX_SWAP = {'min': 'max', 'max': 'min', 'min_t': 'max_t', 'max_t': 'min_t',
               'umin': 'umax', 'umax': 'umin'}
CLAMP = ('clamp', 'clamp_t', 'clamp_val')


def split_lines(text):
    """text's lines, each with its '\\n'"""
    return re.findall(r'[^\n]*\n|[^\n]+$', text)


class Tok:
    __slots__ = ('s', 'start', 'end')

    def __init__(self, s, start):
        self.s, self.start, self.end = s, start, start + len(s)


def tokens(code):
    return [Tok(m.group(0), m.start()) for m in TOKEN_RE.finditer(code)]


def ends_operand(t):
    """does token t end an operand (so that an operator after it is binary)?"""
    s = t.s
    return (s in (')', ']', '++', '--') or s[0] in '"\''
            or ((s[0].isalnum() or s[0] == '_') and s not in NOT_OPERAND))


def binary(toks, k, code):
    """is toks[k] a binary operator (not a unary -, +, *, & or a declarator)?"""
    s = toks[k].s
    if s in ASSIGN:
        return True
    if s not in PREC:
        return False
    if k == 0 or not ends_operand(toks[k - 1]):
        return False
    if s == '*':
        # 'a * b' multiplies; 'struct foo *p' declares (kernel style)
        p = toks[k].start
        return code[p - 1:p] in (' ', '\t') and code[p + 1:p + 2] in (' ', '\t')
    return True


def operand(toks, k, code, direction, prec):
    """(first, last) token indexes of the operand on one side (-1 left,
    +1 right) of the binary operator toks[k] of precedence prec: up to an
    operator binding no tighter, an unmatched bracket or the statement's
    edge; None if empty"""
    depth, i, last = 0, k + direction, None
    opening, closing = ('(', '['), (')', ']')
    if direction < 0:
        opening, closing = closing, opening
    while 0 <= i < len(toks):
        s = toks[i].s
        if s in opening:
            depth += 1
        elif s in closing:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0:
            if s in (';', '{', '}') or s in STOP_WORDS or s in ASSIGN:
                break
            if s in PREC and PREC[s] <= prec and binary(toks, i, code):
                break
        last = i
        i += direction
    if last is None:
        return None
    return (last, k - 1) if direction < 0 else (k + 1, last)


def match_bracket(toks, k):
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].s in '([':
            depth += 1
        elif toks[j].s in ')]':
            depth -= 1
            if depth == 0:
                return j
    return -1


def call_args(toks, k):
    """the argument token ranges of the call whose '(' is toks[k], and the
    index of its ')'"""
    end = match_bracket(toks, k)
    if end < 0:
        return None, -1
    args, depth, start = [], 0, k + 1
    for j in range(k + 1, end):
        s = toks[j].s
        if s in '([{':
            depth += 1
        elif s in ')]}':
            depth -= 1
        elif s == ',' and depth == 0:
            args.append((start, j - 1))
            start = j + 1
    args.append((start, end - 1))
    if any(a > b for a, b in args):
        return None, -1
    return args, end


class Source:
    """a kernel .c file: its statements and their mutants"""

    def __init__(self, text):
        self.text = text
        # lines end at '\n' only, as gcov counts them (a form feed in a
        # comment is no line break)
        self.lines = split_lines(text)
        self.code = blank(text)
        self.code_lines = split_lines(self.code)
        self.offset = [0]
        for ln in self.lines:
            self.offset.append(self.offset[-1] + len(ln))
        self.owner = functions_of(self.lines)
        self.keep_jumps = self.jumps_that_matter()

    def line_of(self, pos):
        """1-based line of a character offset"""
        lo, hi = 0, len(self.lines)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.offset[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1

    def statements(self):
        """[(first, last)] line spans of the statements in function bodies:
        a line goes on to the next while a bracket is open or it ends in a
        binary operator, an '=' or a ','"""
        out, first, depth, init = [], None, 0, False
        for i, code in enumerate(self.code_lines, 1):
            if i not in self.owner:
                if first is not None:
                    out.append((first, i - 1))
                first, depth = None, 0
                continue
            st = code.strip()
            if not st:
                continue
            if first is None:
                first, init = i, bool(re.search(r'=\s*\{$', st))
            # an initializer's braces ('= {' up to '};') hold one statement
            opening, closing = ('([{', ')]}') if init else ('([', ')]')
            depth += sum(st.count(c) for c in opening) - sum(st.count(c) for c in closing)
            cont = depth > 0 or (re.search(r'(&&|\|\||[-+*/%&|^=,?<>])$', st)
                                 and not re.search(r'(\+\+|--|->)$', st))
            if not cont and st.endswith(':') and '?' in self.code[self.offset[first - 1]:
                                                                   self.offset[i]]:
                cont = True
            if not cont:
                out.append((first, i))
                first, depth = None, 0
        if first is not None:
            out.append((first, len(self.lines)))
        return out

    def jumps_that_matter(self):
        """offsets of the break and continue statements whose removal changes
        the program: not a break that ends a switch's last case, not a
        continue that ends its loop's body"""
        toks = tokens(self.code)
        keep, stack = set(), []
        for k, t in enumerate(toks):
            if t.s == '{':
                kind = 'block'
                j = k - 1
                if j >= 0 and toks[j].s == 'do':
                    kind = 'loop'
                elif j >= 0 and toks[j].s == ')':
                    depth = 0
                    while j >= 0:
                        if toks[j].s == ')':
                            depth += 1
                        elif toks[j].s == '(':
                            depth -= 1
                            if depth == 0:
                                break
                        j -= 1
                    if j > 0 and toks[j - 1].s == 'switch':
                        kind = 'switch'
                    elif j > 0 and toks[j - 1].s in ('for', 'while'):
                        kind = 'loop'
                    elif j > 0 and 'for_each' in toks[j - 1].s:
                        kind = 'loop'
                stack.append(kind)
            elif t.s == '}':
                if stack:
                    stack.pop()
            elif t.s in ('break', 'continue') and k + 1 < len(toks) and toks[k + 1].s == ';':
                last = k + 2 < len(toks) and toks[k + 2].s == '}'
                alone = k > 0 and toks[k - 1].s in (';', '{', '}', ':')
                top = stack[-1] if stack else 'block'
                if alone and last and ((t.s == 'break' and top == 'switch')
                                       or (t.s == 'continue' and top == 'loop')):
                    continue
                keep.add(t.start)
        return keep

    def mutants(self, first, last):
        """(operator, line, end, new) for the statement on lines first..last
        (1-based): lines line..end of the file become the text new"""
        a, b = self.offset[first - 1], self.offset[last]
        old, code = self.text[a:b], self.code[a:b]
        results = []  # (operator, new statement text)
        # the line operators, on each line of the statement (the deletion
        # of a one-line statement only: a continuation line is no statement)
        for i in range(first, last + 1):
            if not self.code_lines[i - 1].strip():
                continue
            la, lb = self.offset[i - 1] - a, self.offset[i] - a
            for op, new in mutants_of_line(self.lines[i - 1]):
                if op == 'statement deletion' and first != last:
                    continue
                results.append((op, old[:la] + new + old[lb:]))
        results += [(op, apply_edits(old, edits))
                    for op, edits in self.statement_edits(code, a)]
        if first != last and is_deletable(' '.join(code.split())):
            st = code.lstrip()
            if not st.startswith(('}', 'if', 'while', 'for', 'switch')):
                indent = old[:len(old) - len(old.lstrip())]
                results.append(('statement deletion', indent + ';\n'))
        seen, out = {old}, []
        for op, new in results:
            if new in seen:
                continue
            seen.add(new)
            out.append((op,) + changed_span(old, new, first))
        return out

    def statement_edits(self, code, base):
        """(operator, [(start, end, replacement)]) on the statement's code"""
        toks = tokens(code)
        text = self.text[base:base + len(code)]

        def span(i, j):
            return text[toks[i].start:toks[j].end]

        def wrap(i, j):
            s = span(i, j)
            return s if i == j else '(' + s + ')'

        out = []
        loops = loop_conditions(toks)
        for k, t in enumerate(toks):
            s = t.s
            if s in RELATIONAL and binary(toks, k, code):
                left = operand(toks, k, code, -1, PREC[s])
                right = operand(toks, k, code, 1, PREC[s])
                if left and right:
                    # a < b -> b < a
                    out.append(('operand swap', [
                        (toks[left[0]].start, toks[left[1]].end, span(*right)),
                        (toks[right[0]].start, toks[right[1]].end, span(*left))]))
                    if any(lo < k < hi for lo, hi in loops) and not (
                            right[0] == right[1] and toks[right[0]].s.isdigit()):
                        r = (toks[right[0]].start, toks[right[1]].end)
                        out.append(('loop bound + 1', [r + (wrap(*right) + ' + 1',)]))
                        out.append(('loop bound - 1', [r + (wrap(*right) + ' - 1',)]))
            if s in ARITH_SWAP and binary(toks, k, code):
                out.append(('arithmetic', [(t.start, t.end, ARITH_SWAP[s])]))
            if s in ('|', '&&', '||') and binary(toks, k, code):
                left = operand(toks, k, code, -1, PREC[s])
                right = operand(toks, k, code, 1, PREC[s])
                if left and right:
                    name = 'mask flag drop' if s == '|' else 'condition term drop'
                    # a | B -> a, and a | B -> B
                    out.append((name, [(toks[left[1]].end, toks[right[1]].end, '')]))
                    out.append((name, [(toks[left[0]].start, toks[right[0]].start, '')]))
            if s == '&' and binary(toks, k, code) and k + 1 < len(toks) and toks[k + 1].s == '~':
                left = operand(toks, k, code, -1, PREC[s])
                right = operand(toks, k, code, 1, PREC[s])
                if left and right:
                    # a & ~B -> a
                    out.append(('mask flag drop', [(toks[left[1]].end, toks[right[1]].end, '')]))
            if s in ('true', 'false') and not (k > 0 and toks[k - 1].s == 'return'):
                out.append(('bool flip', [(t.start, t.end,
                                           'false' if s == 'true' else 'true')]))
            if s in ('break', 'continue') and base + t.start in self.keep_jumps:
                out.append(('break/continue removal', [(t.start, t.end, '')]))
            if k + 1 < len(toks) and toks[k + 1].s == '(' and (s in MINMAX_SWAP or s in CLAMP):
                out += minmax_edits(toks, k, span, wrap)
            if s in ('if', 'while') and k + 1 < len(toks) and toks[k + 1].s == '(':
                j = match_bracket(toks, k + 1)
                if j > 0 and '\n' in code[toks[k + 1].start:toks[j].end]:
                    # a multi-line condition (the line operator negates one-line ones)
                    out.append(('condition negation', [
                        (toks[k + 1].end, toks[k + 1].end, '!('),
                        (toks[j].start, toks[j].start, ')')]))
        return out


def loop_conditions(toks):
    """token index ranges (exclusive) of the conditions of for and while loops"""
    out = []
    for k, t in enumerate(toks):
        if t.s not in ('for', 'while') or k + 1 >= len(toks) or toks[k + 1].s != '(':
            continue
        j = match_bracket(toks, k + 1)
        if j < 0:
            continue
        if t.s == 'while':
            out.append((k + 1, j))
            continue
        semis = [i for i in range(k + 2, j) if toks[i].s == ';'
                 and sum(1 if x.s in '([' else -1 if x.s in ')]' else 0
                         for x in toks[k + 2:i]) == 0]
        if len(semis) == 2:
            out.append((semis[0], semis[1]))
    return out


def minmax_edits(toks, k, span, wrap):
    """min/max/clamp: the call replaced by one of its arguments, min and
    max swapped, one bound of a clamp dropped"""
    name = toks[k].s
    args, end = call_args(toks, k + 1)
    if not args:
        return []
    whole = (toks[k].start, toks[end].end)
    out = []
    if name in MINMAX_SWAP:
        out.append(('min/max swap', [(toks[k].start, toks[k].end, MINMAX_SWAP[name])]))
        typed = name.endswith('_t')
        if len(args) == (3 if typed else 2):
            for a in args[1:] if typed else args:
                repl = f'(({span(*args[0])}){wrap(*a)})' if typed else wrap(*a)
                out.append(('min/max argument', [whole + (repl,)]))
    elif name in CLAMP:
        typed = name == 'clamp_t'
        if len(args) == (4 if typed else 3):
            t, (v, lo, hi) = (span(*args[0]) + ', ' if typed else ''), args[-3:]
            if name == 'clamp_val':
                t = '__typeof__(' + span(*v) + '), '
            pre = '_t' if t else ''
            out.append(('clamp bound drop',
                        [whole + (f'min{pre}({t}{span(*v)}, {span(*hi)})',)]))
            out.append(('clamp bound drop',
                        [whole + (f'max{pre}({t}{span(*v)}, {span(*lo)})',)]))
    return out


def apply_edits(text, edits):
    """text with the (start, end, replacement) edits (disjoint) made"""
    for s, e, r in sorted(edits, reverse=True):
        text = text[:s] + r + text[e:]
    return text


def changed_span(old, new, first):
    """(line, end, text): the lines of old (which starts at line first) that
    differ from new, and what replaces them"""
    o, n = old.splitlines(keepends=True), new.splitlines(keepends=True)
    p = 0
    while p < min(len(o), len(n)) and o[p] == n[p]:
        p += 1
    q = 0
    while q < min(len(o), len(n)) - p and o[-1 - q] == n[-1 - q]:
        q += 1
    if p + q == len(n):
        # whole lines went: the mutant replaces them and the line before
        # (or after) them, so that its text is never empty
        if p:
            p -= 1
        else:
            q -= 1
    return first + p, first + len(o) - q - 1, ''.join(n[p:len(n) - q])
