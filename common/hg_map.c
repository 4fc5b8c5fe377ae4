/* SPDX-License-Identifier: MIT */
#include "hg_map.h"

#include "hg_os.h"

static uint32_t slot_of(const struct hg_map *m, uint64_t key)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(key >> 32) & m->mask;
}

static bool grow(struct hg_map *m)
{
	uint32_t oldcap = m->slots ? m->mask + 1 : 0;
	uint32_t cap = oldcap ? oldcap * 2 : 1024;
	struct hg_map_slot *old = m->slots;
	struct hg_map_slot *s = hg_os_alloc(cap * sizeof(*s));

	if (!s)
		return false;
	m->slots = s;
	m->mask = cap - 1;
	for (uint32_t i = 0; i < oldcap; i++) {
		uint32_t j;

		if (!old[i].key)
			continue;
		for (j = slot_of(m, old[i].key); s[j].key; j = (j + 1) & m->mask)
			;
		s[j] = old[i];
	}
	hg_os_free(old, oldcap * sizeof(*old));
	return true;
}

bool hg_map_put(struct hg_map *m, uint64_t key, void *value)
{
	bool ok = true;
	uint32_t i;

	hg_spin_lock(&m->lock);
	if ((!m->slots || (m->used + 1) * 2 > m->mask + 1) && !grow(m)) {
		ok = false;
		goto out;
	}
	for (i = slot_of(m, key); m->slots[i].key && m->slots[i].key != key;
	     i = (i + 1) & m->mask)
		;
	if (!m->slots[i].key)
		m->used++;
	m->slots[i] = (struct hg_map_slot){key, value};
out:
	hg_spin_unlock(&m->lock);
	return ok;
}

void *hg_map_get(struct hg_map *m, uint64_t key)
{
	void *v = NULL;

	hg_spin_lock(&m->lock);
	if (m->slots)
		for (uint32_t i = slot_of(m, key); m->slots[i].key;
		     i = (i + 1) & m->mask)
			if (m->slots[i].key == key) {
				v = m->slots[i].value;
				break;
			}
	hg_spin_unlock(&m->lock);
	return v;
}

size_t hg_map_values(struct hg_map *m, void **out, size_t max)
{
	size_t n = 0;

	hg_spin_lock(&m->lock);
	for (uint32_t i = 0; m->slots && i <= m->mask && n < max; i++)
		if (m->slots[i].key)
			out[n++] = m->slots[i].value;
	hg_spin_unlock(&m->lock);
	return n;
}

/* Rebuilds the table: removals are rare (a library unloading). */
void hg_map_remove_if(struct hg_map *m, bool (*pred)(void *, void *),
		       void *arg, void (*drop)(void *))
{
	uint32_t cap;
	struct hg_map_slot *old;

	hg_spin_lock(&m->lock);
	cap = m->slots ? m->mask + 1 : 0;
	old = m->slots;
	m->slots = NULL;
	m->used = m->mask = 0;
	for (uint32_t i = 0; i < cap; i++) {
		uint32_t j;

		if (!old[i].key)
			continue;
		if (pred(old[i].value, arg)) {
			if (drop)
				drop(old[i].value);
			continue;
		}
		if ((!m->slots || (m->used + 1) * 2 > m->mask + 1) && !grow(m))
			break;
		for (j = slot_of(m, old[i].key); m->slots[j].key;
		     j = (j + 1) & m->mask)
			;
		m->slots[j] = old[i];
		m->used++;
	}
	hg_os_free(old, cap * sizeof(*old));
	hg_spin_unlock(&m->lock);
}
