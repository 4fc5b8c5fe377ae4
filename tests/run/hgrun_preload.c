/* SPDX-License-Identifier: MIT */
/* Stands in for libhipgrain-preload.so: proves the injection happened. */
__attribute__((visibility("default"))) int hgrun_preload_marker(void);

int hgrun_preload_marker(void)
{
	return 1;
}
