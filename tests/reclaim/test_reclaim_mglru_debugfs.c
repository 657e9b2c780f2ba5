// SPDX-License-Identifier: GPL-2.0-only
/*
 * The multi-gen LRU's debugfs files, read whole and field by field
 * (Documentation/admin-guide/mm/multigen_lru.rst): /sys/kernel/debug/lru_gen
 * shows per memcg and node one line per generation from min_seq[anon] to
 * max_seq (seq, age in ms, anon and file pages); lru_gen_full shows the
 * last MAX_NR_GENS generations, marks with 'x' a type's generations below
 * its min_seq, and adds per generation a line per tier (the youngest:
 * avg_refaulted, avg_total as "RTx"; a type's oldest: refaulted, evicted,
 * protected as "rep"; any other "xxx") and the walk's counters ("TYFA" on
 * the youngest, "xxxx" elsewhere; NR_HIST_GENS is 1 here).
 *
 * Also: the text read in pieces (the seq_file goes on from the record it
 * stopped at), the files' modes, and what lru_gen's commands refuse or
 * stop at (run_cmd()'s node ids, run_eviction()'s nr_to_reclaim).
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mm_inline.h>
#include <linux/memcontrol.h>
#include <kshim/testbed.h>
#include <stdio.h>
#include <string.h>
#include "tb_mglru.h"

#define A LRU_GEN_ANON
#define F LRU_GEN_FILE

struct gen_text {
	unsigned long seq;
	unsigned int age;			/* ms */
	unsigned long size[ANON_AND_FILE];
	char mark[ANON_AND_FILE];
	/* lru_gen_full only */
	unsigned long tier[MAX_NR_TIERS][ANON_AND_FILE][3];
	char tier_mark[MAX_NR_TIERS][ANON_AND_FILE][4];
	unsigned long mm[NR_MM_STATS];
	char mm_mark[NR_MM_STATS + 1];
};

struct lruvec_text {
	int nr;
	struct gen_text gen[MAX_NR_GENS + 4];
};

static char text[1 << 16];

/* the next line of *p (without its '\n'), *p moved past it; NULL at the end */
static char *next_line(char **p)
{
	char *line = *p, *end;

	if (!*line)
		return NULL;
	end = strchr(line, '\n');
	assert_non_null(end);
	*end = '\0';
	*p = end + 1;
	return line;
}

/* "            %10d" then " %10lu%c" per type and counter, as printed */
static void parse_tier_line(const char *line, int tier, struct gen_text *g)
{
	char again[256];
	int t, type, n = 0;

	assert_int_equal(sscanf(line, "%d", &t), 1);
	assert_int_equal(t, tier);
	n = snprintf(again, sizeof(again), "            %10d", t);
	for (type = 0; type < ANON_AND_FILE; type++) {
		int i;

		for (i = 0; i < 3; i++) {
			char c;

			assert_int_equal(sscanf(line + n, " %lu%c", &g->tier[tier][type][i], &c), 2);
			g->tier_mark[tier][type][i] = c;
			n += snprintf(again + n, sizeof(again) - n, " %10lu%c",
				      g->tier[tier][type][i], c);
		}
		g->tier_mark[tier][type][3] = '\0';
	}
	assert_string_equal(line, again);
}

/* "                      " then " %10lu%c" per walk counter */
static void parse_mm_line(const char *line, struct gen_text *g)
{
	char again[256];
	int i, n;

	n = snprintf(again, sizeof(again), "%22s", "");
	for (i = 0; i < NR_MM_STATS; i++) {
		char c;

		assert_int_equal(sscanf(line + n, " %lu%c", &g->mm[i], &c), 2);
		g->mm_mark[i] = c;
		n += snprintf(again + n, sizeof(again) - n, " %10lu%c", g->mm[i], c);
	}
	g->mm_mark[NR_MM_STATS] = '\0';
	assert_string_equal(line, again);
}

