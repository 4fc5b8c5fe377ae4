/* SPDX-License-Identifier: MIT */
/*
 * User-mode queues.  The runtime writes packets into a ring in its own
 * memory and moves the write index; a GPU's command processor would see
 * the doorbell.  Here one thread polls the write indexes, and a runtime
 * that waits on an event serves the queues itself first, so a wait never
 * sleeps while work is pending.  Packets retire in order; a barrier whose
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

/* Serve unless another thread is serving: a runtime thread that waits on
 * an event must not wait for a kernel that waits for it (a hostcall). */
static void poke_idle(void)
{
	if (pthread_mutex_trylock(&lock))
		return;
	if (serve_all())
		last_work_ns = vg_now_ns();
	pthread_mutex_unlock(&lock);
}

/* Busy while work keeps coming, then ever longer naps: a runtime that
 * spins on a signal instead of waiting is served within the short nap. */
static void *poll_loop(void *unused)
{
	for (;;) {
		poke();
		uint64_t idle = vg_now_ns() - __atomic_load_n(&last_work_ns, __ATOMIC_RELAXED);
		struct timespec ts = { 0, idle < 20000000u ? 20000 : 1000000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void start_poller(void)
{
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
	vg_event_serve_with(poke_idle);
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

/* Fork (only this function): the lock is held across it; the child has no
 * queues and no poller (threads do not survive fork), so its first queue
 * starts one of its own. */
void vg_queue_fork(int phase)
{
	if (phase == VG_FORK_PREPARE) {
		pthread_mutex_lock(&lock);
		return;
	}
	if (phase == VG_FORK_CHILD) {
		memset(queues, 0, sizeof(queues));
		poller_started = 0;
	}
	pthread_mutex_unlock(&lock);
}
