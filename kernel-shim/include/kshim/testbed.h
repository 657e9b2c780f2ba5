/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_KSHIM_TESTBED_H
#define _KSHIM_KSHIM_TESTBED_H
/*
 * The test-bed API for tests, benchmarks and fuzz harnesses: boot a world
 * of N virtual CPUs and nodes, put threads on CPUs, advance virtual time,
 * and check at teardown that nothing leaked and nothing unexpected was
 * reported.
 */
#include <stdbool.h>
#include <kshim/report.h>
#include <kshim/fault.h>

struct kshim_world_config {
	unsigned int nr_cpus;	/* default 4 */
	unsigned int nr_nodes;	/* default 1 */
	unsigned long seed;	/* PRNG seed for get_random_*() */
};

/* boot/teardown; kshim_world_check() returns 0 or a message */
void kshim_world_boot(const struct kshim_world_config *cfg);
const char *kshim_world_check(void);
void kshim_world_teardown(void);
/*
 * fn runs at the end of this world's kshim_world_teardown(), after every
 * work and RCU callback: what a kernel keeps for good (a slab cache made
 * at boot) goes once the last object freed into it has been
 */
void kshim_at_world_teardown(void (*fn)(void));
/* a checked world made ready for another run (reused by fuzz harnesses) */
const char *kshim_world_rewind(const struct kshim_world_config *cfg);
/* on: the world's present objects are its booted state, not leaks */
void kshim_world_hold(bool on);

/*
 * sysfs and debugfs by path ("kernel/mm/lru_gen/enabled", "lru_gen"):
 * the kernel's show/store or file operations run; their return value
 * (bytes, or the handler's -errno) is returned, -ENOENT if not registered.
 */
ssize_t tb_sysfs_read(const char *path, char *buf, size_t size);
ssize_t tb_sysfs_write(const char *path, const char *val);
ssize_t tb_debugfs_read(const char *name, char *buf, size_t size);
/* the same, in read()s of at most chunk bytes (dd bs=chunk) */
ssize_t tb_debugfs_read_by(const char *name, char *buf, size_t size, size_t chunk);
/* the mode a debugfs file was created with, or -ENOENT */
int tb_debugfs_mode(const char *name);
/* the kernel log (printk) since the world booted, as much as fits; its length */
size_t tb_dmesg(char *buf, size_t size);
ssize_t tb_debugfs_write(const char *name, const char *cmd);
/*
 * write(2) of len bytes from a user address no task maps (below
 * mmap_min_addr): the handler's copy_from_user() fails (-EFAULT)
 */
ssize_t tb_debugfs_write_unmapped(const char *name, size_t len);

/* the calling thread joins RCU and runs on virtual CPU cpu */
void kshim_thread_enter(int cpu);
void kshim_thread_exit(void);
/* a thread kept for the next world becomes a new task there (sched.c) */
void kshim_thread_fresh(void);

/*
 * failing fast (failfast.c): what a failed test left held is released and
 * named; the hung-task watchdog (TB_WATCHDOG_SECONDS, default 30, 0: off)
 * sends SIGKILL to every task, then prints every thread's backtrace and
 * aborts
 */
const char *kshim_release_held(void);
void kshim_watchdog_boot(void);
bool kshim_watchdog_fired(void);
void kshim_progress(void);
void kshim_thread_register(void);
void kshim_thread_unregister(void);
void kshim_cpu_switch(int cpu);

void kshim_jiffies_advance(unsigned long delta);
unsigned long kshim_jiffies(void);
unsigned long kshim_slept_jiffies(void);	/* by this thread */
/* of those, slept in a memory stall: what PSI counts as memory pressure */
unsigned long kshim_memstall_slept_jiffies(void);

/* all pending RCU callbacks, including ones queued by callbacks */
void kshim_rcu_quiesce(void);
/*
 * on (nesting): a world going away; its flushes and RCU barriers run the
 * works and callbacks queued themselves, without the worker threads
 */
void kshim_async_inline(bool on);

/*
 * Work items and RCU callbacks that started while no thread waited for
 * them in flush_workqueue(), flush_work() or rcu_barrier(): asynchronous
 * work that may have run beside the caller's kernel code. A fuzz
 * harness marks an operation during which this moved as one whose
 * outcome may depend on the threads' timing.
 */
unsigned long kshim_async_runs(void);
/* grace periods the RCU callback worker has waited for (one per batch) */
unsigned long kshim_rcu_batches(void);

unsigned long kshim_percpu_live(void);
unsigned long kshim_slab_live(void);
/* failed allocations that reported themselves (without __GFP_NOWARN) */
unsigned long kshim_slab_fail_warnings(void);
/* mm/xarray: free every CPU's idr_preload() pool, as a CPU going offline */
void kshim_radix_tree_preloads_free(void);
/* mm/xarray: radix tree nodes live (the IDR's and the XArray's) */
long kshim_radix_tree_nodes(void);
/* mm/xarray: the xa_node cache (radix_tree_node_cachep) */
struct kmem_cache *kshim_radix_tree_node_cache(void);
#endif
