#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb mutate's operators and function map, on lines of kernel-style C."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools'))
import tb_mutate as m  # noqa: E402


def ops(line):
    return {(op, new) for op, new in m.mutants_of_line(line)}


class Operators(unittest.TestCase):
    def test_comparison_flips_and_boundary_shifts(self):
        got = ops('\tif (usage > max)\n')
        self.assertIn(('comparison flip', '\tif (usage <= max)\n'), got)
        self.assertIn(('boundary shift', '\tif (usage >= max)\n'), got)
        self.assertIn(('condition negation', '\tif (!(usage > max))\n'), got)

    def test_arrows_shifts_and_includes_are_not_comparisons(self):
        self.assertEqual(ops('\tx = a->b << 2;\n') & {('comparison flip', '\tx = a-<=b << 2;\n')}, set())
        self.assertFalse([o for o, _ in m.mutants_of_line('#include <linux/mm.h>\n')])
        self.assertFalse([o for o, _ in m.mutants_of_line('\tp = c->parent;\n')
                          if o in ('comparison flip', 'boundary shift')])

    def test_logic_and_constants(self):
        got = ops('\tif (a && b == 3)\n')
        self.assertIn(('&& / ||', '\tif (a || b == 3)\n'), got)
        self.assertIn(('constant + 1', '\tif (a && b == 4)\n'), got)
        self.assertIn(('constant - 1', '\tif (a && b == 2)\n'), got)

    def test_return_values(self):
        self.assertIn(('return value', '\treturn false;\n'), ops('\treturn true;\n'))
        self.assertIn(('return value', '\treturn 0;\n'), ops('\treturn nr_pages;\n'))
        # NULL is 0: no mutant
        self.assertEqual(m.mutants_of_line('\treturn NULL;\n'), [])
        # "return 0" -> "return 1" is one mutant, whichever operator finds it
        self.assertEqual(len(m.mutants_of_line('\treturn 0;\n')), 1)

    def test_statement_deletion_takes_state_updates_not_declarations(self):
        self.assertIn(('statement deletion', '\t;\n'), ops('\tc->failcnt++;\n'))
        self.assertIn(('statement deletion', '\t;\n'), ops('\tpropagate(c, usage);\n'))
        self.assertNotIn(('statement deletion', '\t;\n'), ops('\tunsigned long x = 5;\n'))
        self.assertNotIn(('statement deletion', '\t;\n'), ops('\treturn x;\n'))
        # the end of a do-while is no statement of its own
        self.assertNotIn(('statement deletion', '\t;\n'), ops('\t} while ((c = next(c)));\n'))

    def test_comments_strings_and_directives_are_left_alone(self):
        self.assertEqual(m.mutants_of_line('\t/* a < b */\n'), [])
        self.assertEqual(m.mutants_of_line('#define X 1\n'), [])
        self.assertFalse([o for o, n in m.mutants_of_line('\tpr_warn("a < b\\n");\n')
                          if o in ('comparison flip', 'boundary shift')])


class Functions(unittest.TestCase):
    def test_bodies_are_mapped_to_their_function(self):
        src = ['static bool f(int a,\n', '\t\t    int b)\n', '{\n', '\treturn a < b;\n', '}\n',
               '\n', 'int g(void);\n', 'void h(void)\n', '{\n', '\tx++;\n', '}\n']
        owner = m.functions_of(src)
        self.assertEqual(owner.get(4), 'f')
        self.assertEqual(owner.get(10), 'h')
        self.assertNotIn(7, owner)


def sh(name, script):
    return {'name': name, 'command': ['/bin/sh', '-c', script], 'cwd': '/', 'target': name}


class Runs(unittest.TestCase):
    def test_a_failing_test_kills_and_stops_the_run(self):
        tests = [sh('fails', 'exit 1'), sh('slow', 'sleep 30')]
        v, by, secs, tail = m.run_tests(tests, dict(os.environ), 1, {'fails': 10, 'slow': 10})
        self.assertEqual((v, by), ('killed', ['fails']))
        self.assertNotIn('slow', secs)

    def test_a_crash_is_a_kill_with_its_output(self):
        v, by, _, tail = m.run_tests([sh('crash', 'echo boom; kill -SEGV $$')],
                                     dict(os.environ), 1, {'crash': 10})
        self.assertEqual((v, by), ('killed', ['crash']))
        self.assertIn('boom', tail)

    def test_an_overrun_is_a_timeout_not_a_kill(self):
        v, by, _, _ = m.run_tests([sh('hang', 'sleep 30')], dict(os.environ), 1, {'hang': 0.3})
        self.assertEqual((v, by), ('timeout', ['hang']))

    def test_passing_tests_survive_and_are_all_timed(self):
        tests = [sh('a', 'true'), sh('b', 'true')]
        v, by, secs, _ = m.run_tests(tests, dict(os.environ), 2, {'a': 10, 'b': 10})
        self.assertEqual((v, by, sorted(secs)), ('survived', [], ['a', 'b']))


