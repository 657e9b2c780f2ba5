#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests for tools/kextract, run on the invented fixtures/ files.

Runnable from anywhere: python3 tests/kextract/test_kextract.py
The tool is found relative to this file. It runs in this process (its
main() with the arguments, stdout and stderr caught, its exit status
returned): a Python start and the tool's compile are most of a run's cost
on these small fixtures. The Process tests run it as a subprocess, the way
the build runs it, and check that both ways give the same output, status
and messages; a run with its own environment is a subprocess too.
"""

import contextlib
import importlib.machinery
import importlib.util
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, '..', '..', 'tools', 'kextract')
FIX = os.path.join(HERE, 'fixtures')
BASIC = os.path.join(FIX, 'basic.c')
TYPES = os.path.join(FIX, 'types.h')
SHIM = os.path.join(FIX, 'fixture_shim.h')
CC = os.environ.get('CC') or shutil.which('cc') or shutil.which('gcc')
HAVE_UNIFDEF = bool(os.environ.get('UNIFDEF') or shutil.which('unifdef'))


def load_tool(name='kextract'):
    """tools/NAME (a script without .py) as a module"""
    loader = importlib.machinery.SourceFileLoader(
        name + '_tool', os.path.join(HERE, '..', '..', 'tools', name))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


TOOL_MODULE = load_tool()


def kextract_process(*args, env=None):
    """Run the tool as a subprocess; returns the CompletedProcess (text mode)."""
    return subprocess.run([sys.executable, TOOL] + list(args),
                          capture_output=True, text=True, env=env)


def kextract(*args, env=None):
    """Run the tool; returns a CompletedProcess (text mode). In this process
    (main(), a fresh per-run cache), or with env as a subprocess."""
    if env is not None:
        return kextract_process(*args, env=env)
    TOOL_MODULE._parsed.clear()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = TOOL_MODULE.main(list(args))
        except SystemExit as e:  # argparse's usage errors
            rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    return subprocess.CompletedProcess([TOOL] + list(args), rc, out.getvalue(), err.getvalue())


def extract(*args):
    """Run the tool, require success, return stdout."""
    p = kextract(*args)
    if p.returncode != 0:
        raise AssertionError('kextract %s failed (%d): %s'
                             % (' '.join(args), p.returncode, p.stderr))
    return p.stdout


def basic(*args):
    return extract(BASIC, '--srcname', 'fixtures/basic.c', *args)


def fixture_line(path, text, nth=1):
    """1-based line number of the nth line of path starting with text."""
    with open(path) as f:
        hits = [n for n, line in enumerate(f, 1) if line.startswith(text)]
    return hits[nth - 1]


def markers(out):
    """[(line number, first line of the chunk that follows)]."""
    lines = out.splitlines()
    res = []
    for k, line in enumerate(lines):
        m = re.match(r'#line (\d+) "([^"]+)"$', line)
        if m and k + 1 < len(lines):
            res.append((int(m.group(1)), lines[k + 1]))
    return res


@unittest.skipUnless(HAVE_UNIFDEF, 'unifdef not installed')
class Closure(unittest.TestCase):
    """Which items the dependency closure takes or leaves."""

    def test_transitive_static_helpers(self):
        out = basic('--want', 'compute_total', '-D', 'CONFIG_FOO')
        self.assertIn('static __always_inline int helper_twice(int a)\n{', out)
        self.assertIn('static int helper_add(int a, int b)\n{', out)
        self.assertIn('static int helper_add(int a, int b);', out)  # prototype
        self.assertNotIn('not_wanted', out)
        self.assertNotIn('count_bump', out)

    def test_comments_and_strings_are_not_scanned(self):
        out = basic('--want', 'compute_total')
        self.assertIn('"unrelated_var in a string"', out)
        self.assertNotIn('static int unrelated_var', out)
        self.assertNotIn('static int unrelated_fn', out)

    def test_macro_deps(self):
        out = basic('--want', 'stock_total,compute_total')
        self.assertIn('#define SCALED(x)\t((x) * SCALE)', out)
        self.assertIn('#define SCALE\t\t4', out)
        # continuation lines are kept and the macro they use, defined later
        self.assertIn('#define MULTI_LINE(x)\t\t\t\t\\\n\t((x) + SCALE +', out)
        self.assertIn('#define EXTRA_OFFSET\t3', out)
        self.assertNotIn('UNUSED_MACRO', out)
        self.assertNotIn('MAKE_NAME', out)

    def test_wanted_macro_with_token_pasting(self):
        out = basic('--want', 'MAKE_NAME')
        self.assertIn('#define MAKE_NAME(a, b)\ta##_##b', out)

    def test_enum_constant_pulls_whole_enum(self):
        out = basic('--want', 'compute_total')
        self.assertIn('enum mode {\n\tMODE_OFF,\n\tMODE_SLOW,\n\tMODE_FAST,\n};', out)
        self.assertNotIn('FLAG_A', out)
        out = basic('--want', 'count_bump')
        self.assertIn('enum {\n\tFLAG_A = 1,\n\tFLAG_B = 2,\n};', out)

    def test_typedef_dep(self):
        out = basic('--want', 'compute_total')
        self.assertIn('typedef unsigned long cookie_t;', out)

    def test_per_cpu_and_mutex_variables(self):
        out = basic('--want', 'stock_total')
        self.assertIn('static DEFINE_PER_CPU(struct percpu_stock, stock) = {\n'
                      '\t.cached = -1,\n};', out)
        self.assertIn('static DEFINE_MUTEX(stock_mutex);', out)
        self.assertIn('struct percpu_stock {', out)   # used by value
        out = basic('--want', 'stock_mutex')
        self.assertIn('static DEFINE_MUTEX(stock_mutex);', out)
        self.assertNotIn('stock_total', out)

    def test_notifier_head_and_device_attribute_variables(self):
        out = basic('--want', 'call_algorithms')
        self.assertIn('static BLOCKING_NOTIFIER_HEAD(algorithms);', out)
        # DEVICE_ATTR_RO(x) defines dev_attr_x; its x_show is pasted, not seen
        self.assertIn('static DEVICE_ATTR_RO(level);', out)
        self.assertNotIn('level_show', out)

    def test_export_symbol_follows_its_function(self):
        out = basic('--want', 'compute_total')
        self.assertIn('EXPORT_SYMBOL(compute_total);', out)
        self.assertNotIn('EXPORT_SYMBOL_GPL(not_wanted)', out)
        out = basic('--want', 'not_wanted')
        self.assertIn('EXPORT_SYMBOL_GPL(not_wanted);', out)
        self.assertNotIn('EXPORT_SYMBOL(compute_total)', out)

    def test_includes_kept_unless_no_includes(self):
        self.assertIn('#include "fixture_shim.h"', basic('--want', 'helper_add'))
        out = basic('--want', 'helper_add', '--no-includes')
        self.assertNotIn('#include', out)

    def test_function_of_double_underscore_name_returning_an_enum(self):
        # `__name(` reads like an attribute macro with arguments; the head
        # still ends in the function's parameters, not in the enum's tag
        src = ('enum verdict { V_NO, V_YES };\n'
               'static enum verdict __judge(int x)\n{\n\treturn x ? V_YES : V_NO;\n}\n'
               'int judge(int x)\n{\n\treturn __judge(x) == V_YES;\n}\n')
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'judge.c')
            with open(path, 'w') as f:
                f.write(src)
            out = extract(path, '--want', '__judge')
        self.assertIn('static enum verdict __judge(int x)', out)
        self.assertIn('enum verdict { V_NO, V_YES };', out)
        self.assertNotIn('int judge(int x)', out)

    def test_bare_and_tagged_type_names(self):
        for want in ('union gadget_id', 'gadget_id'):
            out = extract(TYPES, '--want', want)
            self.assertIn('union gadget_id {', out)
        out = extract(TYPES, '--want', 'enum widget_state')
        self.assertIn('enum widget_state {', out)
        self.assertNotIn('struct widget {', out)

    def test_typedef_of_anonymous_struct(self):
        out = extract(TYPES, '--want', 'widget_pd_t')
        self.assertIn('typedef struct { unsigned long pd; } widget_pd_t;', out)


@unittest.skipUnless(HAVE_UNIFDEF, 'unifdef not installed')
class Types(unittest.TestCase):
    """struct/union by value, through pointers, through member access."""

    def test_pointer_only_struct_is_forward_declared(self):
        out = basic('--want', 'compute_total')
        self.assertNotIn('struct opaque {', out)
        self.assertIn('\nstruct opaque;\n', out)
        self.assertLess(out.index('struct opaque;'), out.index('#line'))

    def test_by_value_struct_is_pulled(self):
        out = basic('--want', 'count_bump')
        self.assertIn('struct counter {', out)
        # its pointer member does not pull struct opaque
        self.assertNotIn('struct opaque {', out)
        self.assertIn('\nstruct opaque;\n', out)
        self.assertNotIn('struct cfg', out)
        self.assertNotIn('never_used', out)

    def test_member_access_pulls_struct(self):
        out = basic('--want', 'peek')
        self.assertIn('struct cfg {\n\tint limit;', out)
        self.assertNotIn('\nstruct cfg;\n', out)

    def test_pointer_without_member_access_is_not_pulled(self):
        out = basic('--want', 'cfg_present')
        self.assertNotIn('struct cfg {', out)
        self.assertIn('\nstruct cfg;\n', out)

    def test_header_types(self):
        out = extract(TYPES, '--want', 'struct widget')
        self.assertIn('struct gadget_stats {', out)   # member by value
        self.assertIn('union gadget_id {', out)       # member by value
        self.assertIn('\nstruct gadget;\n', out)      # pointer member only
        self.assertNotIn('struct gadget {', out)
        self.assertNotIn('debug_cookie', out)         # CONFIG_WIDGET_DEBUG unset
        self.assertNotIn('#define GADGET_BATCH', out)
        # the include guard is dropped, so nothing is left unbalanced
        self.assertNotIn('_FIXTURE_TYPES_H', out)
        self.assertNotIn('#endif', out)

    def test_prototype_parameter_types_are_deps(self):
        out = extract(TYPES, '--want', 'widget_set_flags')
        self.assertIn('typedef unsigned int widget_flags_t;', out)
        self.assertIn('void widget_set_flags(struct widget *, widget_flags_t);', out)
        self.assertIn('\nstruct widget;\n', out)
        self.assertNotIn('struct widget {', out)

    def test_header_config_variant(self):
        out = extract(TYPES, '--want', 'widget_debug', '-D', 'CONFIG_WIDGET_DEBUG')
        self.assertIn('return w->debug_cookie;', out)
        self.assertIn('\tint debug_cookie;', out)     # member access pulls widget
        self.assertNotIn('return 0;', out)
        out = extract(TYPES, '--want', 'widget_debug')
        self.assertIn('return 0;', out)
        self.assertNotIn('debug_cookie', out)


@unittest.skipUnless(HAVE_UNIFDEF, 'unifdef not installed')
class Config(unittest.TestCase):
    """CONFIG_* resolution through unifdef."""

    def test_body_differs_under_config(self):
        out = basic('--want', 'feature_level', '-D', 'CONFIG_FOO')
        self.assertIn('return 42;', out)
        self.assertNotIn('return 7;', out)
        self.assertNotIn('CONFIG_FOO', out)
        out = basic('--want', 'feature_level')
        self.assertIn('return 7;', out)
        self.assertNotIn('return 42;', out)

    def test_is_enabled_in_if_lines(self):
        out = basic('--want', 'foo_factor', '-D', 'CONFIG_FOO')
        self.assertIn('#define FOO_FACTOR\t2', out)
        self.assertNotIn('#define FOO_FACTOR\t1', out)
        out = basic('--want', 'foo_factor', '-U', 'CONFIG_FOO')
        self.assertIn('#define FOO_FACTOR\t1', out)
        self.assertNotIn('IS_ENABLED', out)

    def test_config_only_function(self):
        p = kextract(BASIC, '--want', 'bar_only')
        self.assertEqual(p.returncode, 1)
        out = basic('--want', 'bar_only', '-D', 'CONFIG_BAR')
        self.assertIn('static int bar_only(void)', out)

    def test_surviving_conditionals_balance(self):
        out = basic('--want', 'peek')
        self.assertIn('#ifdef ARCH_HAS_FAST_PEEK\n', out)
        self.assertIn('\n#else\n', out)
        self.assertEqual(out.count('static int peek(struct cfg *c)'), 2)
        opens = len(re.findall(r'^#\s*if', out, re.M))
        closes = len(re.findall(r'^#\s*endif', out, re.M))
        self.assertEqual((opens, closes), (1, 1))
        # groups enclosing nothing kept are dropped entirely
        out = basic('--want', 'helper_add')
        self.assertNotIn('ARCH_HAS_FAST_PEEK', out)


@unittest.skipUnless(HAVE_UNIFDEF, 'unifdef not installed')
class StubGlobalize(unittest.TestCase):

    def test_stub_leaves_name_external(self):
        out = basic('--want', 'compute_total')
        self.assertIn('static int slow_path(int x)\n{', out)
        self.assertIn('static int slow_path(int x);', out)
        out = basic('--want', 'compute_total', '--stub', 'slow_path')
        self.assertNotIn('static int slow_path', out)   # prototype dropped too
        self.assertIn('return slow_path(n);', out)

    def test_stub_tag(self):
        out = basic('--want', 'count_bump', '--stub', 'struct counter')
        self.assertNotIn('struct counter {', out)

    def test_globalize_function_and_prototype(self):
        out = basic('--want', 'helper_twice', '--globalize', 'helper_add,helper_twice')
        self.assertIn('\nint helper_add(int a, int b);', out)
        self.assertIn('\nint helper_add(int a, int b)\n{', out)
        self.assertIn('\nint helper_twice(int a)\n{', out)
        self.assertNotIn('static', out)
        self.assertNotIn('__always_inline', out)

    def test_globalize_variable(self):
        out = basic('--want', 'stock_mutex', '--globalize', 'stock_mutex')
        self.assertIn('\nDEFINE_MUTEX(stock_mutex);', out)

    def test_wrap_renames_definition_only(self):
        out = basic('--want', 'helper_twice', '--wrap', 'helper_add')
        self.assertIn('static int __real_helper_add(int a, int b)\n{', out)
        self.assertIn('static int helper_add(int a, int b);', out)
        self.assertRegex(out, r'helper_twice[^{]*\{[^}]*\bhelper_add\(')

    def test_wrap_of_globalized_function(self):
        out = basic('--want', 'helper_twice', '--globalize', 'helper_add', '--wrap', 'helper_add')
        self.assertIn('\nint __real_helper_add(int a, int b)\n{', out)
        self.assertIn('\nint helper_add(int a, int b);', out)

    def test_directive_with_multiline_comment_is_whole(self):
        out = basic('--want', 'uses_commented_flag')
        self.assertIn('runs on over the next line */', out)
        self.assertLess(out.index('#define COMMENTED_FLAG'), out.index('uses_commented_flag'))

    def test_wrap_of_unextracted_function_fails(self):
        p = kextract(BASIC, '--want', 'helper_add', '--wrap', 'helper_twice',
                     '--srcname', 'fixtures/basic.c', '--tree', 'fixture-tree')
        self.assertEqual(p.returncode, 1)
        self.assertIn("wrap symbol 'helper_twice' is not an extracted function", p.stderr)

    def test_unknown_stub_or_globalize_only_warns(self):
        p = kextract(BASIC, '--want', 'helper_add', '--stub', 'ghost_fn',
                     '--globalize', 'phantom_fn')
        self.assertEqual(p.returncode, 0)
        self.assertIn("warning: stub symbol 'ghost_fn' appears nowhere", p.stderr)
        self.assertIn("warning: globalize symbol 'phantom_fn' appears nowhere", p.stderr)
        self.assertIn('static int helper_add', p.stdout)


@unittest.skipUnless(HAVE_UNIFDEF, 'unifdef not installed')
class Errors(unittest.TestCase):

    def test_missing_wanted_symbol(self):
        p = kextract(BASIC, '--want', 'helper_add,no_such_fn',
                     '--srcname', 'fixtures/basic.c', '--tree', 'fixture-tree')
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stderr, "kextract: fixture-tree: fixtures/basic.c: "
                                   "wanted symbol 'no_such_fn' not found\n")
        self.assertEqual(p.stdout, '')

    def test_missing_wanted_default_tree_and_no_output_file(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'out.c')
            p = kextract(BASIC, '--want', 'struct no_such_type', '-o', out)
            self.assertEqual(p.returncode, 1)
            self.assertEqual(p.stderr, "kextract: %s: %s: wanted symbol "
                             "'struct no_such_type' not found\n" % (FIX, BASIC))
            self.assertEqual(os.listdir(d), [])

    def test_missing_source(self):
        p = kextract(os.path.join(FIX, 'nope.c'), '--want', 'x')
        self.assertEqual(p.returncode, 1)
        self.assertIn('nope.c', p.stderr)
        self.assertEqual(len(p.stderr.splitlines()), 1)

    def test_missing_unifdef(self):
        env = dict(os.environ, UNIFDEF='/nonexistent/unifdef')
        p = kextract(BASIC, '--want', 'helper_add', env=env)
        self.assertEqual(p.returncode, 1)
        self.assertIn('unifdef', p.stderr)
        self.assertIn('/nonexistent/unifdef', p.stderr)


@unittest.skipUnless(HAVE_UNIFDEF, 'unifdef not installed')
class Output(unittest.TestCase):

    def test_header_comment(self):
        out = basic('--want', 'helper_add')
        self.assertTrue(out.startswith('/* generated by tools/kextract from '
                                       'fixtures/basic.c: do not edit */\n'))

    def test_line_marker_of_known_line(self):
        out = basic('--want', 'compute_total', '-D', 'CONFIG_FOO')
        n = fixture_line(BASIC, 'int compute_total(')
        self.assertIn('#line %d "fixtures/basic.c"\nint compute_total(' % n, out)
        n = fixture_line(BASIC, 'static int helper_add(', nth=2)  # definition
        self.assertIn('#line %d "fixtures/basic.c"\nstatic int helper_add(int a, int b)\n{'
                      % n, out)

    def test_every_line_marker_matches_fixture(self):
        with open(BASIC) as f:
            src = f.read().splitlines()
        out = basic('--want', 'compute_total,count_bump,stock_total,foo_factor')
        found = markers(out)
        self.assertGreater(len(found), 15)
        for n, first in found:
            self.assertTrue(src[n - 1].endswith(first),
                            'line %d is %r, output has %r' % (n, src[n - 1], first))

    def test_atomic_output_and_depfile(self):
        with tempfile.TemporaryDirectory() as d:
            out, dep = os.path.join(d, 'out.c'), os.path.join(d, 'out.d')
            p = kextract(BASIC, '--want', 'helper_add', '-o', out, '--deps', dep)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout, '')
            with open(dep) as f:
                self.assertEqual(f.read(), '%s: %s\n' % (out, BASIC))
            self.assertEqual(sorted(os.listdir(d)), ['out.c', 'out.d'])
            with open(out) as f:
                self.assertIn('static int helper_add', f.read())
            # a failing run leaves the previous output untouched
            p = kextract(BASIC, '--want', 'no_such_fn', '-o', out)
            self.assertEqual(p.returncode, 1)
            with open(out) as f:
                self.assertIn('static int helper_add', f.read())
            self.assertEqual(sorted(os.listdir(d)), ['out.c', 'out.d'])

    def test_report(self):
        p = kextract(BASIC, '--want', 'compute_total', '--stub', 'slow_path',
                     '--report', '--no-includes')
        self.assertEqual(p.returncode, 0)
        self.assertRegex(p.stderr, r'forward declarations \(1\): struct opaque\n')
        self.assertRegex(p.stderr, r'external functions/macros called \(\d+\):.* slow_path')
        self.assertNotRegex(p.stderr, r'other external identifiers.*\bmsg\b')

    def test_manifest_matches_cli(self):
        cli = extract(BASIC, '--want', 'compute_total', '--want', 'count_bump,stock_total',
                      '--stub', 'slow_path', '--globalize', 'compute_total',
                      '-D', 'CONFIG_FOO', '--srcname', 'fixtures/basic.c',
                      '--tree', 'fixture-tree', '--no-includes')
        man = extract(BASIC, '--manifest', os.path.join(FIX, 'basic.manifest'))
        self.assertEqual(man, cli)
        self.assertIn('return 42;', man)
        # manifest and command line combine
        both = extract(BASIC, '--manifest', os.path.join(FIX, 'basic.manifest'),
                       '--want', 'foo_factor')
        self.assertIn('int foo_factor(void)', both)
        self.assertNotIn('int foo_factor(void)', man)

    def test_manifest_errors(self):
        with tempfile.NamedTemporaryFile('w', suffix='.manifest', delete=False) as f:
            f.write('want helper_add\nfrobnicate x\n')
        try:
            p = kextract(BASIC, '--manifest', f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(p.returncode, 1)
        self.assertIn(":2: unknown manifest keyword 'frobnicate'", p.stderr)

    def test_manifest_feature_lines(self):
        # `if F LINE` keeps LINE only when the tree has F, `if !F` when not
        with tempfile.NamedTemporaryFile('w', suffix='.manifest', delete=False) as f:
            f.write('want compute_total\nno-includes\n'
                    'if shrinker_c want foo_factor\n'
                    'if !shrinker_c want count_bump\n')
        try:
            with_f = extract(BASIC, '--manifest', f.name, '--features=shrinker_c,x')
            without = extract(BASIC, '--manifest', f.name, '--features=')
            unknown = kextract(BASIC, '--manifest', f.name)
        finally:
            os.unlink(f.name)
        self.assertIn('int foo_factor(void)', with_f)
        self.assertNotIn('count_bump(', with_f)
        self.assertNotIn('int foo_factor(void)', without)
        self.assertIn('count_bump(', without)
        # without the tree's features an `if` line is an error, not a guess
        self.assertEqual(unknown.returncode, 1)
        self.assertIn("'if shrinker_c' needs --features", unknown.stderr)

    def test_manifest_unknown_feature(self):
        with tempfile.NamedTemporaryFile('w', suffix='.manifest', delete=False) as f:
            f.write('want compute_total\nif no_such_feature want foo_factor\n')
        try:
            p = kextract(BASIC, '--manifest', f.name, '--features=')
        finally:
            os.unlink(f.name)
        self.assertEqual(p.returncode, 1)
        self.assertIn(":2: unknown feature 'no_such_feature'", p.stderr)


HARNESS = r'''
int main(void)
{
	struct cfg c = { .limit = 10 };
	struct counter k = { .value = 1 };

	count_bump(&k, 2);
	printf("%d %ld %ld %d %d %d\n", compute_total(&c, 0, 1), k.value,
	       stock_total(), helper_add(2, 3), foo_factor(),
	       compute_total(&c, 0, 11));
	return 0;
}
'''

TYPES_PRELUDE = r'''
#include <stdbool.h>
'''

TYPES_HARNESS = r'''
struct widget *root_widget;

int main(void)
{
	struct widget w = { .state = WIDGET_LIVE };

	root_widget = &w;
	return !(widget_is_root(&w) && widget_live(&w) && GADGET_BATCH == 64);
}
'''


@unittest.skipUnless(HAVE_UNIFDEF and CC, 'unifdef or cc not installed')
class Compile(unittest.TestCase):
    """The output is a valid translation unit, and behaves as the fixture."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='kextract-test-')
        shutil.copy(SHIM, self.dir)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def build(self, out, harness, *ccargs):
        path = os.path.join(self.dir, 'extracted.c')
        with open(path, 'w') as f:
            f.write(out)
        main = os.path.join(self.dir, 'harness.c')
        with open(main, 'w') as f:
            f.write('#include <stdio.h>\n#include "extracted.c"\n' + harness)
        return subprocess.run([CC, '-std=gnu11', '-Wall', '-Werror',
                               '-Wno-unused-function', '-I', self.dir, main]
                              + list(ccargs), capture_output=True, text=True,
                              cwd=self.dir)

    def extract_basic(self, *args):
        return basic('--want', 'compute_total,count_bump,stock_total,foo_factor',
                     '--stub', 'slow_path', '--globalize', 'helper_add', *args)

    def test_syntax_only(self):
        p = self.build(self.extract_basic('-D', 'CONFIG_FOO'), HARNESS, '-fsyntax-only')
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_without_globalize_fails(self):
        # the shim declares helper_add() non-static: proves --globalize acts
        out = basic('--want', 'compute_total', '--stub', 'slow_path')
        p = self.build(out, 'int main(void) { return 0; }\n', '-fsyntax-only')
        self.assertNotEqual(p.returncode, 0)
        self.assertIn('helper_add', p.stderr)

    def test_run_matches_config(self):
        # compute_total(&c, 0, 1) = helper_twice(1) 2 + feature_level()
        #   + MODE_SLOW 1 + peek() 0 + MULTI_LINE(1) 8; over the limit it
        #   returns the shim's slow_path(11) = -11.
        for define, expect in (('CONFIG_FOO', '53 3 4 5 2 -11'),
                               ('CONFIG_NONE', '18 3 4 5 1 -11')):
            out = self.extract_basic('-D', define)
            exe = os.path.join(self.dir, 'a.out')
            p = self.build(out, HARNESS, '-o', exe)
            self.assertEqual(p.returncode, 0, p.stderr)
            r = subprocess.run([exe], capture_output=True, text=True)
            self.assertEqual(r.stdout, expect + '\n')

    def test_line_markers_reach_the_compiler(self):
        out = self.extract_basic('-D', 'CONFIG_FOO')
        out = out.replace('\treturn helper_add(a, a);', '\treturn helper_add(a, a) + undeclared_x;')
        p = self.build(out, HARNESS, '-fsyntax-only')
        n = fixture_line(BASIC, '\treturn helper_add(a, a);')
        self.assertIn('fixtures/basic.c:%d:' % n, p.stderr)

    def test_header_output_compiles(self):
        out = extract(TYPES, '--no-includes', '--want',
                      'struct widget,widget_is_root,widget_live,GADGET_BATCH')
        p = self.build(TYPES_PRELUDE + out, TYPES_HARNESS, '-fsyntax-only')
        self.assertEqual(p.returncode, 0, p.stderr)


