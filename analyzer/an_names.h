/* SPDX-License-Identifier: MIT */
/* Names users read, from the shared vocabulary in common/hg_events.h. */
#ifndef AN_NAMES_H
#define AN_NAMES_H

#include <stddef.h>
#include <stdint.h>

const char *an_api_name(unsigned api);
/* The API code of an entry point's name; 0 when hipgrain has none. */
unsigned an_api_by_name(const char *name);
const char *an_mem_name(unsigned mem);
const char *an_gran_name(unsigned gran);
/* The library an entry point belongs to, as users call it: "HIP",
 * "OpenMP", "HSA" or "C library". */
const char *an_api_lib(unsigned api);
/* NULL for a code hip_runtime_api.h does not name. */
/* "min, max" for a set of enum hg_aop bits. */
const char *an_aop_names(uint32_t bits, char *buf, size_t cap);
/* A hipMemAdvise advice as HIP names it ("hipMemAdviseSetCoarseGrain"),
 * else "advice N" in buf. */
const char *an_advice_name(int advice, char *buf, size_t cap);

#endif