/*
 * The generations of memcg path on node 0 in debugfs file name, each line
 * checked against its format as lru_gen_seq_show() prints it: nothing
 * but the memcg's next header or the end follows them.
 */
static void read_lruvec(const char *name, const char *path, struct lruvec_text *out)
{
	bool full = !strcmp(name, "lru_gen_full");
	char head[64], *p, *line;

	memset(out, 0, sizeof(*out));
	assert_true(tb_debugfs_read(name, text, sizeof(text)) > 0);
	snprintf(head, sizeof(head), TB_LRU_GEN_HEAD, TB_LRU_GEN_HEAD_ID(tb_memcg(path)), path);
	p = strstr(text, head);
	assert_non_null(p);
	p += strlen(head);
	while ((line = next_line(&p)) && strncmp(line, "memcg ", 6)) {
		struct gen_text *g = &out->gen[out->nr];
		char again[64];
		int tier;

		assert_true(out->nr < (int)ARRAY_SIZE(out->gen));
		assert_int_equal(sscanf(line, " %lu %u %lu%c %lu%c", &g->seq, &g->age,
					&g->size[A], &g->mark[A], &g->size[F], &g->mark[F]), 6);
		snprintf(again, sizeof(again), " %10lu %10u %10lu%c %10lu%c", g->seq, g->age,
			 g->size[A], g->mark[A], g->size[F], g->mark[F]);
		assert_string_equal(line, again);
		out->nr++;
		if (!full)
			continue;
		for (tier = 0; tier < MAX_NR_TIERS; tier++) {
			line = next_line(&p);
			assert_non_null(line);
			parse_tier_line(line, tier, g);
		}
		line = next_line(&p);
		assert_non_null(line);
		parse_mm_line(line, g);
	}
}

/* a type's three counters of one tier in a generation of kind "RTx", "rep" or "xxx" */
static void expect_tier(struct lruvec *lruvec, const char *kind, int type, int tier,
			unsigned long n[3])
{
	tb_lrugen_t *lrugen = &lruvec->lrugen;

	n[0] = n[1] = n[2] = 0;
	if (!strcmp(kind, "RTx")) {
		n[0] = READ_ONCE(lrugen->avg_refaulted[type][tier]);
		n[1] = READ_ONCE(lrugen->avg_total[type][tier]);
	} else if (!strcmp(kind, "rep")) {
		n[0] = atomic_long_read(&lrugen->refaulted[0][type][tier]);
		n[1] = atomic_long_read(&lrugen->evicted[0][type][tier]);
		n[2] = tb_protected(lruvec, 0, type, tier);
	}
}

/*
 * One generation of lru_gen_full: its seq, age and sizes, each type's
 * tier lines of the kind given (anon's, file's) with the lruvec's own
 * counters, and the walk's counters on the youngest only.
 */
static void assert_full_gen(struct lruvec *lruvec, const struct gen_text *g, unsigned long seq,
			    unsigned int age, long anon, long file, const char *marks,
			    const char *anon_kind, const char *file_kind)
{
	const char *kind[ANON_AND_FILE] = { anon_kind, file_kind };
	bool youngest = seq == lruvec->lrugen.max_seq;
	int tier, type, i;

	assert_int_equal(g->seq, seq);
	assert_int_equal(g->age, age);
	assert_int_equal(g->size[A], anon);
	assert_int_equal(g->size[F], file);
	assert_int_equal(g->mark[A], marks[0]);
	assert_int_equal(g->mark[F], marks[1]);
	for (tier = 0; tier < MAX_NR_TIERS; tier++) {
		for (type = 0; type < ANON_AND_FILE; type++) {
			unsigned long n[3];

			expect_tier(lruvec, kind[type], type, tier, n);
			assert_string_equal(g->tier_mark[tier][type], kind[type]);
			assert_memory_equal(g->tier[tier][type], n, sizeof(n));
		}
	}
	assert_string_equal(g->mm_mark, youngest ? "TYFA" : "xxxx");
	for (i = 0; i < NR_MM_STATS; i++)
		assert_int_equal(g->mm[i], youngest ? READ_ONCE(lruvec->mm_state.stats[0][i]) : 0);
}

