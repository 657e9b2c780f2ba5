// SPDX-License-Identifier: GPL-2.0-only
/*
 * A world: N virtual CPUs and nodes, virtual time, a PRNG seed, and the
 * bookkeeping that makes teardown a check (no leak, no unexpected WARN,
 * no context violation).
 */
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/nodemask.h>
#include <linux/topology.h>
#include <linux/cpumask.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/percpu.h>
#include <linux/vmstat.h>
#include <linux/workqueue.h>
#include <kshim/testbed.h>
#include <kshim/trace.h>
#include <urcu/map/clear.h>

unsigned int nr_node_ids = 1;
unsigned int nr_online_nodes = 1;
int kshim_cpu_node[KSHIM_MAX_CPUS];
/* kernel/sched/topology.c's: node reclaim and khugepaged stay within it */
int node_reclaim_distance = RECLAIM_DISTANCE;
struct cpumask kshim_node_cpus[MAX_NUMNODES];
nodemask_t kshim_all_nodes;	/* the root cpuset's mems */
/* every node in every state (all have memory): node_state() reads them */
nodemask_t node_states[NR_NODE_STATES];
int kshim_cpusets_bound;	/* tasks bound to nodes (linux/cpuset.h) */
atomic_long_t kshim_vm_events[NR_VM_EVENT_ITEMS];
__thread struct kshim_trace kshim_trace;

void kshim_percpu_boot(unsigned int nr_cpus);
void kshim_percpu_teardown(void);
void kshim_percpu_release_all(void);
void kshim_sched_reset(void);
void kshim_nodes_reset(void);
void kshim_kernfs_reset(void);
void kshim_workqueue_teardown(void);
void kshim_timers_mark(bool on);
int kshim_timers_restore(void);

static unsigned long slab_base, pcpu_base;
static unsigned long slab_boot, pcpu_boot;
static char check_msg[768];

void kshim_trace_reset(void)
{
	memset(&kshim_trace, 0, sizeof(kshim_trace));
}

void kshim_thread_enter(int cpu)
{
	if (!kshim_ctx.registered) {
		urcu_memb_register_thread();
		kshim_ctx.registered = true;
		kshim_thread_register();
	}
	kshim_ctx.cpu = cpu;
}

void kshim_thread_exit(void)
{
	if (kshim_ctx.registered) {
		urcu_memb_unregister_thread();
		kshim_ctx.registered = false;
		kshim_thread_unregister();
	}
}

/*
 * CPUs in blocks of consecutive ids per node, as firmware numbers them
 * (4 CPUs on 2 nodes: 0-1 on node 0, 2-3 on node 1); with more nodes than
 * CPUs, CPU c on node c * nodes / cpus and the others memory-only.
 */
static void cpus_to_nodes(unsigned int cpus, unsigned int nodes)
{
	unsigned int cpu, nid;

	memset(kshim_node_cpus, 0, sizeof(kshim_node_cpus));
	memset(&kshim_all_nodes, 0, sizeof(kshim_all_nodes));
	for (nid = 0; nid < nodes; nid++)
		node_set(nid, kshim_all_nodes);
	for (nid = 0; nid < NR_NODE_STATES; nid++)
		node_states[nid] = kshim_all_nodes;
	kshim_cpusets_bound = 0;
	for (cpu = 0; cpu < KSHIM_MAX_CPUS; cpu++) {
		kshim_cpu_node[cpu] = cpu < cpus ? cpu * nodes / cpus : 0;
		if (cpu < cpus)
			__set_bit(cpu, kshim_node_cpus[kshim_cpu_node[cpu]].bits);
	}
}

void kshim_world_boot(const struct kshim_world_config *cfg)
{
	unsigned int cpus = cfg && cfg->nr_cpus ? cfg->nr_cpus : 4;
	unsigned int nodes = cfg && cfg->nr_nodes ? cfg->nr_nodes : 1;

	if (cpus > KSHIM_MAX_CPUS || nodes > MAX_NUMNODES) {
		fprintf(stderr, "kshim: world of %u CPUs/%u nodes exceeds %d/%d\n",
			cpus, nodes, KSHIM_MAX_CPUS, MAX_NUMNODES);
		abort();
	}
	nr_node_ids = nr_online_nodes = nodes;
	cpus_to_nodes(cpus, nodes);
	kshim_percpu_boot(cpus);
	kshim_report_reset();
	kshim_fault_reset();
	kshim_sched_reset();
	kshim_nodes_reset();
	kshim_kernfs_reset();
	kshim_trace_reset();
	kshim_random_seed(cfg && cfg->seed ? cfg->seed : 1);
	memset(kshim_vm_events, 0, sizeof(kshim_vm_events));
	kshim_thread_enter(0);
	kshim_watchdog_boot();
	slab_base = kshim_slab_live();
	pcpu_base = kshim_percpu_live();
}

