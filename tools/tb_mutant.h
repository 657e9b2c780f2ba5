/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Included in every C file of the mutate build (tools/tb mutate): a mutant
 * schema holds many mutants of one kernel file, and tb_mutant(N) says
 * whether mutant N is the one this run switches on (TB_MUTANT=N; none
 * when unset). The file's own code never calls it.
 */
#ifndef TB_MUTANT_H
#define TB_MUTANT_H
char *getenv(const char *name);

static inline __attribute__((unused)) int tb_mutant(int id)
{
	/* read once per translation unit: the loop must not pay a getenv */
	static int selected = -1;

	if (selected < 0) {
		const char *s = getenv("TB_MUTANT");
		int v = 0;

		while (s && *s >= '0' && *s <= '9')
			v = v * 10 + *s++ - '0';
		selected = v;
	}
	return selected == id;
}
#endif
