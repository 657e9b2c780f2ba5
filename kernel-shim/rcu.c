// SPDX-License-Identifier: GPL-2.0-only
/*
 * RCU over liburcu (memb flavour). Readers are counted per thread so that
 * sleeping inside rcu_read_lock() is reported instead of deadlocking in
 * synchronize_rcu().
 */
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <urcu/map/clear.h>

void kshim_rcu_read_lock(void)
{
	kshim_ctx.rcu++;
	urcu_memb_read_lock();
}

void kshim_rcu_read_unlock(void)
{
	if (WARN_ON_ONCE(kshim_ctx.rcu <= 0))
		return;
	kshim_ctx.rcu--;
	urcu_memb_read_unlock();
}

void kshim_synchronize_rcu(const char *file, int line, const char *func)
{
	kshim_might_sleep(file, line, func);
	if (kshim_ctx.rcu) {
		/* would deadlock: already reported as a context violation */
		return;
	}
	urcu_memb_synchronize_rcu();
}

void kshim_call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	urcu_memb_call_rcu(head, func);
}

void kshim_rcu_barrier(void)
{
	urcu_memb_barrier();
}

struct kvfree_rcu_rec {
	struct rcu_head head;
	void *ptr;
};

static void kvfree_rcu_cb(struct rcu_head *head)
{
	struct kvfree_rcu_rec *rec = caa_container_of(head, struct kvfree_rcu_rec, head);

	kshim_kfree(rec->ptr);
	free(rec);
}

/*
 * The kernel encodes the object's offset in the embedded head; liburcu
 * calls the head's func, so a side record carries the pointer instead.
 */
void kshim_kvfree_rcu(void *ptr, struct rcu_head *head)
{
	struct kvfree_rcu_rec *rec;

	(void)head;
	if (!ptr)
		return;
	rec = malloc(sizeof(*rec));
	if (!rec)
		abort();
	rec->ptr = ptr;
	urcu_memb_call_rcu(&rec->head, kvfree_rcu_cb);
}

void kshim_kvfree_rcu_mightsleep(void *ptr, const char *file, int line, const char *func)
{
	kshim_synchronize_rcu(file, line, func);
	kshim_kfree(ptr);
}
