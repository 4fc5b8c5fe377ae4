/* SPDX-License-Identifier: MIT */
/*
 * HSA signals as the runtime lays them out in memory (amd_signal_t): the
 * value at 8, the event mailbox at 16 and its event id at 24, the
 * dispatch's start and end timestamps at 32 and 40.  A command processor
 * that completes a packet raises an interrupt carrying the signal's event
 * id whenever it has one, mailbox or not: ROCr's signals leave the
 * mailbox empty and its waiters sleep on that event.
 */
#include <stdint.h>

#include "vg.h"
#include "vg_signal.h"

int64_t vg_signal_value(uint64_t sig)
{
	char *s = vg_mem_host(sig, 64);
	return __atomic_load_n((int64_t *)(s + 8), __ATOMIC_ACQUIRE);
}

void vg_signal_done(uint64_t sig, int timestamps)
{
	if (!sig)
		return;
	char *s = vg_mem_host(sig, 64);
	if (timestamps) {
		uint64_t now = vg_now_ns();
		__atomic_store_n((uint64_t *)(s + 32), now, __ATOMIC_RELAXED);
		__atomic_store_n((uint64_t *)(s + 40), now, __ATOMIC_RELAXED);
	}
	__atomic_fetch_sub((int64_t *)(s + 8), 1, __ATOMIC_SEQ_CST);
	uint64_t mailbox = __atomic_load_n((uint64_t *)(s + 16), __ATOMIC_ACQUIRE);
	uint32_t id = __atomic_load_n((uint32_t *)(s + 24), __ATOMIC_ACQUIRE);
	if (mailbox)
		__atomic_store_n((uint64_t *)vg_mem_host(mailbox, 8), (uint64_t)id,
				 __ATOMIC_RELEASE);
	if (id)
		vg_event_set(id);
}

void vg_signal_value_written(uint64_t value_va)
{
	if (value_va < 8 || (value_va - 8) % 64)
		return;
	const char *s = vg_mem_host(value_va - 8, 64);
	uint64_t mailbox = __atomic_load_n((const uint64_t *)(s + 16), __ATOMIC_ACQUIRE);
	uint32_t id = __atomic_load_n((const uint32_t *)(s + 24), __ATOMIC_ACQUIRE);
	if (!mailbox && id)
		vg_event_set(id);
}
