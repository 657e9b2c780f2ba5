// SPDX-License-Identifier: GPL-2.0-only
/*
 * libFuzzer/AFL++ harness for the real mm/page_counter.c.
 *
 * Input format (bytes; a read past the end yields 0, so every input is
 * valid and short inputs still run):
 *   byte 0      nr counters = 1 + b % 8; counter 0 is the root
 *   byte 1      bit 0: protection_support on every counter
 *   bytes 2..   parent of counter i (i = 1..nr-1) = b % i, so parents
 *               always precede their children (top-down order = index)
 *   then ops, until the input ends or MAX_OPS ran; each op is one opcode
 *   byte (op = b % NR_OPS) followed by its arguments:
 *     OP_CHARGE      idx, nr16       page_counter_charge
 *     OP_TRY_CHARGE  idx, nr16       page_counter_try_charge
 *     OP_UNCHARGE    sel             uncharge live charge sel % nr_live
 *     OP_CANCEL      sel             cancel a live charge at its own
 *                                    counter only; the charge then lives
 *                                    on at the parent (or is gone)
 *     OP_SET_MAX     idx, val16      page_counter_set_max
 *     OP_SET_MIN     idx, val16      page_counter_set_min
 *     OP_SET_LOW     idx, val16      page_counter_set_low
 *     OP_SET_HIGH    idx, val16      page_counter_set_high
 *     OP_MEMPARSE    idx, len, text  page_counter_memparse(len % 32
 *                                    bytes); on success set_max(idx)
 *     OP_PROTECTION  idx, flags      calculate_protection top-down over
 *                                    idx's subtree; flags bit 0 recursive
 *     OP_RESET_WM    idx             page_counter_reset_watermark
 *   idx selects counter idx % nr; nr16/val16 are little-endian u16
 *   (charges 0..65535 pages keep usage far from overflow).
 *
 * A shadow model keeps every live charge (counter, pages); after each op
 * every counter's usage must equal the sum of the live charges in its
 * subtree, watermarks must cover usage, and a refused try_charge must
 * have changed nothing but failcnt and the transient watermarks.
 * Deterministic: no randomness. One world for every input (fuzz_reuse.h);
 * each counter's usage, watermarks and failcnt go into the digest.
 */
#include <linux/kernel.h>
#include <linux/errno.h>
#include <linux/page_counter.h>
#include <kshim/testbed.h>
#include <stdint.h>
#include "fuzz_reuse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NR_COUNTERS	8
#define MAX_LIVE	256
#define MAX_OPS		512

enum {
	OP_CHARGE, OP_TRY_CHARGE, OP_UNCHARGE, OP_CANCEL, OP_SET_MAX,
	OP_SET_MIN, OP_SET_LOW, OP_SET_HIGH, OP_MEMPARSE, OP_PROTECTION,
	OP_RESET_WM, NR_OPS
};

struct live_charge {
	int idx;
	unsigned long pages;
};

struct fuzz_state {
	const uint8_t *data;
	size_t size, pos;
	int nr;
	bool prot;
	int op;
	struct page_counter pc[NR_COUNTERS];
	struct live_charge live[MAX_LIVE];
	int nr_live;
};

static struct fuzz_state fs;

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "fuzz_page_counter: op %d: %s failed "	\
			"(%s:%d)\n", fs.op, #cond, __FILE__, __LINE__);	\
		abort();						\
	}								\
} while (0)

static unsigned int get8(void)
{
	return fs.pos < fs.size ? fs.data[fs.pos++] : 0;
}

static unsigned long get16(void)
{
	unsigned long lo = get8();

	return lo | (get8() << 8);
}

static struct page_counter *get_counter(int *idx)
{
	*idx = get8() % fs.nr;
	return &fs.pc[*idx];
}

static bool is_ancestor_or_self(int anc, int idx)
{
	struct page_counter *c;

	for (c = &fs.pc[idx]; c; c = c->parent)
		if (c == &fs.pc[anc])
			return true;
	return false;
}

/* what the shadow model says each usage must be: children sum upwards */
static void expected_usage(long *sum)
{
	int i;

	memset(sum, 0, sizeof(*sum) * NR_COUNTERS);
	for (i = 0; i < fs.nr_live; i++)
		sum[fs.live[i].idx] += fs.live[i].pages;
	for (i = fs.nr - 1; i > 0; i--)
		sum[fs.pc[i].parent - fs.pc] += sum[i];
}

