/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_NODE_H
#define _KSHIM_LINUX_NODE_H
/*
 * The node notifier (kgen/node.h, the tree's, on trees that have it):
 * the world's hotplug calls it (kernel-shim/world/tiers.c)
 */
#include <linux/init.h>
#include <linux/notifier.h>
#include <kgen/node.h>
#endif
