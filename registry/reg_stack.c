/* SPDX-License-Identifier: MIT */
#include "reg_stack.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "hg_os.h"

#define BUCKETS 16
#define WAYS 4

struct head {
	uintptr_t cfa;
	uint64_t id; /* 0: empty */
	uint32_t n;
};

/* One thread's memo, in one mapping: the heads, then per entry `cap`
 * slot offsets (from cfa - 8) and `cap` values. */
struct memo {
	size_t bytes;
	uintptr_t lo, hi; /* the thread's stack */
	unsigned cap;
	unsigned next[BUCKETS]; /* the way each bucket replaces next */
	struct head head[BUCKETS * WAYS];
	uint32_t *off;
	uint64_t *val;
};

static __thread struct memo *memo __attribute__((tls_model("initial-exec")));
static __thread int busy __attribute__((tls_model("initial-exec")));
static __thread int unusable __attribute__((tls_model("initial-exec")));
static unsigned cap_wanted = 48;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void gone(void *p)
{
	struct memo *m = p;

	memo = NULL;
	hg_os_free(m, m->bytes);
}

static void make_key(void)
{
	pthread_key_create(&key, gone);
}

static unsigned bucket(uintptr_t cfa)
{
	return (unsigned)((cfa >> 4) ^ (cfa >> 12)) & (BUCKETS - 1);
}

int reg_stack_enter(void)
{
	if (busy)
		return 0;
	busy = 1;
	atomic_signal_fence(memory_order_seq_cst);
	return 1;
}

void reg_stack_leave(void)
{
	atomic_signal_fence(memory_order_seq_cst);
	busy = 0;
}

/* Reads other frames' return-address slots: where the stack changed, a
 * slot may now lie in an instrumented frame's redzone. */
__attribute__((no_sanitize_address)) uint64_t reg_stack_recall(uintptr_t cfa)
{
	const struct memo *m = memo;
	unsigned b = bucket(cfa);

	if (!m)
		return 0;
	for (unsigned w = 0; w < WAYS; w++) {
		unsigned e = b * WAYS + w;
		const struct head *h = &m->head[e];
		const uint32_t *off = m->off + (size_t)e * m->cap;
		const uint64_t *val = m->val + (size_t)e * m->cap;
		uint32_t i = 0;

		if (h->cfa != cfa || !h->id)
			continue;
		while (i < h->n && *(const uint64_t *)(cfa - 8 + off[i]) == val[i])
			i++;
		if (i == h->n)
			return h->id;
	}
	return 0;
}

void reg_stack_set_depth(unsigned frames)
{
	cap_wanted = frames > REG_STACK_MAX_SLOTS ? REG_STACK_MAX_SLOTS : frames;
}

static struct memo *my_memo(void)
{
	pthread_attr_t attr;
	struct memo *m;
	void *lo;
	size_t size, bytes;
	unsigned cap = cap_wanted;

	if (memo || unusable)
		return memo;
	unusable = 1; /* until it works: never try twice */
	if (pthread_getattr_np(pthread_self(), &attr))
		return NULL;
	if (pthread_attr_getstack(&attr, &lo, &size)) {
		pthread_attr_destroy(&attr);
		return NULL;
	}
	pthread_attr_destroy(&attr);
	bytes = sizeof(*m) + (size_t)BUCKETS * WAYS * cap *
				     (sizeof(uint32_t) + sizeof(uint64_t));
	m = hg_os_alloc(bytes);
	if (!m)
		return NULL;
	m->bytes = bytes;
	m->lo = (uintptr_t)lo;
	m->hi = (uintptr_t)lo + size;
	m->cap = cap;
	m->val = (uint64_t *)(m + 1);
	m->off = (uint32_t *)(m->val + (size_t)BUCKETS * WAYS * cap);
	pthread_once(&once, make_key);
	pthread_setspecific(key, m);
	memo = m;
	unusable = 0;
	return m;
}

void reg_stack_remember(uintptr_t cfa, const struct reg_stack_slots *s,
			uint64_t id)
{
	struct memo *m = my_memo();
	unsigned b = bucket(cfa), e;
	uint32_t *off;
	uint64_t *val;

	if (!m || s->n == 0 || s->n > m->cap || cfa < m->lo || cfa > m->hi)
		return;
	for (unsigned i = 0; i < s->n; i++)
		if (s->addr[i] + 8 < cfa || s->addr[i] + 8 > m->hi ||
		    s->addr[i] + 8 - cfa > UINT32_MAX)
			return; /* not all on this thread's stack */
	e = b * WAYS + m->next[b];
	m->next[b] = (m->next[b] + 1) % WAYS;
	off = m->off + (size_t)e * m->cap;
	val = m->val + (size_t)e * m->cap;
	for (unsigned i = 0; i < s->n; i++) {
		off[i] = (uint32_t)(s->addr[i] + 8 - cfa);
		val[i] = s->val[i];
	}
	m->head[e] = (struct head){cfa, id, s->n};
}
