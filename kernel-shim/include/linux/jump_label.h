/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_JUMP_LABEL_H
#define _KSHIM_LINUX_JUMP_LABEL_H
/* Static keys as plain flags: the branch is taken or not, no patching. */
#include <linux/types.h>
#include <linux/atomic.h>
struct static_key {
	atomic_t enabled;
};
struct static_key_true {
	struct static_key key;
};
struct static_key_false {
	struct static_key key;
};
#define STATIC_KEY_INIT_TRUE { .enabled = ATOMIC_INIT(1) }
#define STATIC_KEY_INIT_FALSE { .enabled = ATOMIC_INIT(0) }
#define DEFINE_STATIC_KEY_TRUE(name) struct static_key_true name = { STATIC_KEY_INIT_TRUE }
#define DEFINE_STATIC_KEY_FALSE(name) struct static_key_false name = { STATIC_KEY_INIT_FALSE }
#define DECLARE_STATIC_KEY_TRUE(name) extern struct static_key_true name
#define DECLARE_STATIC_KEY_FALSE(name) extern struct static_key_false name
#define DEFINE_STATIC_KEY_FALSE_RO(name) DEFINE_STATIC_KEY_FALSE(name)
#define DEFINE_STATIC_KEY_ARRAY_TRUE(name, count) \
	struct static_key_true name[count] = { [0 ... (count) - 1] = { STATIC_KEY_INIT_TRUE } }
#define DEFINE_STATIC_KEY_ARRAY_FALSE(name, count) \
	struct static_key_false name[count] = { [0 ... (count) - 1] = { STATIC_KEY_INIT_FALSE } }
#define static_key_enabled(k) (atomic_read(&(k)->key.enabled) > 0)
#define static_branch_likely(k) static_key_enabled(k)
#define static_branch_unlikely(k) static_key_enabled(k)
#define static_branch_enable(k) atomic_set(&(k)->key.enabled, 1)
#define static_branch_disable(k) atomic_set(&(k)->key.enabled, 0)
#define static_branch_enable_cpuslocked(k) static_branch_enable(k)
#define static_branch_disable_cpuslocked(k) static_branch_disable(k)
#define static_branch_inc(k) atomic_inc(&(k)->key.enabled)
#define static_branch_dec(k) atomic_dec(&(k)->key.enabled)
#define static_key_false(k) (atomic_read(&(k)->enabled) > 0)
#endif
