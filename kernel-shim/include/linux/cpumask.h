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
#endif
