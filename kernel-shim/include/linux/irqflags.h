/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_IRQFLAGS_H
#define _KSHIM_LINUX_IRQFLAGS_H
#include <kshim/cpu.h>
#define local_irq_disable() kshim_irq_off()
#define local_irq_enable() kshim_irq_on()
#define local_irq_save(flags) do { (flags) = 1; kshim_irq_off(); } while (0)
#define local_irq_restore(flags) do { (void)(flags); kshim_irq_on(); } while (0)
#define irqs_disabled() (kshim_ctx.irq_off != 0)
#define lockdep_assert_irqs_disabled() do { } while (0)
#endif
