// SPDX-License-Identifier: GPL-2.0-only
/*
 * The shim's IDR. Lookups are lock-free under RCU: the slot array is
 * replaced (never resized in place) and the old one freed after a grace
 * period. The array is freed when the IDR empties, as the radix tree
 * frees its nodes, so a static IDR leaves nothing behind at teardown.
 * Writers are serialized by the caller in the kernel; a private lock
 * here costs nothing and keeps misuse from corrupting the test bed.
 */
#include <linux/idr.h>
#include <linux/slab.h>

struct kshim_idr_slots {
	struct rcu_head rcu;
	unsigned long nr;
	unsigned long used;
	void *ptr[];
};

static pthread_mutex_t idr_lock = PTHREAD_MUTEX_INITIALIZER;

void idr_init(struct idr *idr)
{
	memset(idr, 0, sizeof(*idr));
}

static struct kshim_idr_slots *idr_slots(const struct idr *idr)
{
	return rcu_dereference_raw(((struct idr *)idr)->slots);
}

static int idr_grow(struct idr *idr, unsigned long need, gfp_t gfp, const char *file, int line,
		    const char *func)
{
	struct kshim_idr_slots *old = idr_slots(idr), *new;
	unsigned long nr = old ? old->nr : 0, newnr = nr ? nr : 16;

	while (newnr < need)
		newnr *= 2;
	new = kshim_kmalloc(sizeof(*new) + newnr * sizeof(void *), gfp | __GFP_ZERO, file, line,
			    func);
	if (!new)
		return -ENOMEM;
	new->nr = newnr;
	if (old) {
		memcpy(new->ptr, old->ptr, nr * sizeof(void *));
		new->used = old->used;
	}
	rcu_assign_pointer(idr->slots, new);
	if (old)
		kvfree_rcu(old, rcu);
	return 0;
}

int kshim_idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp,
		    const char *file, int line, const char *func)
{
	struct kshim_idr_slots *s;
	unsigned long id, limit = end > 0 ? (unsigned long)end : (unsigned long)INT_MAX + 1;
	int ret;

	if (WARN_ON_ONCE(start < 0))
		return -EINVAL;
	pthread_mutex_lock(&idr_lock);
	s = idr_slots(idr);
	for (id = start; s && id < s->nr && id < limit; id++)
		if (!s->ptr[id])
			break;
	if (id >= limit) {
		ret = -ENOSPC;
		goto out;
	}
	if (!s || id >= s->nr) {
		ret = idr_grow(idr, id + 1, gfp, file, line, func);
		if (ret)
			goto out;
		s = idr_slots(idr);
	}
	rcu_assign_pointer(s->ptr[id], ptr);
	s->used++;
	ret = id;
out:
	pthread_mutex_unlock(&idr_lock);
	return ret;
}

void *idr_find(const struct idr *idr, unsigned long id)
{
	struct kshim_idr_slots *s = idr_slots(idr);

	if (!s || id >= s->nr)
		return NULL;
	return rcu_dereference_raw(s->ptr[id]);
}

void *idr_remove(struct idr *idr, unsigned long id)
{
	struct kshim_idr_slots *s;
	void *p = NULL;

	pthread_mutex_lock(&idr_lock);
	s = idr_slots(idr);
	if (s && id < s->nr && s->ptr[id]) {
		p = s->ptr[id];
		rcu_assign_pointer(s->ptr[id], NULL);
		if (--s->used == 0) {
			rcu_assign_pointer(idr->slots, NULL);
			kvfree_rcu(s, rcu);
		}
	}
	pthread_mutex_unlock(&idr_lock);
	return p;
}

void *idr_replace(struct idr *idr, void *ptr, unsigned long id)
{
	struct kshim_idr_slots *s;
	void *old;

	pthread_mutex_lock(&idr_lock);
	s = idr_slots(idr);
	if (!s || id >= s->nr || !s->ptr[id]) {
		pthread_mutex_unlock(&idr_lock);
		return ERR_PTR(-ENOENT);
	}
	old = s->ptr[id];
	rcu_assign_pointer(s->ptr[id], ptr);
	pthread_mutex_unlock(&idr_lock);
	return old;
}

void *idr_get_next(struct idr *idr, int *nextid)
{
	struct kshim_idr_slots *s = idr_slots(idr);
	unsigned long id;

	for (id = *nextid; s && id < s->nr; id++) {
		void *p = rcu_dereference_raw(s->ptr[id]);

		if (p) {
			*nextid = id;
			return p;
		}
	}
	return NULL;
}

bool idr_is_empty(const struct idr *idr)
{
	return idr_slots(idr) == NULL;
}

void idr_destroy(struct idr *idr)
{
	struct kshim_idr_slots *s;

	pthread_mutex_lock(&idr_lock);
	s = idr_slots(idr);
	rcu_assign_pointer(idr->slots, NULL);
	if (s)
		kvfree_rcu(s, rcu);
	pthread_mutex_unlock(&idr_lock);
}