/* a generation's line of lru_gen: seq, age and sizes, never marked */
static void assert_gen(const struct gen_text *g, unsigned long seq, unsigned int age,
		       long anon, long file)
{
	assert_int_equal(g->seq, seq);
	assert_int_equal(g->age, age);
	assert_int_equal(g->size[A], anon);
	assert_int_equal(g->size[F], file);
	assert_int_equal(g->mark[A], ' ');
	assert_int_equal(g->mark[F], ' ');
}

/* ms of virtual time since jiffy j (HZ is 1000) */
static unsigned int ms_since(unsigned long j)
{
	return jiffies_to_msecs(kshim_jiffies() - j);
}

/*
 * "a" with 32 pages of anon faulted (active: the youngest generation,
 * max_seq; 7.2, lru_gen_fault_referenced: the second youngest) and 256
 * of page cache read once (lru_gen_add_folio(): the second oldest,
 * min_seq + 1; 7.2, lru_gen_folio_seq: but for UNREF in the oldest), a
 * second after "a" was made; the jiffy "a" was made at.
 */
#define ANON_SEQ (MIN_NR_GENS + 1 - TB_HAVE_lru_gen_fault_referenced)
#define UNREF (TB_HAVE_lru_gen_folio_seq ? tb_reads_unreferenced(256) : 0)

static unsigned long a_with_anon_and_page_cache(struct tb_vma **vma, struct tb_file *f)
{
	unsigned long born;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	born = kshim_jiffies();
	tb_run_in("a");
	*vma = tb_map_anon(32);
	tb_touch_range(*vma, 32, true);
	tb_read_range(f, 256);
	lru_add_drain();
	kshim_jiffies_advance(1000);
	return born;
}

/*
 * A new lruvec (lru_gen_init_lruvec()) has max_seq MIN_NR_GENS + 1 and
 * min_seq 0, its four generations all born when it was made: both files
 * list seq 0 to 3 (lru_gen_full from 0 while max_seq < MAX_NR_GENS), each
 * aged from that jiffy. In lru_gen_full seq 0 is both types' oldest
 * ("rep", all 0), seq 3 the youngest ("RTx" of zero averages, and the
 * walk's counters, 0 before any aging), the others "xxx"; nothing is
 * marked.
 */
static void lru_gen_full_shows_every_generation_of_a_new_lruvec_from_seq_0(void **state)
{
	struct tb_file *f = tb_file_create(256);
	struct lruvec_text t;
	struct lruvec *lruvec;
	struct tb_vma *vma;
	unsigned long born;
	unsigned int age;

	tb_skip_before_6_4("lru_gen_full format");
	born = a_with_anon_and_page_cache(&vma, f);
	lruvec = tb_lruvec_of("a");
	assert_int_equal(lruvec->lrugen.max_seq, MIN_NR_GENS + 1);
	age = ms_since(born);
	assert_true(age >= 1000);

	read_lruvec("lru_gen_full", "a", &t);
	assert_int_equal(t.nr, 4);
	assert_full_gen(lruvec, &t.gen[0], 0, age, 0, UNREF, "  ", "rep", "rep");
	assert_full_gen(lruvec, &t.gen[1], 1, age, 0, 256 - UNREF, "  ", "xxx", "xxx");
	assert_full_gen(lruvec, &t.gen[2], 2, age, ANON_SEQ == 2 ? 32 : 0, 0, "  ", "xxx", "xxx");
	assert_full_gen(lruvec, &t.gen[3], 3, age, ANON_SEQ == 3 ? 32 : 0, 0, "  ", "RTx", "RTx");
	assert_int_equal(t.gen[3].mm[MM_LEAF_TOTAL], 0);

	read_lruvec("lru_gen", "a", &t);
	assert_int_equal(t.nr, 4);
	assert_gen(&t.gen[0], 0, age, 0, UNREF);
	assert_gen(&t.gen[1], 1, age, 0, 256 - UNREF);
	assert_gen(&t.gen[2], 2, age, ANON_SEQ == 2 ? 32 : 0, 0);
	assert_gen(&t.gen[3], 3, age, ANON_SEQ == 3 ? 32 : 0, 0);
}

