/* SPDX-License-Identifier: MIT */
/*
 * The one line a report opens with when the run could not show what it
 * was asked to: nothing to watch, no GPU to run on, or no kernel run on
 * the GPU there was.  Without it such a
 * run reads like a clean one.
 */
#include <stdio.h>
#include <string.h>

#include "an_names.h"
#include "an_output.h"

struct an_seen {
	bool kernels;  /* some GPU code was registered */
	bool launched; /* some launch of it succeeded */
};

static void an_seen_kernel(void *val, void *arg)
{
	const struct an_kernel *k = val;
	struct an_seen *s = arg;

	s->kernels = true;
	s->launched |= k->launched;
}

static void an_seen_proc(void *val, void *arg)
{
	hg_map_each(&((struct an_proc *)val)->kernels, an_seen_kernel, arg);
}

/* A runtime's allocation, copy or query was recorded. */
static bool an_runtime_used(const struct an_ctx *c)
{
	for (unsigned api = 0; api < 256; api++) {
		const char *lib = an_api_lib(api);

		if (strcmp(lib, "HIP") && strcmp(lib, "OpenMP") &&
		    strcmp(lib, "HSA"))
			continue;
		for (unsigned g = 0; g < 4; g++)
			if (c->inv[api][g].count)
				return true;
	}
	return false;
}

/* hipErrorNoDevice (100), hipErrorInvalidDevice (101), or an offload
 * entry point that fell back to the host. */
static bool an_fail_is_no_gpu(const struct an_fail *f)
{
	return f->rc == 100 || f->rc == 101 ||
	       !strcmp(an_api_lib(f->api), "OpenMP");
}

const char *an_notice(const struct an_ctx *c, char *buf, size_t cap)
{
	struct an_seen s = {0};
	bool no_gpu = c->no_gpu;

	hg_map_each(&c->procs, an_seen_proc, &s);
	for (const struct an_fail *f = c->fails; f; f = f->next)
		no_gpu |= an_fail_is_no_gpu(f);
	buf[0] = '\0';
	if (!s.kernels && !c->fails && !c->findings && !an_runtime_used(c))
		snprintf(buf, cap, "nothing to watch: the program registered no "
				   "GPU code and made no HIP or OpenMP offload "
				   "call (no such runtime was loaded, or it was "
				   "never used)");
	else if (no_gpu && !s.launched && !c->vgpu[0])
		snprintf(buf, cap, "no usable GPU: no kernel ran, so this "
				   "report holds what the program asked of the "
				   "runtime and what its kernels' code holds; "
				   "'hipgrain run --virtual-gpu MI210' runs it on "
				   "a virtual GPU, 'hipgrain scan PROGRAM' lists "
				   "every kernel's atomics");
	/* A dispatch the virtual GPU saw was launched, though the process
	 * died before its launch event was written (a memory access fault
	 * aborts it); and a runtime that could not drive the virtual GPU is
	 * the first line's to say. */
	else if (s.kernels && !s.launched && !(c->exec.ran | c->exec.faulted | c->exec.not_run) && !c->vgpu_why[0])
		snprintf(buf, cap, "no kernel was launched: the program "
				   "registered GPU code but no launch of it "
				   "succeeded, so this report holds what it "
				   "allocated, copied and advised, and what its "
				   "kernels' code holds");
	return buf[0] ? buf : NULL;
}
