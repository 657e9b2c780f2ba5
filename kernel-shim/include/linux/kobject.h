/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_KOBJECT_H
#define _KSHIM_LINUX_KOBJECT_H
/* The kobjects sysfs directories hang from: a name and a parent. */
#include <linux/types.h>
#include <linux/sysfs.h>
struct kobj_type;
struct kobject {
	const char *name;
	struct kobject *parent;
	const struct kobj_type *ktype;	/* a kobject_init_and_add() one's */
};
/* show and store as sysfs dispatches them: none here, kernfs.c calls the attribute's */
struct sysfs_ops {
	int kshim_unused;
};
struct kobj_type {
	void (*release)(struct kobject *kobj);
	const struct sysfs_ops *sysfs_ops;
};
/* lib/kobject.c's: a kobj_attribute's show and store (kernfs.c calls them) */
extern const struct sysfs_ops kobj_sysfs_ops;
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
/* a directory of its own for a kobject the caller embeds; kobject_put() releases it */
__printf(4, 5) int kobject_init_and_add(struct kobject *kobj, const struct kobj_type *ktype,
					struct kobject *parent, const char *fmt, ...);
#endif
