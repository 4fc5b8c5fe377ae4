/* SPDX-License-Identifier: MIT */
#include "hg_env.h"

#include <errno.h>
#include <stdlib.h>

const struct hg_env_var hg_env_table[HG_ENV_COUNT] = {
#define HG_X(id, n, k, d, doc) [HG_ENV_##id] = {n, k, d, doc},
	HG_ENV_LIST(HG_X)
#undef HG_X
};

const char *hg_env_get(enum hg_env_id id)
{
	const char *v = getenv(hg_env_table[id].name);

	return (v && *v) ? v : hg_env_table[id].def;
}

int hg_env_isset(enum hg_env_id id)
{
	return getenv(hg_env_table[id].name) != NULL;
}

unsigned long long hg_env_get_ull(enum hg_env_id id, unsigned long long lo,
				  unsigned long long hi)
{
	const char *v = hg_env_get(id);
	unsigned long long def = strtoull(hg_env_table[id].def, NULL, 0);
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(v, &end, 0);
	if (errno || end == v || *end || n < lo || n > hi)
		return def;
	return n;
}