/*
 * Aged once (seq 4 born then, the walk counting "a"'s 32 young ptes), its
 * page cache evicted with 16 pages refaulting before the oldest file
 * generation was done: min_seq is 1 for anon, 3 for file.
 *
 * lru_gen_full shows seq 1 to 4 (max_seq - MAX_NR_GENS + 1 on), the file
 * sizes of seq 1 and 2 marked 'x' (below file's min_seq); anon's oldest is
 * seq 1, file's seq 3 ("rep": refaulted, evicted, protected since the last
 * carry-over); seq 4 shows the averages reset_ctrl_pos() carried over
 * ("RTx": refaults and evictions halved) and the walk's counters. lru_gen
 * lists seq 1 to 4 too (from min_seq[anon]) with no mark. Once anon's
 * min_seq is 3 as well, lru_gen lists seq 3 and 4 only, lru_gen_full
 * still 1 to 4, both types marked below 3.
 *
 * Aged twice more, without time passing: lru_gen_full shows seq 3 to 6,
 * seq 5 and 6 of age 0.
 */
static void lru_gen_full_shows_the_last_four_generations_and_marks_what_a_type_left(void **state)
{
	struct tb_file *f = tb_file_create(256);
	unsigned long born, aged;
	struct lruvec_text t;
	struct lruvec *lruvec;
	tb_lrugen_t *lrugen;
	struct tb_vma *vma;
	unsigned short id;

	tb_skip_before_6_4("lru_gen_full format");
	born = a_with_anon_and_page_cache(&vma, f);
	id = tb_memcg_id("a");
	lruvec = tb_lruvec_of("a");
	lrugen = &lruvec->lrugen;
	assert_true(tb_lru_gen_cmd("+ %u 0 3 1 1", id) > 0);
	aged = kshim_jiffies();
	kshim_jiffies_advance(250);
	/*
	 * pages 0 to 15 at least (before 7.2, mglru_evict_budget: a batch,
	 * MIN_LRU_BATCH of them); 7.2 evicts the UNREF pages the aging moved
	 * to the tail of seq 1 first
	 */
	assert_true(tb_lru_gen_cmd("- %u 0 1 0 %ld", id, 16 + UNREF) > 0);
	tb_read_range(f, 16);
	assert_true(tb_lru_gen_cmd("- %u 0 1 0", id) > 0);
	assert_int_equal(lrugen->max_seq, 4);
	assert_int_equal(lrugen->min_seq[A], 1);
	assert_int_equal(lrugen->min_seq[F], 3);
	assert_int_equal(tb_gen_pages(lruvec, F), 0);
	assert_int_equal(READ_ONCE(lruvec->mm_state.stats[0][MM_LEAF_TOTAL]), 32);
	assert_int_equal(READ_ONCE(lruvec->mm_state.stats[0][MM_LEAF_YOUNG]), 32);
	/* the carried-over averages, distinct and not 0, so each is told apart */
	assert_int_equal(lrugen->avg_refaulted[F][0], 16 / 2);
	assert_true(lrugen->avg_total[F][0] > lrugen->avg_refaulted[F][0]);
	assert_true(atomic_long_read(&lrugen->evicted[0][F][0]) > 0);

	read_lruvec("lru_gen_full", "a", &t);
	assert_int_equal(t.nr, 4);
	assert_full_gen(lruvec, &t.gen[0], 1, ms_since(born), 0, 0, " x", "rep", "xxx");
	assert_full_gen(lruvec, &t.gen[1], 2, ms_since(born), 0, 0, " x", "xxx", "xxx");
	assert_full_gen(lruvec, &t.gen[2], 3, ms_since(born), 32, 0, "  ", "xxx", "rep");
	assert_full_gen(lruvec, &t.gen[3], 4, ms_since(aged), 0, 0, "  ", "RTx", "RTx");
	assert_int_equal(ms_since(aged), 250);

	read_lruvec("lru_gen", "a", &t);
	assert_int_equal(t.nr, 4);
	assert_gen(&t.gen[0], 1, ms_since(born), 0, 0);
	assert_gen(&t.gen[1], 2, ms_since(born), 0, 0);
	assert_gen(&t.gen[2], 3, ms_since(born), 32, 0);
	assert_gen(&t.gen[3], 4, 250, 0, 0);

	/* anon's seq 1 and 2 are empty: evicting anon moves its min_seq to 3 */
	assert_true(tb_lru_gen_cmd("- %u 0 1 1", id) > 0);
	assert_int_equal(lrugen->min_seq[A], 3);
	read_lruvec("lru_gen_full", "a", &t);
	assert_int_equal(t.nr, 4);
	assert_full_gen(lruvec, &t.gen[0], 1, ms_since(born), 0, 0, "xx", "xxx", "xxx");
	assert_full_gen(lruvec, &t.gen[1], 2, ms_since(born), 0, 0, "xx", "xxx", "xxx");
	assert_full_gen(lruvec, &t.gen[2], 3, ms_since(born), 32, 0, "  ", "rep", "rep");
	assert_full_gen(lruvec, &t.gen[3], 4, 250, 0, 0, "  ", "RTx", "RTx");
	read_lruvec("lru_gen", "a", &t);
	assert_int_equal(t.nr, 2);
	assert_gen(&t.gen[0], 3, ms_since(born), 32, 0);
	assert_gen(&t.gen[1], 4, 250, 0, 0);

	assert_true(tb_lru_gen_cmd("+ %u 0 4 1 1", id) > 0);
	assert_true(tb_lru_gen_cmd("+ %u 0 5 1 1", id) > 0);
	assert_int_equal(lrugen->min_seq[A], 3);
	read_lruvec("lru_gen_full", "a", &t);
	assert_int_equal(t.nr, 4);
	assert_full_gen(lruvec, &t.gen[0], 3, ms_since(born), 32, 0, "  ", "rep", "rep");
	assert_full_gen(lruvec, &t.gen[1], 4, 250, 0, 0, "  ", "xxx", "xxx");
	assert_full_gen(lruvec, &t.gen[2], 5, 0, 0, 0, "  ", "xxx", "xxx");
	assert_full_gen(lruvec, &t.gen[3], 6, 0, 0, 0, "  ", "RTx", "RTx");
}

