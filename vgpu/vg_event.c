/* SPDX-License-Identifier: MIT */
/*
 * KFD events: what a waiting runtime sleeps on until a completion signal
 * with a mailbox, or a queue's trap, says its work is done.  A runtime
 * re-reads its signal after every wake, so a spurious wake costs a loop
 * and a missed one costs the wait's timeout: signal generously.
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
};
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
	evs[id] = (struct ev){ 1, (uint8_t)!!a->auto_reset, 0, a->event_type };
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

int vg_event_set(uint32_t id)
{
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	struct ev *e = find(id);
	if (e)
		e->signaled = 1;
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
			evs[i].signaled = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

int vg_event_reset(void *args)
{
	struct kfd_ioctl_reset_event_args *a = args;
	pthread_mutex_lock(&lock);
	struct ev *e = find(a->event_id);
	if (e)
		e->signaled = 0;
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

/* How many of the listed events are signaled; consumes auto-reset ones
 * only when the wait is satisfied. */
static int ready(struct kfd_event_data *d, uint32_t n, int all)
{
	uint32_t hit = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct ev *e = find(d[i].event_id);
		hit += e && e->signaled;
	}
	if (!(all ? hit == n : hit > 0))
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		struct ev *e = find(d[i].event_id);
		if (e && e->signaled && e->auto_reset)
			e->signaled = 0;
	}
	return 1;
}

int vg_event_wait(void *args)
{
	struct kfd_ioctl_wait_events_args *a = args;
	struct kfd_event_data *d = (void *)(uintptr_t)a->events_ptr;
	if (!d && a->num_events)
		return -EFAULT;
	pthread_once(&once, init_cond);
	/* The runtime is waiting for the device: serve the queues now. */
	vg_queue_poke();
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	uint64_t ns = (uint64_t)until.tv_nsec + (uint64_t)a->timeout * 1000000u;
	until.tv_sec += (time_t)(ns / 1000000000u);
	until.tv_nsec = (long)(ns % 1000000000u);
	int rc = 0, ok;
	pthread_mutex_lock(&lock);
	while (!(ok = ready(d, a->num_events, a->wait_for_all)) && rc != ETIMEDOUT) {
		if (a->timeout == 0)
			break;
		rc = a->timeout == 0xffffffffu ? pthread_cond_wait(&cond, &lock)
					       : pthread_cond_timedwait(&cond, &lock, &until);
	}
	pthread_mutex_unlock(&lock);
	a->wait_result = ok ? KFD_IOC_WAIT_RESULT_COMPLETE : KFD_IOC_WAIT_RESULT_TIMEOUT;
	return 0;
}
