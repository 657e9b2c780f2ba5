/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_ASM_PROCESSOR_H
#define _KSHIM_ASM_PROCESSOR_H
/* x86's spin-wait hint: a spinner on a bit lock (linux/bit_spinlock.h) */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}
#endif