/*
 * init_lru_gen() registers the sysfs group without complaint and the two
 * debugfs files with their modes: lru_gen read-write for root (0644),
 * lru_gen_full read-only (0444).
 */
static void boot_registers_both_files_with_their_modes_and_logs_nothing(void **state)
{
	char log[4096];

	assert_int_equal(tb_debugfs_mode("lru_gen"), 0644);
	assert_int_equal(tb_debugfs_mode("lru_gen_full"), 0444);
	tb_dmesg(log, sizeof(log));
	assert_null(strstr(log, "lru_gen"));
	assert_int_equal(tb_sysfs_read(LRU_GEN_ENABLED, log, sizeof(log)), 7);
}

/* a boot whose sysfs group for lru_gen cannot be created (no memory for its node) */
static int setup_sysfs_group_fails(void **state)
{
	tb_setup(state);
	kshim_fault_filter("sysfs_create_group", NULL);
	kshim_fault_nth(1);
	if (tb_memcg_boot() || tb_mem_boot(&tb_mem))
		return -1;
	kshim_fault_reset();
	return 0;
}

/*
 * init_lru_gen() goes on without its sysfs group: one line in the log,
 * no /sys/kernel/mm/lru_gen, the debugfs files there all the same.
 */
static void boot_without_the_sysfs_group_logs_it_and_registers_debugfs(void **state)
{
	char log[4096];

	tb_dmesg(log, sizeof(log));
	assert_non_null(strstr(log, "lru_gen: failed to create sysfs group\n"));
	assert_int_equal(tb_sysfs_read(LRU_GEN_ENABLED, log, sizeof(log)), -ENOENT);
	assert_int_equal(tb_debugfs_mode("lru_gen"), 0644);
	assert_int_equal(tb_debugfs_mode("lru_gen_full"), 0444);
}

