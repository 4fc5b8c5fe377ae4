/* SPDX-License-Identifier: MIT */
/* Opens the plugin late, optionally with RTLD_DEEPBIND, and runs it.
 * usage: hg_dlopen PLUGIN [deepbind] */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int flags = RTLD_NOW | RTLD_LOCAL;
	void *h;
	int (*run)(void);

	if (argc < 2)
		return 64;
	if (argc > 2 && !strcmp(argv[2], "deepbind"))
		flags |= RTLD_DEEPBIND;
	h = dlopen(argv[1], flags);
	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	run = (int (*)(void))dlsym(h, "plugin_run");
	if (!run)
		return 1;
	printf("plugin_run: %d\n", run());
	return 0;
}
