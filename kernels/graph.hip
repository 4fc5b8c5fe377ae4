// SPDX-License-Identifier: MIT
//
// graph: memory reached through HIP graphs, stream-ordered pools and the
// virtual memory API.  One kernel adds with hardware FP atomics
// (unsafeAtomicAdd: flat/global_atomic_add_f64 on gfx90a) into `acc`; seed
// 000: on MI100/MI200 those atomics are NOPs on fine-grained memory.  A
// graph's kernel node runs at each hipGraphLaunch, with the argument values
// it was given when it was added (or captured), so hipgrain must resolve
// them there.  Pools and hipMemCreate say where their memory is in
// properties, and that decides its granularity.
//
//   VARIANT          acc                                hipgrain on gfx90a
//   node-fine        hipHostMalloc, kernel node         fp-atomic-fine-grain
//   node-coarse      hipMalloc, kernel node             none
//   node-unlaunched  hipHostMalloc, kernel node in a    none (never runs)
//                    graph never launched
//   capture-fine     hipHostMalloc, <<<>>> captured     fp-atomic-fine-grain
//   capture-coarse   hipMalloc, <<<>>> captured         none
//   exec-set         hipMalloc in the node, then        fp-atomic-fine-grain
//                    hipHostMalloc set in the
//                    executable graph's node
//   graph-set        hipMalloc in the node, then        fp-atomic-fine-grain
//                    hipHostMalloc set in the graph's
//                    node, then instantiation
//   graph-set-late   hipMalloc in the node, then        none (an executable
//                    hipHostMalloc set in the graph's   graph keeps the
//                    node after instantiation           nodes it was made of)
//   copy-pageable    hipMalloc in the node; a copy      async-copy-pageable
//                    node after it refreshes the input  (staged at each launch)
//                    from malloc() memory
//   copy-pinned      the same copy from hipHostMalloc   none
//   pool-default     hipMallocAsync (device's pool)     none (coarse)
//   pool-device      hipMallocFromPoolAsync, a pool     none (coarse)
//                    on the device
//   pool-host        hipMallocFromPoolAsync, a pool     fp-atomic-fine-grain
//                    on the host (ROCm 7)
//   pool-set-host    hipMallocAsync after               fp-atomic-fine-grain
//                    hipDeviceSetMemPool of that pool
//   vm-pinned        hipMemCreate (pinned, device),     none (coarse)
//                    hipMemMap
//   vm-uncached      hipMemCreate (uncached, ROCm 7),   fp-atomic-fine-grain
//                    hipMemMap
//   vm-import        vm-pinned's handle exported to a   none (coarse: the
//                    file descriptor and imported, as   handle's properties,
//                    by another process                 asked of the runtime)
//   vm-import-uncached  the same, uncached              fp-atomic-fine-grain
//   vm-import-foreign   a memfd made by no HIP call,    none (granularity
//                    imported                           unknown: a warning)
//   pool-import      a device pool exported to a file   none (coarse before
//                    descriptor and imported; acc is    ROCm 7; unknown from
//                    a pointer from it, imported        it: a warning)
//
// Exit 0 with "graph VARIANT: sum=... expected=... OK|MISMATCH".
#include "demo.h"

#include <sys/mman.h>
#include <unistd.h>

#define N 1024

// ROCm 7's values, absent from older headers: a pool's memory on the host
// and fine-grained (uncached) device memory.
#define LOC_HOST ((hipMemLocationType)2)
#define TYPE_UNCACHED ((hipMemAllocationType)0x40000000)

__global__ void accumulate(double *acc, const double *in, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;
	if (i < n)
		unsafeAtomicAdd(acc, in[i]);
}

