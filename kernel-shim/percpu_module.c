// SPDX-License-Identifier: GPL-2.0-only
/*
 * A shared object's own per-CPU section (linux/percpu.h): compiled into
 * each kernel library of the plain test build (tb_kernel_library()). Its
 * bounds and the offsets of its copies are this object's hidden symbols;
 * the shim in the executable copies the section at each boot.
 */
#include <linux/percpu.h>

long kshim_pcpu_static_off[KSHIM_MAX_CPUS];

/* the section exists even in a library without per-CPU variables */
static DEFINE_PER_CPU(long, kshim_pcpu_module_anchor);

static void __attribute__((__constructor__)) kshim_pcpu_module_register(void)
{
	(void)kshim_pcpu_module_anchor;
	kshim_percpu_module(__start_kshim_percpu, __stop_kshim_percpu, kshim_pcpu_static_off);
}
