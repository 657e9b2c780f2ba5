/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_SLAB_H
#define _KSHIM_LINUX_SLAB_H
/*
 * kmalloc family and kmem_cache on the C heap (ASan/LSan see every
 * object), each allocation a fault-injection point with its call site.
 */
#include <linux/types.h>
#include <linux/gfp.h>
#include <linux/overflow.h>
#include <kshim/fault.h>

#define KSHIM_SITE __FILE__, __LINE__, __func__
void *kshim_kmalloc(size_t size, gfp_t gfp, const char *file, int line, const char *func);
void *kshim_kvmalloc(size_t size, gfp_t gfp, const char *file, int line, const char *func);
void kshim_kfree(const void *p);
size_t kshim_ksize(const void *p);
unsigned long kshim_slab_live(void);
/*
 * Allocations so far that the kernel's slab charges to the current
 * memcg's obj_cgroup (__GFP_ACCOUNT, or a SLAB_ACCOUNT cache): the shim
 * charges nothing, it counts them, so a test sees which allocations ask.
 */
unsigned long kshim_slab_charged_allocs(void);
/* failed allocations that reported themselves (without __GFP_NOWARN) */
unsigned long kshim_slab_fail_warnings(void);

#define kmalloc(size, gfp) kshim_kmalloc(size, gfp, KSHIM_SITE)
#define kzalloc(size, gfp) kmalloc(size, (gfp) | __GFP_ZERO)
#define kmalloc_node(size, gfp, node) kmalloc(size, gfp)
#define kzalloc_node(size, gfp, node) kzalloc(size, gfp)
#define kmalloc_array(n, size, gfp) kmalloc(size_mul(n, size), gfp)
#define kmalloc_array_node(n, size, gfp, node) kmalloc_array(n, size, gfp)
#define kcalloc(n, size, gfp) kmalloc_array(n, size, (gfp) | __GFP_ZERO)
#define kcalloc_node(n, size, gfp, node) kcalloc(n, size, gfp)
#define kvmalloc(size, gfp) kshim_kvmalloc(size, gfp, KSHIM_SITE)
#define kvzalloc(size, gfp) kvmalloc(size, (gfp) | __GFP_ZERO)
#define kvmalloc_node(size, gfp, node) kvmalloc(size, gfp)
#define kvzalloc_node(size, gfp, node) kvzalloc(size, gfp)
#define kvmalloc_array(n, size, gfp) kvmalloc(size_mul(n, size), gfp)
#define kvcalloc(n, size, gfp) kvmalloc_array(n, size, (gfp) | __GFP_ZERO)
#define kfree(p) kshim_kfree(p)
#define kvfree(p) kshim_kfree(p)
#define kfree_sensitive(p) kshim_kfree(p)
#define kvfree_sensitive(p, len) kshim_kfree(p)
#define kfree_const(p) kshim_kfree(p)
#define ksize(p) kshim_ksize(p)
#define krealloc(p, size, gfp) kshim_krealloc(p, size, gfp, KSHIM_SITE)
void *kshim_krealloc(const void *p, size_t size, gfp_t gfp, const char *file, int line, const char *func);

#define SLAB_HWCACHE_ALIGN 0x00002000U
#define SLAB_PANIC 0x00040000U
#define SLAB_ACCOUNT 0x04000000U
#define SLAB_RECLAIM_ACCOUNT 0x00020000U
#define SLAB_TYPESAFE_BY_RCU 0x00080000U
#define SLAB_MEM_SPREAD 0
#define KMALLOC_MAX_SIZE (1UL << 25)

struct kmem_cache {
	const char *name;
	size_t size;
	size_t align;
	slab_flags_t flags;
	void (*ctor)(void *);
	long live;	/* objects allocated and not freed */
};
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size, unsigned int align,
				     slab_flags_t flags, void (*ctor)(void *));
void kmem_cache_destroy(struct kmem_cache *s);
void *kshim_kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp, const char *file, int line, const char *func);
void kmem_cache_free(struct kmem_cache *s, void *obj);
#define kmem_cache_alloc(s, gfp) kshim_kmem_cache_alloc(s, gfp, KSHIM_SITE)
#define kmem_cache_zalloc(s, gfp) kmem_cache_alloc(s, (gfp) | __GFP_ZERO)
#define kmem_cache_alloc_node(s, gfp, node) kmem_cache_alloc(s, gfp)
/* the xa_node's list_lru (workingset shadow nodes) plays no part here */
#define kmem_cache_alloc_lru(s, lru, gfp) kmem_cache_alloc(s, gfp)
#define KMEM_CACHE(__struct, __flags) kmem_cache_create(#__struct, sizeof(struct __struct), \
	__alignof__(struct __struct), (__flags), NULL)
/* the tree's typed wrappers over these allocators (7.0's kzalloc_obj()...) */
#include <linux/overflow.h>
#include <kgen/slab.h>
#endif
