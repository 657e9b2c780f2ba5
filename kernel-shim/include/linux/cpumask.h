/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_CPUMASK_H
#define _KSHIM_LINUX_CPUMASK_H
#include <kshim/cpu.h>
#define nr_cpu_ids kshim_nr_cpus
#define num_possible_cpus() kshim_nr_cpus
#define num_online_cpus() kshim_nr_cpus
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < (int)kshim_nr_cpus; (cpu)++)
#define for_each_online_cpu(cpu) for_each_possible_cpu(cpu)
#define for_each_present_cpu(cpu) for_each_possible_cpu(cpu)
#define cpu_online(cpu) ((unsigned int)(cpu) < kshim_nr_cpus)

/* masks of the virtual CPUs */
#include <linux/bitmap.h>
#include <linux/bitops.h>
struct cpumask {
	unsigned long bits[BITS_TO_LONGS(KSHIM_MAX_CPUS)];
};
typedef struct cpumask cpumask_t;
#define cpumask_bits(maskp) ((maskp)->bits)
static inline void cpumask_clear(struct cpumask *m)
{
	memset(m->bits, 0, sizeof(m->bits));
}
static inline void __cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__set_bit(cpu, m->bits);
}
static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return test_bit(cpu, m->bits);
}
static inline bool cpumask_empty(const struct cpumask *m)
{
	unsigned int cpu;

	for (cpu = 0; cpu < kshim_nr_cpus; cpu++)
		if (test_bit(cpu, m->bits))
			return false;
	return true;
}
#define for_each_cpu(cpu, mask)						\
	for_each_possible_cpu(cpu)						\
		if (!cpumask_test_cpu(cpu, mask)) {} else
extern struct cpumask kshim_cpu_all_mask;
/* the CPUs of each node (kshim_cpu_node[] inverted at world boot) */
extern struct cpumask kshim_node_cpus[];
#define cpumask_of_node(nid) ((const struct cpumask *)&kshim_node_cpus[nid])
struct task_struct;
static inline int set_cpus_allowed_ptr(struct task_struct *p, const struct cpumask *new_mask)
{
	return 0;
}
#endif