def load_text(text, version=None):
    import tempfile
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write(text)
    try:
        return m.load_equivalents(f.name, version), f.name
    finally:
        os.unlink(f.name)


class Equivalents(unittest.TestCase):
    def test_entries_their_class_and_their_reasons(self):
        eq, _ = load_text('# comment\n\nmm/x.c:12 [&& / ||] if (a || b)\n'
                          '\tequivalent: b is never true without a:\n\tsee f()\n'
                          'mm/x.c:14/0a1b2c3d [statement deletion] ;\n'
                          '\tunobservable (world: one populated zone per node):\n'
                          '\tthe loop over the zones\n'
                          'mm/x.c:15 [statement deletion] ;\n\tunobservable (race): only another CPU\n')
        self.assertEqual(eq[('mm/x.c', 12, '&& / ||', 'if (a || b)')],
                         {'class': 'equivalent', 'part': None, 'stamp': None,
                          'why': 'b is never true without a: see f()'})
        self.assertEqual(eq[('mm/x.c', 14, 'statement deletion', ';')],
                         {'class': 'unobservable', 'part': 'world: one populated zone per node',
                          'why': 'the loop over the zones', 'stamp': '0a1b2c3d'})
        self.assertEqual(eq[('mm/x.c', 15, 'statement deletion', ';')]['part'], 'race')
        c = {'line': 12, 'operator': '&& / ||', 'new': '\tif (a || b)\n'}
        self.assertIn(m.equiv_key('mm/x.c', c), eq)
        self.assertEqual(m.class_counts(eq), {'mm/x.c': {
            'equivalent': 1, 'unobservable': 2,
            'parts': {'world: one populated zone per node': 1, 'race': 1}}})

    def test_a_malformed_class_line_names_the_file_and_line(self):
        bad = [
            # no class: the old format
            ('mm/x.c:12 [&& / ||] if (a || b)\n\tb is never true without a\n', 2),
            # an unobservable mutant must say what would show it
            ('mm/x.c:12 [&& / ||] if (a || b)\n\tunobservable: no zone\n', 2),
            # a part of no known kind
            ('mm/x.c:12 [&& / ||] if (a || b)\n\tunobservable (luck: maybe): x\n', 2),
            ('mm/x.c:1 [constant + 1] a = 2;\n\tequivalent: fine\n'
             'mm/x.c:12 [&& / ||] if (a || b)\n\tequivalnet: typo\n', 4),
            # an entry with no line under it at all
            ('mm/x.c:12 [&& / ||] if (a || b)\nmm/x.c:13 [&& / ||] if (c || d)\n'
             '\tequivalent: x\n', 1),
            # a class with no reason
            ('mm/x.c:12 [&& / ||] if (a || b)\n\tunobservable (race):\n', None),
        ]
        for text, line in bad:
            with self.assertRaises(ValueError) as cm:
                load_text(text)
            msg = str(cm.exception)
            self.assertEqual(len(msg.splitlines()), 1, msg)
            if line is not None:
                self.assertRegex(msg, rf'\.txt:{line}: ', msg)
            else:
                self.assertIn('.txt: mm/x.c:12', msg)

    def test_a_version_section_applies_to_its_trees_only(self):
        text = ('mm/x.c:1 [constant + 1] a = 2;\n\tequivalent: any tree\n'
                '@ 6.12\nmm/x.c:12 [&& / ||] if (a || b)\n\tequivalent: b implies a\n'
                '@ 6.1\nmm/x.c:40 [&& / ||] if (a || b)\n\tunobservable (race): in 6.1\n')
        every, _ = load_text(text)
        v612, _ = load_text(text, '6.12.117')
        v61, _ = load_text(text, '6.1.192')
        v613, _ = load_text(text, '6.13')
        self.assertEqual(sorted(k[1] for k in every), [1, 12, 40])
        self.assertEqual(sorted(k[1] for k in v612), [1, 12])
        self.assertEqual(v612[('mm/x.c', 12, '&& / ||', 'if (a || b)')]['why'], 'b implies a')
        self.assertEqual(sorted(k[1] for k in v61), [1, 40])
        self.assertEqual(sorted(k[1] for k in v613), [1])

    def test_equivalents_leave_the_score(self):
        s = {'mutants': 10, 'killed': 8, 'survived': 0, 'timeout': 1, 'no-compile': 0,
             'equivalent': 1, 'unobservable': 0}
        self.assertEqual(m.score(s), 100.0)

    def test_unobservable_mutants_count_against_the_score(self):
        # 8 killed, 1 timed out, 1 equivalent, 2 unobservable: 9 of 11
        s = {'mutants': 12, 'killed': 8, 'survived': 0, 'timeout': 1, 'no-compile': 0,
             'equivalent': 1, 'unobservable': 2}
        self.assertAlmostEqual(m.score(s), 100.0 * 9 / 11)
        results = ([{'function': 'f', 'status': 'killed'}] * 8
                   + [{'function': 'f', 'status': 'timeout'}]
                   + [{'function': 'f', 'status': 'equivalent', 'part': None}]
                   + [{'function': 'g', 'status': 'unobservable', 'part': 'race'}]
                   + [{'function': 'g', 'status': 'unobservable', 'part': 'stub: blk_plug'}])
        by = m.summarize(results)
        self.assertEqual(by['g']['unobservable'], 2)
        self.assertEqual(m.score(by['g']), 0.0)
        self.assertEqual(m.by_part(results), {'race': 1, 'stub: blk_plug': 1})

    def test_the_report_prints_unobservable_mutants_apart(self):
        import contextlib
        import io
        results = [dict(line=3, end=3, function='f', operator='statement deletion', count=1,
                        status='killed', by=['t'], old='a();\n', new=';\n'),
                   dict(line=5, end=5, function='f', operator='statement deletion', count=1,
                        status='unobservable', part='stub: blk_plug', by=[], old='b();\n',
                        new=';\n'),
                   dict(line=6, end=6, function='f', operator='statement deletion', count=1,
                        status='equivalent', part=None, by=[], old='c();\n', new=';\n')]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            m.report(results, 'mm/x.c', lambda *a: None)
        text = out.getvalue()
        total = [l for l in text.splitlines() if l.startswith('total')][0].split()
        # mutants killed survived timeout no-cc equiv unobs score
        self.assertEqual(total[1:], ['3', '1', '0', '0', '0', '1', '1', '50.0%'])
        self.assertIn('unobservable (1, counted as not killed)', text)
        self.assertIn('stub: blk_plug', text)
        self.assertIn('mm/x.c:5 f [statement deletion]: stub: blk_plug', text)

    def test_a_stamped_entry_follows_its_statement_not_its_line(self):
        st = m.old_stamp
        e = lambda w, stamp: {'class': 'equivalent', 'part': None, 'why': w, 'stamp': stamp}
        eq = {('mm/x.c', 10, 'deletion', ';'): e('a', st('a();')),
              ('mm/x.c', 20, 'deletion', ';'): e('b', st('b();')),
              ('mm/x.c', 30, 'deletion', ';'): e('c', st('c();')),
              ('mm/x.c', 40, 'deletion', ';'): e('d', None),
              ('mm/y.c', 7, 'deletion', ';'): e('e', st('a();'))}
        # the tree moved a() and b() down by 3, swapped their order in the
        # file, and changed c(); line 30 is now another statement
        cands = [{'line': ln, 'operator': 'deletion', 'new': ';', 'old': old} for ln, old in
                 ((13, 'b();'), (23, 'a();'), (30, 'z();'), (33, 'c(1);'), (40, 'd();'))]
        out, moved = m.follow_moved_lines(eq, 'mm/x.c', cands)
        self.assertEqual(moved, 2)
        self.assertEqual(out[('mm/x.c', 23, 'deletion', ';')]['why'], 'a')
        self.assertEqual(out[('mm/x.c', 13, 'deletion', ';')]['why'], 'b')
        # c() changed: its entry keeps its line, where its stamp is not the
        # statement's, so it is no longer applied there; the unstamped entry
        # is of its line; another file's entries stay
        self.assertEqual(out[('mm/x.c', 30, 'deletion', ';')]['why'], 'c')
        self.assertNotEqual(out[('mm/x.c', 30, 'deletion', ';')]['stamp'], st('z();'))
        self.assertEqual(out[('mm/x.c', 40, 'deletion', ';')]['why'], 'd')
        self.assertIn(('mm/y.c', 7, 'deletion', ';'), out)
        self.assertEqual(len(out), len(eq))

    def test_the_stamp_ignores_blanks_only(self):
        self.assertEqual(m.old_stamp('a =  b;\n'), m.old_stamp('a = b;'))
        self.assertNotEqual(m.old_stamp('a = b;'), m.old_stamp('a = c;'))
        self.assertRegex(m.old_stamp('x'), '^[0-9a-f]{8}$')

    def test_a_sample_depends_only_on_the_seed(self):
        cands = [{'line': i, 'operator': 'x', 'new': str(i)} for i in range(50)]
        self.assertEqual(m.sample(cands, 5, 7), m.sample(list(cands), 5, 7))
        self.assertNotEqual(m.sample(cands, 5, 7), m.sample(cands, 5, 8))


