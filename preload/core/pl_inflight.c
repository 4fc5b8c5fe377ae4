/* SPDX-License-Identifier: MIT */
/*
 * Calls in flight and the signal that ends the process during one.  The
 * records live in a fixed table, so a handler on any thread can read
 * every thread's (ROCr aborts on its own thread while the program's sits
 * in hipMemPrefetchAsync); a thread past the table keeps its record in
 * its own memory, read only when the signal arrives on that thread.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "pl_boot.h"
#include "pl_inflight.h"
#include "reg.h"

#define SLOTS 64

static struct pl_inflight slots[SLOTS];
static atomic_int owned[SLOTS];
static __thread struct pl_inflight spare
	__attribute__((tls_model("initial-exec")));
__thread struct pl_inflight *pl_inflight_self
	__attribute__((tls_model("initial-exec")));

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static const int fatal[] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE};
#define NFATAL (sizeof(fatal) / sizeof(*fatal))
static struct sigaction before[NFATAL];
static atomic_int told;

static void release(void *arg)
{
	struct pl_inflight *s = arg;

	atomic_store(&s->name, NULL);
	atomic_store(&owned[s - slots], 0);
}

static void make_key(void)
{
	pthread_key_create(&key, release);
}

struct pl_inflight *pl_inflight_claim(void)
{
	pthread_once(&key_once, make_key);
	for (unsigned i = 0; i < SLOTS; i++) {
		int free_ = 0;

		if (atomic_compare_exchange_strong(&owned[i], &free_, 1)) {
			pl_inflight_self = &slots[i];
			pthread_setspecific(key, &slots[i]);
			return &slots[i];
		}
	}
	pl_inflight_self = &spare;
	return &spare;
}

/* A call's site from its return address, unless this thread was in
 * hipgrain's own code (which may hold the table's lock) when it died. */
static uint64_t site_of(const struct pl_inflight *s)
{
	if (s->op.api)
		return s->op.callsite;
	return pl_depth == pl_in_runtime ? reg_track_caller_site(s->caller) : 0;
}

static void tell(const struct pl_inflight *s, int sig, int here)
{
	struct hg_tp_range_op none = {0};
	const char *name = atomic_load_explicit(&s->name, memory_order_acquire);
	struct hg_tp_died d = {
		.name = name, .signal = sig, .here = (uint8_t)here,
		.op = s->op.api ? &s->op : &none,
	};

	if (!name)
		return;
	d.callsite = site_of(s);
	reg_emit_died(&d);
}

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	unsigned i;

	(void)uc;
	if (!atomic_exchange(&told, 1)) {
		PL_NESTED();
		for (unsigned k = 0; k < SLOTS; k++)
			tell(&slots[k], sig, pl_inflight_self == &slots[k]);
		if (pl_inflight_self == &spare)
			tell(&spare, sig, 1);
	}
	for (i = 0; i < NFATAL && fatal[i] != sig; i++)
		;
	if (i < NFATAL)
		sigaction(sig, &before[i], NULL);
	errno = saved;
	/* A fault returns to its instruction and meets the old action; a
	 * signal sent (abort's raise, kill) is sent again. */
	if (si->si_code <= 0)
		raise(sig);
}

/* In a child, the other threads' calls did not come along. */
static void forget_others(void)
{
	for (unsigned k = 0; k < SLOTS; k++)
		if (&slots[k] != pl_inflight_self) {
			atomic_store(&slots[k].name, NULL);
			atomic_store(&owned[k], 0);
		}
	atomic_store(&told, 0);
}

void pl_inflight_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fatal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < NFATAL; i++) {
		struct sigaction cur;

		/* A program (or a debugger's preload) that chose first keeps
		 * its choice: only the default action is replaced. */
		if (sigaction(fatal[i], NULL, &cur) || cur.sa_handler != SIG_DFL)
			continue;
		before[i] = cur;
		sigaction(fatal[i], &sa, NULL);
	}
	pthread_atfork(NULL, NULL, forget_others);
}
