/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _TB_FUZZ_WORLD_H
#define _TB_FUZZ_WORLD_H
/*
 * What every harness shares (fuzz_world.c): one booted world reused from
 * input to input, and the digest that proves a reused world behaves as a
 * fresh one.
 *
 * A harness boots its world at its first input (after AFL++'s fork, so
 * its threads live in the child) and keeps it: after an input it undoes
 * what the input made, checks the world (nothing leaked, no unexpected
 * WARN) and rewinds the per-run knobs. With fz_fresh set (replay_main's
 * --fresh and --compare) it tears the world down after every input, as
 * the harnesses did before, and the next input boots a new one.
 *
 * fz_digest() folds every operation's result and the state checked after
 * it into fz_digest_value, which replay_main --compare records per input
 * in both modes and compares.
 */
#include <stdbool.h>
#include <stdint.h>

extern bool fz_fresh;
extern uint64_t fz_digest_value;

static inline void fz_digest(uint64_t v)
{
	/* a 64-bit multiply-xorshift step: order-sensitive, cheap per value */
	fz_digest_value = (fz_digest_value ^ v) * 0x100000001b3ULL;
	fz_digest_value ^= fz_digest_value >> 29;
}

/* a harness's own teardown of a world still booted (replay_main at exit) */
void fz_world_release(void) __attribute__((weak));
#endif
