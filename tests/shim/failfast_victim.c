// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tests that fail on purpose, run by test_failfast in a process of their
 * own: failfast_victim SCENARIO runs the scenario's failing case, then a
 * case that boots a fresh world and waits for a grace period (it would
 * hang if the failing case had left an RCU reader or a lock behind).
 */
#include <linux/kernel.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/sched.h>
#include <string.h>
#include "tb_test.h"

static DEFINE_SPINLOCK(victim_lock);

static void fails_inside_an_rcu_reader(void **state)
{
	rcu_read_lock();
	assert_int_equal(1, 2);
	rcu_read_unlock();
}

static void segfaults_inside_a_spinlock(void **state)
{
	spin_lock(&victim_lock);
	*(volatile int *)16 = 1;
	spin_unlock(&victim_lock);
}

/* a kernel loop that ends on a fatal signal (the watchdog's SIGKILL) */
static void loops_until_killed(void **state)
{
	while (!fatal_signal_pending(current))
		barrier();
}

/* named in the watchdog's backtrace: not static */
void tb_victim_endless_loop(void);
void tb_victim_endless_loop(void)
{
	for (;;)
		barrier();
}

static void loops_forever(void **state)
{
	tb_victim_endless_loop();
}

/* the next case: a fresh world, a grace period, the lock taken again */
static void next_case_runs(void **state)
{
	synchronize_rcu();
	spin_lock(&victim_lock);
	spin_unlock(&victim_lock);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		CMUnitTestFunction fn;
	} scenarios[] = {
		{ "rcu", fails_inside_an_rcu_reader },
		{ "spinlock-segv", segfaults_inside_a_spinlock },
		{ "loop-killable", loops_until_killed },
		{ "loop-forever", loops_forever },
	};
	unsigned int i;

	for (i = 0; argc == 2 && i < ARRAY_SIZE(scenarios); i++) {
		if (!strcmp(argv[1], scenarios[i].name)) {
			const struct CMUnitTest tests[] = {
				{ scenarios[i].name, scenarios[i].fn, tb_setup, tb_teardown, NULL },
				TB_TEST(next_case_runs),
			};

			return TB_RUN(tests);
		}
	}
	fprintf(stderr, "usage: failfast_victim rcu|spinlock-segv|loop-killable|loop-forever\n");
	return 2;
}
