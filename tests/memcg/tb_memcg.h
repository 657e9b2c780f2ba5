/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fixture of the memcg suites: a world with the real memcontrol.c booted
 * (root memcg, cgroupfs mounted), shut down and checked after each test.
 */
#ifndef _TB_MEMCG_H
#define _TB_MEMCG_H
#include "tb_test.h"
#include <kshim/memcg_tb.h>

#define MB (1024UL * 1024)
#define PAGES(bytes) ((bytes) / 4096)

int tb_memcg_setup(void **state);
/*
 * charge a folio of nr_pages to current's memcg, asserting success (folios
 * of more than MEMCG_CHARGE_BATCH pages are charged exactly: no stock)
 */
struct folio *tb_charge_ok(unsigned int nr_pages);
int tb_memcg_teardown(void **state);
#define TB_MEMCG_TEST(fn) cmocka_unit_test_setup_teardown(fn, tb_memcg_setup, tb_memcg_teardown)

/* write s to path/file and assert the kernel's return value */
#define assert_write(path, file, s, expect) \
	assert_int_equal(tb_cgroup_write_str(path, file, s), (expect))
#define assert_write_ok(path, file, s) assert_write(path, file, s, (ssize_t)strlen(s))
#endif