class KdeclareProvided(unittest.TestCase):
    """tools/kdeclare's names of the build's header directory: computed
    once, kept in DIR.names.json, and computed again for a header that
    changed, or for all when the tools changed."""

    def setUp(self):
        self.kd = load_tool('kdeclare')
        self.tmp = tempfile.TemporaryDirectory()
        self.top = os.path.join(self.tmp.name, 'include')
        os.makedirs(os.path.join(self.top, 'linux'))
        self.write('linux/a.h', '#define A_MACRO 1\nstruct a_type { int x; };\n'
                   '#define MAKE(n) int make_##n##_thing;\n')
        self.write('b.h', 'static inline int b_fn(void)\n{\n\treturn 0;\n}\n')

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text):
        with open(os.path.join(self.top, rel), 'w') as f:
            f.write(text)

    def test_cached_answers_are_the_computed_ones(self):
        names, pats = self.kd.provided_names(self.top)
        self.assertTrue({'A_MACRO', 'a_type', 'b_fn'} <= names, names)
        self.assertEqual(pats, {r'make_\w+_thing'})
        self.assertTrue(os.path.exists(self.top + '.names.json'))
        computed = []
        real = self.kd.header_defines
        self.kd.header_defines = lambda p: computed.append(p) or real(p)
        self.assertEqual(self.kd.provided_names(self.top), (names, pats))
        self.assertEqual(computed, [])
        # a header edited: its names again, the other's from the cache
        self.write('b.h', 'static inline int c_fn(void)\n{\n\treturn 1;\n}\n')
        names2, _ = self.kd.provided_names(self.top)
        self.assertEqual([os.path.basename(p) for p in computed], ['b.h'])
        self.assertIn('c_fn', names2)
        self.assertNotIn('b_fn', names2)
        # other tools: everything again
        del computed[:]
        self.kd.tools_stamp = lambda: 'another version'
        self.assertEqual(self.kd.provided_names(self.top)[0], names2)
        self.assertEqual(len(computed), 2)

    def test_summaries_of_tree_headers(self):
        path = os.path.join(self.top, 'b.h')
        store = os.path.join(self.tmp.name, 'kdeclare-headers.json')
        calls = []

        def compute():
            calls.append(1)
            return {'n': len(calls)}
        c = self.kd.Summaries(store, ['CONFIG_A=1'])
        self.assertEqual(c.get('tree', path, compute), {'n': 1})
        c.save()
        # another run, the same header and CONFIG set: from the file
        self.assertEqual(self.kd.Summaries(store, ['CONFIG_A=1']).get('tree', path, compute), {'n': 1})
        self.assertEqual(len(calls), 1)
        # another CONFIG set, or the header edited: computed again
        self.assertEqual(self.kd.Summaries(store, ['CONFIG_B=1']).get('tree', path, compute), {'n': 2})
        self.write('b.h', '/* longer */ static inline int b_fn(void) { return 0; }\n')
        self.assertEqual(self.kd.Summaries(store, ['CONFIG_A=1']).get('tree', path, compute), {'n': 3})

    def test_a_broken_cache_is_computed_again(self):
        with open(self.top + '.names.json', 'w') as f:
            f.write('{"tools": ')
        self.assertIn('b_fn', self.kd.provided_names(self.top)[0])


