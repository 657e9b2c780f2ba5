// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay_main.c - main() for replay_<target>: runs a fuzz harness's
 * LLVMFuzzerInitialize (when it has one) and then feeds every file named on
 * the command line, and every regular file of every directory named there
 * (in name order, not recursively; but *.txt, a triaged crash's report),
 * to LLVMFuzzerTestOneInput.  A missing
 * directory is skipped with a note, so an empty corpus or regress folder
 * is not an error.  Each input is named on stderr before it runs, so the
 * one that crashes is the last one printed.
 *
 * Modes (first argument):
 *   (none)      one world reused from input to input, as the fuzzers run
 *   --fresh     a fresh world per input (fz_fresh), as before the reuse
 *   --compare   proves the reuse: every input once in a fresh world, then
 *               all of them in one reused world in name order and again
 *               in reverse order; each run's digest (fz_digest: every
 *               operation's result and the state checked after it) must
 *               equal the fresh run's, else the input is named and the
 *               exit status is 1, unless the input is nondeterministic
 *               (named): the two runs agree on every operation before
 *               the first one that ran beside asynchronous work in
 *               either run (fuzz_world.h's operation log), or a fresh
 *               world gives the reused digest too, on one of up to 16
 *               more runs in this process or 32 in processes of their own
 *   --loops N   the reused world N times over the inputs, timed (inputs/s
 *               on stdout): the harness's cost without a fuzzer
 *   --digests   each input's digest and name on stdout (with --fresh: in
 *               a fresh world): to compare two versions of a harness
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "fuzz_world.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

struct input {
	char *path;
	uint8_t *data;
	size_t len;
};

static struct input *inputs;
static size_t nr_inputs, cap_inputs;
static bool quiet;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "replay: out of memory\n");
		exit(2);
	}
	return p;
}

static int load_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			buf = xrealloc(buf, cap);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	if (nr_inputs == cap_inputs) {
		cap_inputs = cap_inputs ? 2 * cap_inputs : 64;
		inputs = xrealloc(inputs, cap_inputs * sizeof(*inputs));
	}
	inputs[nr_inputs].path = strdup(path);
	inputs[nr_inputs].data = buf;
	inputs[nr_inputs++].len = len;
	return 0;
}

/* an exact-size copy, so ASan sees reads past the input's end */
static uint64_t run_input(const struct input *in)
{
	uint8_t *copy = xrealloc(NULL, in->len);

	if (!quiet)
		fprintf(stderr, "replay: %s (%zu bytes)%s\n", in->path, in->len,
			fz_fresh ? " fresh world" : "");
	memcpy(copy, in->data, in->len);
	fz_digest_value = 0xcbf29ce484222325ULL;
	fz_ops_reset();
	LLVMFuzzerTestOneInput(copy, in->len);
	free(copy);
	return fz_digest_value;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t nr = 0, cap = 0, i;
	int ret = 0;

	if (!d) {
		fprintf(stderr, "replay: %s: %s (skipped)\n", dir, strerror(errno));
		return 0;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		/* a triaged crash's report (crash-...txt) is not an input */
		if (e->d_name[0] == '.' || (n > 4 && !strcmp(e->d_name + n - 4, ".txt")))
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 64;
			names = xrealloc(names, cap * sizeof(*names));
		}
		names[nr] = xrealloc(NULL, strlen(dir) + strlen(e->d_name) + 2);
		sprintf(names[nr], "%s/%s", dir, e->d_name);
		nr++;
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), by_name);
	for (i = 0; i < nr; i++) {
		struct stat st;

		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && load_file(names[i]))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

/*
 * The fork server of --compare: a process forked before any world boots,
 * which forks a child per request that runs one input in the first world
 * of its process, as each child of AFL++'s fork server does. A race's
 * outcome in a process that has run worlds before (threads warm, works
 * queued on threads already running) can be far rarer than in a new one.
 */
static int srv_req = -1, srv_resp = -1;
static pid_t srv_pid;

static void server_loop(int req, int resp)
{
	size_t k;

	while (read(req, &k, sizeof(k)) == sizeof(k)) {
		uint64_t d = 0;
		int status = 1;
		pid_t pid = fork();

		if (pid == 0) {
			fz_fresh = true;
			d = run_input(&inputs[k]);
			if (write(resp, &d, sizeof(d)) != sizeof(d))
				_exit(2);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status) {
			/* the child died before answering: no digest */
			if (write(resp, &d, sizeof(d)) != sizeof(d))
				break;
		}
	}
	_exit(0);
}

static void server_start(void)
{
	int req[2], resp[2];

	if (pipe(req) || pipe(resp)) {
		perror("replay: pipe");
		exit(2);
	}
	fflush(NULL);
	srv_pid = fork();
	if (srv_pid < 0) {
		perror("replay: fork");
		exit(2);
	}
	if (srv_pid == 0) {
		close(req[1]);
		close(resp[0]);
		server_loop(req[0], resp[1]);
	}
	close(req[0]);
	close(resp[1]);
	srv_req = req[1];
	srv_resp = resp[0];
}

static void server_stop(void)
{
	if (srv_req < 0)
		return;
	close(srv_req);
	close(srv_resp);
	waitpid(srv_pid, NULL, 0);
	srv_req = srv_resp = -1;
}

/* input k's digest in the first world of a new process (0: it crashed) */
static uint64_t run_in_new_process(size_t k)
{
	uint64_t d = 0;

	if (write(srv_req, &k, sizeof(k)) != sizeof(k) ||
	    read(srv_resp, &d, sizeof(d)) != sizeof(d)) {
		fprintf(stderr, "replay: the fork server is gone\n");
		exit(2);
	}
	return d;
}

