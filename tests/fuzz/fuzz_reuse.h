/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _TB_FUZZ_REUSE_H
#define _TB_FUZZ_REUSE_H
/*
 * The reused world of a harness whose inputs make and free all their own
 * objects (page_counter, shrinker, list_lru): fz_world_enter() boots it at
 * the first input; fz_world_leave(), after the input freed what it made,
 * checks it (nothing leaked, no unexpected WARN, no context violation)
 * and rewinds it, or with fz_fresh tears it down as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <kshim/testbed.h>
#include "fuzz_world.h"

static bool fz_booted;

static void fz_world_enter(const struct kshim_world_config *cfg)
{
	if (!fz_booted)
		kshim_world_boot(cfg);
	fz_booted = true;
}

static void fz_world_leave(const struct kshim_world_config *cfg, const char *who)
{
	const char *msg = kshim_world_check();

	if (!msg && !fz_fresh)
		msg = kshim_world_rewind(cfg);
	if (msg) {
		fprintf(stderr, "%s: world check: %s\n", who, msg);
		abort();
	}
	if (fz_fresh) {
		kshim_world_teardown();
		fz_booted = false;
	}
}

void fz_world_release(void)
{
	if (fz_booted)
		kshim_world_teardown();
	fz_booted = false;
}
#endif
