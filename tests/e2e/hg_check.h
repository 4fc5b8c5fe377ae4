/* SPDX-License-Identifier: MIT */
/* The e2e programs' one way to fail: a HIP call that should have worked,
 * named with its place and the runtime's error, exit 1. */
#ifndef HG_CHECK_H
#define HG_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                               \
	do {                                                                   \
		hipError_t e_ = (x);                                           \
		if (e_ != hipSuccess) {                                        \
			fprintf(stderr, "%s:%d: %s -> %s\n", __FILE__,         \
				__LINE__, #x, hipGetErrorName(e_));            \
			exit(1);                                               \
		}                                                              \
	} while (0)

#endif
