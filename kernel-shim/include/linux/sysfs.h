/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SYSFS_H
#define _KSHIM_LINUX_SYSFS_H
/*
 * sysfs attribute groups (kernel-shim/kernfs.c): a group registered under
 * a kobject is read and written by path through its show/store
 * (tb_sysfs_read/tb_sysfs_write, kshim/testbed.h).
 */
#include <linux/types.h>
#include <linux/compiler.h>
struct kobject;
struct attribute {
	const char *name;
	umode_t mode;
};
struct attribute_group {
	const char *name;
	struct attribute **attrs;
};
#define __ATTR(_name, _mode, _show, _store) \
	{ .attr = { .name = __stringify(_name), .mode = (_mode) }, .show = _show, .store = _store }
#define __ATTR_RW(_name) __ATTR(_name, 0644, _name##_show, _name##_store)
#define __ATTR_RO(_name) __ATTR(_name, 0444, _name##_show, NULL)
#define __ATTR_WO(_name) __ATTR(_name, 0200, NULL, _name##_store)
int sysfs_create_group(struct kobject *kobj, const struct attribute_group *grp);
/* a named group's files into its existing directory; their removal */
int sysfs_merge_group(struct kobject *kobj, const struct attribute_group *grp);
void sysfs_remove_group(struct kobject *kobj, const struct attribute_group *grp);
__printf(2, 3) int sysfs_emit(char *buf, const char *fmt, ...);
__printf(3, 4) int sysfs_emit_at(char *buf, int at, const char *fmt, ...);
#endif
