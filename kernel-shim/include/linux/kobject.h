/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KOBJECT_H
#define _KSHIM_LINUX_KOBJECT_H
/* The kobjects sysfs directories hang from: a name and a parent. */
#include <linux/types.h>
#include <linux/sysfs.h>
struct kobject {
	const char *name;
	struct kobject *parent;
};
struct kobj_attribute {
	struct attribute attr;
	ssize_t (*show)(struct kobject *kobj, struct kobj_attribute *attr, char *buf);
	ssize_t (*store)(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count);
};
extern struct kobject *kernel_kobj;	/* /sys/kernel */
extern struct kobject *mm_kobj;		/* /sys/kernel/mm */
/* a directory under parent (kernel-shim/kernfs.c): the same one each boot */
struct kobject *kobject_create_and_add(const char *name, struct kobject *parent);
void kobject_put(struct kobject *kobj);
#endif