/* text is the root's record then one of each memcg of paths, in order */
static void assert_memcg_records(const char *text, const char *const *paths, int n)
{
	const char *p = text;
	int i, records = 0;
	char root[64];

	snprintf(root, sizeof(root), TB_LRU_GEN_HEAD, TB_LRU_GEN_HEAD_ID(tb_memcg("")), "");
	assert_int_equal(strncmp(text, root, strlen(root)), 0);
	for (i = 0; i < n; i++) {
		char head[64];

		head[0] = '\n';
		snprintf(head + 1, sizeof(head) - 1, TB_LRU_GEN_HEAD,
			 TB_LRU_GEN_HEAD_ID(tb_memcg(paths[i])), paths[i]);
		p = strstr(p, head);
		assert_non_null(p);
		p++;
	}
	for (p = text; (p = strstr(p, "memcg ")); p++)
		records++;
	assert_int_equal(records, n + 1);
}

/*
 * lru_gen_full of four memcgs is over a page: read() gives a page of
 * whole records at most (the seq_file's buffer), and each read() after
 * the first goes on from its record: lru_gen_seq_start() skips *pos
 * lruvecs, lru_gen_seq_next() moves *pos on (fs/seq_file.c reports a
 * ->next() that does not). Read whole, or 7 or 500 bytes at a time, the
 * text is the same, each memcg once in the iteration's order, and the
 * kernel logs nothing.
 */
static void lru_gen_full_reads_the_same_in_pieces_from_the_record_it_stopped_at(void **state)
{
	static const char *const paths[] = { "a", "b", "c" };
	static char whole[1 << 16], piece[1 << 16], log[1 << 16];
	size_t logged;
	ssize_t n;
	int i;

	for (i = 0; i < 3; i++)
		assert_int_equal(tb_cgroup_mkdir(paths[i]), 0);
	logged = tb_dmesg(log, sizeof(log));
	n = tb_debugfs_read("lru_gen_full", whole, sizeof(whole));
	assert_true(n > (ssize_t)PAGE_SIZE);
	assert_int_equal(strlen(whole), n);
	assert_memcg_records(whole, paths, 3);

	assert_int_equal(tb_debugfs_read_by("lru_gen_full", piece, sizeof(piece), 7), n);
	assert_string_equal(piece, whole);
	assert_int_equal(tb_debugfs_read_by("lru_gen_full", piece, sizeof(piece), 500), n);
	assert_string_equal(piece, whole);
	/* lru_gen, a record a read() */
	n = tb_debugfs_read("lru_gen", whole, sizeof(whole));
	assert_int_equal(tb_debugfs_read_by("lru_gen", piece, sizeof(piece), 1), n);
	assert_string_equal(piece, whole);
	assert_memcg_records(whole, paths, 3);
	assert_int_equal(tb_dmesg(log, sizeof(log)), logged);
}

/*
 * run_cmd() refuses a node id below 0 or from MAX_NUMNODES on before
 * node_state() reads the id's bit of node_states[N_MEMORY] (past the mask
 * for such an id): lru_gen_seq_write() parses it as unsigned, so "-1" and
 * "2147483648" are -1 and INT_MIN as run_cmd()'s int. Nothing is aged.
 */
