#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/tb_features.py and tools/tb doctor on fixture trees: every kind of
probe, the suites a tree supports and the reason it gives when not, the
cmake file the build includes."""
import os
import subprocess
import sys
import tempfile
import unittest

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tools')
sys.path.insert(0, TOOLS)
import tb_features  # noqa: E402
from tb_features import Feature  # noqa: E402


def write(root, path, text):
    p = os.path.join(root, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'w') as f:
        f.write(text)


MAKEFILE = 'VERSION = 6\nPATCHLEVEL = 99\nSUBLEVEL = 3\nEXTRAVERSION =\n'
HEADER = '''/* struct page_counter { long commented_out; }; */
#define MAX_THING 4
struct page_counter {
	long usage;
	struct {
		int nested;
	} inner;
	bool protection_support;
};
static inline int helper_fn(int a,
			    int b)
{
	return a + b;
}
int declared_only(int a);
/* only_in_comment */
#define USES_IT IS_ENABLED(CONFIG_BASE_SMALL)
'''


class Probes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.tree = self.tmp.name
        write(self.tree, 'Makefile', MAKEFILE)
        write(self.tree, 'include/linux/x.h', HEADER)
        write(self.tree, 'mm/shrinker.c', '')

    def tearDown(self):
        self.tmp.cleanup()

    def probe(self, *p):
        return tb_features.probe(self.tree, Feature('f', p, '1.0', 'what'))[0]

    def test_version(self):
        self.assertEqual(tb_features.tree_version(self.tree), '6.99.3')

    def test_file(self):
        self.assertTrue(self.probe('file', 'mm/shrinker.c'))
        self.assertFalse(self.probe('file', 'mm/memcontrol-v1.c'))

    def test_func_needs_a_body(self):
        self.assertTrue(self.probe('func', 'include/linux/x.h', 'helper_fn'))
        self.assertFalse(self.probe('func', 'include/linux/x.h', 'declared_only'))

    def test_macro_struct_member(self):
        self.assertTrue(self.probe('macro', 'include/linux/x.h', 'MAX_THING'))
        self.assertFalse(self.probe('macro', 'include/linux/x.h', 'helper_fn'))
        self.assertTrue(self.probe('struct', 'include/linux/x.h', 'page_counter'))
        self.assertTrue(self.probe('member', 'include/linux/x.h', 'page_counter',
                                   'protection_support'))
        # past a nested brace, and never in a comment
        self.assertFalse(self.probe('member', 'include/linux/x.h', 'page_counter',
                                    'commented_out'))
        self.assertFalse(self.probe('member', 'include/linux/x.h', 'page_counter',
                                    'local_watermark'))

    def test_word_and_regex_skip_comments(self):
        self.assertTrue(self.probe('word', 'include/linux/x.h', 'declared_only'))
        self.assertFalse(self.probe('word', 'include/linux/x.h', 'only_in_comment'))
        self.assertTrue(self.probe('regex', 'include/linux/x.h',
                                   r'IS_ENABLED\(CONFIG_BASE_SMALL\)'))

    def test_missing_file_is_absent(self):
        ok, detail = tb_features.probe(self.tree, Feature(
            'f', ('func', 'mm/nothere.c', 'x'), '1.0', 'what'))
        self.assertFalse(ok)
        self.assertIn('file missing', detail)

    def test_suites_reason_names_version_file_and_feature(self):
        rows = {s[0]: s for s in tb_features.suites(self.tree)}
        self.assertTrue(rows['shim'][2])
        self.assertTrue(rows['shrinker'][2])		# mm/shrinker.c exists
        self.assertTrue(rows['memcg'][2])
        self.assertTrue(rows['reclaim'][2])
        self.assertFalse(rows['page_counter_fuzz'][2])
        self.assertIn('6.99.3 lacks mm/page_counter.c', rows['page_counter_fuzz'][3])

    def test_cmake_file(self):
        out = os.path.join(self.tree, 'f.cmake')
        tb_features.write_cmake(self.tree, out, before=self.tree)
        with open(out) as f:
            text = f.read()
        self.assertIn('set(TB_HAVE_shrinker_c 1)', text)
        self.assertIn('set(TB_HAVE_memcontrol_v1_c 0)', text)
        self.assertIn('set(TB_SUITE_SKIP_shim "")', text)
        self.assertIn('set(TB_SUITE_SKIP_memcg "")', text)
        self.assertIn('set(TB_SUITE_SKIP_reclaim "")', text)
        self.assertRegex(text, r'set\(TB_SUITE_SKIP_page_counter_fuzz "6\.99\.3 lacks')
        self.assertTrue(os.path.exists(out + '.json'))

    def test_feature_names_are_unique_and_known_kinds(self):
        names = [f.name for f in tb_features.FEATURES]
        self.assertEqual(len(names), len(set(names)))
        for f in tb_features.FEATURES:
            self.assertIn(f.probe[0], ('file', 'func', 'macro', 'struct', 'member',
                                       'word', 'regex'))
        for name, _, needs, _ in tb_features.SUITES:
            for n in needs:
                self.assertIn(n, names, name)


class Doctor(unittest.TestCase):
    def test_help_targets_of_ninja_and_make(self):
        import tb_doctor
        ninja = ('[1/1] All primary targets available:\nseed003: phony\n'
                 'tests/lru_fs/seed003: C_EXECUTABLE_LINKER__seed003_Debug\nall: phony\n')
        make = 'The following are some of the valid targets for this Makefile:\n... all\n... seed_001\n'
        self.assertIn('seed003', tb_doctor.help_targets(ninja))
        self.assertNotIn('[1/1]', tb_doctor.help_targets(ninja))
        self.assertEqual(tb_doctor.help_targets(make), {'all', 'seed_001'})

    def run_tb(self, *args):
        # the dry run configures a build directory of its own: a scratch one;
        # the kernel trees it needs besides the fixture (the "before" tree)
        # come from the cache of the build that runs the test
        # (TB_KERNEL_CACHE_DIR, set by ctest), else from build/kernel-trees
        # when there is one: extracting a tarball again is ~10 s of xz
        with tempfile.TemporaryDirectory() as b:
            env = dict(os.environ, TB_BUILD_DIR=b)
            cache = os.path.join(TOOLS, '..', 'build', 'kernel-trees')
            if 'TB_KERNEL_CACHE_DIR' not in env and os.path.isdir(cache):
                env['TB_KERNEL_CACHE_DIR'] = os.path.abspath(cache)
            return subprocess.run([os.path.join(TOOLS, 'tb'), 'doctor'] + list(args),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=env)

    def test_not_a_tree_is_one_line(self):
        with tempfile.TemporaryDirectory() as d:
            p = self.run_tb('--kernel', d)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(p.stderr.strip().count('\n'), 0)
        self.assertIn('not a kernel source tree', p.stderr)

    def test_fixture_tree_table(self):
        with tempfile.TemporaryDirectory() as d:
            write(d, 'Makefile', MAKEFILE)
            write(d, 'mm/page_counter.c', '')
            p = self.run_tb('--kernel', d)
        # the table, then the dry run's first missing piece; status 1
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertRegex(p.stdout, r'piece\(s\) missing; the build stops on:\n +configure '
                         r'failed: kernel tree \S+: include/linux/\S+: file missing')
        self.assertIn('version     6.99.3', p.stdout)
        self.assertRegex(p.stdout, r'\nshim +supported')
        self.assertRegex(p.stdout, r'\nshrinker +skipped .*6\.99\.3 lacks mm/shrinker\.c')


if __name__ == '__main__':
    unittest.main()