static void check_protection(int i)
{
	struct page_counter *c = &fs.pc[i];
	unsigned long u = page_counter_read(c);
	long cmin = 0, clow = 0;
	int j;

	for (j = i + 1; j < fs.nr; j++) {
		if (fs.pc[j].parent != c)
			continue;
		cmin += atomic_long_read(&fs.pc[j].min_usage);
		clow += atomic_long_read(&fs.pc[j].low_usage);
	}
	CHECK(atomic_long_read(&c->children_min_usage) == cmin);
	CHECK(atomic_long_read(&c->children_low_usage) == clow);
	if (!c->parent) {
		CHECK(atomic_long_read(&c->min_usage) == 0);
		CHECK(atomic_long_read(&c->low_usage) == 0);
		return;
	}
	CHECK(atomic_long_read(&c->min_usage) == min(u, c->min));
	CHECK(atomic_long_read(&c->low_usage) == min(u, c->low));
}

static void check_invariants(void)
{
	long want[NR_COUNTERS];
	int i;

	expected_usage(want);
	for (i = 0; i < fs.nr; i++) {
		struct page_counter *c = &fs.pc[i];
		long u = atomic_long_read(&c->usage);

		CHECK(u >= 0);
		CHECK(u == want[i]);
		CHECK(c->local_watermark >= (unsigned long)u);
		CHECK(c->watermark >= c->local_watermark);
		fz_digest(u);
		fz_digest(c->watermark);
		fz_digest(c->local_watermark);
		fz_digest(c->failcnt);
		/* only the protection-aware paths keep these sums exact */
		if (fs.prot)
			check_protection(i);
	}
}

static void add_live(int idx, unsigned long pages)
{
	if (fs.nr_live == MAX_LIVE) {
		page_counter_uncharge(&fs.pc[idx], pages);
		return;
	}
	fs.live[fs.nr_live++] = (struct live_charge){ idx, pages };
}

static void op_charge(void)
{
	int idx;
	struct page_counter *c = get_counter(&idx);
	unsigned long pages = get16();

	page_counter_charge(c, pages);
	add_live(idx, pages);
}

/* single-threaded, so the outcome is exactly predictable */
static struct page_counter *predict_fail(struct page_counter *c,
					 unsigned long pages)
{
	for (; c; c = c->parent)
		if (page_counter_read(c) + pages > c->max)
			return c;
	return NULL;
}

static void op_try_charge(void)
{
	unsigned long usage[NR_COUNTERS], failcnt[NR_COUNTERS];
	struct page_counter *c, *fail = NULL, *want;
	unsigned long pages;
	int idx, i;

	c = get_counter(&idx);
	pages = get16();
	want = predict_fail(c, pages);
	for (i = 0; i < fs.nr; i++) {
		usage[i] = page_counter_read(&fs.pc[i]);
		failcnt[i] = fs.pc[i].failcnt;
	}
	if (page_counter_try_charge(c, pages, &fail)) {
		CHECK(!want);
		add_live(idx, pages);
		return;
	}
	CHECK(fail == want);
	for (i = 0; i < fs.nr; i++) {
		CHECK(page_counter_read(&fs.pc[i]) == usage[i]);
		CHECK(fs.pc[i].failcnt == failcnt[i] + (&fs.pc[i] == fail));
	}
}

static int pick_live(void)
{
	unsigned int sel = get8();

	return fs.nr_live ? (int)(sel % fs.nr_live) : -1;
}

static void op_uncharge(void)
{
	int k = pick_live();

	if (k < 0)
		return;
	page_counter_uncharge(&fs.pc[fs.live[k].idx], fs.live[k].pages);
	fs.live[k] = fs.live[--fs.nr_live];
}

static void op_cancel(void)
{
	struct page_counter *c, *parent;
	int k = pick_live();

	if (k < 0)
		return;
	c = &fs.pc[fs.live[k].idx];
	page_counter_cancel(c, fs.live[k].pages);
	parent = c->parent;
	if (parent)
		fs.live[k].idx = parent - fs.pc;
	else
		fs.live[k] = fs.live[--fs.nr_live];
}

static void set_max_checked(struct page_counter *c, unsigned long val)
{
	unsigned long old = c->max, usage = page_counter_read(c);
	int ret = page_counter_set_max(c, val);

	if (usage > val) {
		CHECK(ret == -EBUSY);
		CHECK(c->max == old);
	} else {
		CHECK(ret == 0);
		CHECK(c->max == val);
	}
}

