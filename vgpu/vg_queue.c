/* SPDX-License-Identifier: MIT */
/*
 * User-mode queues.  The runtime writes packets into a ring in its own
 * memory and moves the write index; a GPU's command processor would see
 * the doorbell.  Here each GPU has a thread that polls its queues' write
 * indexes, as each card has its own command processor: a kernel on one
 * GPU that waits for another GPU's kernel is not left waiting behind it.
 * A runtime that waits on an event wakes the threads first, so a wait
 * never sleeps while work is pending.  Packets retire in order; a barrier
 * whose dependencies are not met holds its queue, not the others.
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <linux/kfd_ioctl.h>

#include "vg.h"
#include "vg_aql.h"
#include "vg_node.h"
#include "vg_sdma.h"
#include "vg_sysfs.h"
#include "vg_queue.h"

#define VG_QUEUES 128

/* A queue's lock is held while its packets are served and while it is
 * made, changed or destroyed; `lock` only while a free slot is chosen
 * (taken before a queue's lock, never after). */
static struct vg_queue queues[VG_QUEUES];
static pthread_mutex_t qlock[VG_QUEUES];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

struct poller {
	int started;
	uint64_t last_work_ns;
	unsigned seen; /* the wake generation it last saw */
};
static struct poller pollers[VG_MAX_GPUS];

static int serve_gpu(unsigned gpu)
{
	int done = 0;
	for (int i = 0; i < VG_QUEUES; i++) {
		struct vg_queue *q = &queues[i];
		/* Another GPU's queue is not waited for: its lock is held
		 * while its thread runs a kernel.  Made before `used` is set,
		 * its GPU is read after; both again under the lock. */
		if (!__atomic_load_n(&q->used, __ATOMIC_ACQUIRE) ||
		    __atomic_load_n(&q->gpu, __ATOMIC_RELAXED) != gpu)
			continue;
		pthread_mutex_lock(&qlock[i]);
		if (q->used && q->gpu == gpu)
			done += q->type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL ? vg_aql_serve(q)
									 : vg_sdma_serve(q);
		pthread_mutex_unlock(&qlock[i]);
	}
	return done;
}

/* A runtime thread about to wait on an event wakes the queues' threads
 * rather than serve them itself: a kernel run on a runtime thread could
 * wait for that very thread (printf's hostcall listener), as a GPU's
 * command processor never does. */
static pthread_mutex_t nap_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nap;
static unsigned wakes;

static void wake(void)
{
	pthread_mutex_lock(&nap_lock);
	wakes++;
	pthread_cond_broadcast(&nap);
	pthread_mutex_unlock(&nap_lock);
}

static void locks_init(void)
{
	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&nap, &a);
	pthread_condattr_destroy(&a);
	for (int i = 0; i < VG_QUEUES; i++)
		pthread_mutex_init(&qlock[i], NULL);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Busy while work keeps coming, then ever longer naps, cut short when a
 * runtime thread is about to wait: a runtime that spins on a signal
 * instead of waiting is served within the short nap. */
static void *poll_loop(void *arg)
{
	unsigned gpu = (unsigned)(uintptr_t)arg;
	struct poller *me = &pollers[gpu];
	for (;;) {
		if (serve_gpu(gpu))
			me->last_work_ns = vg_now_ns();
		uint64_t idle = vg_now_ns() - me->last_work_ns;
		uint64_t ns = idle < 20000000u ? 20000 : 1000000;
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		ns += (uint64_t)t.tv_nsec;
		t.tv_sec += (time_t)(ns / 1000000000u);
		t.tv_nsec = (long)(ns % 1000000000u);
		pthread_mutex_lock(&nap_lock);
		if (me->seen == wakes)
			pthread_cond_timedwait(&nap, &nap_lock, &t);
		me->seen = wakes;
		pthread_mutex_unlock(&nap_lock);
	}
	return NULL;
}

/* Called with `lock` held. */
static void start_poller(unsigned gpu)
{
	if (pollers[gpu].started)
		return;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_t t;
	if (!pthread_create(&t, &a, poll_loop, (void *)(uintptr_t)gpu))
		pollers[gpu].started = 1;
	pthread_attr_destroy(&a);
}