class EquivalentsFile(unittest.TestCase):
    def test_the_repository_file_parses(self):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'equivalent.txt')
        eq = m.load_equivalents(path)
        self.assertTrue(eq)
        # every entry is in a version's section: a 6.1 tree gets none of 6.12's
        self.assertFalse(set(eq) & set(m.load_equivalents(path, '6.1.192')))
        # ... and each entry in the section of 6.12 or of 7.3
        self.assertEqual(set(m.load_equivalents(path, '6.12.117'))
                         | set(m.load_equivalents(path, '7.3.4')), set(eq))
        for (f, line, op, new), e in eq.items():
            self.assertTrue(e['why'], f'{f}:{line} [{op}] has no reason')
            self.assertIn(e['class'], m.CLASSES)
            self.assertEqual(e['part'] is None, e['class'] == 'equivalent')
            self.assertIn(op, m.OPERATORS)
        # both classes are used
        self.assertEqual({e['class'] for e in eq.values()}, set(m.CLASSES))


# a fixture in kernel style (not kernel code): the statement operators' input
FIXTURE = """\
static int fixture(struct thing *t, unsigned long nr, gfp_t gfp)
{
	unsigned long i, total = 0;
	bool done = false;
	struct shape s = {
		.a = 1,
		.b = nr,
	};

	for (i = 0; i < t->nr_items; i++) {
		if (t->skip[i])
			continue;
		total += t->size[i] * 2;
	}
	while (total >= t->batch ||
	       total >= nr) {
		total -= min(total, t->batch);
		if (total < 3)
			break;
	}
	switch (t->mode) {
	case 1:
		done = true;
		break;
	default:
		break;
	}
	t->gfp = gfp | __GFP_NOWARN |
		 __GFP_NORETRY;
	t->flags = t->flags & ~T_DIRTY;
	t->val = clamp(nr, 2UL, t->limit) << t->shift;
	t->min = max_t(long, t->low - 1, 0);
	update(t,
	       nr);
	list_for_each(pos, &t->list) {
		if (pos == t->last)
			continue;
		count(pos);
		continue;
	}
	return done && t->ok;
}
"""


