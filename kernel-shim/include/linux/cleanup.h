/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CLEANUP_H
#define _KSHIM_LINUX_CLEANUP_H
/* Scope-based guards: the lock taken here is dropped when the scope ends. */
#include <linux/compiler.h>

#define DEFINE_GUARD(_name, _type, _lock, _unlock)				\
	typedef _type class_##_name##_t;					\
	static inline void class_##_name##_destructor(_type *p)		\
	{ _type _T = *p; if (_T) { _unlock; } }				\
	static inline _type class_##_name##_constructor(_type _T)		\
	{ _lock; return _T; }
#define __kshim_guard_var(n) __kshim_guard_##n
#define __kshim_guard_id(n) __kshim_guard_var(n)
#define guard(_name)								\
	class_##_name##_t __kshim_guard_id(__COUNTER__)			\
		__attribute__((cleanup(class_##_name##_destructor))) =		\
		class_##_name##_constructor
#endif
