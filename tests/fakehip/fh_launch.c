/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): code registration, modules
 * and launches.  Launches are checked and recorded (HGFAKE_LOG), never
 * executed: there is no GPU behind this library.
 */
#include "fh.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define FH_MAX_FATBINS 64
#define FH_MAX_FUNCS 1024
#define FH_MAX_MODULES 64
#define FH_CONFIG_DEPTH 8

/* The wrapper hipcc emits for each translation unit's offload bundle. */
struct fh_fatbin_wrapper {
	unsigned int magic;
	unsigned int version;
	const void *binary;
	void *unused;
};

static const struct fh_fatbin_wrapper *fh_fatbins[FH_MAX_FATBINS];
static struct {
	const void *host_fn;
	const char *name;
} fh_funcs[FH_MAX_FUNCS];
static size_t fh_nfuncs;

struct ihipModule_t {
	int used;
	const void *image;
};
struct ihipModuleSymbol_t {
	hipModule_t module;
	char name[256];
};
static struct ihipModule_t fh_modules[FH_MAX_MODULES];
static struct ihipModuleSymbol_t fh_symbols[FH_MAX_FUNCS];
static size_t fh_nsymbols;

static __thread struct {
	dim3 grid, block;
	size_t shmem;
	hipStream_t stream;
} fh_config[FH_CONFIG_DEPTH];
static __thread int fh_config_depth;

/* Declared nowhere in the headers: hipcc's generated host code calls them. */
#define FH_EXPORT __attribute__((visibility("default")))
FH_EXPORT void **__hipRegisterFatBinary(const void *data);
FH_EXPORT void __hipUnregisterFatBinary(void **modules);
FH_EXPORT void __hipRegisterFunction(void **modules, const void *host_fn, char *device_fn,
			   const char *device_name, unsigned int thread_limit,
			   uint3 *tid, uint3 *bid, dim3 *block, dim3 *grid, int *wsize);
FH_EXPORT void __hipRegisterVar(void **modules, void *var, char *host_var,
				char *device_var, int ext, size_t size,
				int constant, int global);

void **__hipRegisterFatBinary(const void *data)
{
	const struct fh_fatbin_wrapper *w = data;
	void **handle = NULL;
	fh_lock();
	for (size_t i = 0; i < FH_MAX_FATBINS && !handle; i++) {
		if (!fh_fatbins[i]) {
			fh_fatbins[i] = w;
			handle = (void **)&fh_fatbins[i];
		}
	}
	fh_unlock();
	fh_log("__hipRegisterFatBinary wrapper=%p magic=0x%x binary=%p -> %p", data,
	       w ? w->magic : 0u, w ? w->binary : NULL, (void *)handle);
	return handle;
}

void __hipUnregisterFatBinary(void **modules)
{
	fh_lock();
	if (modules)
		*modules = NULL;
	fh_unlock();
	fh_log("__hipUnregisterFatBinary handle=%p", (void *)modules);
}

void __hipRegisterFunction(void **modules, const void *host_fn, char *device_fn,
			   const char *device_name, unsigned int thread_limit,
			   uint3 *tid, uint3 *bid, dim3 *block, dim3 *grid, int *wsize)
{
	fh_lock();
	if (fh_nfuncs < FH_MAX_FUNCS) {
		fh_funcs[fh_nfuncs].host_fn = host_fn;
		fh_funcs[fh_nfuncs].name = device_name;
		fh_nfuncs++;
	}
	fh_unlock();
	fh_log("__hipRegisterFunction handle=%p fn=%p name=%s", (void *)modules,
	       host_fn, device_name);
}

void __hipRegisterVar(void **modules, void *var, char *host_var, char *device_var,
		      int ext, size_t size, int constant, int global)
{
	fh_var_register(var, size);
	fh_log("__hipRegisterVar handle=%p var=%p name=%s size=%zu", (void *)modules,
	       var, device_var, size);
}

