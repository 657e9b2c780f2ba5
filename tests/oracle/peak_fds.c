// SPDX-License-Identifier: GPL-2.0-only
/*
 * On the real kernel (tools/tb vm), the scenario of the test bed's
 * test_peak_other_fd_reset_lowers_peak: memory.peak file A is reset, the
 * group peaks at 200 pages (tmpfs pages written by a child in the group),
 * drops to 100, file B is reset; then A is read. cgroup-v2.rst says a
 * reset affects only reads through the same file, so A should still read
 * at least 200 pages.
 *   peak_fds <cgroup dir> <tmpfs file>
 * prints "@@PEAK current=<bytes> A=<bytes> B=<bytes>".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static long rd(int fd)
{
	char buf[64] = "";

	if (pread(fd, buf, sizeof(buf) - 1, 0) < 0)
		return -1;
	return atol(buf);
}

static long rd_path(const char *dir, const char *file)
{
	char path[256];
	int fd;
	long v;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	v = rd(fd);
	close(fd);
	return v;
}

static int open_reset(const char *dir)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/memory.peak", dir);
	fd = open(path, O_RDWR);
	if (fd < 0 || write(fd, "reset\n", 6) != 6) {
		perror(path);
		exit(1);
	}
	return fd;
}

int main(int argc, char **argv)
{
	static char page[4096];
	char procs[256];
	int a, b, f, i;
	FILE *p;

	if (argc != 3)
		return 2;
	a = open_reset(argv[1]);
	if (fork() == 0) {
		snprintf(procs, sizeof(procs), "%s/cgroup.procs", argv[1]);
		p = fopen(procs, "w");
		fprintf(p, "%d\n", getpid());
		fclose(p);
		f = open(argv[2], O_CREAT | O_WRONLY | O_TRUNC, 0600);
		for (i = 0; i < 200; i++)
			if (write(f, page, sizeof(page)) != sizeof(page))
				_exit(1);
		_exit(close(f));
	}
	wait(NULL);
	if (truncate(argv[2], 100 * 4096))
		return 1;
	b = open_reset(argv[1]);
	printf("@@PEAK current=%ld A=%ld B=%ld\n", rd_path(argv[1], "memory.current"), rd(a),
	       rd(b));
	return 0;
}
