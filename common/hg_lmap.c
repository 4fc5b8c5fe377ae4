/* SPDX-License-Identifier: MIT */
#include "hg_lmap.h"

#include "hg_os.h"

const struct hg_map_mem hg_lmap_os_mem = {hg_os_alloc, hg_os_free};

bool hg_lmap_put(struct hg_lmap *m, uint64_t key, void *value)
{
	int rc;

	hg_spin_lock(&m->lock);
	rc = hg_map_put(&m->map, key, value);
	hg_spin_unlock(&m->lock);
	return rc == 0;
}

void *hg_lmap_get(struct hg_lmap *m, uint64_t key)
{
	void *v;

	hg_spin_lock(&m->lock);
	v = hg_map_get(&m->map, key);
	hg_spin_unlock(&m->lock);
	return v;
}

struct hg_lmap_out {
	void **out;
	size_t n, max;
};

static void hg_lmap_copy(void *val, void *arg)
{
	struct hg_lmap_out *o = arg;

	if (o->n < o->max)
		o->out[o->n++] = val;
}

size_t hg_lmap_values(struct hg_lmap *m, void **out, size_t max)
{
	struct hg_lmap_out o = {out, 0, max};

	hg_spin_lock(&m->lock);
	hg_map_each(&m->map, hg_lmap_copy, &o);
	hg_spin_unlock(&m->lock);
	return o.n;
}

/* Removals are rare (a library unloading): a pass over every slot. */
void hg_lmap_remove_if(struct hg_lmap *m, bool (*pred)(void *, void *),
		       void *arg, void (*drop)(void *))
{
	hg_spin_lock(&m->lock);
	hg_map_del_if(&m->map, pred, arg, drop);
	hg_spin_unlock(&m->lock);
}
