/* SPDX-License-Identifier: MIT */
/*
 * The runtime's waits for a signal.  HIP's runtime waits for a kernel, a
 * copy or a barrier with HSA_WAIT_STATE_ACTIVE and no time limit: the
 * waiting thread spins in user space on the signal's value, and never asks
 * the driver anything.  On a card that spin costs a host core the GPU does
 * not need.  On the virtual GPU the host's cores are the GPU, and the spin
 * takes one of them from the interpreter for as long as the kernel runs.
 *
 * So, while a virtual GPU plays the device, every wait the program or its
 * runtime makes through these entry points is a blocked one: ROCr then
 * sleeps in AMDKFD_IOC_WAIT_EVENTS (vg_event.c) until the signal's event
 * fires, as it does on a card when a program asks for blocking sync.  The
 * wait's result is the runtime's own: a blocked wait meets the same
 * condition, and either may return early (the HSA specification lets a
 * wait return before its condition holds; callers test again).  This is
 * one of the differences doc/testing.md lists; HIPGRAIN_VGPU_BLOCK_WAITS=0
 * keeps the runtime's hints.
 *
 * A runtime that resolves these names in libhsa-runtime64 alone (dlopen
 * and dlsym on its handle) keeps its waits as they are.
 */
#include <stdint.h>

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include "hg_env.h"
#include "vg.h"

#define VG_EXPORT __attribute__((visibility("default")))

/* The hint a wait is given: blocked once the device is ours; said once,
 * the first time a wait asked to spin. */
static hsa_wait_state_t hint(hsa_wait_state_t asked)
{
	static int said, keep = -1;
	int k = __atomic_load_n(&keep, __ATOMIC_RELAXED);
	if (k < 0) {
		k = hg_env_get_ull(HG_ENV_VGPU_BLOCK_WAITS, 0, 1) == 0;
		__atomic_store_n(&keep, k, __ATOMIC_RELAXED);
	}
	if (asked == HSA_WAIT_STATE_BLOCKED || k || vg_init())
		return asked;
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		vg_log("the runtime's active waits are made blocked");
	return HSA_WAIT_STATE_BLOCKED;
}

typedef hsa_signal_value_t (*wait_fn)(hsa_signal_t, hsa_signal_condition_t,
				      hsa_signal_value_t, uint64_t, hsa_wait_state_t);

#define WAIT(name)                                                             \
	VG_EXPORT hsa_signal_value_t name(hsa_signal_t s, hsa_signal_condition_t c, \
					  hsa_signal_value_t v, uint64_t timeout, \
					  hsa_wait_state_t h)                  \
	{                                                                      \
		static wait_fn real;                                           \
		if (!real)                                                     \
			real = (wait_fn)vg_next(#name);                       \
		return real(s, c, v, timeout, hint(h));                        \
	}

WAIT(hsa_signal_wait_scacquire)
WAIT(hsa_signal_wait_relaxed)
WAIT(hsa_signal_wait_acquire)

typedef hsa_status_t (*group_fn)(hsa_signal_group_t, const hsa_signal_condition_t *,
				 const hsa_signal_value_t *, hsa_wait_state_t,
				 hsa_signal_t *, hsa_signal_value_t *);

#define GROUP(name)                                                            \
	VG_EXPORT hsa_status_t name(hsa_signal_group_t g,                      \
				    const hsa_signal_condition_t *c,           \
				    const hsa_signal_value_t *v, hsa_wait_state_t h, \
				    hsa_signal_t *s, hsa_signal_value_t *out)  \
	{                                                                      \
		static group_fn real;                                          \
		if (!real)                                                     \
			real = (group_fn)vg_next(#name);                      \
		return real(g, c, v, hint(h), s, out);                         \
	}

GROUP(hsa_signal_group_wait_any_scacquire)
GROUP(hsa_signal_group_wait_any_relaxed)

VG_EXPORT uint32_t hsa_amd_signal_wait_any(uint32_t n, hsa_signal_t *s,
					   hsa_signal_condition_t *c,
					   hsa_signal_value_t *v, uint64_t timeout,
					   hsa_wait_state_t h, hsa_signal_value_t *out)
{
	typedef uint32_t (*any_fn)(uint32_t, hsa_signal_t *, hsa_signal_condition_t *,
				   hsa_signal_value_t *, uint64_t, hsa_wait_state_t,
				   hsa_signal_value_t *);
	static any_fn real;
	if (!real)
		real = (any_fn)vg_next("hsa_amd_signal_wait_any");
	return real(n, s, c, v, timeout, hint(h), out);
}
