/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_ZSWAP_H
#define _KSHIM_LINUX_ZSWAP_H
/* !CONFIG_ZSWAP: the lruvec's zswap state is empty, as in the real header */
#include <linux/types.h>
struct zswap_lruvec_state {
};
struct lruvec;
struct mem_cgroup;
static inline void zswap_lruvec_state_init(struct lruvec *lruvec)
{
}
static inline void zswap_memcg_offline_cleanup(struct mem_cgroup *memcg)
{
}
/* no zswap: a large folio's slots are all on the device (mm/memory.c's swap-in) */
static inline bool zswap_never_enabled(void)
{
	return true;
}
#endif
