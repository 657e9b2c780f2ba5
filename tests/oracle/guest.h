/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the oracle's guest programs (usemem.c, mdf.c, randrw.c) share: they
 * are static binaries for the busybox guest of tools/tb vm, one file each
 * plus this header.
 */
#ifndef TB_ORACLE_GUEST_H
#define TB_ORACLE_GUEST_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* move this process into /sys/fs/cgroup/<name>, or exit(1) with the reason */
static inline void enter_cgroup(const char *name)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/cgroup.procs", name);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

static inline long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}
#endif
