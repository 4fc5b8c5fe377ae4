/* SPDX-License-Identifier: MIT */
/*
 * The host table's answers across threads: a block is found, interior
 * pointers included, from any thread; freed by a thread that did not
 * allocate it; still there after its thread exits; and in a forked child
 * whose other threads are gone.  Also built with ThreadSanitizer.
 */
#include <pthread.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reg_host.h"
#include "tap.h"

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

#define BLOCKS 300
#define BLOCK_SIZE(i) ((size_t)16 + ((i) % 16) * 16)

/* Each party its own address range: blocks never overlap. */
static uintptr_t addr_of(unsigned party, unsigned i)
{
	return 0x100000000ull * (16 + party) + (uintptr_t)i * 512;
}

static long find_all(unsigned party, unsigned n)
{
	struct reg_host_block b;
	long bad = 0;

	for (unsigned i = 0; i < n; i++) {
		uintptr_t a = addr_of(party, i);

		bad += !reg_host_find(a + BLOCK_SIZE(i) - 1, &b) || b.addr != a ||
		       b.size != BLOCK_SIZE(i);
		bad += reg_host_find(a + BLOCK_SIZE(i), &b);
	}
	return bad;
}

static long insert_all(unsigned party, unsigned n)
{
	long bad = 0;

	for (unsigned i = 0; i < n; i++)
		bad += !reg_host_insert(addr_of(party, i), BLOCK_SIZE(i), 1, i);
	return bad;
}

static long remove_all(unsigned party, unsigned n)
{
	struct reg_host_block b;
	long bad = 0;

	for (unsigned i = 0; i < n; i++)
		bad += !reg_host_remove(addr_of(party, i), &b) ||
		       b.size != BLOCK_SIZE(i) || b.site != i;
	return bad;
}

/* A thread that allocates, then waits while the test looks from outside. */
static pthread_barrier_t step;
static long owner_bad;

static void *owner(void *arg)
{
	(void)arg;
	owner_bad += insert_all(1, BLOCKS);
	pthread_barrier_wait(&step); /* main finds and frees some */
	pthread_barrier_wait(&step);
	owner_bad += insert_all(2, BLOCKS); /* its table is in use again */
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step); /* main has found them */
	owner_bad += remove_all(2, BLOCKS); /* its own, moved or not */
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step); /* main has looked */
	owner_bad += insert_all(2, BLOCKS);
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step); /* main forks, and frees them */
	return NULL;
}

static void *exiting(void *arg)
{
	(void)arg;
	return (void *)insert_all(3, BLOCKS);
}

/* A producer hands every block to a consumer, which frees it, while both
 * also churn blocks of their own. */
#define HANDED 20000
static uintptr_t queue[64];
static unsigned q_head, q_tail;
static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg)
{
	struct reg_host_block b;
	long bad = 0;

	(void)arg;
	for (unsigned i = 0; i < HANDED; i++) {
		uintptr_t a = addr_of(4, i % 4096);

		bad += !reg_host_insert(a, 64, 1, 0);
		bad += !reg_host_insert(addr_of(5, i % 64), 32, 1, 0);
		bad += !reg_host_remove(addr_of(5, i % 64), &b);
		pthread_mutex_lock(&q_lock);
		while (q_tail - q_head == 64)
			pthread_cond_wait(&q_cond, &q_lock);
		queue[q_tail++ % 64] = a;
		pthread_cond_broadcast(&q_cond);
		pthread_mutex_unlock(&q_lock);
	}
	return (void *)bad;
}

static void *consumer(void *arg)
{
	struct reg_host_block b;
	long bad = 0;

	(void)arg;
	for (unsigned i = 0; i < HANDED; i++) {
		uintptr_t a;

		pthread_mutex_lock(&q_lock);
		while (q_tail == q_head)
			pthread_cond_wait(&q_cond, &q_lock);
		a = queue[q_head++ % 64];
		pthread_cond_broadcast(&q_cond);
		pthread_mutex_unlock(&q_lock);
		bad += !reg_host_find(a + 63, &b) || b.addr != a;
		bad += !reg_host_remove(a, &b) || b.size != 64;
		bad += !reg_host_insert(addr_of(6, i % 64), 32, 1, 0);
		bad += !reg_host_remove(addr_of(6, i % 64), &b);
	}
	return (void *)bad;
}

static long join(pthread_t t)
{
	void *r;

	pthread_join(t, &r);
	return (long)r;
}

#ifndef UNDER_TSAN
/* The child has only the forking thread: the owner's blocks are found and
 * freed there, and the owner's table is never waited on. */
static int in_child(size_t before)
{
	long bad = find_all(2, BLOCKS) + remove_all(2, BLOCKS);

	bad += insert_all(7, BLOCKS) + find_all(7, BLOCKS) +
	       remove_all(7, BLOCKS);
	return bad == 0 && reg_host_count() == before - BLOCKS ? 0 : 1;
}

static int fork_and_check(void)
{
	size_t before = reg_host_count();
	int status = -1;
	pid_t pid;

	reg_host_fork_prepare();
	pid = fork();
	if (pid == 0) {
		reg_host_fork_child();
		_exit(in_child(before));
	}
	reg_host_fork_parent();
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
#endif

int main(void)
{
	struct reg_host_block b;
	pthread_t t, u;

	pthread_barrier_init(&step, NULL, 2);
	pthread_create(&t, NULL, owner, NULL);
	pthread_barrier_wait(&step);
	ok(!reg_host_remove(addr_of(9, 0), &b) && find_all(1, BLOCKS) == 0,
	   "a free of a block no table knows finds nothing, and another live "
	   "thread's blocks are found, interior pointers too");
	ok(remove_all(1, BLOCKS / 2) == 0,
	   "and freed by this thread, which did not allocate them");
	ok(!reg_host_remove(addr_of(1, 0), &b), "a second free finds nothing");
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
	ok(find_all(2, BLOCKS) == 0,
	   "blocks its thread allocated after a move are found as well");
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
	ok(owner_bad == 0, "the allocating thread frees its own moved blocks");
	ok(find_all(2, BLOCKS) == BLOCKS,
	   "and none of them is found once freed");
	pthread_barrier_wait(&step);
	pthread_barrier_wait(&step);
#ifndef UNDER_TSAN
	ok(fork_and_check() == 0,
	   "in a forked child, a live thread's blocks are found and freed");
	ok(find_all(2, BLOCKS) == 0, "the parent still has them after fork");
#endif
	ok(remove_all(2, BLOCKS) == 0 && owner_bad == 0, "and frees them");
	pthread_barrier_wait(&step);
	join(t);
	ok(remove_all(1, BLOCKS) == BLOCKS / 2 &&
		   remove_all(1, BLOCKS / 2) == BLOCKS / 2,
	   "the other half of the first blocks freed here too");

	pthread_create(&t, NULL, exiting, NULL);
	ok(join(t) == 0 && find_all(3, BLOCKS) == 0,
	   "a thread that exited leaves its live blocks findable");
	ok(remove_all(3, BLOCKS) == 0, "and freeable");
	pthread_create(&t, NULL, exiting, NULL);
	ok(join(t) == 0 && find_all(3, BLOCKS) == 0 &&
		   remove_all(3, BLOCKS) == 0,
	   "a new thread (on the exited one's table) does the same");

	pthread_create(&t, NULL, producer, NULL);
	pthread_create(&u, NULL, consumer, NULL);
	ok(join(t) == 0 && join(u) == 0,
	   "%d blocks handed from thread to thread, each found and freed by "
	   "the receiver while both churn their own", HANDED);
	ok(reg_host_count() == 0, "no block left behind");
	return done();
}
