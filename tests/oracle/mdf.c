// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest side of seed 001 (tools/tb oracle seed 001): the seed's
 * experiment, a task in a cgroup under memory.high that allocates 1 MB at
 * a time, writing one word of each page (a page fault each, and a return
 * to user mode after each, where the kernel enforces memory.high), and
 * prints the microseconds each MB took:
 *   mdf <cgroup name> <max MB>
 * prints "@@MDF <MB> <us>" per MB, then, still holding its memory, the
 * cgroup's memory.current and memory.stat as "@@STAT <key> <value>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "guest.h"

static void print_stat(const char *cg)
{
	char path[256], key[64];
	long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/memory.current", cg);
	f = fopen(path, "r");
	if (f && fscanf(f, "%lld", &v) == 1)
		printf("@@STAT current %lld\n", v);
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/memory.stat", cg);
	f = fopen(path, "r");
	while (f && fscanf(f, "%63s %lld", key, &v) == 2)
		printf("@@STAT %s %lld\n", key, v);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), mb, max_mb;
	long long t0;
	char *p;
	long i;

	if (argc != 3) {
		fprintf(stderr, "usage: mdf <cgroup> <max MB>\n");
		return 2;
	}
	enter_cgroup(argv[1]);
	max_mb = atol(argv[2]);
	for (mb = 1; mb <= max_mb; mb++) {
		t0 = now_us();
		p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		for (i = 0; i < (1 << 20); i += page)
			*(volatile long *)(p + i) = i;
		printf("@@MDF %ld %lld\n", mb, now_us() - t0);
		fflush(stdout);
	}
	print_stat(argv[1]);
	return 0;
}
