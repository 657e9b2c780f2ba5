/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_DEVICE_H
#define _KSHIM_LINUX_DEVICE_H
/*
 * The driver core as far as memory tiers use it: a device registered on a
 * virtual bus, released at its last put. No sysfs directory is made for
 * it (the world has no /sys/devices).
 */
#include <linux/types.h>
#include <linux/sysfs.h>

struct device;
struct bus_type {
	const char *name;
	const char *dev_name;
};
struct device {
	u32 id;
	const struct bus_type *bus;
	const struct attribute_group **groups;
	void (*release)(struct device *dev);
};
struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count);
};
#define DEVICE_ATTR_RO(_name) struct device_attribute dev_attr_##_name = __ATTR_RO(_name)

static inline int subsys_virtual_register(const struct bus_type *subsys,
					  const struct attribute_group **groups)
{
	return 0;
}
static inline int device_register(struct device *dev)
{
	return 0;
}
static inline void put_device(struct device *dev)
{
	dev->release(dev);
}
static inline void device_unregister(struct device *dev)
{
	put_device(dev);
}
#endif
