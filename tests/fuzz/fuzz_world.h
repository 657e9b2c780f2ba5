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
 *
 * A harness whose operations may race with the world's threads (work
 * items, RCU callbacks) also logs, per operation, the digest after it and
 * whether asynchronous work ran beside it (fz_op_begin/fz_op_ran/
 * fz_op_end): --compare then tells an input whose reused and fresh runs
 * part only at or after such an operation (the runs' timing decided)
 * from one whose runs part before any (the reuse did).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern bool fz_fresh;
extern uint64_t fz_digest_value;

#define FZ_MAX_OPS 512
struct fz_op_log {
	size_t nr;		/* operations logged */
	size_t first_racy;	/* the first that ran beside async work, or nr */
	uint64_t digest[FZ_MAX_OPS];
};
extern struct fz_op_log fz_ops;

unsigned long kshim_async_runs(void);
extern unsigned long fz_async_mark;
extern bool fz_racy;

/* an input starts: an empty log */
static inline void fz_ops_reset(void)
{
	fz_ops.nr = 0;
	fz_ops.first_racy = FZ_MAX_OPS;
}

/* before an operation's kernel calls */
static inline void fz_op_begin(void)
{
	fz_async_mark = kshim_async_runs();
}

/* after them, before the harness's own waits for works and callbacks */
static inline void fz_op_ran(void)
{
	fz_racy = kshim_async_runs() != fz_async_mark;
}

/* after the checks: the digest so far */
static inline void fz_op_end(void)
{
	if (fz_ops.nr == FZ_MAX_OPS)
		return;
	if (fz_racy && fz_ops.first_racy == FZ_MAX_OPS)
		fz_ops.first_racy = fz_ops.nr;
	fz_ops.digest[fz_ops.nr++] = fz_digest_value;
}

static inline void fz_digest(uint64_t v)
{
	/* a 64-bit multiply-xorshift step: order-sensitive, cheap per value */
	fz_digest_value = (fz_digest_value ^ v) * 0x100000001b3ULL;
	fz_digest_value ^= fz_digest_value >> 29;
}

void kshim_async_inline(bool on);
void kshim_rcu_quiesce(void);

/*
 * Run the works and RCU callbacks left to the end on this thread, each as
 * on its CPU (kshim_async_inline(), as a world's teardown does), rather
 * than handed to the world's threads and back for each link of the chain
 * that offlines and frees a cgroup: the same code in the same order, and
 * a third of the memcg harness's time in the thread switches saved.
 */
static inline void fz_settle(void)
{
	kshim_async_inline(true);
	kshim_rcu_quiesce();
	kshim_async_inline(false);
}

/* a harness's own teardown of a world still booted (replay_main at exit) */
void fz_world_release(void) __attribute__((weak));
#endif
