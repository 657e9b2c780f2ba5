// SPDX-License-Identifier: GPL-2.0-only
/*
 * mm/vmpressure.c's set-up and teardown of a memcg's vmpressure. Pressure
 * events themselves are not modelled: vmpressure() is never called, so
 * its work function must never run.
 */
#include <linux/vmpressure.h>
#include <linux/bug.h>

static void vmpressure_work_fn(struct work_struct *work)
{
	WARN(1, "vmpressure events are not modelled by the test bed");
}

#include KVMPRESSURE_EXTRACT
