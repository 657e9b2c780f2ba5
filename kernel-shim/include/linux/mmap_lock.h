/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_MMAP_LOCK_H
#define _KSHIM_LINUX_MMAP_LOCK_H
/* An mm's mmap_lock: the rwsem, without the tracepoints and lockdep. */
#include <linux/mm_types.h>
#include <linux/rwsem.h>

static inline void mmap_read_lock(struct mm_struct *mm)
{
	down_read(&mm->mmap_lock);
}
static inline bool mmap_read_trylock(struct mm_struct *mm)
{
	return down_read_trylock(&mm->mmap_lock);
}
static inline void mmap_read_unlock(struct mm_struct *mm)
{
	up_read(&mm->mmap_lock);
}
static inline void mmap_write_lock(struct mm_struct *mm)
{
	down_write(&mm->mmap_lock);
}
static inline void mmap_write_unlock(struct mm_struct *mm)
{
	up_write(&mm->mmap_lock);
}
#define mmap_assert_locked(mm) WARN_ON_ONCE(!rwsem_is_locked(&(mm)->mmap_lock))
#define mmap_assert_write_locked(mm) WARN_ON_ONCE(!rwsem_is_locked(&(mm)->mmap_lock))
#endif
