// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_world.c - the flag and digest of fuzz_world.h */
#include "fuzz_world.h"

bool fz_fresh;
uint64_t fz_digest_value = 0xcbf29ce484222325ULL;
struct fz_op_log fz_ops = { .first_racy = FZ_MAX_OPS };
unsigned long fz_async_mark;
bool fz_racy;
