/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _KSHIM_LINUX_PRINTK_H
#define _KSHIM_LINUX_PRINTK_H
#include <kshim/report.h>
#define KERN_ERR ""
#define KERN_WARNING ""
#define KERN_INFO ""
#define KERN_DEBUG ""
#define pr_fmt(fmt) fmt
#define printk(fmt, ...) kshim_printk(fmt, ##__VA_ARGS__)
#define pr_emerg(fmt, ...) kshim_printk(fmt, ##__VA_ARGS__)
#define pr_alert(fmt, ...) kshim_printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) kshim_printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) kshim_printk(fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...) kshim_printk(fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) kshim_printk(fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...) kshim_printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) do { if (0) kshim_printk(fmt, ##__VA_ARGS__); } while (0)
#define pr_warn_once pr_warn
#define pr_err_once pr_err
#define pr_info_once pr_info
#define pr_info_ratelimited pr_info
#define pr_warn_ratelimited pr_warn
#define pr_err_ratelimited pr_err
#define printk_ratelimit() 1
/* the report of a failing test carries the backtraces (kernel-shim/report.c) */
static inline void dump_stack(void)
{
}
#define no_printk(fmt, ...) ({ if (0) kshim_printk(fmt, ##__VA_ARGS__); 0; })
#endif
