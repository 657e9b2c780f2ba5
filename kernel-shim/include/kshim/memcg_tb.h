/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The test bed's memcg world over the real mm/memcontrol.c (library
 * kmemcg): a cgroup v2 hierarchy addressed by path whose control files
 * are the kernel's own handlers, tasks that charge folios from virtual
 * CPUs and return to user mode, a scripted reclaimer standing in for
 * vmscan.c, and a simulated OOM kill.
 */
#ifndef _KSHIM_MEMCG_TB_H
#define _KSHIM_MEMCG_TB_H
#include <linux/types.h>
#include <linux/gfp.h>

struct mem_cgroup;
struct folio;
struct obj_cgroup;
struct pglist_data;

/*
 * ---- boot and mount options (kernel-shim/world/boot.c) ----
 * tb_boot_cmdline("cgroup.memory=nokmem,nosocket cgroup_disable=memory")
 * before tb_memcg_boot(); tb_cgroup_mount_options("memory_localevents,
 * memory_recursiveprot") after it. 0, or -EINVAL with one line on stderr.
 * Every world boot starts from the defaults again.
 */
int tb_boot_cmdline(const char *cmdline);
int tb_cgroup_mount_options(const char *opts);

/* ---- the hierarchy: paths are "" (root), "a", "a/b", ... ---- */
int tb_memcg_boot(void);			/* root memcg; 0 or -errno */
void tb_memcg_shutdown(void);			/* rmdir all, free the root */
void tb_memcg_lru_gen_reset(void);		/* the multi-gen LRU off, min_ttl 0 */
int tb_cgroup_mkdir(const char *path);		/* 0, -EEXIST, -ENOENT, -ENOMEM */
int tb_cgroup_rmdir(const char *path);		/* 0, -ENOENT, -EBUSY (children) */
struct mem_cgroup *tb_memcg(const char *path);	/* NULL if none */
/* a control file "memory.max" etc.: bytes written or the handler's -errno */
ssize_t tb_cgroup_write(const char *path, const char *file, const char *buf, size_t len);
static inline ssize_t tb_cgroup_write_str(const char *path, const char *file, const char *s)
{
	return tb_cgroup_write(path, file, s, __builtin_strlen(s));
}
/* the text the kernel prints, NUL-terminated; length or -errno */
ssize_t tb_cgroup_read(const char *path, const char *file, char *buf, size_t size);
/* one "key value" line of a flat keyed file (memory.events, memory.stat) */
long long tb_cgroup_read_key(const char *path, const char *file, const char *key);
/* memory.current etc. as a number; -errno on failure */
long long tb_cgroup_read_u64(const char *path, const char *file);
/* cgroup_file_notify() calls on memory.events of path */
unsigned long tb_cgroup_events_notified(const char *path);
/* ... and on memory.events.local of path */
unsigned long tb_cgroup_events_local_notified(const char *path);
/* cgroup2 mount option memory_recursiveprot */
void tb_cgroup_set_recursiveprot(bool on);

/* ---- tasks: the calling thread as a task in a cgroup ---- */
int tb_task_enter(const char *path);		/* current task joins path */
void tb_task_leave(void);			/* frees its folios, leaves */
/* charge a new folio of nr_pages to current's memcg (real charge path) */
struct folio *tb_folio_charge(unsigned int nr_pages, gfp_t gfp, int *err);
void tb_folio_uncharge(struct folio *folio);	/* real uncharge + free */
/* uncharge current's oldest folios, at least nr pages; returns pages */
unsigned long tb_task_uncharge_pages(unsigned long nr);
unsigned long tb_task_pages(void);		/* pages current holds */
/* return to user mode: mem_cgroup_handle_over_high() if notified */
void tb_task_return_to_user(void);
bool tb_task_oom_killed(void);

/*
 * ---- memcg reclaim: try_to_free_mem_cgroup_pages() ----
 * The real one of mm/vmscan.c by default; a test that wants a test double
 * names it: futile reclaim, or "up to N of the subtree's charged folios".
 */
enum tb_reclaim_mode {
	TB_RECLAIM_REAL,	/* mm/vmscan.c (the default) */
	TB_RECLAIM_NOTHING,	/* double: futile, frees nothing */
	TB_RECLAIM_PAGES,	/* double: frees up to N charged pages of the subtree */
};
void tb_reclaim_script(enum tb_reclaim_mode mode, unsigned long n);
unsigned long tb_reclaim_calls(void);
unsigned long tb_reclaim_freed(void);
/* the calls' sc.nr_to_reclaim, summed: max(nr_pages, SWAP_CLUSTER_MAX) each */
unsigned long tb_reclaim_asked(void);
/* the calls made inside a memory stall (psi_memstall_enter(), as PSI counts it) */
unsigned long tb_reclaim_memstall_calls(void);
int tb_reclaim_last_swappiness(void);	/* *swappiness of the last call, -1 if NULL */

/*
 * ---- OOM: out_of_memory() kills the largest task in the memcg, and with
 * memory.oom.group every task of the group (mem_cgroup_get_oom_group()) ----
 */
unsigned long tb_oom_kills(void);
struct tb_task;
/* /proc/PID/oom_score_adj; only OOM_SCORE_ADJ_MIN (never killed) has an effect */
void tb_task_set_oom_score_adj(struct tb_task *t, short adj);
bool tb_task_is_oom_victim(struct tb_task *t);
/* send t a signal (SIGKILL is fatal_signal_pending()); a world boot clears the thread's */
void tb_task_signal(struct tb_task *t, int sig);