class KdeclareInputsKey(unittest.TestCase):
    """tools/kdeclare header's digest of its inputs: the same while they
    are as they were (the run is then skipped), another when a REFS file,
    a header of the tree or of the provided directory, or a quoted
    include of a source changes; not when only the source's code does."""

    def setUp(self):
        self.kd = load_tool('kdeclare')
        self.tmp = tempfile.TemporaryDirectory()
        t = self.path = lambda *p: os.path.join(self.tmp.name, *p)
        for d in ('tree/include/linux', 'tree/mm', 'provided/linux'):
            os.makedirs(t(d))
        self.write('tree/include/linux/x.h', 'int x_fn(void);\n')
        self.write('tree/mm/b.h', 'int b_fn(void);\n')
        self.write('tree/mm/a.c', '#include "b.h"\nint a(void) { return b_fn(); }\n')
        self.write('provided/linux/p.h', '#define P 1\n')
        self.write('known.txt', 'a\n')
        self.write('a.refs', '# %s\ncall x_fn\n' % t('tree/mm/a.c'))
        self.args = ['header', t('a.refs'), '--root', t('tree'), '--known', t('known.txt'),
                     '--provided', t('provided'), '-o', t('a.auto.h')]

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, rel, text, mtime=None):
        with open(self.path(rel), 'w') as f:
            f.write(text)
        if mtime:
            os.utime(self.path(rel), (mtime, mtime))

    def key(self):
        class A:
            refs = [self.path('a.refs')]
            known = self.path('known.txt')
            provided = self.path('provided')
            root = self.path('tree')
        return self.kd.inputs_key(A, self.args)

    def test_the_key(self):
        k = self.key()
        self.assertEqual(self.key(), k)
        # the source's code, not its includes: the same
        self.write('tree/mm/a.c', '#include "b.h"\nint a(void) { return b_fn() + 1; }\n')
        self.assertEqual(self.key(), k)
        changes = [('a.refs', '# %s\ncall x_fn\ncall y_fn\n' % self.path('tree/mm/a.c')),
                   ('tree/include/linux/x.h', 'int x_fn(int);\n'),
                   ('tree/include/linux/y.h', 'int y_fn(void);\n'),
                   ('provided/linux/p.h', '#define P 2\n'),
                   ('tree/mm/b.h', 'long b_fn(void);\n'),
                   ('tree/mm/a.c', '#include "b.h"\n#include "c.h"\nint a(void);\n')]
        for rel, text in changes:
            self.write(rel, text, 2000000000)
            k2 = self.key()
            self.assertNotEqual(k2, k, rel)
            k = k2

    def test_a_second_run_reads_nothing_else(self):
        calls = []
        self.kd.declare = lambda a: calls.append(a) or [
            self.kd.kx.write_atomic(a.out + s, '') for s in ('', '.gaps')]
        self.assertEqual(self.kd.main(self.args), 0)
        self.assertEqual(self.kd.main(self.args), 0)
        self.assertEqual(len(calls), 1)
        self.write('a.refs', '# %s\ncall y_fn\n' % self.path('tree/mm/a.c'))
        self.assertEqual(self.kd.main(self.args), 0)
        self.assertEqual(len(calls), 2)


