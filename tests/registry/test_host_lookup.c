/* SPDX-License-Identifier: MIT */
/*
 * What a host-pointer lookup (a launch's, a copy's, an advice's) costs the
 * other threads: while another thread holds blocks, a lookup that this
 * thread's table or the shared one answers, and one that nothing answers,
 * stop no thread (no membarrier system call); only a block that another
 * thread's table holds moves that table, once.  The system calls are
 * counted by standing in for libc's syscall().
 */
#include <dlfcn.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "reg_host.h"
#include "tap.h"

#define BLOCKS 200
#define BLOCK_SIZE(i) ((size_t)16 + ((i) % 16) * 16)

static atomic_int barriers;

long syscall(long n, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (n == __NR_membarrier && a[0] == MEMBARRIER_CMD_PRIVATE_EXPEDITED)
		atomic_fetch_add(&barriers, 1);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static uintptr_t addr_of(unsigned party, unsigned i)
{
	return 0x100000000ull * (32 + party) + (uintptr_t)i * 512;
}

static long insert_all(unsigned party)
{
	long bad = 0;

	for (unsigned i = 0; i < BLOCKS; i++)
		bad += !reg_host_insert(addr_of(party, i), BLOCK_SIZE(i), 1, i);
	return bad;
}

/* Found from their last byte, and nothing past their end. */
static long find_all(unsigned party)
{
	struct reg_host_block b;
	long bad = 0;

	for (unsigned i = 0; i < BLOCKS; i++) {
		uintptr_t a = addr_of(party, i);

		bad += !reg_host_find(a + BLOCK_SIZE(i) - 1, &b) || b.addr != a;
		bad += reg_host_find(a + BLOCK_SIZE(i), &b);
	}
	return bad;
}

static pthread_barrier_t step;

static void *holder(void *arg)
{
	(void)arg;
	insert_all(1);
	pthread_barrier_wait(&step); /* its blocks are in its own table */
	pthread_barrier_wait(&step); /* main has looked */
	return NULL;
}

int main(void)
{
	long q = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	struct reg_host_block b;
	pthread_t t;
	int before;

	pthread_barrier_init(&step, NULL, 2);
	pthread_create(&t, NULL, holder, NULL);
	pthread_barrier_wait(&step);
	ok(insert_all(2) == 0 &&
		   reg_host_insert(addr_of(3, 0), 1 << 20, 1, 0),
	   "this thread's blocks, and a large one, inserted");
	before = atomic_load(&barriers);
	ok(find_all(2) == 0 && reg_host_find(addr_of(3, 0) + 700000, &b) &&
		   b.addr == addr_of(3, 0),
	   "this thread's blocks are found, interior pointers too");
	ok(!reg_host_find(addr_of(4, 0) + 8, &b) &&
		   !reg_host_find(addr_of(4, 100), &b),
	   "a pointer no table holds is not");
	ok(atomic_load(&barriers) == before,
	   "neither stopped the thread that holds blocks of its own");
	ok(find_all(1) == 0,
	   "the other thread's blocks are found, interior pointers too");
	if (q < 0 || !(q & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		printf("ok %d # skip the kernel has no expedited membarrier\n",
		       ++tap_n);
	else
		ok(atomic_load(&barriers) == before + 1,
		   "with one move for all of them");
	pthread_barrier_wait(&step);
	pthread_join(t, NULL);
	return done();
}
