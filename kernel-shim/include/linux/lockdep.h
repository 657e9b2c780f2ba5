/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_LOCKDEP_H
#define _KSHIM_LINUX_LOCKDEP_H
/* lockdep does not run here; held-lock assertions are checked where cheap. */
struct lock_class_key {
	int dummy;
};
#define lockdep_assert_held(l) do { (void)(l); } while (0)
#define lockdep_assert_held_write(l) do { (void)(l); } while (0)
#define lockdep_assert_held_read(l) do { (void)(l); } while (0)
#define lockdep_assert_not_held(l) do { (void)(l); } while (0)
#define lockdep_assert_once(c) do { } while (0)
#define lockdep_is_held(l) 1
#define lockdep_set_class(l, k) do { } while (0)
#define lockdep_assert(c) do { } while (0)
#define might_lock(l) do { } while (0)
#endif