/*
 * A reused world's digest that a fresh world gives too, on some run: the
 * input is nondeterministic (threads race in the kernel code: e.g.
 * drain_all_stock()'s works against the writer's retry), not the reuse.
 */
static bool fresh_again(size_t k, uint64_t d)
{
	bool seen = false;
	int i;

	fz_fresh = true;
	for (i = 0; i < 16 && !seen; i++)
		seen = run_input(&inputs[k]) == d;
	fz_fresh = false;
	for (i = 0; i < 32 && !seen; i++)
		seen = run_in_new_process(k) == d;
	return seen;
}

/*
 * The operation before which the two runs' logs (fresh: a, reused: fz_ops)
 * agree and at which either ran beside asynchronous work: the runs parted
 * where the threads' timing may decide. FZ_MAX_OPS: they parted before
 * any such operation, or the harness logs none.
 */
static size_t parted_at_race(const struct fz_op_log *a)
{
	const struct fz_op_log *b = &fz_ops;
	size_t n = a->nr < b->nr ? a->nr : b->nr, j, r;

	if (!n)
		return FZ_MAX_OPS;
	for (j = 0; j < n && a->digest[j] == b->digest[j]; j++)
		;
	r = a->first_racy < b->first_racy ? a->first_racy : b->first_racy;
	return r <= j ? r : FZ_MAX_OPS;
}

static int compare(void)
{
	uint64_t *fresh = xrealloc(NULL, nr_inputs * sizeof(*fresh));
	struct fz_op_log *logs = xrealloc(NULL, nr_inputs * sizeof(*logs));
	size_t i, bad = 0, flaky = 0, raced = 0, r;
	int pass;

	fz_fresh = true;
	for (i = 0; i < nr_inputs; i++) {
		fresh[i] = run_input(&inputs[i]);
		logs[i] = fz_ops;
	}
	fz_fresh = false;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nr_inputs; i++) {
			size_t k = pass ? nr_inputs - 1 - i : i;
			uint64_t d = run_input(&inputs[k]);

			if (d == fresh[k])
				continue;
			r = parted_at_race(&logs[k]);
			if (r != FZ_MAX_OPS) {
				printf("nondeterministic: %s: the runs agree up to op %zu, which ran beside a work or RCU callback\n",
				       inputs[k].path, r);
				raced++;
				continue;
			}
			if (fresh_again(k, d)) {
				printf("nondeterministic: %s: a fresh world gives %016llx or %016llx\n",
				       inputs[k].path, (unsigned long long)fresh[k],
				       (unsigned long long)d);
				flaky++;
				continue;
			}
			printf("DIFFERS: %s: fresh world %016llx, reused world (%s order) %016llx\n",
			       inputs[k].path, (unsigned long long)fresh[k],
			       pass ? "reverse" : "name", (unsigned long long)d);
			bad++;
		}
	}
	free(fresh);
	free(logs);
	printf("compared %zu input(s) fresh vs reused (name and reverse order): %zu difference(s), "
	       "%zu nondeterministic (%zu parted at a raced op, %zu seen fresh)\n", nr_inputs, bad,
	       raced + flaky, raced, flaky);
	return bad ? -1 : 0;
}

static int loops(long n)
{
	struct timespec t0, t1;
	double s;
	long l;
	size_t i;

	quiet = true;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (l = 0; l < n; l++)
		for (i = 0; i < nr_inputs; i++)
			run_input(&inputs[i]);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%zu input(s) x %ld in %.3f s: %.0f inputs/s (%s world)\n", nr_inputs, n, s,
	       n * nr_inputs / (s > 0 ? s : 1e-9), fz_fresh ? "fresh" : "reused");
	return 0;
}

static void usage_error(const char *msg)
{
	fprintf(stderr, "replay: %s (usage: replay [--fresh] [--compare|--loops N|--digests] FILE|DIR...)\n", msg);
	exit(2);
}

int main(int argc, char **argv)
{
	int i = 1, ret = 0;
	bool cmp = false, digests = false;
	long nloops = 0;
	size_t k;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
		if (!strcmp(argv[i], "--fresh")) {
			fz_fresh = true;
		} else if (!strcmp(argv[i], "--digests")) {
			digests = true;
		} else if (!strcmp(argv[i], "--compare")) {
			cmp = true;
		} else if (!strcmp(argv[i], "--loops")) {
			char *end;

			if (++i == argc)
				usage_error("--loops needs a number");
			nloops = strtol(argv[i], &end, 10);
			if (*end || nloops <= 0)
				usage_error("--loops wants a positive number");
		} else {
			usage_error("unknown option");
		}
	}
	for (; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			ret |= load_dir(argv[i]);
		else if (stat(argv[i], &st) == 0)
			ret |= load_file(argv[i]);
		else
			fprintf(stderr, "replay: %s: %s (skipped)\n", argv[i], strerror(errno));
	}
	if (cmp) {
		server_start();
		ret |= compare();
		server_stop();
	}
	else if (nloops)
		ret |= loops(nloops);
	else
		for (k = 0; k < nr_inputs; k++) {
			uint64_t d = run_input(&inputs[k]);

			if (digests)
				printf("%016llx %s\n", (unsigned long long)d, inputs[k].path);
		}
	/* the last world goes with its own check: no leak at exit */
	if (fz_world_release)
		fz_world_release();
	printf("replayed %zu input(s)\n", nr_inputs);
	for (k = 0; k < nr_inputs; k++) {
		free(inputs[k].path);
		free(inputs[k].data);
	}
	free(inputs);
	return ret ? 1 : 0;
}