int vg_queue_create(void *p)
{
	struct kfd_ioctl_create_queue_args *a = p;
	if (vg_gpu_index(a->gpu_id) < 0 || !a->ring_base_address || !a->ring_size ||
	    !a->write_pointer_address || !a->read_pointer_address)
		return -EINVAL;
	if (a->queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL &&
	    a->queue_type != KFD_IOC_QUEUE_TYPE_SDMA &&
	    a->queue_type != KFD_IOC_QUEUE_TYPE_SDMA_XGMI)
		return -EINVAL;
	pthread_once(&once, locks_init);
	pthread_mutex_lock(&lock);
	int id = 0;
	while (id < VG_QUEUES && __atomic_load_n(&queues[id].used, __ATOMIC_ACQUIRE))
		id++;
	if (id == VG_QUEUES) {
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	struct vg_queue *q = &queues[id];
	unsigned gpu = (unsigned)vg_gpu_index(a->gpu_id);
	pthread_mutex_lock(&qlock[id]);
	memset(q, 0, sizeof(*q));
	q->type = a->queue_type;
	q->gpu_id = a->gpu_id;
	__atomic_store_n(&q->gpu, gpu, __ATOMIC_RELAXED);
	q->ring_va = a->ring_base_address;
	q->ring_size = a->ring_size;
	q->wptr_va = a->write_pointer_address;
	q->rptr_va = a->read_pointer_address;
	__atomic_store_n(&q->used, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&qlock[id]);
	vg_event_serve_with(wake);
	start_poller(gpu);
	pthread_mutex_unlock(&lock);
	a->queue_id = (uint32_t)id;
	a->doorbell_offset = vg_mem_doorbell_offset() + (uint64_t)id * 8;
	vg_log("queue %d (q%p): type %u ring 0x%llx size %u wptr 0x%llx rptr 0x%llx",
	       id, (void *)q, a->queue_type, (unsigned long long)a->ring_base_address,
	       a->ring_size, (unsigned long long)a->write_pointer_address,
	       (unsigned long long)a->read_pointer_address);
	return 0;
}

int vg_queue_destroy(void *p)
{
	struct kfd_ioctl_destroy_queue_args *a = p;
	if (a->queue_id >= VG_QUEUES)
		return -EINVAL;
	pthread_once(&once, locks_init);
	pthread_mutex_lock(&qlock[a->queue_id]);
	int rc = queues[a->queue_id].used ? 0 : -EINVAL;
	__atomic_store_n(&queues[a->queue_id].used, 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&qlock[a->queue_id]);
	return rc;
}

int vg_queue_update(void *p)
{
	struct kfd_ioctl_update_queue_args *a = p;
	if (a->queue_id >= VG_QUEUES)
		return -EINVAL;
	pthread_once(&once, locks_init);
	pthread_mutex_lock(&qlock[a->queue_id]);
	struct vg_queue *q = &queues[a->queue_id];
	int rc = q->used ? 0 : -EINVAL;
	if (!rc && a->ring_base_address) {
		q->ring_va = a->ring_base_address;
		q->ring_size = a->ring_size;
	}
	pthread_mutex_unlock(&qlock[a->queue_id]);
	return rc;
}

/* Fork (only this function): the locks are held across it, so no queue is
 * half served or half made; the child has no queues and no pollers
 * (threads do not survive fork), so its first queue of a GPU starts that
 * GPU's. */
void vg_queue_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_once(&once, locks_init);
		pthread_mutex_lock(&lock);
		for (int i = 0; i < VG_QUEUES; i++)
			pthread_mutex_lock(&qlock[i]);
		pthread_mutex_lock(&nap_lock);
		return;
	}
	if (phase == VG_FORK_CHILD) {
		memset(queues, 0, sizeof(queues));
		memset(pollers, 0, sizeof(pollers));
		wakes = 0;
	}
	pthread_mutex_unlock(&nap_lock);
	for (int i = VG_QUEUES - 1; i >= 0; i--)
		pthread_mutex_unlock(&qlock[i]);
	pthread_mutex_unlock(&lock);
}
