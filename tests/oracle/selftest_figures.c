// SPDX-License-Identifier: GPL-2.0-only
/*
 * Linked into the kernel's own cgroup selftests (tools/testing/selftests/
 * cgroup, built as kselftest builds them) with -Wl,--wrap for the readers
 * of cgroup_util.c: every figure a test reads from a control file is also
 * written to stdout as
 *   @@FIG <cgroup, relative to the cgroup2 root> <file> <key or -> <value>
 * so that tools/tb oracle can set each figure beside the world's port of
 * the same case. cg_read_long_fd() is wrapped where cgroup_util.h has it
 * (6.12's peak tests; tools/tb oracle passes -DTB_WRAP_FD then). The selftest itself is not changed: calls inside
 * cgroup_util.c are not wrapped (--wrap only redirects undefined
 * references), only the tests' own reads are.
 *
 * cg_run() is wrapped too, for one piece of context the selftest never
 * reads: before test_memcg_min/low's allocator runs in memcg_test_2, the
 * page cache each child_memcg_N holds is written as
 *   @@PRE <child cgroup> memory.current <value>
 * (its three writers share one file description, so the fill is uneven
 * and differs from run to run; with the multi-gen LRU it decides how the
 * children's protection ends up split), and after it A's subtree by
 * memory.stat item as @@POST lines; the same of the cgroup whose
 * memory.events max a test reads.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

long __real_cg_read_long(const char *cgroup, const char *control);
long __real_cg_read_key_long(const char *cgroup, const char *control, const char *key);
#ifdef TB_WRAP_FD
long __real_cg_read_long_fd(int fd);
#endif
int __real_cg_run(const char *cgroup, int (*fn)(const char *cgroup, void *arg), void *arg);

static const char *relative(const char *path)
{
	static const char root[] = "/sys/fs/cgroup/";

	return strncmp(path, root, sizeof(root) - 1) ? path : path + sizeof(root) - 1;
}

static void figure(const char *cgroup, const char *control, const char *key, long value)
{
	char k[64];
	size_t n;

	snprintf(k, sizeof(k), "%s", key && *key ? key : "-");
	n = strlen(k);
	/* the selftests pass keys with their trailing space ("anon ") */
	while (n && k[n - 1] == ' ')
		k[--n] = '\0';
	fflush(stdout);
	printf("@@FIG %s %s %s %ld\n", relative(cgroup), control, k, value);
	fflush(stdout);
}

long __wrap_cg_read_long(const char *cgroup, const char *control)
{
	long v = __real_cg_read_long(cgroup, control);

	figure(cgroup, control, NULL, v);
	return v;
}

static void post_stat(const char *cg);

long __wrap_cg_read_key_long(const char *cgroup, const char *control, const char *key)
{
	long v = __real_cg_read_key_long(cgroup, control, key);

	figure(cgroup, control, key, v);
	/* a test's memory.events max: what the charges over max led to, by memory.stat item */
	if (!strcmp(control, "memory.events") && key && !strncmp(key, "max", 3)) {
		fflush(stdout);
		post_stat(cgroup);
		fflush(stdout);
	}
	return v;
}

#ifdef TB_WRAP_FD
/* a kept handle (6.12's peak tests): its file's name from /proc/self/fd, with "(fd)" */
long __wrap_cg_read_long_fd(int fd)
{
	char link[64], path[PATH_MAX], dir[PATH_MAX], *slash;
	long v = __real_cg_read_long_fd(fd);
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	snprintf(link, sizeof(link), "%s(fd)", slash ? slash + 1 : "?");
	figure(dir, link, NULL, v);
	return v;
}
#endif

/* the children's page cache before the protection tests' allocator runs */
static void children_fill(const char *cgroup)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	char *slash;
	long v;
	int i;

	snprintf(dir, sizeof(dir), "%s", cgroup);
	slash = strrchr(dir, '/');
	if (!slash || strcmp(slash, "/memcg_test_2"))
		return;
	*slash = '\0';
	for (i = 0; i < 3; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/memcg_test_1/child_memcg_%d/memory.current", dir, i);
		f = fopen(path, "r");
		if (!f)
			return;
		if (fscanf(f, "%ld", &v) == 1) {
			*strrchr(path, '/') = '\0';
			fflush(stdout);
			printf("@@PRE %s memory.current - %ld\n", relative(path), v);
			fflush(stdout);
		}
		fclose(f);
	}
}

/*
 * After that allocator: what each cgroup of A's subtree holds, by
 * memory.stat item, written as
 *   @@POST <cgroup> memory.stat <key> <value>
 * (where the selftest's memory.current of A/B and of its children comes
 * from: page cache, anon, and the kernel memory the world does not charge)
 */
static const char *const post_keys[] = {
	"anon", "file", "kernel", "kernel_stack", "pagetables", "percpu", "sock",
	"slab", "slab_reclaimable", "slab_unreclaimable", "file_mapped", "shmem",
	"inactive_file", "active_file", "inactive_anon", "active_anon",
	"swapcached", "pgscan", "pgsteal", "pswpout", "pgfault", "pgmajfault",
	"zswap", "zswapped", "zswpout", "pgscan_direct", "pgsteal_direct",
};

static void post_stat(const char *cg)
{
	char path[PATH_MAX + 64], key[64];
	long v;
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s/memory.current", cg);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fscanf(f, "%ld", &v) == 1)
		printf("@@POST %s memory.current - %ld\n", relative(cg), v);
	fclose(f);
	snprintf(path, sizeof(path), "%s/memory.stat", cg);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		for (i = 0; i < sizeof(post_keys) / sizeof(post_keys[0]); i++)
			if (!strcmp(key, post_keys[i]))
				printf("@@POST %s memory.stat %s %ld\n", relative(cg), key, v);
	fclose(f);
}

static void subtree_after(const char *cgroup)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	char *slash;
	int i;

	snprintf(dir, sizeof(dir), "%s", cgroup);
	slash = strrchr(dir, '/');
	if (!slash || strcmp(slash, "/memcg_test_2"))
		return;
	*slash = '\0';
	fflush(stdout);
	post_stat(dir);
	snprintf(path, sizeof(path), "%s/memcg_test_1", dir);
	post_stat(path);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/memcg_test_1/child_memcg_%d", dir, i);
		post_stat(path);
	}
	snprintf(path, sizeof(path), "%s/memcg_test_2", dir);
	post_stat(path);
	fflush(stdout);
}

int __wrap_cg_run(const char *cgroup, int (*fn)(const char *cgroup, void *arg), void *arg)
{
	int ret;

	children_fill(cgroup);
	ret = __real_cg_run(cgroup, fn, arg);
	subtree_after(cgroup);
	return ret;
}