def fixture():
    return m.Source(FIXTURE)


def line_of(text):
    """the 1-based line of the fixture that holds text"""
    return next(i for i, ln in enumerate(FIXTURE.splitlines(), 1) if text in ln)


def statement_mutants(src, text):
    """{(operator, first line, last line, new text)} of the statement on
    the fixture's line holding text"""
    n = line_of(text)
    first, last = next((a, b) for a, b in src.statements() if a <= n <= b)
    return {(op, ln, end, new) for op, ln, end, new in src.mutants(first, last)}


def ops_at(src, text):
    return {(op, new.strip()) for op, ln, end, new in statement_mutants(src, text)}


class Statements(unittest.TestCase):
    def test_multi_line_statements_are_one(self):
        src = fixture()
        spans = src.statements()
        self.assertIn((line_of('while (total >= t->batch'), line_of('total >= nr) {')), spans)
        self.assertIn((line_of('t->gfp = gfp'), line_of('__GFP_NORETRY;')), spans)
        self.assertIn((line_of('update(t,'), line_of('nr);')), spans)
        # an initializer's braces hold one statement
        self.assertIn((line_of('struct shape s = {'), line_of('\t};')), spans)
        # a one-line if and its body are two
        self.assertIn((line_of('if (t->skip[i])'), line_of('if (t->skip[i])')), spans)

    def test_the_second_line_of_a_condition_is_mutated(self):
        got = ops_at(fixture(), 'total >= nr) {')
        self.assertIn(('boundary shift', 'total > nr) {'), got)
        self.assertIn(('comparison flip', 'total < nr) {'), got)
        self.assertIn(('operand swap', 'nr >= total) {'), got)

    def test_a_multi_line_condition_is_negated_whole(self):
        got = statement_mutants(fixture(), 'while (total >= t->batch')
        n = line_of('while (total >= t->batch')
        self.assertIn(('condition negation', n, n + 1,
                       '\twhile (!(total >= t->batch ||\n\t       total >= nr)) {\n'), got)

    def test_a_multi_line_call_is_deleted_whole(self):
        n = line_of('update(t,')
        self.assertIn(('statement deletion', n, n + 1, '\t;\n'),
                      statement_mutants(fixture(), 'update(t,'))
        # a continuation line alone is no statement
        self.assertFalse([1 for op, ln, end, new in statement_mutants(fixture(), 'update(t,')
                          if op == 'statement deletion' and ln == n + 1])

    def test_lines_end_at_newlines_only(self):
        # a form feed in a comment is no line break (gcov counts '\n')
        src = m.Source('void f(void)\n{\n\t/* a\x0cb */\n\tx = 1;\n}\n')
        self.assertEqual(len(src.lines), 5)
        self.assertEqual(len(src.code_lines), 5)
        self.assertIn(('statement deletion', 4, 4, '\t;\n'),
                      {(op, a, b, n) for x, y in src.statements() for op, a, b, n in src.mutants(x, y)})

    def test_comments_and_strings_are_not_code(self):
        src = m.Source('void f(void)\n{\n\tpr_info("a < b");\n\tx = 1; /* a | b */\n}\n')
        self.assertEqual(src.code_lines[2], '\tpr_info("     ");\n')
        self.assertFalse([op for a, b in src.statements() for op, *_ in src.mutants(a, b)
                          if op in ('operand swap', 'mask flag drop')])


