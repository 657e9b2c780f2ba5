// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay_main.c - main() for replay_<target>: runs a fuzz harness's
 * LLVMFuzzerInitialize (when it has one) and then feeds every file named on
 * the command line, and every regular file of every directory named there
 * (in name order, not recursively), to LLVMFuzzerTestOneInput.  A missing
 * directory is skipped with a note, so an empty corpus or regress folder
 * is not an error.  Each input is named on stderr before it runs, so the
 * one that crashes is the last one printed.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static unsigned long replayed;

static int replay_file(const char *path)
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
			buf = realloc(buf, cap);
			if (!buf) {
				fprintf(stderr, "replay: out of memory\n");
				exit(2);
			}
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
	/* an exact-size copy, so ASan sees reads past the input's end */
	{
		uint8_t *in = malloc(len ? len : 1);

		if (!in)
			exit(2);
		memcpy(in, buf, len);
		free(buf);
		LLVMFuzzerTestOneInput(in, len);
		free(in);
	}
	replayed++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir)
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
		if (e->d_name[0] == '.')
			continue;
		if (nr == cap) {
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				exit(2);
		}
		names[nr] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		if (!names[nr])
			exit(2);
		sprintf(names[nr], "%s/%s", dir, e->d_name);
		nr++;
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), by_name);
	for (i = 0; i < nr; i++) {
		struct stat st;

		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && replay_file(names[i]))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			ret |= replay_dir(argv[i]);
		else if (stat(argv[i], &st) == 0)
			ret |= replay_file(argv[i]);
		else
			fprintf(stderr, "replay: %s: %s (skipped)\n", argv[i], strerror(errno));
	}
	printf("replayed %lu input(s)\n", replayed);
	return ret ? 1 : 0;
}
