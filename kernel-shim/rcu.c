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

/*
 * liburcu is not built for TSan, so the orderings a grace period gives
 * (reader's accesses before the callback, queueing before the callback,
 * callbacks before rcu_barrier's return) are invisible to it and every
 * deferred free looks like a race. Restate them as acquire/release on
 * stand-in addresses; the plain build compiles them away.
 */
#ifdef __SANITIZE_THREAD__
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define tsan_acquire(addr) __tsan_acquire(addr)
#define tsan_release(addr) __tsan_release(addr)

/* liburcu's own queue nodes and wake-ups: uninstrumented or inline asm */
const char *__tsan_default_suppressions(void)
{
	return "called_from_lib:liburcu-memb.so\n"
	       "race:urcu_common_wake_up_gp\n"
	       "race:_urcu_memb_read_unlock_update_and_wakeup\n";
}
#else
#define tsan_acquire(addr) do { (void)(addr); } while (0)
#define tsan_release(addr) do { (void)(addr); } while (0)
#endif
static char gp_sync;		/* reader sections -> after a grace period */
static char barrier_sync;	/* callbacks -> rcu_barrier() return */

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
	tsan_release(&gp_sync);
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
	tsan_acquire(&gp_sync);
}

#ifdef __SANITIZE_THREAD__
/* a side record carries the caller's callback, so ordering can be stated */
struct call_rcu_rec {
	struct rcu_head head;
	struct rcu_head *user;
	rcu_callback_t func;
};

static void call_rcu_cb(struct rcu_head *head)
{
	struct call_rcu_rec *rec = caa_container_of(head, struct call_rcu_rec, head);

	tsan_acquire(rec);
	tsan_acquire(&gp_sync);
	rec->func(rec->user);
	free(rec);
	tsan_release(&barrier_sync);
}

void kshim_call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	struct call_rcu_rec *rec = malloc(sizeof(*rec));

	if (!rec)
		abort();
	rec->user = head;
	rec->func = func;
	tsan_release(rec);
	urcu_memb_call_rcu(&rec->head, call_rcu_cb);
}
#else
void kshim_call_rcu(struct rcu_head *head, rcu_callback_t func)
{
	urcu_memb_call_rcu(head, func);
}
#endif

void kshim_rcu_barrier(void)
{
	urcu_memb_barrier();
	tsan_acquire(&barrier_sync);
}

struct kvfree_rcu_rec {
	struct rcu_head head;
	void *ptr;
};

static void kvfree_rcu_cb(struct rcu_head *head)
{
	struct kvfree_rcu_rec *rec = caa_container_of(head, struct kvfree_rcu_rec, head);

	tsan_acquire(rec);
	tsan_acquire(&gp_sync);
	kshim_kfree(rec->ptr);
	free(rec);
	tsan_release(&barrier_sync);
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
	tsan_release(rec);
	urcu_memb_call_rcu(&rec->head, kvfree_rcu_cb);
}

void kshim_kvfree_rcu_mightsleep(void *ptr, const char *file, int line, const char *func)
{
	kshim_synchronize_rcu(file, line, func);
	kshim_kfree(ptr);
}
