/* SPDX-License-Identifier: MIT */
/*
 * KFD events: what a waiting runtime sleeps on until a completion signal
 * with a mailbox, or a queue's trap, says its work is done.  As in the
 * driver, setting an event wakes every thread waiting on it then (a
 * runtime's own wait and its async-handler thread often wait on one
 * event together), and an auto-reset event stays set only when nobody
 * was waiting, for the next wait to find.  A runtime re-reads its signal
 * after every wake, so a spurious wake costs a loop and a missed one a
 * hang: signal generously.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <linux/kfd_ioctl.h>

#include "vg.h"

#define VG_EVENTS 4096

struct ev {
	uint8_t used, auto_reset, signaled;
	uint32_t type;
	uint32_t waiters;
	uint64_t gen; /* times set: a waiter wakes when it moves */
};

/* Events one wait may name; ROCr waits on a handful. */
#define VG_WAIT_MAX 512
static struct ev evs[VG_EVENTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_cond(void)
{
	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&cond, &a);
}

int vg_event_create(void *args)
{
	struct kfd_ioctl_create_event_args *a = args;
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	uint32_t id = 1;
	while (id < VG_EVENTS && evs[id].used)
		id++;
	if (id == VG_EVENTS) {
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	evs[id] = (struct ev){ 1, (uint8_t)!!a->auto_reset, 0, a->event_type, 0, 0 };
	pthread_mutex_unlock(&lock);
	a->event_id = id;
	a->event_slot_index = id;
	a->event_trigger_data = id;
	return 0;
}

static struct ev *find(uint32_t id)
{
	return id > 0 && id < VG_EVENTS && evs[id].used ? &evs[id] : NULL;
}

int vg_event_destroy(void *args)
{
	struct kfd_ioctl_destroy_event_args *a = args;
	pthread_mutex_lock(&lock);
	struct ev *e = find(a->event_id);
	if (e)
		e->used = 0;
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

static void set_locked(struct ev *e)
{
	e->gen++;
	e->signaled = !e->auto_reset || !e->waiters;
}

int vg_event_set(uint32_t id)
{
	vg_log("event %u set", id);
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	struct ev *e = find(id);
	if (e)
		set_locked(e);
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

void vg_event_signal_all(void)
{
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	for (uint32_t i = 1; i < VG_EVENTS; i++)
		if (evs[i].used && evs[i].type == KFD_IOC_EVENT_SIGNAL)
			set_locked(&evs[i]);
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

int vg_event_reset(void *args)
{
	struct kfd_ioctl_reset_event_args *a = args;
	vg_log("event %u reset", a->event_id);
	pthread_mutex_lock(&lock);
	struct ev *e = find(a->event_id);
	if (e)
		e->signaled = 0;
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

/* Whether the wait is satisfied: an event counts when it is set, or was
 * set since the wait began (gen0); a satisfied wait takes the set state
 * of the auto-reset events it counted. */
static int ready(const struct kfd_event_data *d, const uint64_t *gen0,
		 uint32_t n, int all)
{
	uint32_t hit = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct ev *e = find(d[i].event_id);
		hit += e && (e->signaled || e->gen != gen0[i]);
	}
	if (!(all ? hit == n : hit > 0))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		struct ev *e = find(d[i].event_id);
		if (e && e->auto_reset)
			e->signaled = 0;
	}
	return 1;
}

static void waiting(const struct kfd_event_data *d, uint64_t *gen0, uint32_t n,
		    int delta)
{
	for (uint32_t i = 0; i < n; i++) {
		struct ev *e = find(d[i].event_id);
		if (!e)
			continue;
		e->waiters += (uint32_t)delta;
		if (delta > 0)
			gen0[i] = e->gen;
	}
}

static struct timespec deadline(uint32_t ms)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	uint64_t ns = (uint64_t)t.tv_nsec + (uint64_t)ms * 1000000u;
	t.tv_sec += (time_t)(ns / 1000000000u);
	t.tv_nsec = (long)(ns % 1000000000u);
	return t;
}

int vg_event_wait(void *args)
{
	struct kfd_ioctl_wait_events_args *a = args;
	const struct kfd_event_data *d = (const void *)(uintptr_t)a->events_ptr;
	uint64_t gen0[VG_WAIT_MAX];
	if ((!d && a->num_events) || a->num_events > VG_WAIT_MAX)
		return d ? -EINVAL : -EFAULT;
	pthread_once(&once, init_cond);
	/* The runtime is waiting for the device: serve the queues now. */
	vg_queue_poke();
	struct timespec until = deadline(a->timeout);
	vg_log("wait on %u events (first %u) for %u ms", a->num_events,
	       a->num_events ? d[0].event_id : 0, a->timeout);
	int rc = 0, ok;
	pthread_mutex_lock(&lock);
	waiting(d, gen0, a->num_events, 1);
	while (!(ok = ready(d, gen0, a->num_events, a->wait_for_all)) &&
	       rc != ETIMEDOUT && a->timeout)
		rc = a->timeout == 0xffffffffu ? pthread_cond_wait(&cond, &lock)
					       : pthread_cond_timedwait(&cond, &lock, &until);
	waiting(d, gen0, a->num_events, -1);
	pthread_mutex_unlock(&lock);
	a->wait_result = ok ? KFD_IOC_WAIT_RESULT_COMPLETE : KFD_IOC_WAIT_RESULT_TIMEOUT;
	return 0;
}
