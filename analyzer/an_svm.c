/* SPDX-License-Identifier: MIT */
#include "an_svm.h"

#include <stdlib.h>

#include "kd_flags.h"

/* What to do to each range between the ends: its attributes, or drop it. */
struct an_svm_edit {
	const uint32_t *attrs;
	size_t npairs;
	bool drop;
};

static void an_svm_apply(struct an_svm_range *r, const struct an_svm_edit *e)
{
	for (size_t i = 0; i < e->npairs; i++) {
		uint32_t v = e->attrs[2 * i + 1];

		switch (e->attrs[2 * i]) {
		case KFD_IOCTL_SVM_ATTR_PREFETCH_LOC:
			r->loc = v;
			r->has_loc = true;
			break;
		case KFD_IOCTL_SVM_ATTR_SET_FLAGS:
			r->set |= v;
			r->cleared &= ~v;
			break;
		case KFD_IOCTL_SVM_ATTR_CLR_FLAGS:
			r->set &= ~v;
			r->cleared |= v;
			break;
		case KFD_IOCTL_SVM_ATTR_PREFERRED_LOC:
			r->pref = v;
			r->has_pref = v != KFD_IOCTL_SVM_LOCATION_UNDEFINED;
			break;
		case KFD_IOCTL_SVM_ATTR_ACCESS:
			r->access |= v;
			r->in_place &= ~v;
			r->no_access &= ~v;
			break;
		case KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE:
			r->in_place |= v;
			r->access &= ~v;
			r->no_access &= ~v;
			break;
		case KFD_IOCTL_SVM_ATTR_NO_ACCESS:
			r->no_access |= v;
			r->access &= ~v;
			r->in_place &= ~v;
			break;
		default: /* migration hints: no granularity */
			break;
		}
	}
}

static size_t an_svm_put(struct an_svm_range *out, size_t n,
			 struct an_svm_range r, const struct an_svm_edit *e)
{
	if (e->drop || r.lo >= r.hi)
		return n;
	an_svm_apply(&r, e);
	out[n] = r;
	return n + 1;
}

static struct an_svm_range an_svm_new(uint64_t lo, uint64_t hi)
{
	return (struct an_svm_range){.lo = lo, .hi = hi,
				     .set = KD_SVM_FLAGS_DEFAULT};
}

static bool an_svm_same(const struct an_svm_range *a,
			const struct an_svm_range *b)
{
	return a->hi == b->lo && a->set == b->set && a->cleared == b->cleared &&
	       a->has_loc == b->has_loc && a->loc == b->loc &&
	       a->access == b->access && a->in_place == b->in_place &&
	       a->no_access == b->no_access && a->has_pref == b->has_pref &&
	       a->pref == b->pref;
}

/* Neighbours alike become one range, as few as the attributes allow. */
static void an_svm_merge(struct an_svm *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (n && an_svm_same(&s->v[n - 1], &s->v[i]))
			s->v[n - 1].hi = s->v[i].hi;
		else
			s->v[n++] = s->v[i];
	}
	s->n = n;
}

/* Ranges before lo as they were; those over [lo, hi) cut at its ends, the
 * gaps between them filled with new ranges, each edited; then the rest. */
static int an_svm_edit(struct an_svm *s, uint64_t lo, uint64_t hi,
		       const struct an_svm_edit *e)
{
	size_t cap = 2 * s->n + 4, n = 0, i = 0;
	struct an_svm_range *out = malloc(cap * sizeof(*out));
	uint64_t at = lo;

	if (!out)
		return -1;
	for (; i < s->n && s->v[i].hi <= lo; i++)
		out[n++] = s->v[i];
	for (; i < s->n && s->v[i].lo < hi; i++) {
		struct an_svm_range r = s->v[i], mid;

		if (r.lo < lo) {
			out[n] = r;
			out[n++].hi = lo;
			r.lo = lo;
		}
		n = an_svm_put(out, n, an_svm_new(at, r.lo), e);
		mid = r;
		mid.hi = r.hi < hi ? r.hi : hi;
		n = an_svm_put(out, n, mid, e);
		if (r.hi > hi) {
			out[n] = r;
			out[n++].lo = hi;
		}
		at = mid.hi;
	}
	n = an_svm_put(out, n, an_svm_new(at, hi), e);
	for (; i < s->n; i++)
		out[n++] = s->v[i];
	free(s->v);
	*s = (struct an_svm){out, n, cap};
	an_svm_merge(s);
	return 0;
}

int an_svm_set(struct an_svm *s, uint64_t lo, uint64_t hi,
	       const uint32_t *attrs, size_t npairs)
{
	struct an_svm_edit e = {attrs, npairs, false};

	return lo < hi ? an_svm_edit(s, lo, hi, &e) : 0;
}

int an_svm_drop(struct an_svm *s, uint64_t lo, uint64_t hi)
{
	struct an_svm_edit e = {NULL, 0, true};

	return lo < hi && s->n ? an_svm_edit(s, lo, hi, &e) : 0;
}

const struct an_svm_range *an_svm_from(const struct an_svm *s, uint64_t lo)
{
	size_t a = 0, b = s->n;

	while (a < b) {
		size_t m = a + (b - a) / 2;

		if (s->v[m].hi <= lo)
			a = m + 1;
		else
			b = m;
	}
	return a < s->n ? &s->v[a] : NULL;
}

bool an_svm_gpu_mapped(const struct an_svm *s, uint64_t lo, uint64_t hi)
{
	const struct an_svm_range *r = an_svm_from(s, lo);
	uint64_t at = lo;

	for (; r && r < s->v + s->n && at < hi; r++) {
		if (r->lo > at || !(r->access | r->in_place))
			return false;
		at = r->hi;
	}
	return lo < hi && at >= hi;
}

bool an_svm_stays(const struct an_svm *s, uint64_t lo, uint64_t hi)
{
	const struct an_svm_range *r = an_svm_from(s, lo);

	for (; r && r < s->v + s->n && r->lo < hi; r++)
		if ((r->has_pref && r->pref == KFD_IOCTL_SVM_LOCATION_SYSMEM) ||
		    r->in_place || r->no_access)
			return true;
	return false;
}

void an_svm_fini(struct an_svm *s)
{
	free(s->v);
	*s = (struct an_svm){0};
}
