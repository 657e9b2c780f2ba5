/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_BUG_H
#define _KSHIM_LINUX_BUG_H
/*
 * WARN/BUG go to the test bed's report: a WARN the fixture did not
 * announce fails the test at teardown; BUG aborts with the call site.
 */
#include <linux/compiler.h>
#include <linux/build_bug.h>
/* as the kernel's bug.h -> printk.h -> linkage.h chain does */
#include <linux/export.h>
#include <kshim/report.h>

#define BUG() kshim_bug(__FILE__, __LINE__, __func__)
#define BUG_ON(cond) do { if (unlikely(cond)) BUG(); } while (0)
#define __WARN_report(cond_str, fmt...) kshim_warn(__FILE__, __LINE__, __func__, cond_str, ##fmt)
#define WARN_ON(condition) ({ int __ret_warn_on = !!(condition); \
	if (unlikely(__ret_warn_on)) kshim_warn(__FILE__, __LINE__, __func__, #condition, NULL); \
	unlikely(__ret_warn_on); })
#define WARN(condition, format...) ({ int __ret_warn_on = !!(condition); \
	if (unlikely(__ret_warn_on)) kshim_warn(__FILE__, __LINE__, __func__, #condition, format); \
	unlikely(__ret_warn_on); })
#define WARN_TAINT(condition, taint, format...) WARN(condition, format)
/* "once" is per call site, as in the kernel. */
#define WARN_ON_ONCE(condition) ({ static bool __warned; int __ret_warn_once = !!(condition); \
	if (unlikely(__ret_warn_once && !__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED))) \
		kshim_warn(__FILE__, __LINE__, __func__, #condition, NULL); \
	unlikely(__ret_warn_once); })
#define WARN_ONCE(condition, format...) ({ static bool __warned; int __ret_warn_once = !!(condition); \
	if (unlikely(__ret_warn_once && !__atomic_exchange_n(&__warned, true, __ATOMIC_RELAXED))) \
		kshim_warn(__FILE__, __LINE__, __func__, #condition, format); \
	unlikely(__ret_warn_once); })
#define VM_BUG_ON(cond) BUG_ON(cond)
#define VM_BUG_ON_PAGE(cond, page) BUG_ON(cond)
#define VM_BUG_ON_FOLIO(cond, folio) BUG_ON(cond)
#define VM_WARN_ON(cond) (void)WARN_ON(cond)
#define VM_BUG_ON_PGFLAGS(cond, page) BUG_ON(cond)
#define VM_WARN_ON_IRQS_ENABLED() (void)WARN_ON(!irqs_disabled())
#define VM_WARN_ON_ONCE(cond) (void)WARN_ON_ONCE(cond)
#define VM_WARN_ON_FOLIO(cond, folio) (void)WARN_ON(cond)
#define VM_WARN_ON_ONCE_FOLIO(cond, folio) (void)WARN_ON_ONCE(cond)
#define VM_WARN_ON_ONCE_PAGE(cond, page) (void)WARN_ON_ONCE(cond)
#define VM_BUG_ON_VMA(cond, vma) BUG_ON(cond)
#define VM_BUG_ON_MM(cond, mm) BUG_ON(cond)
#define VM_WARN_ONCE(cond, format...) (void)WARN_ONCE(cond, format)
#define VM_WARN(cond, format...) (void)WARN(cond, format)
#endif
