// SPDX-License-Identifier: GPL-2.0-only
/*
 * Boot options and cgroup2 mount options, taken as the kernel takes them:
 * "cgroup.memory=" goes to memcontrol.c's own __setup handler,
 * "cgroup_disable=memory" turns the memory controller's static key off
 * (kernel/cgroup/cgroup.c's cgroup_disable()); memory_localevents and
 * memory_recursiveprot set the default hierarchy's root flags, as
 * cgroup2_parse_param() does. Anything else is refused with one line.
 */
#include <linux/kernel.h>
#include <linux/cgroup.h>
#include <linux/jump_label.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <kshim/memcg_tb.h>
#include <linux/mm.h>
#include <kshim/reclaim.h>

/* mm/memcontrol.c (globalized __setup handler) */
int cgroup_memory(char *s);

/* apply: false only checks, so a bad command line changes nothing */
static int boot_option(char *opt, bool apply)
{
	int err;

	if (!strncmp(opt, "cgroup.memory=", 14)) {
		if (apply)
			cgroup_memory(opt + 14);
		return 0;
	}
	if (!strcmp(opt, "cgroup_disable=memory")) {
		if (apply)
			static_branch_disable(&memory_cgrp_subsys_enabled_key);
		return 0;
	}
	err = tb_thp_boot_option(opt, apply);
	if (err != -ENOENT)
		return err;
	fprintf(stderr, "tb: unknown boot option '%s' (known: cgroup.memory=nokmem|nosocket|nobpf, "
		"cgroup_disable=memory, transparent_hugepage=always|madvise|never, thp_anon=)\n", opt);
	return -EINVAL;
}

static int parse_cmdline(const char *cmdline, bool apply)
{
	char *buf = kstrdup(cmdline, GFP_KERNEL), *s = buf, *opt;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (!err && (opt = strsep(&s, " ")))
		if (*opt)
			err = boot_option(opt, apply);
	kfree(buf);
	return err;
}

int tb_boot_cmdline(const char *cmdline)
{
	return parse_cmdline(cmdline, false) ?: parse_cmdline(cmdline, true);
}

static int mount_options(const char *opts, unsigned int *flags)
{
	char *buf = kstrdup(opts, GFP_KERNEL), *s = buf, *opt;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	while (!err && (opt = strsep(&s, ","))) {
		if (!*opt)
			continue;
		if (!strcmp(opt, "memory_localevents")) {
			*flags |= CGRP_ROOT_MEMORY_LOCAL_EVENTS;
		} else if (!strcmp(opt, "memory_recursiveprot")) {
			*flags |= CGRP_ROOT_MEMORY_RECURSIVE_PROT;
		} else {
			fprintf(stderr, "cgroup2: Unknown parameter '%s'\n", opt);
			err = -EINVAL;
		}
	}
	kfree(buf);
	return err;
}

int tb_cgroup_mount_options(const char *opts)
{
	unsigned int flags = 0;
	int err = mount_options(opts, &flags);

	if (!err)
		cgrp_dfl_root.flags |= flags;
	return err;
}
