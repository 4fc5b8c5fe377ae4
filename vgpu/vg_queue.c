/* SPDX-License-Identifier: MIT */
/*
 * User-mode queues.  The runtime writes packets into a ring in its own
 * memory and moves the write index; a GPU's command processor would see
 * the doorbell.  Here one thread polls the write indexes, and a runtime
 * that waits on an event wakes it first, so a wait never sleeps while work
 * is pending.  Packets retire in order; a barrier whose
 * dependencies are not met holds its queue, not the others.
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <linux/kfd_ioctl.h>

#include "vg.h"
#include "vg_aql.h"
#include "vg_sdma.h"
#include "vg_sysfs.h"
#include "vg_queue.h"

#define VG_QUEUES 128

static struct vg_queue queues[VG_QUEUES];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t poller;
static int poller_started;
static uint64_t last_work_ns;

static int serve_all(void)
{
	int done = 0;
	for (int i = 0; i < VG_QUEUES; i++) {
		struct vg_queue *q = &queues[i];
		if (!q->used)
			continue;
		done += q->type == KFD_IOC_QUEUE_TYPE_COMPUTE_AQL ? vg_aql_serve(q)
								 : vg_sdma_serve(q);
	}
	return done;
}

static void poke(void)
{
	pthread_mutex_lock(&lock);
	if (serve_all())
		last_work_ns = vg_now_ns();
	pthread_mutex_unlock(&lock);
}

/* A runtime thread about to wait on an event wakes the queues' thread
 * rather than serve them itself: a kernel run on a runtime thread could
 * wait for that very thread (printf's hostcall listener), as a GPU's
 * command processor never does. */
static pthread_mutex_t nap_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nap;
static int woken;

static void wake(void)
{
	pthread_mutex_lock(&nap_lock);
	woken = 1;
	pthread_cond_signal(&nap);
	pthread_mutex_unlock(&nap_lock);
}

static void nap_init(void)
{
	pthread_condattr_t a;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&nap, &a);
	pthread_condattr_destroy(&a);
}

/* Busy while work keeps coming, then ever longer naps, cut short when a
 * runtime thread is about to wait: a runtime that spins on a signal
 * instead of waiting is served within the short nap. */
static void *poll_loop(void *unused)
{
	for (;;) {
		poke();
		uint64_t idle = vg_now_ns() - __atomic_load_n(&last_work_ns, __ATOMIC_RELAXED);
		uint64_t ns = idle < 20000000u ? 20000 : 1000000;
		struct timespec t;
		clock_gettime(CLOCK_MONOTONIC, &t);
		ns += (uint64_t)t.tv_nsec;
		t.tv_sec += (time_t)(ns / 1000000000u);
		t.tv_nsec = (long)(ns % 1000000000u);
		pthread_mutex_lock(&nap_lock);
		if (!woken)
			pthread_cond_timedwait(&nap, &nap_lock, &t);
		woken = 0;
		pthread_mutex_unlock(&nap_lock);
	}
	return NULL;
}

static void start_poller(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, nap_init);
	if (poller_started)
		return;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	if (!pthread_create(&poller, &a, poll_loop, NULL))
		poller_started = 1;
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
	pthread_mutex_lock(&lock);
	int id = 0;
	while (id < VG_QUEUES && queues[id].used)
		id++;
	if (id == VG_QUEUES) {
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	struct vg_queue *q = &queues[id];
	memset(q, 0, sizeof(*q));
	q->used = 1;
	q->type = a->queue_type;
	q->gpu_id = a->gpu_id;
	q->ring_va = a->ring_base_address;
	q->ring_size = a->ring_size;
	q->wptr_va = a->write_pointer_address;
	q->rptr_va = a->read_pointer_address;
	vg_event_serve_with(wake);
	start_poller();
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
	pthread_mutex_lock(&lock);
	int rc = queues[a->queue_id].used ? 0 : -EINVAL;
	queues[a->queue_id].used = 0;
	pthread_mutex_unlock(&lock);
	return rc;
}

int vg_queue_update(void *p)
{
	struct kfd_ioctl_update_queue_args *a = p;
	if (a->queue_id >= VG_QUEUES)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	struct vg_queue *q = &queues[a->queue_id];
	int rc = q->used ? 0 : -EINVAL;
	if (!rc && a->ring_base_address) {
		q->ring_va = a->ring_base_address;
		q->ring_size = a->ring_size;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* Fork (only this function): the locks are held across it; the child has no
 * queues and no poller (threads do not survive fork), so its first queue
 * starts one of its own. */
void vg_queue_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_mutex_lock(&lock);
		pthread_mutex_lock(&nap_lock);
		return;
	}
	if (phase == VG_FORK_CHILD) {
		memset(queues, 0, sizeof(queues));
		poller_started = 0;
		woken = 0;
	}
	pthread_mutex_unlock(&nap_lock);
	pthread_mutex_unlock(&lock);
}
