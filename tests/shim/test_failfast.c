// SPDX-License-Identifier: GPL-2.0-only
/*
 * A failing test fails fast and says why (DESIGN.md, principle 4): each
 * case runs one scenario of failfast_victim in a process of its own, with
 * a 1 s watchdog, and asserts how long it took, how it ended and what it
 * printed.
 */
#include <sys/wait.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tb_test.h"

extern char **environ;

/*
 * Under ThreadSanitizer a segfault ends the process with TSan's exit code
 * 66 (TSan reports CMocka's handler as signal-unsafe, or the SEGV
 * itself), and an asynchronous signal reaches a
 * thread only at TSan's safe points, which a spinning loop never passes:
 * the watchdog's backtrace of that thread is missing there.
 */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

/*
 * "Fast": ended well before the default 30-s watchdog would have, so a
 * victim that ignored its 1-s one fails; loose enough for a loaded
 * 2-core machine (10 s was exceeded once at load 8)
 */
#define FAST_S 20

struct outcome {
	int status;		/* waitpid()'s */
	double seconds;
	char out[16384];	/* stdout and stderr */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * This environment with a 1 s watchdog, and without CMocka's output
 * settings: the victim reports on its stdout whatever this process was
 * told (tools/tb run asks for XML files).
 */
static char **victim_env(void)
{
	static char *env[256];
	static char watchdog[] = "TB_WATCHDOG_SECONDS=1";
	int i, n = 0;

	for (i = 0; environ[i] && n < 254; i++)
		if (strncmp(environ[i], "CMOCKA_", 7) &&
		    strncmp(environ[i], "TB_WATCHDOG_SECONDS=", 20))
			env[n++] = environ[i];
	env[n++] = watchdog;
	env[n] = NULL;
	return env;
}

/* run victim's scenario; a run over 20 s is killed (and fails the case) */
static void run(const char *victim, const char *scenario, struct outcome *o)
{
	char *argv[] = { (char *)victim, (char *)scenario, NULL };
	char path[] = "/tmp/tb-failfast-XXXXXX";
	posix_spawn_file_actions_t fa;
	int fd = mkstemp(path), ret = 0;
	double start = now();
	pid_t pid;
	ssize_t n;

	assert_true(fd >= 0);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, fd, STDERR_FILENO);
	assert_int_equal(posix_spawn(&pid, victim, &fa, NULL, argv, victim_env()), 0);
	posix_spawn_file_actions_destroy(&fa);
	while (!ret && now() - start < 20) {
		struct timespec tick = { 0, 20 * 1000 * 1000 };

		ret = waitpid(pid, &o->status, WNOHANG);
		if (!ret)
			nanosleep(&tick, NULL);
	}
	if (!ret) {
		kill(pid, SIGKILL);
		waitpid(pid, &o->status, 0);
	}
	o->seconds = now() - start;
	n = pread(fd, o->out, sizeof(o->out) - 1, 0);
	o->out[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	assert_true(ret == pid);
}

/* a scenario of the shim's victim (failfast_victim) */
static void run_victim(const char *scenario, struct outcome *o)
{
	run(FAILFAST_VICTIM, scenario, o);
}

#define assert_printed(o, s)							\
	do {									\
		if (!strstr((o)->out, (s)))					\
			fail_msg("\"%s\" not in the output:\n%s", (s), (o)->out); \
	} while (0)

/* exited with 1 failed case; the next case passed */
static void assert_one_case_failed(struct outcome *o)
{
	assert_true(WIFEXITED(o->status));
	assert_int_equal(WEXITSTATUS(o->status), 1);
	assert_printed(o, "[       OK ] next_case_runs");
}

/* the assertion fails inside rcu_read_lock(): teardown releases and names it */
static void assertion_in_an_rcu_reader_fails_fast(void **state)
{
	struct outcome o;

	run_victim("rcu", &o);
	assert_one_case_failed(&o);
	assert_printed(&o, "1 RCU read section(s)");
	assert_true(o.seconds < FAST_S);
}

/* CMocka catches the segfault; the spinlock and its CPU are given back */
static void segfault_in_a_spinlock_fails_fast(void **state)
{
	struct outcome o;

	run_victim("spinlock-segv", &o);
	assert_true(o.seconds < FAST_S);
	if (UNDER_TSAN) {
		assert_true(WIFEXITED(o.status) && WEXITSTATUS(o.status) == 66);
		assert_printed(&o, "ThreadSanitizer");
		return;
	}
	assert_one_case_failed(&o);
	assert_printed(&o, "Segmentation fault");
	assert_printed(&o, "1 spinlock(s)");
}

/* the watchdog's SIGKILL ends a loop on fatal_signal_pending(); the case fails */
static void endless_killable_loop_ends_on_the_watchdogs_signal(void **state)
{
	struct outcome o;

	run_victim("loop-killable", &o);
	assert_one_case_failed(&o);
	assert_printed(&o, "tb watchdog: no progress");
	assert_printed(&o, "hung: the test ended only on the watchdog's SIGKILL");
	assert_true(o.seconds < FAST_S);
}

/* a loop no signal ends: every thread's backtrace, then abort */
static void endless_loop_aborts_with_every_threads_backtrace(void **state)
{
	struct outcome o;

	run_victim("loop-forever", &o);
	assert_true(WIFSIGNALED(o.status));
	assert_int_equal(WTERMSIG(o.status), SIGABRT);
	assert_printed(&o, "still no progress");
	if (!UNDER_TSAN)
		assert_printed(&o, "tb_victim_endless_loop");
	assert_true(o.seconds < FAST_S);
}

/*
 * The reclaim world (tests/reclaim/failfast_world_victim): a case that
 * fails holding a page cache folio's lock ends with its own assertion and
 * teardown names the lock; before, teardown's truncate waited on it until
 * the watchdog aborted the suite, the assertion never printed.
 */
#ifdef FAILFAST_WORLD_VICTIM
static void folio_left_locked_by_a_failed_case_is_named_and_taken_over(void **state)
{
	struct outcome o;

	run(FAILFAST_WORLD_VICTIM, "folio-locked", &o);
	assert_one_case_failed(&o);
	assert_printed(&o, "0x1 != 0x2");
	assert_printed(&o, "1 page cache folio(s) left locked by the test");
	assert_true(o.seconds < FAST_S);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(assertion_in_an_rcu_reader_fails_fast),
		cmocka_unit_test(segfault_in_a_spinlock_fails_fast),
		cmocka_unit_test(endless_killable_loop_ends_on_the_watchdogs_signal),
		cmocka_unit_test(endless_loop_aborts_with_every_threads_backtrace),
#ifdef FAILFAST_WORLD_VICTIM	/* tests/reclaim builds it */
		cmocka_unit_test(folio_left_locked_by_a_failed_case_is_named_and_taken_over),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
