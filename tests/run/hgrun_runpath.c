/* SPDX-License-Identifier: MIT */
/*
 * Opens a library by its bare name, which only this program's RUNPATH
 * ($ORIGIN/runpath) finds, as libomptarget opens its offload plugins:
 * prints what the library's function returns.
 *
 * usage: hgrun_runpath
 */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	void *h = dlopen("libhgrun-runpath-lib.so", RTLD_NOW);
	int (*fn)(void);

	if (!h) {
		fprintf(stderr, "hgrun_runpath: %s\n", dlerror());
		return 1;
	}
	*(void **)&fn = dlsym(h, "hgrun_runpath_answer");
	printf("answer=%d\n", fn ? fn() : -1);
	return 0;
}
