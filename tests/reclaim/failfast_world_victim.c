// SPDX-License-Identifier: GPL-2.0-only
/*
 * A reclaim-world test that fails on purpose, run by tests/shim's
 * test_failfast in a process of its own: failfast_world_victim SCENARIO
 * runs the scenario's failing case, then a case that boots a fresh world
 * and takes the same kind of lock (it would hang, or never run, if the
 * teardown had waited on what the failing case left behind).
 */
#include <linux/kernel.h>
#include <linux/pagemap.h>
#include <string.h>
#include "tb_reclaim.h"

/*
 * The assertion fails between folio_trylock() and folio_unlock() of a
 * page cache folio (test_reclaim_mglru_classic's locked-folio case did,
 * on trees whose eviction does not take locked folios): teardown's
 * truncate met the folio locked and waited for the watchdog's abort.
 */
static void fails_holding_a_folio_lock(void **state)
{
	struct tb_file *f = tb_file_create(1);

	tb_run_in("");
	tb_read_range(f, 1);
	assert_true(folio_trylock(tb_file_folio(f, 0)));
	assert_int_equal(1, 2);
	folio_unlock(tb_file_folio(f, 0));
}

/* the next case: a fresh world, a folio read, locked and unlocked */
static void next_case_runs(void **state)
{
	struct tb_file *f = tb_file_create(1);
	struct folio *folio;

	tb_run_in("");
	tb_read_range(f, 1);
	folio = tb_file_folio(f, 0);
	folio_lock(folio);
	folio_unlock(folio);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} scenarios[] = {
		{ "folio-locked", fails_holding_a_folio_lock },
	};
	unsigned int i;

	for (i = 0; argc == 2 && i < ARRAY_SIZE(scenarios); i++) {
		if (!strcmp(argv[1], scenarios[i].name)) {
			const struct CMUnitTest tests[] = {
				{ scenarios[i].name, scenarios[i].fn, tb_reclaim_setup,
				  tb_reclaim_teardown, NULL },
				TB_RECLAIM_TEST(next_case_runs),
			};

			return TB_RUN(tests);
		}
	}
	fprintf(stderr, "usage: failfast_world_victim folio-locked\n");
	return 2;
}
