/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_COMPLETION_H
#define _KSHIM_LINUX_COMPLETION_H
#include <pthread.h>
#include <linux/sched.h>
struct completion {
	pthread_mutex_t lock;
	pthread_cond_t wait;
	unsigned int done;
	/* set by init_completion: the kernel's wait queue is unusable before */
	bool inited;
};
void init_completion(struct completion *x);
void reinit_completion(struct completion *x);
void complete(struct completion *x);
void complete_all(struct completion *x);
void kshim_wait_for_completion(struct completion *x, const char *file, int line, const char *func);
bool try_wait_for_completion(struct completion *x);
bool completion_done(struct completion *x);
#define wait_for_completion(x) kshim_wait_for_completion(x, __FILE__, __LINE__, __func__)
#define DECLARE_COMPLETION(work) struct completion work = \
	{ PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, true }
#endif
