// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_memcg_high_sync's scenario as the selftest runs it (inotify on
 * memory.events, poll, then read), with a thread sampling memory.events
 * meanwhile: when the first high and the first max event came, when the
 * reader woke and what it read (NO_SAMPLER=1: no sampling thread). Built
 * static and run in a guest of tools/tb vm (docs/fidelity.md, "7.3"):
 *   gcc -O2 -static -pthread -o high_sync_timeline high_sync_timeline.c
 *   TB_BUILD_DIR=build/linux-7.3 tools/tb vm --kernel 7.3 --swap 256 \
 *     --cmdline transparent_hugepage=always --put high_sync_timeline -- \
 *     'echo y > /sys/kernel/mm/lru_gen/enabled; ./high_sync_timeline'
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <time.h>
#include <poll.h>
#include <pthread.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define CG "/sys/fs/cgroup/hs2"

static double t0, t_high, t_max;
static volatile int done;

static void wr(const char *f, const char *v)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), CG "/%s", f);
	fd = open(p, O_WRONLY);
	if (fd < 0 || write(fd, v, strlen(v)) < 0) {
		perror(p);
		exit(1);
	}
	close(fd);
}

static long key(const char *f, const char *k)
{
	char p[256], buf[4096], *s;
	int fd, n;

	snprintf(p, sizeof(p), CG "/%s", f);
	fd = open(p, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (!k)
		return atol(buf);
	s = strstr(buf, k);
	return s ? atol(s + strlen(k)) : -1;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec + t.tv_nsec / 1e9 - t0) * 1e3;
}

static void *sampler(void *arg)
{
	while (!done) {
		if (!t_high && key("memory.events", "high ") > 0)
			t_high = now();
		if (!t_max && key("memory.events", "max ") > 0)
			t_max = now();
		usleep(500);
	}
	return NULL;
}

int main(void)
{
	struct pollfd fds;
	pthread_t th;
	double t_wake;
	long h, m, cur;
	int pid, st, fd;
	char pidbuf[32];

	rmdir(CG);
	mkdir(CG, 0755);
	wr("memory.swap.max", "0");
	wr("memory.high", "30M");
	wr("memory.max", "140M");
	fd = inotify_init1(0);
	inotify_add_watch(fd, CG "/memory.events", IN_MODIFY);
	t0 = 0;
	t0 = now() / 1e3;
	if (!getenv("NO_SAMPLER"))
		pthread_create(&th, NULL, sampler, NULL);
	pid = fork();
	if (!pid) {
		size_t size = 200UL << 20;
		void *buf;

		snprintf(pidbuf, sizeof(pidbuf), "%d", getpid());
		wr("cgroup.procs", pidbuf);
		buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANON, 0, 0);
		mlock(buf, size);
		munmap(buf, size);
		_exit(0);
	}
	fds.fd = fd;
	fds.events = POLLIN;
	while (poll(&fds, 1, 10000) <= 0)
		;
	t_wake = now();
	h = key("memory.events", "high ");
	m = key("memory.events", "max ");
	cur = key("memory.current", NULL);
	waitpid(pid, &st, 0);
	done = 1;
	if (!getenv("NO_SAMPLER"))
		pthread_join(th, NULL);
	printf("@@HS2 %s first high %.1f ms, first max %.1f ms, reader woke %.1f ms and read high %ld max %ld current %ld KiB\n",
	       m ? "FAIL" : "pass", t_high, t_max, t_wake, h, m, cur >> 10);
	rmdir(CG);
	return 0;
}
