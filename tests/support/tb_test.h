/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CMocka glue shared by every suite: each test runs in a fresh world that
 * is checked at teardown (no leak, no unexpected WARN, no sleep in atomic
 * context), so a test fails on what the kernel code reported even when
 * its own asserts pass.
 */
#ifndef _TB_TEST_H
#define _TB_TEST_H
#include <setjmp.h>
#include <cmocka.h>
#include <kshim/testbed.h>

int tb_setup(void **state);
int tb_teardown(void **state);
int tb_run(const char *name, const struct CMUnitTest *tests, size_t n);

#define TB_TEST(fn) cmocka_unit_test_setup_teardown(fn, tb_setup, tb_teardown)
#define TB_RUN(tests) tb_run(__FILE__, tests, sizeof(tests) / sizeof((tests)[0]))

/*
 * A case whose kernel code this tree lacks (tools/tb_features.py's
 * TB_HAVE_*): the reason on stdout, the case reported skipped, never passed.
 */
#define tb_skip(why)							\
	do {								\
		print_message("[  SKIP    ] %s\n", why);			\
		skip();							\
	} while (0)

/* worlds with a non-default shape: set before the test's setup runs */
extern struct kshim_world_config tb_world;

/* run fn(arg, i) on nr threads, thread i on virtual CPU i % nr_cpus */
void tb_run_threads(unsigned int nr, void (*fn)(void *arg, unsigned int i), void *arg);

#endif
