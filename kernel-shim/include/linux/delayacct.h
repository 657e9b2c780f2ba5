/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_DELAYACCT_H
#define _KSHIM_LINUX_DELAYACCT_H
/* !CONFIG_TASK_DELAY_ACCT */
static inline void delayacct_freepages_start(void)
{
}
static inline void delayacct_freepages_end(void)
{
}
#endif
