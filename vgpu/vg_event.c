/* SPDX-License-Identifier: MIT */
/*
 * KFD events: what a waiting runtime sleeps on until a completion signal
 * with a mailbox, or a queue's trap, says its work is done.  As in the
 * driver, setting an event wakes every thread waiting on it then (a
 * runtime's own wait and its async-handler thread often wait on one
 * event together), and an auto-reset event stays set only when nobody
 * was waiting, for the next wait to find, which takes it as it arrives.
 * A runtime re-reads its signal
 * after every wake, so a spurious wake costs a loop and a missed one a
 * hang: signal generously.
 *
 * That rule alone loses a wake: a set seen only by one waiter is gone for
 * a second thread still on its way in.  Newer drivers count every set (an
 * event's age); a waiter that names the age it last saw returns at once
 * when the event has moved past it, and learns the new age.  ROCm 6 names
 * it whenever the driver's interface version offers it and then relies on
 * it; ROCm 5 names none.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <linux/kfd_ioctl.h>

#include "vg.h"

/* kfd_events.c: signal (and debug) events take the slots of the events
 * page, whose size the thunk gives (KFD_SIGNAL_EVENT_LIMIT slots); since
 * "Ignore bogus signals from MEC efficiently" (5.19) slot 0 is reserved,
 * so the first id is 1 and a full page is -ENOSPC.  Other events (memory
 * and hardware exceptions) are numbered from the upper half of the id
 * space (kfd_events.h, KFD_FIRST_NONSIGNAL_EVENT_ID). */
#define VG_SIGNAL_SLOTS 4096u
#define VG_FIRST_OTHER 0x40000000u
/* A runtime makes a handful of exception events. */
#define VG_OTHER_EVENTS 64u

struct ev {
	uint8_t used, auto_reset, signaled;
	uint32_t type;
	uint32_t queued; /* waiters asleep on it: not satisfied on arrival */
	uint32_t gen;	 /* its creation, so a waiter sees it destroyed */
	uint64_t age;	 /* 1 + times set; 0 and 1 are never reached again */
	/* A memory event's last fault, handed to the waiters it wakes. */
	struct kfd_hsa_memory_exception_data fault;
};

/* Events one wait may name; ROCr waits on a handful. */
#define VG_WAIT_MAX 512
static struct ev sig[VG_SIGNAL_SLOTS], other[VG_OTHER_EVENTS];
static uint32_t gens;
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

static int is_signal(uint32_t type)
{
	return type == KFD_IOC_EVENT_SIGNAL || type == KFD_IOC_EVENT_DEBUG_EVENT;
}

int vg_event_create(void *args)
{
	struct kfd_ioctl_create_event_args *a = args;
	struct ev *table = is_signal(a->event_type) ? sig : other;
	uint32_t n = is_signal(a->event_type) ? VG_SIGNAL_SLOTS : VG_OTHER_EVENTS;
	uint32_t base = is_signal(a->event_type) ? 0 : VG_FIRST_OTHER;
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	uint32_t i = table == sig ? 1 : 0;
	while (i < n && table[i].used)
		i++;
	if (i == n) {
		pthread_mutex_unlock(&lock);
		return table == sig ? -ENOSPC : -ENOMEM;
	}
	table[i] = (struct ev){ .used = 1, .auto_reset = (uint8_t)!!a->auto_reset,
				.type = a->event_type, .gen = ++gens, .age = 1 };
	pthread_mutex_unlock(&lock);
	a->event_id = base + i;
	a->event_trigger_data = base + i;
	if (table == sig)
		a->event_slot_index = i;
	return 0;
}

static struct ev *find(uint32_t id)
{
	struct ev *e = NULL;
	if (id > 0 && id < VG_SIGNAL_SLOTS)
		e = &sig[id];
	else if (id >= VG_FIRST_OTHER && id - VG_FIRST_OTHER < VG_OTHER_EVENTS)
		e = &other[id - VG_FIRST_OTHER];
	return e && e->used ? e : NULL;
}

