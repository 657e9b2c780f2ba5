// SPDX-License-Identifier: GPL-2.0-only
/* What both trees' tb_fs share. */
#include <linux/atomic.h>
#include "tb_fs.h"

atomic_long_t tb_fs_error_count;

long tb_fs_errors(void)
{
	return atomic_long_xchg(&tb_fs_error_count, 0);
}
