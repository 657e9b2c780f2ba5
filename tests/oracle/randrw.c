// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest side of seed 002 (tools/tb oracle seed 002): one memcg's task
 * of Yu Zhao's method for the memcg LRU (fio --rw=randrw --rate=64m,64m
 * over a mapping of its own), as the world's seed_002 runs it: every page
 * written once (the world's populate(): fio's /dev/zero mapping is shmem,
 * where a read allocates a page too, where a private mapping would map the
 * zero page), then each round of ROUND_MS, ACCESSES random 4 KiB accesses
 * over PAGES pages of private anonymous memory, half of them writes, then
 * a sleep to the round's end; until killed.
 *   randrw <cgroup name> <pages> <accesses per round> <round ms> <seed>
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "guest.h"

static uint64_t next(uint64_t *s)
{
	/* xorshift64*: any uniform source will do */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), pages, accesses, round_ms, i;
	volatile char *buf;
	long long end;
	uint64_t rng;

	if (argc != 6) {
		fprintf(stderr, "usage: randrw <cgroup> <pages> <accesses/round> <round ms> <seed>\n");
		return 2;
	}
	enter_cgroup(argv[1]);
	pages = atol(argv[2]);
	accesses = atol(argv[3]);
	round_ms = atol(argv[4]);
	rng = 0x9E3779B97F4A7C15ULL * (strtoull(argv[5], NULL, 10) + 1);
	buf = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (i = 0; i < pages; i++)
		buf[i * page] = 1;
	for (;;) {
		end = now_us() / 1000 + round_ms;
		for (i = 0; i < accesses; i++) {
			long p = next(&rng) % pages;

			if (i & 1)
				buf[p * page] = (char)i;
			else
				(void)buf[p * page];
		}
		while (now_us() / 1000 < end)
			usleep((end - now_us() / 1000) * 1000);
	}
}