int vg_event_destroy(void *args)
{
	struct kfd_ioctl_destroy_event_args *a = args;
	pthread_mutex_lock(&lock);
	struct ev *e = find(a->event_id);
	if (e)
		e->used = 0;
	/* Its waiters wake and fail. */
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

/* A set wakes every waiter asleep on the event; an auto-reset event
 * stays set only when there was none. */
static void set_locked(struct ev *e)
{
	if (!++e->age)
		e->age = 2;
	e->signaled = !e->auto_reset || !e->queued;
}

/* From the device (kfd_signal_event_interrupt): signal and debug events. */
int vg_event_set(uint32_t id)
{
	vg_log("event %u set", id);
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	struct ev *e = find(id);
	if (e && is_signal(e->type))
		set_locked(e);
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return e ? 0 : -EINVAL;
}

void vg_event_signal_all(void)
{
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	for (uint32_t i = 1; i < VG_SIGNAL_SLOTS; i++)
		if (sig[i].used && sig[i].type == KFD_IOC_EVENT_SIGNAL)
			set_locked(&sig[i]);
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
}

/*
 * An interrupt from a kernel (kfd_int_process_v9.c, SQ interrupts from
 * s_sendmsg; kfd_signal_event_interrupt).  The context id is M0's low 24
 * bits, where ROCm's device library puts only the low byte of the event's
 * id; the driver sets the event of that id when its slot in the events
 * page is signaled, and otherwise searches every slot for the signaled
 * ones.  The slots are not modelled here, and a partial id may name
 * another event (any id past 255), so every signal event is set: a wake
 * too many costs a runtime one look at its signal, a wake missed costs a
 * kernel waiting on its host (printf) the runtime's next timeout.
 */
void vg_event_interrupt(uint32_t context_id)
{
	vg_log("interrupt, context id %u", context_id & 0xffffff);
	vg_event_signal_all();
}

/*
 * A fatal GPU fault, as kfd_signal_vm_fault_event tells it: every memory
 * event of the process is set and carries the fault (no signal is sent to
 * the process; its runtime, waiting on the event, reports it and aborts).
 */
int vg_event_memory_fault(const struct kfd_hsa_memory_exception_data *d)
{
	int n = 0;
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	for (uint32_t i = 0; i < VG_OTHER_EVENTS; i++)
		if (other[i].used && other[i].type == KFD_IOC_EVENT_MEMORY) {
			other[i].fault = *d;
			set_locked(&other[i]);
			n++;
		}
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return n;
}

/* kfd_set_event and kfd_reset_event: only a signal event is set or reset
 * from the CPU; any other id is -EINVAL. */
static int cpu_signal(uint32_t id, int set)
{
	pthread_once(&once, init_cond);
	pthread_mutex_lock(&lock);
	struct ev *e = find(id);
	int ok = e && e->type == KFD_IOC_EVENT_SIGNAL;
	if (ok && set)
		set_locked(e);
	else if (ok)
		e->signaled = 0;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	return ok ? 0 : -EINVAL;
}

int vg_event_set_cpu(void *args)
{
	struct kfd_ioctl_set_event_args *a = args;
	vg_log("event %u set", a->event_id);
	return cpu_signal(a->event_id, 1);
}

int vg_event_reset(void *args)
{
	struct kfd_ioctl_reset_event_args *a = args;
	vg_log("event %u reset", a->event_id);
	return cpu_signal(a->event_id, 0);
}

/* The age a waiter names sits in the first word of the event data (a
 * union member older headers do not spell); 0 names none. */
static uint64_t named_age(const struct kfd_event_data *d)
{
	uint64_t age;
	memcpy(&age, d, sizeof(age));
	return age;
}

/* One waiter per event named, as kfd_events.c keeps them. */
struct waiter {
	struct ev *e;
	uint32_t gen;
	uint8_t activated, queued, named;
	uint64_t age0; /* the age it went to sleep at */
};

/* init_event_waiter: a waiter finding its event set is satisfied at once,
 * and takes an auto-reset event's set then, whatever the rest of the wait
 * does; one naming an age the event has moved past is satisfied too; the
 * others sleep.  An unknown id is -EINVAL. */
static int arrive(const struct kfd_event_data *d, struct waiter *w, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct ev *e = find(d[i].event_id);
		if (!e)
			return -EINVAL;
		uint64_t named = e->type == KFD_IOC_EVENT_SIGNAL ? named_age(&d[i]) : 0;
		w[i] = (struct waiter){ e, e->gen, e->signaled, 0, named != 0, e->age };
		if (e->auto_reset)
			e->signaled = 0;
		if (named && named != e->age)
			w[i].activated = 1;
	}
	for (uint32_t i = 0; i < n; i++)
		if (!w[i].activated) {
			w[i].queued = 1;
			w[i].e->queued++;
		}
	return 0;
}