static void debugfs_refuses_node_ids_out_of_range(void **state)
{
	unsigned short id;

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	id = tb_memcg_id("a");
	assert_int_equal(tb_lru_gen_cmd("+ %u -1 3 0 1", id), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("+ %u 2147483648 3 0 1", id), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("+ %u %d 3 0 1", id, MAX_NUMNODES), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("+ %u %d 3 0 1", id, BITS_PER_LONG), -EINVAL);
	assert_int_equal(tb_lru_gen_cmd("+ %u 2147483647 3 0 1", id), -EINVAL);
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 1);
}

/*
 * run_eviction() counts what one command reclaimed from 0 and stops once
 * it reaches the command's nr_to_reclaim, a batch (evict_folios():
 * MIN_LRU_BATCH of read-once page cache) at least: "- memcg node seq 0 1"
 * evicts one batch, and two commands of 64 in one write a batch each
 * (7.2, mglru_evict_budget: evict_folios() takes at most what is left to
 * reclaim: 1 page, then 64 and 64).
 * A command that stops there succeeds: the write returns its length.
 */
static void eviction_command_stops_at_its_own_nr_to_reclaim(void **state)
{
	struct tb_file *f = tb_file_create(256);
	long first = TB_HAVE_mglru_evict_budget ? 1 : MIN_LRU_BATCH;
	unsigned short id;
	char cmd[64];

	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	id = tb_memcg_id("a");
	tb_run_in("a");
	tb_read_range(f, 256);
	lru_add_drain();
	assert_int_equal(tb_gen_seq_pages(tb_lruvec_of("a"), 1, F), 256 - UNREF);

	snprintf(cmd, sizeof(cmd), "- %u 0 1 0 1", id);
	assert_int_equal(tb_debugfs_write("lru_gen", cmd), (ssize_t)strlen(cmd));
	assert_int_equal(tb_file_cached(f), 256 - first);
	snprintf(cmd, sizeof(cmd), "- %u 0 1 0 %d; - %u 0 1 0 %d", id, MIN_LRU_BATCH, id,
		 MIN_LRU_BATCH);
	assert_int_equal(tb_debugfs_write("lru_gen", cmd), (ssize_t)strlen(cmd));
	assert_int_equal(tb_file_cached(f), 256 - first - 2 * MIN_LRU_BATCH);
	assert_int_equal(tb_gen_pages(tb_lruvec_of("a"), F), 256 - first - 2 * MIN_LRU_BATCH);
}

/*
 * A write from a user address the writer has not mapped: lru_gen_seq_write()
 * copies the whole command into a buffer of its own first, and a copy
 * that faults frees it and fails the write with -EFAULT, nothing run.
 */
static void debugfs_write_from_an_unmapped_address_fails_with_efault(void **state)
{
	assert_int_equal(tb_cgroup_mkdir("a"), 0);
	assert_int_equal(tb_debugfs_write_unmapped("lru_gen", 16), -EFAULT);
	assert_int_equal(tb_lruvec_of("a")->lrugen.max_seq, MIN_NR_GENS + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		TB_MGLRU_SWAP_TEST(lru_gen_full_shows_every_generation_of_a_new_lruvec_from_seq_0),
		TB_MGLRU_SWAP_TEST(lru_gen_full_shows_the_last_four_generations_and_marks_what_a_type_left),
		TB_MGLRU_TEST(boot_registers_both_files_with_their_modes_and_logs_nothing),
		TB_RECLAIM_TEST_ON(boot_without_the_sysfs_group_logs_it_and_registers_debugfs,
				   setup_sysfs_group_fails),
		TB_MGLRU_TEST(lru_gen_full_reads_the_same_in_pieces_from_the_record_it_stopped_at),
		TB_MGLRU_TEST(debugfs_refuses_node_ids_out_of_range),
		TB_MGLRU_TEST(eviction_command_stops_at_its_own_nr_to_reclaim),
		TB_MGLRU_TEST(debugfs_write_from_an_unmapped_address_fails_with_efault),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