class StatementOperators(unittest.TestCase):
    def test_operand_swap_of_a_relational_comparison(self):
        got = ops_at(fixture(), 'if (total < 3)')
        self.assertIn(('operand swap', 'if (3 < total)'), got)
        # == is commutative: no swap
        self.assertFalse([1 for op, new in ops_at(fixture(), 'if (pos == t->last)')
                          if op == 'operand swap'])

    def test_loop_bound_plus_and_minus_one(self):
        got = ops_at(fixture(), 'for (i = 0;')
        self.assertIn(('loop bound + 1', 'for (i = 0; i < (t->nr_items) + 1; i++) {'), got)
        self.assertIn(('loop bound - 1', 'for (i = 0; i < (t->nr_items) - 1; i++) {'), got)
        # an if is no loop
        self.assertFalse([1 for op, new in ops_at(fixture(), 'if (total < 3)')
                          if op.startswith('loop bound')])

    def test_arithmetic_replacement_not_unary_or_pointers(self):
        got = ops_at(fixture(), 'total += t->size[i] * 2;')
        self.assertIn(('arithmetic', 'total -= t->size[i] * 2;'), got)
        self.assertIn(('arithmetic', 'total += t->size[i] / 2;'), got)
        self.assertIn(('arithmetic', 't->val = clamp(nr, 2UL, t->limit) >> t->shift;'),
                      ops_at(fixture(), 't->val = clamp'))
        self.assertIn(('arithmetic', 't->min = max_t(long, t->low + 1, 0);'),
                      ops_at(fixture(), 't->min = max_t'))
        # a declarator's * and a unary - are no arithmetic
        src = m.Source('int f(void)\n{\n\tstruct a *p = q;\n\treturn -EINVAL;\n}\n')
        self.assertFalse([op for a, b in src.statements() for op, *_ in src.mutants(a, b)
                          if op == 'arithmetic'])

    def test_min_max_and_clamp(self):
        got = ops_at(fixture(), 'total -= min(total, t->batch);')
        self.assertIn(('min/max argument', 'total -= total;'), got)
        self.assertIn(('min/max argument', 'total -= (t->batch);'), got)
        self.assertIn(('min/max swap', 'total -= max(total, t->batch);'), got)
        got = ops_at(fixture(), 't->min = max_t')
        self.assertIn(('min/max argument', 't->min = ((long)(t->low - 1));'), got)
        self.assertIn(('min/max argument', 't->min = ((long)0);'), got)
        self.assertIn(('min/max swap', 't->min = min_t(long, t->low - 1, 0);'), got)
        got = ops_at(fixture(), 't->val = clamp')
        self.assertIn(('clamp bound drop', 't->val = min(nr, t->limit) << t->shift;'), got)
        self.assertIn(('clamp bound drop', 't->val = max(nr, 2UL) << t->shift;'), got)

    def test_break_and_continue_removal_where_it_matters(self):
        src = fixture()
        self.assertIn(('break/continue removal', ';'), ops_at(src, '\t\t\tbreak;'))
        # case 1's break falls through into default: a mutant
        n = line_of('\t\tdone = true;') + 1
        self.assertIn(('break/continue removal', n, n, '\t\t;\n'),
                      {(op, ln, end, new) for a, b in src.statements()
                       for op, ln, end, new in src.mutants(a, b) if ln == n})
        # the break that ends the switch's last case, and the continue that
        # ends a loop's body, change nothing: no mutant
        for ln in (line_of('default:') + 1, line_of('count(pos);') + 1):
            self.assertFalse([op for a, b in src.statements()
                              for op, l2, *_ in src.mutants(a, b)
                              if l2 == ln and op == 'break/continue removal'], ln)
        # a conditional continue in that loop is one
        n = line_of('if (pos == t->last)') + 1
        self.assertTrue([op for a, b in src.statements() for op, l2, *_ in src.mutants(a, b)
                         if l2 == n and op == 'break/continue removal'])

    def test_bool_flip(self):
        self.assertIn(('bool flip', 'done = false;'), ops_at(fixture(), 'done = true;'))
        self.assertIn(('bool flip', 'bool done = true;'), ops_at(fixture(), 'bool done = false;'))
        # a returned bool is the return value operator's
        self.assertFalse([1 for op, *_ in m.Source('bool f(void)\n{\n\treturn true;\n}\n')
                          .mutants(3, 3) if op == 'bool flip'])

    def test_mask_flag_drop(self):
        n = line_of('t->gfp = gfp')
        got = statement_mutants(fixture(), 't->gfp = gfp')
        self.assertIn(('mask flag drop', n, n, '\tt->gfp = gfp |\n'), got)
        self.assertIn(('mask flag drop', n, n + 1, '\tt->gfp = gfp | __GFP_NOWARN;\n'), got)
        self.assertIn(('mask flag drop', 't->flags = t->flags;'),
                      ops_at(fixture(), 't->flags = t->flags & ~T_DIRTY;'))

    def test_condition_term_drop(self):
        got = ops_at(fixture(), 'return done && t->ok;')
        self.assertIn(('condition term drop', 'return done;'), got)
        self.assertIn(('condition term drop', 'return t->ok;'), got)
        n = line_of('while (total >= t->batch')
        self.assertIn(('condition term drop', n, n + 1, '\twhile (total >= t->batch) {\n'),
                      statement_mutants(fixture(), 'while (total >= t->batch'))

    def test_a_dropped_line_is_replaced_with_its_neighbour(self):
        src = m.Source('int f(int a, int b, int c)\n{\n\treturn a &&\n\t       b &&\n'
                       '\t       c;\n}\n')
        got = {(op, ln, end, new) for op, ln, end, new in src.mutants(3, 5)}
        # 'b &&' dropped: lines 3-4 become line 3
        self.assertIn(('condition term drop', 3, 4, '\treturn a &&\n'), got)
        self.assertTrue(all(new.strip() for op, ln, end, new in got))

    def test_every_mutant_is_one_change_and_named(self):
        src = fixture()
        for a, b in src.statements():
            for op, ln, end, new in src.mutants(a, b):
                self.assertIn(op, m.OPERATORS)
                self.assertTrue(a <= ln <= end <= b)
                self.assertNotEqual(new, ''.join(src.lines[ln - 1:end]))


