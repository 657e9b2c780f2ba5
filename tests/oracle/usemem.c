// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest side of the seed experiments (tools/tb oracle seed): a
 * usemem-like task that maps SIZE bytes of anonymous memory, writes one
 * word of every page (the first pass), then reads one word of every page
 * again (the read-again pass), and prints each pass's KB/s and the major
 * faults it took, as the world's seed programs count them:
 *   usemem <cgroup name> <bytes>
 * prints "@@USEMEM <name> <bytes> <write_us> <read_us> <write_majflt> <read_majflt>".
 * It moves itself into /sys/fs/cgroup/<name> first, so that the whole
 * task, and nothing before it, is charged there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "guest.h"

static long majflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_majflt;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), m0, m1, m2;
	unsigned long size, i, sum = 0;
	volatile unsigned long *p;
	long long t0, t1, t2;
	char *buf;

	if (argc != 3) {
		fprintf(stderr, "usage: usemem <cgroup> <bytes>\n");
		return 2;
	}
	enter_cgroup(argv[1]);
	size = strtoul(argv[2], NULL, 10);
	buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	m0 = majflt();
	t0 = now_us();
	for (i = 0; i < size; i += page) {
		p = (volatile unsigned long *)(buf + i);
		*p = i;
	}
	t1 = now_us();
	m1 = majflt();
	for (i = 0; i < size; i += page) {
		p = (volatile unsigned long *)(buf + i);
		sum += *p;
	}
	t2 = now_us();
	m2 = majflt();
	printf("@@USEMEM %s %lu %lld %lld %ld %ld %lu\n", argv[1], size, t1 - t0, t2 - t1,
	       m1 - m0, m2 - m1, sum & 1);
	return 0;
}
