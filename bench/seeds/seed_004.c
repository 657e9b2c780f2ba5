// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 004 (the obj stock caches reclaimable and unreclaimable bytes) on
 * the real memcontrol.c. Every trace runs twice on one virtual CPU, with
 * 6.12's mod_objcg_state ("after") and with the single-slot variant
 * ("before", mm/variants/obj_stock_single_slot.c), and counts the calls
 * of mod_objcg_state and of __mod_objcg_mlstate (the seed's
 * __mod_objcg_state). Each operation is what the slab hooks do:
 * an allocation is obj_cgroup_charge + mod_objcg_state(+size), a free
 * mod_objcg_state(-size) + obj_cgroup_uncharge. Prints JSON.
 *
 * Traces (N operations each, fixed PRNG seed):
 *  alternating   R, U, R, U, ... allocations, node 0
 *  random_50_50  each allocation R or U with p = 1/2, node 0
 *  reclaimable_90  p(R) = 0.9, node 0
 *  reclaimable_only  R only, node 0
 *  two_nodes_50_50  R or U with p = 1/2, node 0 or 1 with p = 1/2
 *  boot          stands for the seed's "initial bootup": mostly
 *                unreclaimable (kmalloc, page tables' slabs) with bursts
 *                of reclaimable (dentries, inodes of the initramfs):
 *                runs of one type, mean length 4, p(R) = 0.35; 25% frees;
 *                10% of operations come from tasks of another cgroup
 *                sharing the CPU (services starting)
 *  kernel_build  stands for "parallel kernel build": dentry/inode churn,
 *                p(R) = 0.85 in runs of mean length 16, 45% frees, 5% from
 *                another cgroup
 * An operation from "another cgroup" uses a second memcg's objcg: its
 * charge takes the CPU's stock over, as on a shared machine.
 * Sizes are slab sizes 32..1024 bytes.
 */
#include <linux/kernel.h>
#include <linux/gfp.h>
#include <linux/mmzone.h>
#include <linux/memcontrol.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kshim/testbed.h>
#include <kshim/memcg_tb.h>

struct trace {
	const char *name;
	unsigned int p_reclaimable;	/* per mille */
	unsigned int mean_run;		/* mean run length of one type */
	unsigned int p_free;		/* per mille of operations that free */
	unsigned int nodes;
	bool alternate;
	unsigned int p_other;		/* per mille from another cgroup */
};

static const struct trace traces[] = {
	{ "alternating", 500, 1, 0, 1, true },
	{ "random_50_50", 500, 1, 0, 1, false },
	{ "reclaimable_90", 900, 1, 0, 1, false },
	{ "reclaimable_only", 1000, 1, 0, 1, false },
	{ "two_nodes_50_50", 500, 1, 0, 2, false },
	{ "boot", 350, 4, 250, 1, false, 100 },
	{ "kernel_build", 850, 16, 450, 1, false, 50 },
};

static const unsigned int sizes[] = { 32, 64, 96, 128, 192, 256, 512, 1024 };

struct obj {
	unsigned int size;
	unsigned char reclaimable, node, other;
};

static struct obj_cgroup *objcgs[2];

static unsigned long long rng;

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (rng >> 33) % n;
}

static void die(const char *what)
{
	fprintf(stderr, "seed_004: %s failed\n", what);
	exit(1);
}

static void op_alloc(struct obj *o)
{
	struct obj_cgroup *objcg = objcgs[o->other];

	if (tb_obj_cgroup_charge(objcg, GFP_KERNEL, o->size))
		die("obj_cgroup_charge");
	tb_mod_objcg_state(objcg, NODE_DATA(o->node), o->reclaimable, o->size);
}

static void op_free(struct obj *o)
{
	struct obj_cgroup *objcg = objcgs[o->other];

	tb_mod_objcg_state(objcg, NODE_DATA(o->node), o->reclaimable, -(int)o->size);
	tb_obj_cgroup_uncharge(objcg, o->size);
}

/* the next allocation's type: alternate, or keep a run going */
static bool next_type(const struct trace *t, bool prev, unsigned long i)
{
	if (t->alternate)
		return i & 1;
	if (i && t->mean_run > 1 && rnd(t->mean_run))
		return prev;
	return rnd(1000) < t->p_reclaimable;
}

static void run_trace(const struct trace *t, unsigned long n,
		      unsigned long *mods, unsigned long *flushes)
{
	struct obj *live = calloc(n, sizeof(*live));
	unsigned long nr_live = 0, i;
	bool type = false;

	rng = 4242;
	tb_drain_local_stock();
	tb_objstock_reset_counts();
	for (i = 0; i < n; i++) {
		if (nr_live && rnd(1000) < t->p_free) {
			unsigned long k = rnd(nr_live);

			op_free(&live[k]);
			live[k] = live[--nr_live];
			continue;
		}
		type = next_type(t, type, i);
		live[nr_live] = (struct obj){ sizes[rnd(ARRAY_SIZE(sizes))], type,
					      t->nodes > 1 ? rnd(t->nodes) : 0,
					      t->p_other && rnd(1000) < t->p_other };
		op_alloc(&live[nr_live++]);
	}
	tb_objstock_counts(mods, flushes);
	while (nr_live)
		op_free(&live[--nr_live]);
	tb_drain_local_stock();
	free(live);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 200000;
	struct kshim_world_config cfg = { .nr_cpus = 1, .nr_nodes = 2 };
	const char *err;
	unsigned int i;

	kshim_world_boot(&cfg);
	if (tb_memcg_boot() || tb_cgroup_mkdir("s") || tb_cgroup_mkdir("o") ||
	    tb_task_enter("s"))
		die("set-up");
	objcgs[0] = tb_memcg_objcg(tb_memcg("s"));
	objcgs[1] = tb_memcg_objcg(tb_memcg("o"));
	printf("{\"operations\": %lu, \"traces\": [", n);
	for (i = 0; i < ARRAY_SIZE(traces); i++) {
		unsigned long m[2], f[2];

		tb_objstock_set_variant(TB_OBJSTOCK_BEFORE);
		run_trace(&traces[i], n, &m[0], &f[0]);
		tb_objstock_set_variant(TB_OBJSTOCK_AFTER);
		run_trace(&traces[i], n, &m[1], &f[1]);
		printf("%s{\"name\": \"%s\", \"before\": {\"mod_objcg_state\": %lu, "
		       "\"__mod_objcg_state\": %lu}, \"after\": {\"mod_objcg_state\": %lu, "
		       "\"__mod_objcg_state\": %lu}}", i ? ", " : "", traces[i].name,
		       m[0], f[0], m[1], f[1]);
	}
	printf("]}\n");
	tb_task_leave();
	tb_memcg_shutdown();
	err = kshim_world_check();
	kshim_world_teardown();
	if (err) {
		fprintf(stderr, "seed_004: world check: %s\n", err);
		return 1;
	}
	return 0;
}
