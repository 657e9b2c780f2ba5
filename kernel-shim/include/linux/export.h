/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_EXPORT_H
#define _KSHIM_LINUX_EXPORT_H
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#define EXPORT_PER_CPU_SYMBOL(sym)
#define EXPORT_PER_CPU_SYMBOL_GPL(sym)
#define THIS_MODULE ((void *)0)
#endif
