/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_LOCKDEP_H
#define _KSHIM_LINUX_LOCKDEP_H
/* lockdep does not run here; held-lock assertions are checked where cheap. */
struct lock_class_key {
	int dummy;
};
/*
 * Held-lock assertions on a mutex are real (the mutex knows its owner): a
 * kernel path that forgot its mutex_lock WARNs, as under lockdep.
 */
struct mutex;
int kshim_mutex_held_by_me(const struct mutex *l);
void kshim_lockdep_not_held(const char *file, int line, const char *func, const char *what);
#ifdef __cplusplus
#define lockdep_assert_held(l) do { (void)(l); } while (0)
#else
#define lockdep_assert_held(l) do { \
	if (!_Generic((l), struct mutex *: kshim_mutex_held_by_me((const void *)(l)), \
		      const struct mutex *: kshim_mutex_held_by_me((const void *)(l)), \
		      default: 1)) \
		kshim_lockdep_not_held(__FILE__, __LINE__, __func__, #l); \
	} while (0)
#endif
#define lockdep_assert_held_once(l) lockdep_assert_held(l)
#define lockdep_assert_held_write(l) do { (void)(l); } while (0)
#define lockdep_assert_held_read(l) do { (void)(l); } while (0)
#define lockdep_assert_not_held(l) do { (void)(l); } while (0)
#define lockdep_assert_once(c) do { } while (0)
#define lockdep_is_held(l) 1
#define mutex_acquire(l, s, t, i) do { } while (0)
#define mutex_release(l, i) do { } while (0)
#define lockdep_set_class(l, k) do { } while (0)
#define lockdep_assert(c) do { } while (0)
#define might_lock(l) do { } while (0)
#endif