enum variant {
	NODE_FINE, NODE_COARSE, NODE_UNLAUNCHED, CAPTURE_FINE, CAPTURE_COARSE,
	EXEC_SET, GRAPH_SET, GRAPH_SET_LATE, COPY_PAGEABLE, COPY_PINNED,
	POOL_DEFAULT, POOL_DEVICE, POOL_HOST,
	POOL_SET_HOST, VM_PINNED, VM_UNCACHED, VM_IMPORT, VM_IMPORT_UNCACHED,
	VM_IMPORT_FOREIGN, POOL_IMPORT, COUNT
};

static const char *const names[COUNT] = {
	"node-fine", "node-coarse", "node-unlaunched", "capture-fine",
	"capture-coarse", "exec-set", "graph-set", "graph-set-late",
	"copy-pageable", "copy-pinned", "pool-default", "pool-device", "pool-host",
	"pool-set-host", "vm-pinned", "vm-uncached", "vm-import",
	"vm-import-uncached", "vm-import-foreign", "pool-import",
};

struct vm {
	hipMemGenericAllocationHandle_t handle;
	void *va;
	size_t size;
};

#define BY_FD hipMemHandleTypePosixFileDescriptor

// The handle through a file descriptor, as another process would get it:
// exported from one made here, or (foreign) a memfd no HIP call made.
static void vm_import(struct vm *m, const hipMemAllocationProp *prop,
		      bool foreign)
{
	int fd = -1;
	if (foreign) {
		fd = memfd_create("graph-foreign", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)m->size)) {
			perror("graph: memfd");
			exit(1);
		}
	} else {
		hipMemGenericAllocationHandle_t mine;
		CHECK(hipMemCreate(&mine, m->size, prop, 0));
		CHECK(hipMemExportToShareableHandle(&fd, mine, BY_FD, 0));
		CHECK(hipMemRelease(mine));
	}
	CHECK(hipMemImportFromShareableHandle(&m->handle,
					      (void *)(uintptr_t)fd, BY_FD));
	// hipgrain asks the handle's properties: a question the runtime
	// could not answer is not the program's error.
	CHECK(hipGetLastError());
	close(fd);
}

// One double's worth of VA backed by a handle of the given type: made
// here (how 0), imported (1), imported from a foreign descriptor (2).
static double *vm_alloc(struct vm *m, hipMemAllocationType type, int dev,
			int how)
{
	hipMemAllocationProp prop = {};
	prop.type = type;
	prop.requestedHandleType = how ? BY_FD : hipMemHandleTypeNone;
	prop.location.type = hipMemLocationTypeDevice;
	prop.location.id = dev;
	size_t gran = 0;
	CHECK(hipMemGetAllocationGranularity(&gran, &prop,
					     hipMemAllocationGranularityMinimum));
	m->size = gran;
	if (how)
		vm_import(m, &prop, how == 2);
	else
		CHECK(hipMemCreate(&m->handle, m->size, &prop, 0));
	CHECK(hipMemAddressReserve(&m->va, m->size, 0, nullptr, 0));
	CHECK(hipMemMap(m->va, m->size, 0, m->handle, 0));
	hipMemAccessDesc access = {};
	access.location = prop.location;
	access.flags = hipMemAccessFlagsProtReadWrite;
	CHECK(hipMemSetAccess(m->va, m->size, &access, 1));
	return (double *)m->va;
}

static void vm_free(struct vm *m)
{
	CHECK(hipMemUnmap(m->va, m->size));
	CHECK(hipMemRelease(m->handle));
	CHECK(hipMemAddressFree(m->va, m->size));
}

static hipMemPool_t pool_on(hipMemLocationType where, int dev)
{
	hipMemPoolProps props = {};
	props.allocType = hipMemAllocationTypePinned;
	props.handleTypes = BY_FD;
	props.location.type = where;
	props.location.id = dev;
	hipMemPool_t pool;
	CHECK(hipMemPoolCreate(&pool, &props));
	return pool;
}

static int n_arg = N;

