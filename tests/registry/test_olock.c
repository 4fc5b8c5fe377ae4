/* SPDX-License-Identifier: MIT */
/* The owner lock (hg_olock.h): an owner thread and a visitor thread change
 * the same two counters, each inside the lock; a section that the other
 * entered at the same time would lose updates or see the pair half done.
 * Run with membarrier (the owner takes no atomic) and without. */
#include <pthread.h>
#include <stdatomic.h>

#include "hg_olock.h"
#include "tap.h"

#define OWNER_ROUNDS 200000
#define VISITS 2000
#define VISIT_ADD 1000

static hg_olock_t lock;
static volatile long x, y;
static atomic_int owner_done;

static void *visitor(void *arg)
{
	long torn = 0, refused = 0;

	(void)arg;
	for (int i = 0; i < VISITS; i++) {
		if (!hg_olock_visit(&lock)) {
			refused++;
			continue;
		}
		x = x + VISIT_ADD;
		/* a long window: an owner let in now is caught */
		for (volatile int k = 0; k < 2000; k++)
			;
		torn += x != y + VISIT_ADD;
		y = y + VISIT_ADD;
		hg_olock_leave(&lock);
	}
	return (void *)(torn * 2 + (refused ? 1 : 0));
}

static void round_trip(const char *how, int always)
{
	pthread_t t;
	void *res;
	long torn = 0;

	x = y = 0;
	lock = (hg_olock_t){0};
	hg_olock_start(&lock);
	if (always) /* as where membarrier cannot be used */
		atomic_store(&lock.visitor, HG_OLOCK_ALWAYS);
	atomic_store(&owner_done, 0);
	pthread_create(&t, NULL, visitor, NULL);
	for (int i = 0; i < OWNER_ROUNDS; i++) {
		int locked = hg_olock_own(&lock);

		torn += x != y;
		x = x + 1;
		/* a window in which the pair is half done */
		for (volatile int k = 0; k < 4; k++)
			;
		y = y + 1;
		hg_olock_disown(&lock, locked);
	}
	pthread_join(t, &res);
	ok(!torn, "%s: the owner never saw a visit half done (%ld)", how, torn);
	ok(!((long)res >> 1), "%s: a visitor never saw a launch half done "
	   "(%ld)", how, (long)res >> 1);
	ok(!((long)res & 1), "%s: every visit got in", how);
	ok(x == OWNER_ROUNDS + (long)VISITS * VISIT_ADD && x == y,
	   "%s: no update lost (x %ld, y %ld, want %ld)", how, x, y,
	   OWNER_ROUNDS + (long)VISITS * VISIT_ADD);
	ok(!atomic_load(&lock.busy) &&
		   atomic_load(&lock.visitor) == (always ? HG_OLOCK_ALWAYS : 0) &&
		   !atomic_load(&lock.lock.held),
	   "%s: left free", how);
}

int main(void)
{
	int asym = hg_olock_init();

	if (!asym)
		printf("# membarrier is not usable here: owners lock\n");
	round_trip(asym ? "membarrier" : "lock", 0);
	round_trip("lock", 1);

	/* After fork the child resets what the parent's threads held. */
	hg_olock_t held = {0};
	hg_spin_lock(&held.lock);
	atomic_store(&held.busy, 1);
	atomic_store(&held.visitor, 1);
	hg_olock_reset(&held);
	int locked = hg_olock_own(&held);

	hg_olock_disown(&held, locked);
	ok(locked == !asym && hg_olock_visit(&held) &&
		   (hg_olock_leave(&held), !atomic_load(&held.lock.held)),
	   "a reset lock can be owned and visited again");
	return done();
}