/* kernel-shim/world/memcg_task.c internals used by boot and shutdown */
void tb_memcg_world_reset(void);
bool tb_memcg_tasks_empty(void);

/* fold every CPU's memcg counters now (memory.stat otherwise lags by up to a flush threshold) */
void tb_memcg_flush_stats(struct mem_cgroup *memcg);
/* the periodic stats flush held off until the next boot (a starved kworker) */
void tb_memcg_hold_periodic_flush(void);
/* memcg_page_state_output(): what memory.stat prints for item (after a flush) */
unsigned long tb_memcg_stat(struct mem_cgroup *memcg, int item);
/* flush_memcg_stats_dwork is queued (the root's css_online queues it first) */
bool tb_memcg_stats_flush_queued(void);
/* memcg_page_state_local(): memcg's own count of item, without its descendants' */
unsigned long tb_memcg_stat_local(struct mem_cgroup *memcg, int item);
/* memcg_events() (subtree) or memcg_events_local() (memcg alone) of a vm event */
unsigned long tb_memcg_events(struct mem_cgroup *memcg, int event, bool local);
/* pgrefill, pgscan_* and pgsteal_*: events, or node items (reclaim_stats_per_node) */
unsigned long tb_memcg_reclaim_events(struct mem_cgroup *memcg, int item, bool local);
/* a reused world's memcontrol.c state as at boot: root stats flushed, flush clock zero */
void tb_memcg_rewind(void);

/*
 * A memcg's own small id (what swap entries, workingset shadows and
 * list_lru's index name it by): mem_cgroup_private_id() and
 * mem_cgroup_from_private_id() since 7.2, whose mem_cgroup_id() is the
 * cgroup's 64-bit id (memcg_private_id); mem_cgroup_id() and
 * mem_cgroup_from_id() before
 */
#if TB_HAVE_memcg_private_id
#define tb_memcg_private_id(memcg) mem_cgroup_private_id(memcg)
#define tb_memcg_from_private_id(id) mem_cgroup_from_private_id(id)
#else
#define tb_memcg_private_id(memcg) mem_cgroup_id(memcg)
#define tb_memcg_from_private_id(id) mem_cgroup_from_id(id)
#endif

/*
 * lru_gen_seq_show()'s header of a memcg's lruvec on node 0, for
 * printf(TB_LRU_GEN_HEAD, TB_LRU_GEN_HEAD_ID(memcg), path without its
 * leading '/'): mem_cgroup_id(), the cgroup's 64-bit id unpadded with
 * memcg_private_id, the 16-bit id in 5 columns before
 */
#if TB_HAVE_memcg_private_id
#define TB_LRU_GEN_HEAD "memcg %llu /%s\n node     0\n"
#define TB_LRU_GEN_HEAD_ID(memcg) ((unsigned long long)mem_cgroup_id(memcg))
#else
#define TB_LRU_GEN_HEAD "memcg %5hu /%s\n node     0\n"
#define TB_LRU_GEN_HEAD_ID(memcg) ((unsigned short)mem_cgroup_id(memcg))
#endif

/*
 * ---- per-CPU stocks and obj stock (accessors into memcontrol.c) ----
 * tb_stock_pages(): the pages cpu's charge stock holds and (cached) its
 * memcg; on a stock of several memcgs (7.2, memcg_stock_slots) the pages
 * of all and the memcg of its first slot in use. tb_stock_pages_of(): the
 * pages it holds of memcg. tb_obj_stock_bytes(), tb_obj_stock_bytes_of():
 * the same of the object stock's bytes and objcg.
 */
unsigned int tb_stock_pages(int cpu, struct mem_cgroup **cached);
unsigned int tb_stock_pages_of(int cpu, struct mem_cgroup *memcg);
unsigned int tb_obj_stock_bytes(int cpu, struct obj_cgroup **cached);
unsigned int tb_obj_stock_bytes_of(int cpu, struct obj_cgroup *objcg);
/* slot i (< tb_stock_nr_slots()) of cpu's stock: its memcg (NULL: none), pages */
int tb_stock_nr_slots(void);
struct mem_cgroup *tb_stock_slot(int cpu, int i, unsigned int *pages);
int tb_obj_stock_nr_slots(void);
struct obj_cgroup *tb_obj_stock_slot(int cpu, int i, unsigned int *bytes);
void tb_stock_vmstat(int cpu, int *reclaimable_b, int *unreclaimable_b);
unsigned long tb_calculate_high_delay(struct mem_cgroup *memcg, unsigned int nr_pages);
struct obj_cgroup *tb_memcg_objcg(struct mem_cgroup *memcg);
int tb_obj_cgroup_charge(struct obj_cgroup *objcg, gfp_t gfp, size_t size);
void tb_obj_cgroup_uncharge(struct obj_cgroup *objcg, size_t size);
void tb_mod_objcg_state(struct obj_cgroup *objcg, struct pglist_data *pgdat,
			int reclaimable, int nr);
void tb_drain_local_stock(void);		/* drain this CPU's stocks */
/* the real drain_all_stock(); wait: flush the works it queued on other CPUs */
void tb_drain_all_stock(struct mem_cgroup *root, bool wait);

/* seed 004: the obj stock variant and its call counters */
enum tb_objstock_variant { TB_OBJSTOCK_AFTER, TB_OBJSTOCK_BEFORE };
void tb_objstock_set_variant(enum tb_objstock_variant v);
void tb_objstock_counts(unsigned long *mod_calls, unsigned long *flush_calls);
void tb_objstock_reset_counts(void);
#endif
