/* SPDX-License-Identifier: MIT */
/*
 * Where kernels come from: the fat binaries hipcc's constructors register,
 * and images loaded with hipModuleLoad*.  Nothing is parsed here; the code
 * object is read at a kernel's first launch.
 */
#include <stdint.h>

#include "hg_events.h"
#include "pl_module.h"
#include "pl_boot.h"
#include "co.h"
#include "pl_export.h"
#include "pl_hip.h"
#include "pl_device.h"
#include "pl_launch.h"
#include "pl_profile.h"
#include "reg.h"

/* What __hipRegisterFatBinary receives (clang's __hip_fatbin_wrapper). */
struct fatbin_wrapper {
	uint32_t magic; /* "HIPF" */
	uint32_t version;
	const void *binary;
	const void *unused;
};

#define FATBIN_MAGIC 0x48495046u

PL_EXPORT void **__hipRegisterFatBinary(const void *data)
{
	static __typeof__(&__hipRegisterFatBinary) real;
	const struct fatbin_wrapper *w = data;
	int tr = pl_hip_enter(PL_Q_ASIDE);
	void **h;

	if (!real)
		real = (__typeof__(&__hipRegisterFatBinary))pl_next_sym(
			"__hipRegisterFatBinary");
	h = real(data);
	if (tr) {
		/* The wrapper is the compiler's own constant: reading it is the
		 * call's contract; a wrong magic means we do not know the
		 * layout, so the image is left alone.  Its targets are known
		 * now, before any launch: a runtime that cannot load any of
		 * them stops the program before the first one. */
		const void *img = w && w->magic == FATBIN_MAGIC ? w->binary : NULL;
		char targets[256];
		co_bundle_targets(img, targets, sizeof(targets));
		struct hg_tp_code_object co = {
			.module = (uintptr_t)h, .image = (uintptr_t)img,
			.targets = targets, .path = "", .rc = h ? 0 : -1,
			.api = HG_API_HIP_REGISTER_FAT_BINARY,
		};

		if (h)
			reg_module_add((uintptr_t)h, img, NULL, co.api);
		reg_emit_code_object(&co);
	}
	pl_hip_leave();
	return h;
}

PL_EXPORT void __hipRegisterFunction(void **modules, const void *host_function,
				     char *device_function,
				     const char *device_name,
				     unsigned int thread_limit, void *tid,
				     void *bid, dim3 *block_dim, dim3 *grid_dim,
				     int *wsize)
{
	static __typeof__(&__hipRegisterFunction) real;
	int tr = pl_hip_enter(PL_Q_ASIDE);

	if (!real)
		real = (__typeof__(&__hipRegisterFunction))pl_next_sym(
			"__hipRegisterFunction");
	real(modules, host_function, device_function, device_name, thread_limit,
	     tid, bid, block_dim, grid_dim, wsize);
	if (tr) {
		struct hg_tp_function f = {
			(uintptr_t)modules, (uintptr_t)host_function,
			device_function ? device_function : "", 0,
			HG_API_HIP_REGISTER_FUNCTION,
		};

		reg_kernel_add(f.handle, f.module, device_function);
		reg_emit_function(&f);
	}
	pl_hip_leave();
}

PL_EXPORT void __hipUnregisterFatBinary(void **modules)
{
	static __typeof__(&__hipUnregisterFatBinary) real;
	int tr = pl_hip_enter(PL_Q_ASIDE);

	if (!real)
		real = (__typeof__(&__hipUnregisterFatBinary))pl_next_sym(
			"__hipUnregisterFatBinary");
	if (tr) {
		pl_launch_flush(); /* their kernels' handles go with the module */
		if (pl_device_failed())
			pl_profile_unlaunched((uintptr_t)modules);
		reg_module_forget((uintptr_t)modules);
		reg_emit_call(HG_API_HIP_UNREGISTER_FAT_BINARY, 0,
			      (uintptr_t)modules);
	}
	real(modules);
	pl_hip_leave();
}

void pl_rec_module_load(uint8_t api, hipError_t rc, hipModule_t *m,
			const void *image, const char *path)
{
	uint64_t h = (rc == hipSuccess && m) ? (uintptr_t)*m : 0;
	struct hg_tp_code_object co = {
		.module = h, .image = (uintptr_t)image, .targets = "",
		.path = path ? path : "", .rc = rc, .api = api,
	};

	if (h)
		reg_module_add(h, image, path, api);
	reg_emit_code_object(&co);
}

void pl_rec_get_function(hipError_t rc, hipFunction_t *f, hipModule_t m,
			 const char *name)
{
	struct hg_tp_function ev = {
		.module = (uintptr_t)m, .name = name ? name : "", .rc = rc,
		.api = HG_API_HIP_MODULE_GET_FUNCTION,
	};

	if (rc == hipSuccess && f) {
		ev.handle = (uintptr_t)*f;
		reg_kernel_add(ev.handle, ev.module, name);
	}
	reg_emit_function(&ev);
}
