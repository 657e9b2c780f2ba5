// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include "tb_test.h"

struct kshim_world_config tb_world;

int tb_setup(void **state)
{
	(void)state;
	kshim_world_boot(&tb_world);
	return 0;
}

int tb_teardown(void **state)
{
	const char *msg = kshim_world_check();

	(void)state;
	kshim_world_teardown();
	if (msg) {
		print_error("world check: %s\n", msg);
		return -1;
	}
	return 0;
}

/*
 * TB_FILTER=pattern runs the matching cases only (cmocka's '*' and '?'),
 * whichever cmocka runner the binary's main() calls
 */
static void __attribute__((constructor)) tb_filter_init(void)
{
	const char *filter = getenv("TB_FILTER");

	if (filter && *filter)
		cmocka_set_test_filter(filter);
}

/* whether name is one of the comma-separated names of list */
static bool tb_case_listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

/*
 * TB_CASES=a,b runs the cases of those exact names only; TB_LIST_CASES=1
 * prints each case's name and runs none: tools/tb mutate maps which case
 * runs which kernel line, and runs only those of a mutant's line
 */
int tb_run(const char *name, const struct CMUnitTest *tests, size_t n)
{
	const char *only = getenv("TB_CASES");
	struct CMUnitTest *sel;
	size_t i, k = 0;
	int ret;

	if (getenv("TB_LIST_CASES")) {
		for (i = 0; i < n; i++)
			printf("tb-case: %s\n", tests[i].name);
		return 0;
	}
	sel = calloc(n ? n : 1, sizeof(*sel));
	if (!sel)
		abort();
	for (i = 0; i < n; i++)
		if (!only || tb_case_listed(only, tests[i].name))
			sel[k++] = tests[i];
	kshim_thread_enter(0);
	ret = _cmocka_run_group_tests(name, sel, k, NULL, NULL);
	kshim_thread_exit();
	free(sel);
	return ret;
}

struct tb_thread {
	pthread_t tid;
	unsigned int i;
	void (*fn)(void *arg, unsigned int i);
	void *arg;
};

static void *tb_thread_main(void *p)
{
	struct tb_thread *t = p;

	kshim_thread_enter(t->i % (tb_world.nr_cpus ? tb_world.nr_cpus : 4));
	t->fn(t->arg, t->i);
	kshim_thread_exit();
	return NULL;
}

void tb_run_threads(unsigned int nr, void (*fn)(void *arg, unsigned int i), void *arg)
{
	struct tb_thread *t = calloc(nr, sizeof(*t));
	unsigned int i;

	for (i = 0; i < nr; i++) {
		t[i] = (struct tb_thread){ .i = i, .fn = fn, .arg = arg };
		if (pthread_create(&t[i].tid, NULL, tb_thread_main, &t[i]))
			abort();
	}
	for (i = 0; i < nr; i++)
		pthread_join(t[i].tid, NULL);
	free(t);
}