static void op_set(int op)
{
	int idx;
	struct page_counter *c = get_counter(&idx);
	unsigned long val = get16();

	switch (op) {
	case OP_SET_MAX:
		set_max_checked(c, val);
		break;
	case OP_SET_MIN:
		page_counter_set_min(c, val);
		CHECK(c->min == val);
		break;
	case OP_SET_LOW:
		page_counter_set_low(c, val);
		CHECK(c->low == val);
		break;
	default:
		page_counter_set_high(c, val);
		CHECK(c->high == val);
		break;
	}
}

static void op_memparse(void)
{
	char buf[32];
	unsigned long pages = 0;
	unsigned int len, i;
	int idx, ret;
	struct page_counter *c = get_counter(&idx);

	len = get8() % sizeof(buf);
	for (i = 0; i < len; i++)
		buf[i] = get8();
	buf[len] = '\0';	/* an embedded NUL just shortens the text */

	ret = page_counter_memparse(buf, "max", &pages);
	CHECK(ret == 0 || ret == -EINVAL);
	if (ret)
		return;
	CHECK(pages <= PAGE_COUNTER_MAX);
	if (!strcmp(buf, "max"))
		CHECK(pages == PAGE_COUNTER_MAX);
	set_max_checked(c, pages);
}

/*
 * The bounds that follow from effective_protection() when the children's
 * protected usage sums are exact: never above the parent's effective
 * value, and never above min(usage, setting) without recursive mode.
 */
static void check_effective(struct page_counter *root, struct page_counter *c,
			    bool rec)
{
	unsigned long usage = page_counter_read(c);
	struct page_counter *p = c->parent;

	if (c == root || !usage || !fs.prot)
		return;
	if (p == root) {
		CHECK(c->emin == c->min && c->elow == c->low);
		return;
	}
	CHECK(c->emin <= p->emin);
	CHECK(c->elow <= p->elow);
	if (!rec) {
		CHECK(c->emin <= min(usage, c->min));
		CHECK(c->elow <= min(usage, c->low));
	}
}

static void op_protection(void)
{
	int root_idx, i;
	struct page_counter *root = get_counter(&root_idx);
	bool rec = get8() & 1;

	/* index order is top-down: a parent's index is below its child's */
	for (i = root_idx; i < fs.nr; i++) {
		if (!is_ancestor_or_self(root_idx, i))
			continue;
		page_counter_calculate_protection(root, &fs.pc[i], rec);
		check_effective(root, &fs.pc[i], rec);
	}
}

static void op_reset_wm(void)
{
	int idx;
	struct page_counter *c = get_counter(&idx);

	page_counter_reset_watermark(c);
	CHECK(c->watermark == page_counter_read(c));
	CHECK(c->local_watermark == page_counter_read(c));
}

static void run_op(int op)
{
	switch (op) {
	case OP_CHARGE:
		op_charge();
		break;
	case OP_TRY_CHARGE:
		op_try_charge();
		break;
	case OP_UNCHARGE:
		op_uncharge();
		break;
	case OP_CANCEL:
		op_cancel();
		break;
	case OP_MEMPARSE:
		op_memparse();
		break;
	case OP_PROTECTION:
		op_protection();
		break;
	case OP_RESET_WM:
		op_reset_wm();
		break;
	default:
		op_set(op);
		break;
	}
}

static void build_tree(void)
{
	int i;

	fs.nr = 1 + get8() % NR_COUNTERS;
	fs.prot = get8() & 1;
	memset(fs.pc, 0, sizeof(fs.pc));
	page_counter_init(&fs.pc[0], NULL, fs.prot);
	for (i = 1; i < fs.nr; i++)
		page_counter_init(&fs.pc[i], &fs.pc[get8() % i], fs.prot);
#if TB_HAVE_page_counter_track_failcnt
	/* 6.14: a counter counts its failures only when its owner asks: these do */
	for (i = 0; i < fs.nr; i++)
		fs.pc[i].track_failcnt = true;
#endif
}

/* undo every live charge so the counters end where they began */
static void drain(void)
{
	while (fs.nr_live) {
		struct live_charge *l = &fs.live[--fs.nr_live];

		page_counter_uncharge(&fs.pc[l->idx], l->pages);
	}
	fs.op = -1;
	check_invariants();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_world_enter(NULL);
	fs.data = data;
	fs.size = size;
	fs.pos = 0;
	fs.nr_live = 0;
	build_tree();
	for (fs.op = 0; fs.op < MAX_OPS && fs.pos < fs.size; fs.op++) {
		run_op(get8() % NR_OPS);
		check_invariants();
	}
	drain();
	fz_world_leave(NULL, "fuzz_page_counter");
	return 0;
}
