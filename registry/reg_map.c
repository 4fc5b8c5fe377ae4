/* SPDX-License-Identifier: MIT */
#include "reg_map.h"

#include "reg_os.h"

static uint32_t slot_of(const struct reg_map *m, uint64_t key)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(key >> 32) & m->mask;
}

static bool grow(struct reg_map *m)
{
	uint32_t oldcap = m->slots ? m->mask + 1 : 0;
	uint32_t cap = oldcap ? oldcap * 2 : 1024;
	struct reg_map_slot *old = m->slots;
	struct reg_map_slot *s = reg_os_alloc(cap * sizeof(*s));

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
	reg_os_free(old, oldcap * sizeof(*old));
	return true;
}

bool reg_map_put(struct reg_map *m, uint64_t key, void *value)
{
	bool ok = true;
	uint32_t i;

	reg_lock(&m->lock);
	if ((!m->slots || (m->used + 1) * 2 > m->mask + 1) && !grow(m)) {
		ok = false;
		goto out;
	}
	for (i = slot_of(m, key); m->slots[i].key && m->slots[i].key != key;
	     i = (i + 1) & m->mask)
		;
	if (!m->slots[i].key)
		m->used++;
	m->slots[i] = (struct reg_map_slot){key, value};
out:
	reg_unlock(&m->lock);
	return ok;
}

void *reg_map_get(struct reg_map *m, uint64_t key)
{
	void *v = NULL;

	reg_lock(&m->lock);
	if (m->slots)
		for (uint32_t i = slot_of(m, key); m->slots[i].key;
		     i = (i + 1) & m->mask)
			if (m->slots[i].key == key) {
				v = m->slots[i].value;
				break;
			}
	reg_unlock(&m->lock);
	return v;
}

size_t reg_map_values(struct reg_map *m, void **out, size_t max)
{
	size_t n = 0;

	reg_lock(&m->lock);
	for (uint32_t i = 0; m->slots && i <= m->mask && n < max; i++)
		if (m->slots[i].key)
			out[n++] = m->slots[i].value;
	reg_unlock(&m->lock);
	return n;
}

/* Rebuilds the table: removals are rare (a library unloading). */
void reg_map_remove_if(struct reg_map *m, bool (*pred)(void *, void *),
		       void *arg, void (*drop)(void *))
{
	uint32_t cap;
	struct reg_map_slot *old;

	reg_lock(&m->lock);
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
	reg_os_free(old, cap * sizeof(*old));
	reg_unlock(&m->lock);
}