const char *fh_kernel_name(const void *host_fn)
{
	const char *name = NULL;
	fh_lock();
	for (size_t i = 0; i < fh_nfuncs && !name; i++)
		if (fh_funcs[i].host_fn == host_fn)
			name = fh_funcs[i].name;
	fh_unlock();
	return name;
}

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shmem,
				      hipStream_t stream)
{
	FH_INIT();
	if (fh_config_depth == FH_CONFIG_DEPTH)
		return fh_ret(hipErrorInvalidConfiguration);
	fh_config[fh_config_depth].grid = grid;
	fh_config[fh_config_depth].block = block;
	fh_config[fh_config_depth].shmem = shmem;
	fh_config[fh_config_depth].stream = stream;
	fh_config_depth++;
	return fh_ret(hipSuccess);
}

hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem,
				     hipStream_t *stream)
{
	FH_INIT();
	if (fh_config_depth == 0)
		return fh_ret(hipErrorMissingConfiguration);
	fh_config_depth--;
	*grid = fh_config[fh_config_depth].grid;
	*block = fh_config[fh_config_depth].block;
	*shmem = fh_config[fh_config_depth].shmem;
	*stream = fh_config[fh_config_depth].stream;
	return fh_ret(hipSuccess);
}

static hipError_t fh_check_dims(dim3 grid, dim3 block)
{
	unsigned long long threads =
		(unsigned long long)block.x * block.y * block.z;
	if (!grid.x || !grid.y || !grid.z || !threads || threads > 1024)
		return hipErrorInvalidConfiguration;
	return hipSuccess;
}

static hipError_t fh_launch(const char *api, const void *fn, dim3 grid,
			    dim3 block, size_t shmem, hipStream_t stream)
{
	const char *name = fh_kernel_name(fn);
	hipError_t err = name ? fh_check_dims(grid, block)
			      : hipErrorInvalidDeviceFunction;
	/* On a capturing stream a launch is a node of the capture's graph. */
	int captured = err == hipSuccess && fh_capture_launch(stream);
	fh_log("%s fn=%p kernel=%s grid=%u,%u,%u block=%u,%u,%u shmem=%zu "
	       "stream=%p%s -> %s", api, fn, name ? name : "?", grid.x, grid.y,
	       grid.z, block.x, block.y, block.z, shmem, (void *)stream,
	       captured ? " captured" : "", hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args,
			   size_t shmem, hipStream_t stream)
{
	FH_INIT();
	return fh_launch("hipLaunchKernel", fn, grid, block, shmem, stream);
}

hipError_t hipExtLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args,
			      size_t shmem, hipStream_t stream, hipEvent_t start,
			      hipEvent_t stop, int flags)
{
	FH_INIT();
	return fh_launch("hipExtLaunchKernel", fn, grid, block, shmem, stream);
}

/* Exported by hand: ROCm 5.7's headers declare the _spt forms after their
 * visibility push has been popped. */
__attribute__((visibility("default")))
hipError_t hipLaunchKernel_spt(const void *fn, dim3 grid, dim3 block,
			       void **args, size_t shmem, hipStream_t stream)
{
	FH_INIT();
	return fh_launch("hipLaunchKernel_spt", fn, grid, block, shmem, stream);
}

hipError_t hipLaunchCooperativeKernel(const void *fn, dim3 grid, dim3 block,
				      void **args, unsigned int shmem,
				      hipStream_t stream)
{
	FH_INIT();
	return fh_launch("hipLaunchCooperativeKernel", fn, grid, block, shmem,
			 stream);
}

/* The launch API before HIP 3: a configuration pushed as <<<>>>'s is, its
 * arguments checked against the kernarg segment's 4 KiB, and a launch that
 * pops it. */
hipError_t hipConfigureCall(dim3 grid, dim3 block, size_t shmem,
			    hipStream_t stream)
{
	hipError_t err = __hipPushCallConfiguration(grid, block, shmem, stream);

	fh_log("hipConfigureCall grid=%u,%u,%u block=%u,%u,%u -> %s", grid.x,
	       grid.y, grid.z, block.x, block.y, block.z, hipGetErrorName(err));
	return err;
}

hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset)
{
	FH_INIT();
	hipError_t err = hipSuccess;

	if (!fh_config_depth)
		err = hipErrorMissingConfiguration;
	else if (!arg || offset > 4096 || size > 4096 - offset)
		err = hipErrorInvalidValue;
	fh_log("hipSetupArgument arg=%p size=%zu offset=%zu -> %s", arg, size,
	       offset, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipLaunchByPtr(const void *fn)
{
	dim3 grid, block;
	size_t shmem;
	hipStream_t stream;
	hipError_t err = __hipPopCallConfiguration(&grid, &block, &shmem,
						   &stream);

	if (err != hipSuccess)
		return err;
	return fh_launch("hipLaunchByPtr", fn, grid, block, shmem, stream);
}

static hipError_t fh_module_new(hipModule_t *module, const void *image)
{
	hipModule_t m = NULL;
	fh_lock();
	for (size_t i = 0; i < FH_MAX_MODULES && !m; i++)
		if (!fh_modules[i].used)
			m = &fh_modules[i];
	if (m)
		*m = (struct ihipModule_t){1, image};
	fh_unlock();
	if (!m)
		return hipErrorOutOfMemory;
	*module = m;
	return hipSuccess;
}

hipError_t hipModuleLoad(hipModule_t *module, const char *fname)
{
	FH_INIT();
	struct stat st;
	hipError_t err;
	if (!module || !fname)
		err = hipErrorInvalidValue;
	else if (stat(fname, &st) != 0 || !S_ISREG(st.st_mode))
		err = hipErrorFileNotFound;
	else
		err = fh_module_new(module, NULL);
	fh_log("hipModuleLoad path=%s module=%p -> %s", fname ? fname : "(null)",
	       err == hipSuccess ? (void *)*module : NULL, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
	FH_INIT();
	hipError_t err = module && image ? fh_module_new(module, image)
					 : hipErrorInvalidValue;
	fh_log("hipModuleLoadData image=%p module=%p -> %s", image,
	       err == hipSuccess ? (void *)*module : NULL, hipGetErrorName(err));
	return fh_ret(err);
}

hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image,
			       unsigned int n, hipJitOption *opts, void **values)
{
	return hipModuleLoadData(module, image);
}

static int fh_module_ok(hipModule_t m)
{
	return m >= fh_modules && m < fh_modules + FH_MAX_MODULES && m->used;
}

hipError_t hipModuleUnload(hipModule_t module)
{
	FH_INIT();
	if (!fh_module_ok(module))
		return fh_ret(hipErrorInvalidResourceHandle);
	module->used = 0;
	fh_log("hipModuleUnload module=%p -> hipSuccess", (void *)module);
	return fh_ret(hipSuccess);
}

/* Any name resolves: this double does not read the code object. */
hipError_t hipModuleGetFunction(hipFunction_t *fn, hipModule_t module,
				const char *name)
{
	FH_INIT();
	if (!fn || !name)
		return fh_ret(hipErrorInvalidValue);
	if (!fh_module_ok(module))
		return fh_ret(hipErrorInvalidResourceHandle);
	fh_lock();
	hipFunction_t f = fh_nsymbols < FH_MAX_FUNCS ? &fh_symbols[fh_nsymbols++] : NULL;
	if (f) {
		f->module = module;
		snprintf(f->name, sizeof(f->name), "%s", name);
	}
	fh_unlock();
	if (!f)
		return fh_ret(hipErrorOutOfMemory);
	*fn = f;
	fh_log("hipModuleGetFunction module=%p name=%s fn=%p -> hipSuccess",
	       (void *)module, name, (void *)f);
	return fh_ret(hipSuccess);
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy,
				 unsigned int gz, unsigned int bx, unsigned int by,
				 unsigned int bz, unsigned int shmem,
				 hipStream_t stream, void **params, void **extra)
{
	FH_INIT();
	dim3 grid = {gx, gy, gz}, block = {bx, by, bz};
	hipError_t err = f && fh_module_ok(f->module) ? fh_check_dims(grid, block)
						      : hipErrorInvalidResourceHandle;
	fh_log("hipModuleLaunchKernel fn=%p kernel=%s grid=%u,%u,%u "
	       "block=%u,%u,%u shmem=%u stream=%p -> %s", (void *)f,
	       f ? f->name : "?", gx, gy, gz, bx, by, bz, shmem, (void *)stream,
	       hipGetErrorName(err));
	return fh_ret(err);
}