@unittest.skipUnless(HAVE_UNIFDEF, 'unifdef not installed')
class Process(unittest.TestCase):
    """The tool run as the build runs it (a subprocess) gives what the
    tests' in-process runs give: output, exit status, messages."""

    def same(self, *args):
        a, b = kextract_process(*args), kextract(*args)
        self.assertEqual((a.returncode, a.stdout, a.stderr),
                         (b.returncode, b.stdout, b.stderr), args)
        return a

    def test_an_extraction(self):
        p = self.same(BASIC, '--srcname', 'fixtures/basic.c', '--want', 'compute_total',
                      '-D', 'CONFIG_FOO')
        self.assertEqual(p.returncode, 0)
        self.assertIn('helper_add', p.stdout)

    def test_a_missing_name(self):
        p = self.same(BASIC, '--want', 'helper_add,no_such_fn')
        self.assertEqual(p.returncode, 1)
        self.assertIn('no_such_fn', p.stderr)

    def test_a_usage_error(self):
        p = self.same(BASIC, '--no-such-option')
        self.assertEqual(p.returncode, 2)

    def test_written_files(self):
        with tempfile.TemporaryDirectory() as d:
            outs = []
            for run in (kextract_process, kextract):
                out, dep = os.path.join(d, 'o.c'), os.path.join(d, 'o.d')
                p = run(BASIC, '--want', 'helper_add', '-o', out, '--deps', dep)
                self.assertEqual(p.returncode, 0, p.stderr)
                with open(out) as f, open(dep) as g:
                    outs.append((f.read(), g.read(), p.stdout, p.stderr))
                os.unlink(out)
                os.unlink(dep)
            self.assertEqual(outs[0], outs[1])


if __name__ == '__main__':
    unittest.main()