class ChangedLines(unittest.TestCase):
    def test_added_changed_and_around_a_deletion(self):
        old = 'a\nb\nc\nd\ne\n'
        self.assertEqual(m.changed_lines(old, 'a\nB\nc\nd\ne\n'), {2})
        self.assertEqual(m.changed_lines(old, 'a\nb\nx\ny\nc\nd\ne\n'), {3, 4})
        # d deleted: the lines either side, c (3) and e (4)
        self.assertEqual(m.changed_lines(old, 'a\nb\nc\ne\n'), {3, 4})
        self.assertEqual(m.changed_lines(old, old), set())
        self.assertEqual(m.changed_lines('', 'a\nb\n'), {1, 2})


class Shards(unittest.TestCase):
    def cands(self, n=23):
        return [{'line': i // 3 + 1, 'operator': 'op%d' % (i % 3), 'new': 'x%d' % i}
                for i in range(n)]

    def test_the_shards_part_the_mutants(self):
        cands = self.cands()
        parts = [m.shard_of(list(reversed(cands)), i, 4) for i in range(1, 5)]
        keys = [m.mutant_key(c) for p in parts for c in p]
        self.assertEqual(sorted(keys), sorted(m.mutant_key(c) for c in cands))
        self.assertEqual(len(keys), len(set(keys)))
        self.assertEqual(sorted(len(p) for p in parts), [5, 6, 6, 6])

    def test_parse_shard(self):
        self.assertEqual(m.parse_shard('2/3'), (2, 3))
        for bad in ('0/2', '3/2', 'x', '1/', '1/0', ''):
            with self.assertRaises(ValueError):
                m.parse_shard(bad)

    def result(self, i, n, cands, **kw):
        r = {'_path': f's{i}.json', 'file': 'mm/x.c', 'function': None, 'tree': '/t',
             'mutants_total': 30, 'mutants_selected': len(cands), 'since': None, 'patch': None,
             'max': None, 'seed': 1, 'rerun_of': None, 'shard': [i, n], 'seconds': 10,
             'tests': ['a'], 'test_map': True,
             'mutants': [dict(c, status='killed', seconds=1.0) for c in m.shard_of(cands, i, n)]}
        r.update(kw)
        return r

    def test_merged_shards_are_the_whole_run(self):
        cands = self.cands()
        merged = m.merge_shards([self.result(i, 3, cands) for i in (2, 1, 3)])
        self.assertEqual([m.mutant_key(c) for c in merged['mutants']],
                         sorted(m.mutant_key(c) for c in cands))
        self.assertEqual(merged['seconds'], 30)
        self.assertIsNone(merged['shard'])

    def test_a_missing_repeated_or_foreign_shard_is_refused(self):
        cands = self.cands()
        with self.assertRaisesRegex(ValueError, 'missing 2/3'):
            m.merge_shards([self.result(i, 3, cands) for i in (1, 3)])
        with self.assertRaisesRegex(ValueError, 'twice 1/3'):
            m.merge_shards([self.result(i, 3, cands) for i in (1, 1, 2, 3)])
        with self.assertRaisesRegex(ValueError, 'another run'):
            m.merge_shards([self.result(1, 2, cands), self.result(2, 2, cands, seed=2)])
        with self.assertRaisesRegex(ValueError, 'not a shard'):
            m.merge_shards([self.result(1, 1, cands, shard=None)])


class Update(unittest.TestCase):
    def cands(self, n=9):
        return [{'line': i + 1, 'operator': 'op', 'new': 'x%d' % i} for i in range(n)]

    def test_survivors_equivalents_and_new_mutants_run_the_rest_carry(self):
        cands = self.cands()
        verdicts = ['killed', 'survived', 'timeout', 'equivalent', 'no-compile', 'survived',
                    'killed', 'killed']
        prev = {'mutants': [dict(c, status=v) for c, v in zip(cands, verdicts)]}
        run, carried = m.updated_run('w.json', prev, self.cands(), lambda s: None)
        # lines 2 and 6 survived, 4 was equivalent, 9 is of a newly covered line
        self.assertEqual([c['line'] for c in run], [2, 4, 6, 9])
        self.assertEqual([(c['line'], c['status']) for c in carried],
                         [(1, 'killed'), (3, 'timeout'), (5, 'no-compile'), (7, 'killed'),
                          (8, 'killed')])
        self.assertTrue(all(c['carried'] for c in carried))

    def test_a_mutant_no_longer_covered_is_dropped(self):
        prev = {'mutants': [dict(c, status='killed') for c in self.cands(3)]}
        said = []
        run, carried = m.updated_run('w.json', prev, self.cands(2), said.append)
        self.assertEqual((run, len(carried)), ([], 2))
        self.assertIn('1 of its mutants no longer of covered lines', said[0])


class EffectiveCounts(unittest.TestCase):
    def test_a_continuation_line_takes_its_statements_count(self):
        # gcov counted lines 10 and 12 of the statement 10-13, not 11 or 13
        eff = m.effective_counts({10: 5, 12: 0, 20: 1}, [(10, 13), (20, 20), (30, 31)])
        self.assertEqual(eff, {10: 5, 11: 5, 12: 0, 13: 0, 20: 1})


TB = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools', 'tb')


class BadInput(unittest.TestCase):
    """each a one-line error before anything is built"""

    def tb(self, *args, cwd=None):
        import subprocess
        p = subprocess.run([TB, 'mutate'] + list(args), capture_output=True, text=True, cwd=cwd)
        return p.returncode, p.stderr.strip()

    def tree(self):
        import subprocess
        import tempfile
        d = tempfile.mkdtemp()
        os.makedirs(os.path.join(d, 'mm'))
        with open(os.path.join(d, 'Makefile'), 'w') as f:
            f.write('# a tree\n')
        with open(os.path.join(d, 'mm', 'x.c'), 'w') as f:
            f.write('int f(void)\n{\n\treturn 1;\n}\n')
        for c in (['init', '-q'], ['add', '.'],
                  ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x']):
            subprocess.run(['git', '-C', d] + c, check=True, capture_output=True)
        self.addCleanup(lambda: __import__('shutil').rmtree(d))
        return d

    def test_a_bad_shard(self):
        for bad in ('3/2', '0/1', 'x'):
            rc, err = self.tb('mm/x.c', '--shard', bad)
            self.assertEqual((rc, err.count('\n')), (2, 0), err)
            self.assertIn('--shard wants I/N', err)

    def test_an_unknown_revision(self):
        d = self.tree()
        rc, err = self.tb('mm/x.c', '--kernel', d, '--since', 'no-such-ref')
        self.assertEqual((rc, err.count('\n')), (1, 0), err)
        self.assertIn('--since no-such-ref: no such revision in', err)

    def test_since_needs_a_git_tree(self):
        d = self.tree()
        __import__('shutil').rmtree(os.path.join(d, '.git'))
        rc, err = self.tb('mm/x.c', '--kernel', d, '--since', 'HEAD')
        self.assertEqual(rc, 1)
        self.assertIn('is not a git work tree', err)

    def test_a_patch_that_does_not_apply(self):
        d = self.tree()
        patch = os.path.join(d, 'bad.patch')
        with open(patch, 'w') as f:
            f.write('--- a/mm/x.c\n+++ b/mm/x.c\n@@ -1,3 +1,3 @@\n int g(void)\n {\n'
                    '-\treturn 2;\n+\treturn 3;\n')
        rc, err = self.tb('mm/x.c', '--kernel', d, '--patch', patch)
        self.assertEqual(rc, 1, err)
        self.assertIn('the patch does not apply to', err.splitlines()[-1])

    def test_update_of_a_shard_or_with_a_sample(self):
        import json
        import tempfile
        with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
            json.dump({'file': 'mm/x.c', 'shard': [1, 4], 'mutants': []}, f)
        self.addCleanup(os.unlink, f.name)
        rc, err = self.tb('mm/x.c', '--update', f.name)
        self.assertEqual((rc, err.count('\n')), (1, 0), err)
        self.assertIn('not a whole-file run (shard [1, 4]); --merge joins', err)
        rc, err = self.tb('mm/x.c', '--update', f.name, '--max', '3')
        self.assertEqual((rc, err.count('\n')), (2, 0), err)
        self.assertIn('--update runs a whole file', err)
        rc, err = self.tb('mm/y.c', '--update', f.name)
        self.assertIn('a result of mm/x.c, not of mm/y.c', err)

    def test_merge_of_no_shard(self):
        import tempfile
        with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
            f.write('{"mutants": [], "shard": null, "file": "mm/x.c"}')
        self.addCleanup(os.unlink, f.name)
        rc, err = self.tb('--merge', f.name)
        self.assertEqual((rc, err.count('\n')), (1, 0), err)
        self.assertIn('not a shard', err)


# a program whose output changes with most of its mutants
SCHEMA_PROGRAM = r"""#include <stdio.h>
#include <stdbool.h>
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))

static int scan(int nr, int batch, bool may_swap)
{
	int done = 0, i;
	int left = nr * 2 - 1;

	for (i = 0; i < nr; i++) {
		if (i % 3 == 0 && may_swap)
			continue;
		if (done >= batch ||
		    left < 4)
			break;
		done += min(batch - done, 2);
		left -= 3;
	}
	if (left > 0 && done)
		left = left >> 1;
	if (!may_swap)
		return done + left;
	return done - left;
}

int main(void)
{
	printf("%d %d %d\n", scan(10, 6, true), scan(7, 3, false), scan(1, 1, true));
	return 0;
}
"""
# its names at file scope: the test renames them to build many copies as one
SCHEMA_NAMES = ('scan', 'main')


class Schemata(unittest.TestCase):
    def test_a_schema_mutant_behaves_as_the_mutant_built_alone(self):
        """each mutant the schema holds prints, switched on by TB_MUTANT,
        what the program with that mutant alone prints; with none switched
        on, the original's output"""
        import shutil
        import subprocess
        import tempfile
        if not shutil.which('gcc'):
            self.skipTest('no gcc')
        header = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools',
                              'tb_mutant.h')
        src = m.Source(SCHEMA_PROGRAM)
        sts = src.statements()
        muts = [(n, ln, end, new) for n, (op, ln, end, new) in enumerate(
            (x for a, b in sts for x in src.mutants(a, b)), 1)]
        text, held = m.build_schema(src.lines, sts, muts)
        self.assertGreater(len(held), len(muts) * 3 // 4)
        self.assertEqual(text.count('\n'), SCHEMA_PROGRAM.count('\n'))

        def run(d, name, code, env=None):
            c = os.path.join(d, name + '.c')
            with open(c, 'w') as f:
                f.write(code)
            exe = os.path.join(d, name)
            p = subprocess.run(['gcc', '-O0', '-w', '-include', header, '-o', exe, c],
                               capture_output=True, text=True)
            if p.returncode:
                return 'no-compile'
            return output([exe], env)

        def output(cmd, env=None):
            try:
                return subprocess.run(cmd, capture_output=True, text=True, timeout=1,
                                      env=dict(os.environ, **(env or {}))).stdout
            except subprocess.TimeoutExpired:
                return 'timeout'

        def alone_outputs(d, alones):
            """{mutant: output of the program with that mutant alone}: the
            programs are built as one (each one's file-scope names renamed,
            a main that runs the one its argument names), one compile
            instead of one per mutant; when that does not compile, each
            program is built on its own, so a mutant that does not compile
            is told apart"""
            parts = []
            for n, code in alones.items():
                names = ''.join(f'#define {x} tb_alone_{n}_{x}\n' for x in SCHEMA_NAMES)
                undo = ''.join(f'#undef {x}\n' for x in SCHEMA_NAMES)
                parts.append(f'{names}{code}{undo}')
            cases = ''.join(f'\tcase {n}: return tb_alone_{n}_main();\n' for n in alones)
            parts.append('int main(int argc, char **argv)\n{\n\tint n = 0;\n\tconst char *s = argv[1];\n\n'
                         "\twhile (s && *s >= '0' && *s <= '9')\n\t\tn = n * 10 + *s++ - '0';\n"
                         f'\tswitch (n) {{\n{cases}\t}}\n\treturn 2;\n}}\n')
            if run(d, 'alone', ''.join(parts)) != 'no-compile':
                return {n: output([os.path.join(d, 'alone'), str(n)]) for n in alones}
            return {n: run(d, f'alone{n}', code) for n, code in alones.items()}

        with tempfile.TemporaryDirectory() as d:
            original = run(d, 'original', SCHEMA_PROGRAM)
            self.assertEqual(run(d, 'schema', text), original)
            alones = {n: ''.join(src.lines[:ln - 1]) + new + ''.join(src.lines[end:])
                      for n, ln, end, new in muts if n in held}
            alone = alone_outputs(d, alones)
            for n, ln, end, new in muts:
                if n not in held:
                    continue
                with self.subTest(line=ln, new=new.strip()):
                    self.assertEqual(output([os.path.join(d, 'schema')], {'TB_MUTANT': str(n)}),
                                     alone[n])

    def test_declarations_labels_and_comments_stay_out(self):
        for stmt in ('\tint x;\n', '\tout:\n', '\tcase 3:\n', '\tx = 1; // why\n',
                     '\tstatic int y = 2;\n', '\tint a[2] = { 1, 2 };\n',
                     '\tDEFINE_MAX_SEQ(lruvec);\n', '\tLIST_HEAD(list);\n',
                     '\tXA_STATE(xas, &lru->xa, 0);\n', '\tMA_STATE(mas, mt, 0, 0);\n'):
            self.assertIsNone(m.kind_of(stmt), stmt)
        self.assertEqual(m.kind_of('\treturn x;\n'), 'simple')
        self.assertEqual(m.kind_of('\tunsigned long nr = a + b;\n'), 'init')
        self.assertEqual(m.kind_of('\t} else if (a &&\n\t\t   b) {\n'), 'cond')


if __name__ == '__main__':
    unittest.main()
