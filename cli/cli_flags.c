/* SPDX-License-Identifier: MIT */
#include "cli_flags.h"

#include <stdio.h>

#include "hg_events.h"

struct cli_flag {
	uint64_t v;
	const char *name;
};

/* HIP's names, as its headers give them.  hipExtMallocWithFlags takes one
 * value, the others a set of bits. */
static const struct cli_flag host_malloc[] = {
	{0x1, "hipHostMallocPortable"}, {0x2, "hipHostMallocMapped"},
	{0x4, "hipHostMallocWriteCombined"}, {0x20000000, "hipHostMallocNumaUser"},
	{0x40000000, "hipHostMallocCoherent"},
	{0x80000000, "hipHostMallocNonCoherent"}, {0, NULL}};
static const struct cli_flag managed[] = {
	{0x1, "hipMemAttachGlobal"}, {0x2, "hipMemAttachHost"},
	{0x4, "hipMemAttachSingle"}, {0, NULL}};
static const struct cli_flag host_register[] = {
	{0x1, "hipHostRegisterPortable"}, {0x2, "hipHostRegisterMapped"},
	{0x4, "hipHostRegisterIoMemory"}, {0x8, "hipHostRegisterReadOnly"},
	{0, NULL}};
static const struct cli_flag device_malloc[] = {
	{0x0, "hipDeviceMallocDefault"}, {0x1, "hipDeviceMallocFinegrained"},
	{0x2, "hipMallocSignalMemory"}, {0x3, "hipDeviceMallocUncached"},
	{0, NULL}};

static const char *cli_bits(const struct cli_flag *t, const char *none,
			    uint64_t flags, char *buf, size_t cap)
{
	size_t o = 0;

	buf[0] = '\0';
	if (!flags)
		return snprintf(buf, cap, "%s", none), buf;
	for (; t->name && o < cap; t++)
		if (flags & t->v) {
			o += (size_t)snprintf(buf + o, cap - o, "%s%s",
					      o ? "|" : "", t->name);
			flags &= ~t->v;
		}
	if (flags && o < cap)
		snprintf(buf + o, cap - o, "%s0x%llx", o ? "|" : "",
			 (unsigned long long)flags);
	return buf;
}

static const char *cli_value_name(const struct cli_flag *t, uint64_t flags,
				  char *buf, size_t cap)
{
	for (; t->name; t++)
		if (t->v == flags)
			return snprintf(buf, cap, "%s", t->name), buf;
	snprintf(buf, cap, "0x%llx", (unsigned long long)flags);
	return buf;
}

const char *cli_flags_text(uint8_t api, uint64_t flags, char *buf, size_t cap)
{
	switch (api) {
	case HG_API_HIP_HOST_MALLOC:
	case HG_API_HIP_HOST_ALLOC:
	case HG_API_HIP_EXT_HOST_ALLOC:
		return cli_bits(host_malloc, "hipHostMallocDefault", flags, buf,
				cap);
	case HG_API_HIP_MALLOC_MANAGED:
		return cli_bits(managed, "0", flags, buf, cap);
	case HG_API_HIP_HOST_REGISTER:
		return cli_bits(host_register, "hipHostRegisterDefault", flags,
				buf, cap);
	case HG_API_HIP_EXT_MALLOC_WITH_FLAGS:
		return cli_value_name(device_malloc, flags, buf, cap);
	}
	buf[0] = '\0';
	return buf;
}
