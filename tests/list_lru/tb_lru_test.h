/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Each test runs once per tree: the CMocka state is the tree's tb_fs_ops,
 * set as the test's initial state; setup boots a 2-node world and makes
 * memcgs call that tree's hooks.
 */
#ifndef _TB_LRU_TEST_H
#define _TB_LRU_TEST_H
#include "tb_test.h"
#include "tb_fs.h"

int tb_lru_setup(void **state);
int tb_lru_teardown(void **state);

#define TB_LRU_TEST(fn, ops, tree) \
	{ #fn "@" tree, fn, tb_lru_setup, tb_lru_teardown, (void *)&(ops) }
#if TB_FS_612
#define TB_LRU_BOTH(fn) TB_LRU_TEST(fn, k61_tb_fs, "6.1"), TB_LRU_TEST(fn, k612_tb_fs, "6.12")
#else
/* the main tree has no mm/shrinker.c: its list_lru.c and vmscan.c shrinker
 * are the 6.1 side (tools/tb_features.py: shrinker_c) */
#define TB_LRU_BOTH(fn) TB_LRU_TEST(fn, k61_tb_fs, "6.1")
#endif
#endif
