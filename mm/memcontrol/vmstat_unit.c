// SPDX-License-Identifier: GPL-2.0-only
/* mm/vmstat.c's counter names, laid out by the real enums of this tree. */
#include <linux/mmzone.h>
#include <linux/vmstat.h>
#include KVMSTAT_EXTRACT
