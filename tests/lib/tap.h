/* SPDX-License-Identifier: MIT */
/* Minimal TAP for C unit tests: ok(cond, name), then done(). */
#ifndef HG_TAP_H
#define HG_TAP_H

#include <stdio.h>

static int tap_n, tap_failed;

#define ok(cond, ...)                                                          \
	do {                                                                   \
		int c_ = !!(cond);                                             \
		printf("%sok %d - ", c_ ? "" : "not ", ++tap_n);               \
		printf(__VA_ARGS__);                                           \
		printf("\n");                                                  \
		if (!c_) {                                                     \
			tap_failed++;                                          \
			printf("#   %s:%d: %s\n", __FILE__, __LINE__, #cond);      \
		}                                                              \
	} while (0)

static inline int done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