/*
 * on: what the world holds now (a harness's booted state: root memcg,
 * mounts) is its own, not a leak, for kshim_world_check(); off: back to
 * boot's baseline, before the harness frees its booted state.
 */
void kshim_world_hold(bool on)
{
	if (on) {
		slab_boot = slab_base;
		pcpu_boot = pcpu_base;
		/* as kshim_world_check() counts: without the CPUs' preloads */
		kshim_radix_tree_preloads_free();
		slab_base = kshim_slab_live();
		pcpu_base = kshim_percpu_live();
	} else {
		slab_base = slab_boot;
		pcpu_base = pcpu_boot;
	}
	kshim_timers_mark(on);
}

/*
 * A booted world made ready for its next run (fuzz harnesses reuse one
 * world from input to input): what kshim_world_boot() resets per world
 * and that a run changes, without stopping the threads and per-CPU areas
 * that outlive a run. Virtual time goes back to boot time, and the delayed
 * works pending at kshim_world_hold(true) get the time they had left then.
 * The caller has undone what its run made and passed kshim_world_check().
 * Returns NULL, or why the world cannot be rewound.
 */
const char *kshim_world_rewind(const struct kshim_world_config *cfg)
{
	kshim_report_reset();
	kshim_fault_reset();
	kshim_sched_reset();
	if (kshim_timers_restore())
		return "the delayed works pending differ from those at boot";
	kshim_trace_reset();
	kshim_random_seed(cfg && cfg->seed ? cfg->seed : 1);
	memset(kshim_vm_events, 0, sizeof(kshim_vm_events));
	kshim_watchdog_boot();
	return NULL;
}

/*
 * Run RCU callbacks and work items until none is left: a callback may
 * queue a work (css release and free are works, as in kernel/cgroup) and
 * a work another callback, which one barrier misses.
 */
void kshim_rcu_quiesce(void)
{
	unsigned long before;
	int stable = 0, rounds = 0;

	while (stable < 2 && rounds++ < 64) {
		before = kshim_slab_live();
		flush_workqueue(system_wq);
		kshim_rcu_barrier();
		flush_workqueue(system_wq);
		stable = kshim_slab_live() == before ? stable + 1 : 0;
	}
}

static const char *world_check(void);

/*
 * NULL when the world is clean, else what is wrong (for the test's
 * failure); the works and callbacks left run on this thread
 */
const char *kshim_world_check(void)
{
	const char *msg;

	kshim_async_inline(true);
	msg = world_check();
	kshim_async_inline(false);
	return msg;
}

static const char *world_check(void)
{
	/* before anything waits for a grace period or takes a lock */
	const char *early = kshim_release_held();
	unsigned long slab, pcpu;

	if (!early && kshim_watchdog_fired())
		early = "hung: the test ended only on the watchdog's SIGKILL";
	if (early) {
		snprintf(check_msg, sizeof(check_msg), "%s", early);
		kshim_rcu_quiesce();
		return check_msg;
	}
	flush_workqueue(system_wq);
	kshim_rcu_quiesce();
	kshim_radix_tree_preloads_free();
	slab = kshim_slab_live();
	pcpu = kshim_percpu_live();
	if (kshim_unexpected_warns())
		snprintf(check_msg, sizeof(check_msg), "%u unexpected WARN(s); last: %s",
			 kshim_unexpected_warns(), kshim_last_report());
	else if (kshim_context_violations())
		snprintf(check_msg, sizeof(check_msg), "%u context violation(s); last: %s",
			 kshim_context_violations(), kshim_last_report());
	else if (slab != slab_base)
		snprintf(check_msg, sizeof(check_msg), "%ld slab object(s) leaked",
			 (long)(slab - slab_base));
	else if (pcpu != pcpu_base)
		snprintf(check_msg, sizeof(check_msg), "%ld per-CPU area(s) leaked",
			 (long)(pcpu - pcpu_base));
	else
		return NULL;
	return check_msg;
}

static void (*teardown_fns[4])(void);
static int nr_teardown_fns;

void kshim_at_world_teardown(void (*fn)(void))
{
	int i;

	for (i = 0; i < nr_teardown_fns; i++)
		if (teardown_fns[i] == fn)
			return;
	if (!WARN_ON(nr_teardown_fns == ARRAY_SIZE(teardown_fns)))
		teardown_fns[nr_teardown_fns++] = fn;
}

void kshim_world_teardown(void)
{
	kshim_progress();
	kshim_async_inline(true);
	kshim_rcu_quiesce();
	kshim_workqueue_teardown();
	kshim_rcu_quiesce();
	while (nr_teardown_fns)
		teardown_fns[--nr_teardown_fns]();
	kshim_async_inline(false);
	kshim_percpu_teardown();
	if (!kshim_percpu_live())
		kshim_percpu_release_all();
	kshim_fault_reset();
}
