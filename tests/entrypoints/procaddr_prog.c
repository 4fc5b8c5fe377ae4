/* SPDX-License-Identifier: MIT */
/* procaddr_prog [preloaded]: hipGetProcAddress must hand back hipgrain's
 * wrapper wherever one exists (the name the runtime resolved, versioned
 * lookups too) and the runtime's own function otherwise.  Without the
 * preload every answer is the runtime's. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Called directly, so the program links (and loads) the fake runtime. */
int hipFakeQuery(void);

typedef int (*gpa_fn)(const char *, void **, int, uint64_t, int *);

static int fails;

static void expect(const char *what, void *got, void *want)
{
	if (got != want) {
		printf("FAIL %s: got %p, want %p\n", what, got, want);
		fails++;
	}
}

static void *lookup(const char *name, int version)
{
	gpa_fn gpa = (gpa_fn)dlsym(RTLD_DEFAULT, "hipGetProcAddress");
	void *p = NULL;
	int st = -1;

	if (!gpa || gpa(name, &p, version, 0, &st) != 0 || st != 0)
		return NULL;
	return p;
}

int main(int argc, char **argv)
{
	void *fake = NULL;
	Dl_info info;

	/* The runtime is the object that defines hipFakeQuery. */
	if (hipFakeQuery() == 7 &&
	    dladdr(dlsym(RTLD_DEFAULT, "hipFakeQuery"), &info))
		fake = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
	if (!fake) {
		printf("%s: the fake runtime is not loaded\n", argv[0]);
		return 2;
	}
	/* The program's own binding: the wrapper when preloaded. */
	expect("hipMalloc", lookup("hipMalloc", 600),
	       dlsym(RTLD_DEFAULT, "hipMalloc"));
	expect("hipMemAdvise@600", lookup("hipMemAdvise", 600),
	       dlsym(RTLD_DEFAULT, "hipMemAdvise"));
	expect("hipMemAdvise@700", lookup("hipMemAdvise", 700),
	       dlsym(RTLD_DEFAULT, "hipMemAdvise_v2"));
	expect("hipFakeQuery", lookup("hipFakeQuery", 600),
	       dlsym(fake, "hipFakeQuery"));
	/* "preloaded": the wrapper must not be the runtime's own function. */
	if (argc > 1 && !strcmp(argv[1], "preloaded") &&
	    lookup("hipMalloc", 600) == dlsym(fake, "hipMalloc")) {
		printf("FAIL hipMalloc: the runtime's, not hipgrain's\n");
		fails++;
	}
	expect("unknown", lookup("hipNoSuchThing", 600), NULL);
	printf("%s\n", fails ? "FAILED" : "ok");
	return fails != 0;
}
