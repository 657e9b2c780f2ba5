/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PSI_H
#define _KSHIM_LINUX_PSI_H
/* Pressure stall accounting is outside the test bed: counted, not timed. */
#include <linux/sched.h>
static inline void psi_memstall_enter(unsigned long *flags)
{
	*flags = current->in_memstall;
	current->in_memstall = 1;
}
static inline void psi_memstall_leave(unsigned long *flags)
{
	current->in_memstall = *flags;
}
#endif
