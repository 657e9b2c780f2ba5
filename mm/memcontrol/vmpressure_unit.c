// SPDX-License-Identifier: GPL-2.0-only
/* mm/vmpressure.c: per-memcg state and the pressure reclaim reports. */
#include <linux/vmpressure.h>
#include <linux/memcontrol.h>
#include <linux/swap.h>
#include <linux/bug.h>
#include <linux/eventfd.h>
#include KVMPRESSURE_EXTRACT
