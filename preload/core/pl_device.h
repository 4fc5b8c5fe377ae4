/* SPDX-License-Identifier: MIT */
#ifndef PL_DEVICE_H
#define PL_DEVICE_H

#include "pl_boot.h"
#include "pl_hip.h"

/* gcnArchName of a device (asking the runtime the first time), "" if the
 * runtime cannot say, e.g. on a machine without a GPU. */
const char *pl_device_arch(int ordinal);
/* The current device is not known: never asked (no call needed it), or
 * the runtime could not answer. */
int pl_device_failed(void);

void pl_rec_set_device(hipError_t rc, int dev);

/* Entering and leaving a hook that forwards to the HIP runtime. */
#define PL_Q_LAUNCH 3 /* query, and the call is a launch */
#define PL_Q_ASIDE (-1) /* not a call the program's runtime answers (module
			  registration, OpenMP's entry points) */
int pl_hip_enter_slow(int query, int tr);

/* Set on a thread once the runtime has answered the program and this
 * thread's device is known: then entering is a depth count. */
extern __thread int pl_hip_settled __attribute__((tls_model("initial-exec")));

static inline int pl_hip_enter(int query)
{
	int tr = pl_tracking();

	pl_depth++;
	if (__builtin_expect(pl_hip_settled, 1) || query == PL_Q_ASIDE)
		return tr;
	return pl_hip_enter_slow(query, tr);
}

static inline void pl_hip_leave(void)
{
	pl_depth--;
}
int pl_device_current(void);

#endif
