// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memcontrol.c translation unit: the environment memcontrol.c gets
 * from its includes, the extracted functions (with #line markers into the
 * tree's mm/memcontrol.c), the "before" variants that replace some of them
 * at run time, and accessors for tests that need the file's static types.
 */
#include "memcontrol/memcontrol_env.h"
#if TB_HAVE_memcontrol_v1_c
#include KMEMCG_V1_H
#endif
#include KMEMCG_EXTRACT
#include "memcontrol/memcg_tb.c"
/* seed 004's "before" replaces mod_objcg_state(), which 7.2 has not */
#if TB_HAVE_mod_objcg_state
#include "variants/obj_stock_single_slot.c"
#endif
