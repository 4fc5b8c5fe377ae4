/* SPDX-License-Identifier: MIT */
/* The launch forms and the unload of pl_kernel_forms.h. */
#include "pl_kernel_forms.h"

#include "hg_events.h"
#include "pl_device.h"
#include "pl_graph.h"
#include "pl_launch.h"
#include "pl_profile.h"
#include "reg.h"

void pl_rec_multi_kernel(hipError_t rc, hipLaunchParams *l, int n)
{
	/* No entry to launch: the call and its answer still say so. */
	if (!l || n < 1)
		reg_emit_call(HG_API_HIP_EXT_LAUNCH_MULTI_KERNEL_MULTI_DEVICE, rc,
			      (uintptr_t)l);
	for (int i = 0; l && i < n; i++)
		pl_graph_launch_or_capture(
			HG_API_HIP_EXT_LAUNCH_MULTI_KERNEL_MULTI_DEVICE, rc,
			l[i].func, l[i].gridDim, l[i].blockDim, l[i].args,
			NULL, l[i].sharedMem, l[i].stream);
}

/* While the module's image is still the runtime's, as
 * __hipUnregisterFatBinary does. */
void pl_module_unload_begin(hipModule_t m)
{
	pl_launch_flush();
	if (m && pl_device_failed())
		pl_profile_unlaunched((uintptr_t)m);
}

/* Only a module the runtime let go of is forgotten: a refused unload
 * leaves its kernels launchable. */
void pl_rec_module_unload(hipError_t rc, hipModule_t m)
{
	if (rc == hipSuccess && m)
		reg_module_forget((uintptr_t)m);
	reg_emit_call(HG_API_HIP_MODULE_UNLOAD, rc, (uintptr_t)m);
}
