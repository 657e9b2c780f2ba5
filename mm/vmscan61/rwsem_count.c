// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counting wrappers for the rwsem calls of 6.1's shrink_slab paths. Kept
 * out of line, as the kernel's down_read_trylock is, so a profile names
 * them as it names the kernel's.
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/rwsem.h>
#include <k61/stats.h>

/* failures only: a count of every call would add an atomic the kernel has not */
atomic_long_t k61_trylock_fails, k61_contended_breaks;

bool k61_down_read_trylock(struct rw_semaphore *sem)
{
	bool ok = down_read_trylock(sem);

	if (!ok)
		atomic_long_inc(&k61_trylock_fails);
	return ok;
}

bool k61_rwsem_is_contended(struct rw_semaphore *sem)
{
	bool busy = rwsem_is_contended(sem);

	if (busy)
		atomic_long_inc(&k61_contended_breaks);
	return busy;
}

void k61_stats_read(struct k61_stats *st)
{
	st->trylock_fails = atomic_long_read(&k61_trylock_fails);
	st->contended_breaks = atomic_long_read(&k61_contended_breaks);
}

void k61_stats_reset(void)
{
	atomic_long_set(&k61_trylock_fails, 0);
	atomic_long_set(&k61_contended_breaks, 0);
}