static hipKernelNodeParams params(void **args)
{
	hipKernelNodeParams p = {};
	p.func = (void *)accumulate;
	p.gridDim = dim3(N / 256);
	p.blockDim = dim3(256);
	p.kernelParams = args;
	return p;
}

// The graph of one kernel node, built node by node or captured.
static hipGraph_t build(bool capture, hipStream_t s, double *acc,
			const double *in, hipGraphNode_t *node)
{
	hipGraph_t g;
	if (capture) {
		CHECK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
		hipLaunchKernelGGL(accumulate, dim3(N / 256), dim3(256), 0, s,
				   acc, in, N);
		CHECK_LAUNCH();
		CHECK(hipStreamEndCapture(s, &g));
		return g;
	}
	void *args[] = {&acc, &in, &n_arg};
	hipKernelNodeParams p = params(args);
	CHECK(hipGraphCreate(&g, 0));
	CHECK(hipGraphAddKernelNode(node, g, nullptr, 0, &p));
	return g;
}

int main(int argc, char **argv)
{
	int v = demo_pick(argc == 2 ? argv[1] : nullptr, names, COUNT);
	if (v < 0)
		demo_usage(argv[0], "{node-fine|node-coarse|node-unlaunched|"
			   "capture-fine|capture-coarse|exec-set|graph-set|"
			   "graph-set-late|copy-pageable|copy-pinned|"
			   "pool-default|pool-device|pool-host|"
			   "pool-set-host|vm-pinned|vm-uncached|vm-import|"
			   "vm-import-uncached|vm-import-foreign|pool-import}");

	int dev;
	CHECK(hipGetDevice(&dev));
	hipStream_t s;
	CHECK(hipStreamCreate(&s));
	static double host_in[N];
	for (int i = 0; i < N; i++)
		host_in[i] = 1;
	double *in, *acc = nullptr, *other = nullptr, *src = nullptr;
	CHECK(hipMalloc(&in, sizeof(host_in)));
	CHECK(hipMemcpy(in, host_in, sizeof(host_in), hipMemcpyHostToDevice));

	bool fine = v == NODE_FINE || v == NODE_UNLAUNCHED || v == CAPTURE_FINE;
	bool graph = v <= COPY_PINNED;
	hipMemPool_t pool = nullptr, imported = nullptr;
	double *exported = nullptr;
	struct vm m = {};
	if (v <= CAPTURE_COARSE && fine)
		CHECK(hipHostMalloc(&acc, sizeof(double)));
	else if (graph)
		CHECK(hipMalloc(&acc, sizeof(double)));
	else if (v == POOL_DEFAULT)
		CHECK(hipMallocAsync((void **)&acc, sizeof(double), s));
	else if (v == POOL_DEVICE || v == POOL_HOST) {
		pool = pool_on(v == POOL_HOST ? LOC_HOST : hipMemLocationTypeDevice,
			       dev);
		CHECK(hipMallocFromPoolAsync((void **)&acc, sizeof(double), pool, s));
	} else if (v == POOL_SET_HOST) {
		pool = pool_on(LOC_HOST, dev);
		CHECK(hipDeviceSetMemPool(dev, pool));
		CHECK(hipMallocAsync((void **)&acc, sizeof(double), s));
	} else if (v == POOL_IMPORT) {
		// The pool and then its pointer, as another process gets them.
		pool = pool_on(hipMemLocationTypeDevice, dev);
		CHECK(hipMallocFromPoolAsync((void **)&exported, sizeof(double),
					     pool, s));
		int fd = -1;
		CHECK(hipMemPoolExportToShareableHandle(&fd, pool, BY_FD, 0));
		CHECK(hipMemPoolImportFromShareableHandle(
			&imported, (void *)(uintptr_t)fd, BY_FD, 0));
		close(fd);
		hipMemPoolPtrExportData data;
		CHECK(hipMemPoolExportPointer(&data, exported));
		CHECK(hipMemPoolImportPointer((void **)&acc, imported, &data));
	} else
		acc = vm_alloc(&m, v == VM_UNCACHED || v == VM_IMPORT_UNCACHED
					   ? TYPE_UNCACHED
					   : hipMemAllocationTypePinned,
			       dev, v < VM_IMPORT ? 0 : v == VM_IMPORT_FOREIGN ? 2 : 1);
	CHECK(hipMemsetAsync(acc, 0, sizeof(double), s));

	if (graph) {
		hipGraphNode_t node = nullptr, copy;
		hipGraph_t g = build(v == CAPTURE_FINE || v == CAPTURE_COARSE, s,
				     acc, in, &node);
		if (v == COPY_PAGEABLE)
			src = (double *)malloc(sizeof(host_in));
		else if (v == COPY_PINNED)
			CHECK(hipHostMalloc(&src, sizeof(host_in)));
		if (src) {
			memcpy(src, host_in, sizeof(host_in));
			CHECK(hipGraphAddMemcpyNode1D(&copy, g, &node, 1, in, src,
						      sizeof(host_in),
						      hipMemcpyHostToDevice));
		}
		hipGraphExec_t x;
		void *args[] = {&other, &in, &n_arg};
		hipKernelNodeParams p = params(args);
		if (v >= EXEC_SET && v <= GRAPH_SET_LATE) {
			CHECK(hipHostMalloc(&other, sizeof(double)));
			*other = 0;
		}
		if (v == GRAPH_SET)
			CHECK(hipGraphKernelNodeSetParams(node, &p));
		CHECK(hipGraphInstantiate(&x, g, nullptr, nullptr, 0));
		if (v == EXEC_SET)
			CHECK(hipGraphExecKernelNodeSetParams(x, node, &p));
		else if (v == GRAPH_SET_LATE)
			CHECK(hipGraphKernelNodeSetParams(node, &p));
		if (v != NODE_UNLAUNCHED)
			CHECK(hipGraphLaunch(x, s));
		CHECK(hipStreamSynchronize(s));
		CHECK(hipGraphExecDestroy(x));
		CHECK(hipGraphDestroy(g));
	} else {
		hipLaunchKernelGGL(accumulate, dim3(N / 256), dim3(256), 0, s, acc,
				   in, N);
		CHECK_LAUNCH();
	}

	double sum = 0;
	bool moved = v == EXEC_SET || v == GRAPH_SET;
	CHECK(hipMemcpyAsync(&sum, moved ? other : acc, sizeof(sum),
			     hipMemcpyDefault, s));
	CHECK(hipStreamSynchronize(s));
	double want = v == NODE_UNLAUNCHED ? 0 : N;
	printf("graph %s: sum=%.1f expected=%.1f %s\n", names[v], sum, want,
	       demo_verdict(sum == want));

	if (other)
		CHECK(hipHostFree(other));
	if (v == COPY_PAGEABLE)
		free(src);
	else if (src)
		CHECK(hipHostFree(src));
	if (v <= CAPTURE_COARSE && fine)
		CHECK(hipHostFree(acc));
	else if (graph)
		CHECK(hipFree(acc));
	else if (v <= POOL_SET_HOST)
		CHECK(hipFreeAsync(acc, s));
	else if (v == POOL_IMPORT) {
		CHECK(hipFreeAsync(acc, s));
		CHECK(hipFreeAsync(exported, s));
	} else
		vm_free(&m);
	CHECK(hipStreamSynchronize(s));
	if (v == POOL_SET_HOST) {
		hipMemPool_t def;
		CHECK(hipDeviceGetDefaultMemPool(&def, dev));
		CHECK(hipDeviceSetMemPool(dev, def));
	}
	if (imported)
		CHECK(hipMemPoolDestroy(imported));
	if (pool)
		CHECK(hipMemPoolDestroy(pool));
	CHECK(hipFree(in));
	CHECK(hipStreamDestroy(s));
	return 0;
}
