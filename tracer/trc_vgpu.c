/* SPDX-License-Identifier: MIT */
/*
 * What cannot work on a virtual GPU, said before the program fails: an
 * executable that holds device code, none of it for the profile's target.
 * HIP would answer its first launch with hipErrorNoBinaryForGpu, and the
 * report would only say that no kernel ran.  Code in the program's shared
 * libraries is not looked at: they are found only when it runs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "co.h"
#include "trc_int.h"
#include "vg_known.h"
#include "vg_profile.h"

/* Appends "proc" to the comma-separated list in buf unless it is there. */
static void add_target(char *buf, size_t cap, const char *proc)
{
	size_t n = strlen(buf), len = strlen(proc);
	for (const char *s = buf; (s = strstr(s, proc)); s += len)
		if ((s == buf || s[-1] == ' ') && (s[len] == ',' || !s[len]))
			return;
	snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", proc);
}

void trc_vgpu_check_code(const struct vg_profile *p, const char *prog)
{
	struct co_error err;
	struct co_set *set = co_set_from_file(prog, &err);
	char have[256] = "";
	bool fits = false;

	if (!set)
		return;
	for (size_t i = 0; i < co_set_count(set); i++) {
		const struct co_entry *e = co_set_entry(set, i);
		struct co_target t;
		if (!e->target[0] || co_target_parse(e->target, &t))
			continue;
		fits |= !strcmp(t.proc, p->gfx) || co_target_generic(t.proc);
		add_target(have, sizeof(have), t.proc);
	}
	co_set_free(set);
	/* The build it needs, and for a target older compilers reject
	 * (Debian 12's hipcc refuses --offload-arch=gfx942), which release's
	 * hipcc can make it. */
	const char *since = vg_known_since(p->gfx);
	if (have[0] && !fits)
		trc_err("virtual %s (%s): %s has no code object for %s, only for %s: "
			"its kernels cannot be launched (hipErrorNoBinaryForGpu); build "
			"with --offload-arch=%s%s%s%s",
			p->name, p->gfx, prog, p->gfx, have, p->gfx,
			since ? ", which hipcc knows from ROCm " : "", since ? since : "",
			since ? " on" : "");
}