/* test_event_condition: complete, timeout, or fail when an event went. */
static uint32_t condition(struct waiter *w, uint32_t n, int all)
{
	uint32_t hit = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!w[i].e->used || w[i].e->gen != w[i].gen)
			return KFD_IOC_WAIT_RESULT_FAIL;
		if (w[i].queued && w[i].e->age != w[i].age0)
			w[i].activated = 1;
		hit += w[i].activated;
	}
	return (all ? hit == n : hit > 0) ? KFD_IOC_WAIT_RESULT_COMPLETE
					  : KFD_IOC_WAIT_RESULT_TIMEOUT;
}

/* A waiter leaves its events' queues; a completed wait tells each
 * satisfied waiter that named an age the event's age now, and each
 * satisfied waiter of a memory event its fault (copy_signaled_event_data). */
static void leave(struct kfd_event_data *d, struct waiter *w, uint32_t n, uint32_t res)
{
	for (uint32_t i = 0; i < n; i++) {
		int live = w[i].e->used && w[i].e->gen == w[i].gen;
		if (w[i].queued && live)
			w[i].e->queued--;
		if (res == KFD_IOC_WAIT_RESULT_COMPLETE && live && w[i].activated && w[i].named)
			memcpy(&d[i], &w[i].e->age, sizeof(w[i].e->age));
		if (res == KFD_IOC_WAIT_RESULT_COMPLETE && live && w[i].activated &&
		    w[i].e->type == KFD_IOC_EVENT_MEMORY)
			d[i].memory_exception_data = w[i].e->fault;
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

/* What a waiting thread does first, set by the queues (above events:
 * their packets' completions set events): wake the thread serving them. */
static void (*serve)(void);

void vg_event_serve_with(void (*fn)(void))
{
	__atomic_store_n(&serve, fn, __ATOMIC_RELEASE);
}

int vg_event_wait(void *args)
{
	struct kfd_ioctl_wait_events_args *a = args;
	struct kfd_event_data *d = (void *)(uintptr_t)a->events_ptr;
	struct waiter w[VG_WAIT_MAX];
	if ((!d && a->num_events) || a->num_events > VG_WAIT_MAX)
		return d ? -EINVAL : -EFAULT;
	pthread_once(&once, init_cond);
	/* The runtime is waiting for the device: the queues are served now. */
	void (*fn)(void) = __atomic_load_n(&serve, __ATOMIC_ACQUIRE);
	if (fn)
		fn();
	struct timespec until = deadline(a->timeout);
	vg_log("wait on %u events (first %u) for %u ms", a->num_events,
	       a->num_events ? d[0].event_id : 0, a->timeout);
	pthread_mutex_lock(&lock);
	int rc = arrive(d, w, a->num_events);
	uint32_t res = KFD_IOC_WAIT_RESULT_FAIL;
	if (!rc) {
		int slept = 0;
		while ((res = condition(w, a->num_events, a->wait_for_all)) ==
			       KFD_IOC_WAIT_RESULT_TIMEOUT &&
		       slept != ETIMEDOUT && a->timeout)
			slept = a->timeout == 0xffffffffu
					? pthread_cond_wait(&cond, &lock)
					: pthread_cond_timedwait(&cond, &lock, &until);
		leave(d, w, a->num_events, res);
	}
	pthread_mutex_unlock(&lock);
	a->wait_result = res;
	if (!rc && res == KFD_IOC_WAIT_RESULT_FAIL)
		rc = -EIO;
	return rc;
}

/* Fork: the child's events start afresh, and so does its condition
 * variable (a waiter of the parent's is no waiter of the child's). */
void vg_event_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_mutex_lock(&lock);
		return;
	}
	if (phase == VG_FORK_CHILD) {
		memset(sig, 0, sizeof(sig));
		memset(other, 0, sizeof(other));
		init_cond();
	}
	pthread_mutex_unlock(&lock);
}
