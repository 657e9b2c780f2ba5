/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SMP_H
#define _KSHIM_LINUX_SMP_H
#include <linux/preempt.h>
#include <linux/cpumask.h>
#define smp_processor_id() (kshim_ctx.cpu)
#define raw_smp_processor_id() (kshim_ctx.cpu)
#define get_cpu() ({ preempt_disable(); smp_processor_id(); })
#define put_cpu() preempt_enable()
#endif
