/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_IDR_H
#define _KSHIM_LINUX_IDR_H
/*
 * The shim's IDR (not lib/idr.c): ids in a slot array that grows by RCU
 * replacement, so idr_find() under rcu_read_lock() is safe against a
 * concurrent idr_alloc() exactly as with the real radix tree.
 */
#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/rcupdate.h>
#include <linux/err.h>
struct kshim_idr_slots;
struct idr {
	struct kshim_idr_slots __rcu *slots;
	unsigned int idr_base;
	unsigned int idr_next;
};
#define IDR_INIT(name) { .slots = NULL, .idr_base = 0, .idr_next = 0 }
#define DEFINE_IDR(name) struct idr name = IDR_INIT(name)
int kshim_idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp,
		    const char *file, int line, const char *func);
#define idr_alloc(idr, ptr, start, end, gfp) kshim_idr_alloc(idr, ptr, start, end, gfp, \
	__FILE__, __LINE__, __func__)
#define idr_alloc_cyclic(idr, ptr, start, end, gfp) idr_alloc(idr, ptr, start, end, gfp)
void *idr_find(const struct idr *idr, unsigned long id);
void *idr_remove(struct idr *idr, unsigned long id);
void *idr_replace(struct idr *idr, void *ptr, unsigned long id);
void *idr_get_next(struct idr *idr, int *nextid);
void idr_init(struct idr *idr);
void idr_destroy(struct idr *idr);
bool idr_is_empty(const struct idr *idr);
static inline void idr_preload(gfp_t gfp) { (void)gfp; }
static inline void idr_preload_end(void) { }
#define idr_for_each_entry(idr, entry, id) \
	for (id = 0; ((entry) = idr_get_next(idr, &(id))) != NULL; id += 1U)
#endif
