/* SPDX-License-Identifier: MIT */
#include "an_names.h"

#include <stdio.h>
#include <string.h>

#include "co.h"
#include "hg_events.h"

const char *an_api_name(unsigned api)
{
	switch (api) {
#define HG_X(v, id, name, cls) case v: return name;
		HG_API_LIST(HG_X)
#undef HG_X
	}
	return "unknown";
}

unsigned an_api_by_name(const char *name)
{
#define HG_X(v, id, nm, cls) if (!strcmp(name, nm)) return v;
	HG_API_LIST(HG_X)
#undef HG_X
	return 0;
}

const char *an_api_lib(unsigned api)
{
	switch (api) {
#define HG_L(X, lib, list) list(X##_##lib)
#define HG_X_NONE(v, id, name, cls) case v: return "unknown";
#define HG_X_SYSTEM(v, id, name, cls) case v: return "C library";
#define HG_X_HIP(v, id, name, cls) case v: return "HIP";
#define HG_X_OMP(v, id, name, cls) case v: return "OpenMP";
#define HG_X_HSA(v, id, name, cls) case v: return "HSA";
		HG_API_LISTS(HG_L, HG_X)
#undef HG_L
#undef HG_X_NONE
#undef HG_X_SYSTEM
#undef HG_X_HIP
#undef HG_X_OMP
#undef HG_X_HSA
	}
	return "unknown";
}

const char *an_mem_name(unsigned mem)
{
	switch (mem) {
#define HG_X(v, id, name) case v: return name;
		HG_MEM_LIST(HG_X)
#undef HG_X
	}
	return "unknown";
}

const char *an_gran_name(unsigned gran)
{
	switch (gran) {
#define HG_X(v, id, name) case v: return name;
		HG_GRAN_LIST(HG_X)
#undef HG_X
	}
	return "unknown";
}

const char *an_aop_names(uint32_t bits, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned b = 0; b < 32 && o < cap; b++)
		if (bits & (1u << b) && *co_aop_name(1u << b))
			o += (size_t)snprintf(buf + o, cap - o, "%s%s",
					      o ? ", " : "", co_aop_name(1u << b));
	return buf;
}

/* hipMemoryAdvise's values, the same in every release's hip_runtime_api.h
 * (ROCm 5.2 in Debian 12, 5.7 in trixie, 6.4 in sid). */
const char *an_advice_name(int advice, char *buf, size_t cap)
{
	static const struct {
		int v;
		const char *name;
	} names[] = {
		{1, "hipMemAdviseSetReadMostly"},
		{2, "hipMemAdviseUnsetReadMostly"},
		{3, "hipMemAdviseSetPreferredLocation"},
		{4, "hipMemAdviseUnsetPreferredLocation"},
		{5, "hipMemAdviseSetAccessedBy"},
		{6, "hipMemAdviseUnsetAccessedBy"},
		{100, "hipMemAdviseSetCoarseGrain"},
		{101, "hipMemAdviseUnsetCoarseGrain"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].v == advice)
			return names[i].name;
	snprintf(buf, cap, "advice %d", advice);
	return buf;
}
