// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seed 003's experiment for one tree (tools/seeds/seed_003.py drives it):
 * memcgs under one parent, one mount per memcg, two objects (a dentry and
 * an inode) charged to each of the first "filled" memcgs on their mount;
 * reclaimer threads run shrink_node_memcgs-style passes (shrink_slab for
 * every memcg) with the priority falling 12..0 and starting over; a churn
 * thread mounts and unmounts a filesystem over and over. Prints one JSON
 * line. --passes N makes each reclaimer run N passes (for callgrind, which
 * collects inside seed_reclaim only); otherwise they run --seconds. --refill
 * keeps objects present, as the seed's writers do.
 */
#include <linux/kernel.h>
#include <kshim/testbed.h>
#include <kshim/memcg.h>
#include <getopt.h>
#include <pthread.h>
#include <time.h>
#include "tb_fs.h"

static const struct tb_fs_ops *ops;
static int nr_memcg = 4001, nr_filled = 3001, nr_reclaim = 1, churn, passes, refill;
static double seconds = 2;
static struct mem_cgroup *root, *parent, **memcg;
static struct tb_mount **mount;
static int stop;
static unsigned long visits[8], freed[8];
static long churned;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* the measured work: callgrind's --toggle-collect names this function */
noinline void seed_reclaim(int t, int pass)
{
	freed[t] += ops->shrink_memcgs(root, 0, 12 - pass % 13, &visits[t]);
}

/*
 * --refill: the seed's dd writers keep creating dentries and inodes while
 * reclaim runs; reclaimer t tops up its share of the filled memcgs after
 * each pass, outside the measured function.
 */
static void refill_share(int t)
{
	int i;

	for (i = t; i < nr_filled; i += nr_reclaim)
		if (!ops->count(mount[i], memcg[i], 0) && ops->add(mount[i], memcg[i], 0, 2))
			abort();
}

static void reclaim_loop(int t)
{
	int pass = 0;

	while (passes ? pass < passes : !READ_ONCE(stop)) {
		unsigned long before = freed[t];

		seed_reclaim(t, pass);
		/* only passes that freed something: the top-up stays off the clock */
		if (refill && freed[t] != before)
			refill_share(t);
		pass++;
	}
}

static void *reclaimer(void *arg)
{
	int t = (int)(long)arg;

	kshim_thread_enter(t);
	reclaim_loop(t);
	kshim_thread_exit();
	return NULL;
}

static void *churner(void *arg)
{
	unsigned int i = 0;

	kshim_thread_enter(3);
	while (!READ_ONCE(stop)) {
		struct tb_mount *m = ops->mount();

		if (!m)
			abort();
		if (ops->add(m, memcg[i++ % nr_memcg], 0, 2))
			abort();
		ops->umount(m);
		churned++;
	}
	kshim_thread_exit();
	return NULL;
}

static void setup(void)
{
	int i;

	root = kshim_memcg_create(NULL);
	parent = kshim_memcg_create(root);
	memcg = calloc(nr_memcg, sizeof(*memcg));
	mount = calloc(nr_memcg, sizeof(*mount));
	/*
	 * Mounts before memcgs: an expansion of shrinker_info sets every old
	 * bit in every memcg (both trees), and the first pass would spend
	 * 4001 x 4001 shrinker calls clearing them. Measured here is the
	 * steady state after that pass.
	 */
	for (i = 0; i < nr_memcg; i++) {
		mount[i] = ops->mount();
		if (!mount[i])
			abort();
	}
	for (i = 0; i < nr_memcg; i++) {
		memcg[i] = kshim_memcg_create(parent);
		if (!memcg[i])
			abort();
	}
	for (i = 0; i < nr_filled; i++)
		if (ops->add(mount[i], memcg[i], 0, 2))
			abort();
}

static void teardown(void)
{
	int i;

	for (i = 0; i < nr_memcg; i++)
		ops->umount(mount[i]);
	for (i = 0; i < nr_memcg; i++)
		kshim_memcg_destroy(memcg[i]);
	kshim_memcg_destroy(parent);
	kshim_memcg_destroy(root);
	free(memcg);
	free(mount);
}

static void run(void)
{
	pthread_t rt[8], ct;
	long fails, breaks;
	unsigned long v = 0, f = 0;
	double t0, t;
	int i;

	ops->giveups_reset();
	t0 = now();
	if (churn && pthread_create(&ct, NULL, churner, NULL))
		abort();
	for (i = 0; i < nr_reclaim; i++)
		if (pthread_create(&rt[i], NULL, reclaimer, (void *)(long)i))
			abort();
	if (!passes) {
		while (now() - t0 < seconds)
			usleep(10000);
		WRITE_ONCE(stop, 1);
	}
	for (i = 0; i < nr_reclaim; i++)
		pthread_join(rt[i], NULL);
	WRITE_ONCE(stop, 1);
	t = now() - t0;
	if (churn)
		pthread_join(ct, NULL);
	ops->giveups(&fails, &breaks);
	for (i = 0; i < nr_reclaim; i++) {
		v += visits[i];
		f += freed[i];
	}
	printf("{\"tree\": \"%s\", \"memcgs\": %d, \"filled\": %d, \"reclaimers\": %d, "
	       "\"churn\": %d, \"seconds\": %.3f, \"visits\": %lu, \"visits_per_s\": %.0f, "
	       "\"freed\": %lu, \"objects\": %d, \"trylock_fails\": %ld, "
	       "\"contended_breaks\": %ld, \"churned_mounts\": %ld, \"refill\": %d}\n",
	       ops->tree, nr_memcg, nr_filled, nr_reclaim, churn, t, v, v / t, f,
	       2 * nr_filled, fails, breaks, churned, refill);
}

int main(int argc, char **argv)
{
	struct kshim_world_config cfg = { .nr_cpus = 4, .nr_nodes = 1 };
	const char *msg;
	static const struct option opts[] = {
		{ "tree", 1, NULL, 't' }, { "memcgs", 1, NULL, 'm' },
		{ "filled", 1, NULL, 'f' }, { "reclaimers", 1, NULL, 'r' },
		{ "churn", 0, NULL, 'c' }, { "seconds", 1, NULL, 's' },
		{ "passes", 1, NULL, 'p' }, { "refill", 0, NULL, 'R' }, { NULL, 0, NULL, 0 },
	};
	int c;

	ops = &k612_tb_fs;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't': ops = strcmp(optarg, "6.1") ? &k612_tb_fs : &k61_tb_fs; break;
		case 'm': nr_memcg = atoi(optarg); break;
		case 'f': nr_filled = atoi(optarg); break;
		case 'r': nr_reclaim = atoi(optarg); break;
		case 'c': churn = 1; break;
		case 's': seconds = atof(optarg); break;
		case 'p': passes = atoi(optarg); break;
		case 'R': refill = 1; break;
		default: return 2;
		}
	}
	if (nr_reclaim < 1 || nr_reclaim > 3 || nr_filled > nr_memcg)
		return 2;
	kshim_world_boot(&cfg);
	ops->use();
	setup();
	run();
	teardown();
	msg = kshim_world_check();
	if (msg)
		fprintf(stderr, "seed003: %s\n", msg);
	kshim_world_teardown();
	/* after the teardown: its RCU flush frees memcgs through the hooks */
	kshim_memcg_hooks = NULL;
	return msg || tb_fs_errors() ? 1 : 0;
}
