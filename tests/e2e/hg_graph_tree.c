/* SPDX-License-Identifier: MIT */
/*
 * Graphs made of graphs, changed whole, with nodes disabled, destroyed or
 * freeing memory, linked against the .so.6 test double (ROCm 5.7 and 6
 * entry points).  The kernel is tests/codeobj's dadd_unsafe (a hardware FP
 * atomic add into its first argument), registered from argv[1], the
 * bundle, as a HIP program's constructor would.  argv[2] names the variant
 * (see test_graph_tree.py); "acc" is the buffer the kernel adds into, on
 * fine-grained (hipHostMalloc) or coarse-grained (hipMalloc) memory.
 * Prints "acc PTR" and, for the NULL-argument calls, "null API RC".
 */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hg_check.h"
#include "hg_hip_compat.h"

void **__hipRegisterFatBinary(const void *data);
void __hipRegisterFunction(void **modules, const void *host_fn,
			   char *device_fn, const char *device_name,
			   unsigned int limit, void *tid, void *bid,
			   dim3 *block, dim3 *grid, int *wsize);

#define KERNEL "_Z11dadd_unsafePdPKdi"
#define T6_KERNEL 0 /* ROCm 6's hipGraphNodeType */

static char dadd; /* the kernel's host-side handle */
static double *in;
static int n_arg = 64;

static void register_kernel(const char *path)
{
	static struct {
		unsigned magic, version;
		const void *binary;
		void *unused;
	} w = {0x48495046, 1, NULL, NULL};
	FILE *f = fopen(path, "rb");
	static char bundle[1 << 20];

	if (!f || !fread(bundle, 1, sizeof(bundle), f))
		exit(2);
	fclose(f);
	w.binary = bundle;
	__hipRegisterFunction(__hipRegisterFatBinary(&w), &dadd, KERNEL,
			      KERNEL, (unsigned)-1, NULL, NULL, NULL, NULL,
			      NULL);
}

static double *buffer(int fine)
{
	double *p;

	if (fine)
		CHECK(hipHostMalloc((void **)&p, sizeof(*p), 0));
	else
		CHECK(hipMalloc((void **)&p, sizeof(*p)));
	return p;
}

/* The kernel's parameters, with args (three slots) as its arguments. */
static hipKernelNodeParams params_in(void **args, double **acc)
{
	hipKernelNodeParams p;

	args[0] = acc;
	args[1] = &in;
	args[2] = &n_arg;
	memset(&p, 0, sizeof(p));
	p.func = &dadd;
	p.gridDim = (dim3){1, 1, 1};
	p.blockDim = (dim3){64, 1, 1};
	p.kernelParams = args;
	return p;
}

/* Argument values are copied when a node is added or set: one array
 * serves every call that uses the parameters at once. */
static hipKernelNodeParams params(double **acc)
{
	static void *args[3];

	return params_in(args, acc);
}

static hipGraph_t graph_of(double **acc, hipGraphNode_t *node)
{
	hipKernelNodeParams p = params(acc);
	hipGraph_t g;

	CHECK(hipGraphCreate(&g, 0));
	CHECK(hipGraphAddKernelNode(node, g, NULL, 0, &p));
	return g;
}

static hipGraphNodeParams generic(void **args, double **acc)
{
	hipGraphNodeParams p;

	memset(&p, 0, sizeof(p));
	p.type = T6_KERNEL;
	p.kernel = params_in(args, acc);
	return p;
}

static void run(hipGraph_t g, hipStream_t s)
{
	hipGraphExec_t x;

	CHECK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
	CHECK(hipGraphLaunch(x, s));
	CHECK(hipGraphExecDestroy(x));
}

static double *fine, *coarse;
static hipStream_t s;

static void v_clone(double **acc)
{
	hipGraphNode_t node;
	hipGraph_t g = graph_of(acc, &node), c;

	CHECK(hipGraphClone(&c, g));
	CHECK(hipGraphDestroy(g)); /* the clone stands alone */
	run(c, s);
}

static void clone_fine(void) { v_clone(&fine); }
static void clone_coarse(void) { v_clone(&coarse); }

/* The clone's node set anew: the clone's launch, not the original's. */
static void clone_set(void)
{
	hipGraphNode_t node, cn;
	hipGraph_t g = graph_of(&coarse, &node), c;
	hipKernelNodeParams p = params(&fine);

	CHECK(hipGraphClone(&c, g));
	CHECK(hipGraphNodeFindInClone(&cn, node, c));
	CHECK(hipGraphKernelNodeSetParams(cn, &p));
	run(c, s);
	run(g, s);
}

static void v_child(double **acc)
{
	hipGraphNode_t node, cn;
	hipGraph_t child = graph_of(acc, &node), parent;

	CHECK(hipGraphCreate(&parent, 0));
	CHECK(hipGraphAddChildGraphNode(&cn, parent, NULL, 0, child));
	CHECK(hipGraphDestroy(child)); /* the node holds a copy */
	run(parent, s);
}

static void child_fine(void) { v_child(&fine); }

/* A child graph holding a child graph, the whole cloned. */
static void child_nested(void)
{
	hipGraphNode_t node, cn;
	hipGraph_t inner = graph_of(&fine, &node), mid, outer, c;

	CHECK(hipGraphCreate(&mid, 0));
	CHECK(hipGraphAddChildGraphNode(&cn, mid, NULL, 0, inner));
	CHECK(hipGraphCreate(&outer, 0));
	CHECK(hipGraphAddChildGraphNode(&cn, outer, NULL, 0, mid));
	CHECK(hipGraphClone(&c, outer));
	run(c, s);
}
static void child_coarse(void) { v_child(&coarse); }

static void child_exec_set(void)
{
	hipGraphNode_t node, cn;
	hipGraph_t child = graph_of(&coarse, &node), parent, other;
	hipGraphExec_t x;

	CHECK(hipGraphCreate(&parent, 0));
	CHECK(hipGraphAddChildGraphNode(&cn, parent, NULL, 0, child));
	CHECK(hipGraphInstantiate(&x, parent, NULL, NULL, 0));
	other = graph_of(&fine, &node);
	CHECK(hipGraphExecChildGraphNodeSetParams(x, cn, other));
	CHECK(hipGraphLaunch(x, s));
}

static void v_enabled(int again)
{
	hipGraphNode_t node;
	hipGraph_t g = graph_of(&fine, &node);
	hipGraphExec_t x;

	CHECK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
	CHECK(hipGraphNodeSetEnabled(x, node, 0));
	if (again)
		CHECK(hipGraphNodeSetEnabled(x, node, 1));
	CHECK(hipGraphLaunch(x, s));
}

static void disabled(void) { v_enabled(0); }
static void reenabled(void) { v_enabled(1); }

static void destroyed(void)
{
	hipGraphNode_t a, b;
	hipGraph_t g = graph_of(&fine, &a);
	hipKernelNodeParams p = params(&coarse);

	CHECK(hipGraphAddKernelNode(&b, g, NULL, 0, &p));
	CHECK(hipGraphDestroyNode(a));
	run(g, s);
}

static void update(void)
{
	hipGraphNode_t node, en;
	hipGraph_t g = graph_of(&coarse, &node), g2;
	hipGraphExecUpdateResult res;
	hipGraphExec_t x;

	CHECK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
	g2 = graph_of(&fine, &node);
	CHECK(hipGraphExecUpdate(x, g2, &en, &res));
	CHECK(hipGraphLaunch(x, s));
}

static void v_generic(double **first, double **later, int exec)
{
	void *a[3], *b[3];
	hipGraphNodeParams p = generic(a, first), q = generic(b, later);
	hipGraphNode_t node;
	hipGraphExec_t x;
	hipGraph_t g;

	CHECK(hipGraphCreate(&g, 0));
	CHECK(hipGraphAddNode(&node, g, NULL, 0, &p));
	if (later && !exec)
		CHECK(hipGraphNodeSetParams(node, &q));
	CHECK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
	if (later && exec)
		CHECK(hipGraphExecNodeSetParams(x, node, &q));
	CHECK(hipGraphLaunch(x, s));
}

static void generic_fine(void) { v_generic(&fine, NULL, 0); }
static void generic_set(void) { v_generic(&coarse, &fine, 0); }
static void generic_exec_set(void) { v_generic(&fine, &coarse, 1); }

static void with_params(void)
{
	static long long ip[8]; /* hipGraphInstantiateParams, zeroed */
	hipGraphNode_t node;
	hipGraph_t g = graph_of(&fine, &node);
	hipGraphExec_t x;

	CHECK(hipGraphInstantiateWithParams(&x, g,
					    (hipGraphInstantiateParams *)ip));
	CHECK(hipGraphLaunch(x, s));
}

/* An allocation node, a kernel into its memory, a free node; then a
 * launch outside the graph with the freed pointer, or (twice) the graph's
 * launch again. */
static void v_free(int drv, int twice)
{
	hipMemAllocNodeParams a;
	hipGraphNode_t an, kn, fn;
	hipKernelNodeParams p;
	double *mem;
	void *args[3] = {&mem, &in, &n_arg};
	hipGraph_t g;

	memset(&a, 0, sizeof(a));
	a.poolProps.allocType = hipMemAllocationTypePinned;
	/* ROCm 7's hipMemLocationTypeHost, as the double accepts: fine */
	a.poolProps.location.type =
		drv ? (hipMemLocationType)2 : hipMemLocationTypeDevice;
	a.bytesize = 4096;
	CHECK(hipGraphCreate(&g, 0));
	CHECK(hipGraphAddMemAllocNode(&an, g, NULL, 0, &a));
	mem = a.dptr;
	printf("mem %p\n", (void *)mem);
	p = params(&mem);
	CHECK(hipGraphAddKernelNode(&kn, g, &an, 1, &p));
	if (drv)
		CHECK(hipDrvGraphAddMemFreeNode(&fn, g, &kn, 1, mem));
	else
		CHECK(hipGraphAddMemFreeNode(&fn, g, &kn, 1, mem));
	if (twice) {
		hipGraphExec_t x;

		CHECK(hipGraphInstantiate(&x, g, NULL, NULL, 0));
		CHECK(hipGraphLaunch(x, s));
		CHECK(hipGraphLaunch(x, s));
		return;
	}
	run(g, s);
	CHECK(hipLaunchKernel(&dadd, (dim3){1, 1, 1}, (dim3){64, 1, 1}, args,
			      0, s));
}

static void free_node(void) { v_free(0, 0); }
static void free_drv(void) { v_free(1, 0); }
static void relaunch(void) { v_free(0, 1); }

/* A launch captured into a graph that has a node already. */
static void capture_to_graph(void)
{
	hipGraphNode_t node;
	hipGraph_t g = graph_of(&coarse, &node), got;
	void *args[3] = {&fine, &in, &n_arg};

	CHECK(hipStreamBeginCaptureToGraph(s, g, NULL, NULL, 0,
					   hipStreamCaptureModeGlobal));
	CHECK(hipLaunchKernel(&dadd, (dim3){1, 1, 1}, (dim3){64, 1, 1}, args,
			      0, s));
	CHECK(hipStreamEndCapture(s, &got));
	run(got, s);
}

#define NULL_CALL(api, call) printf("null %d %d\n", api, (int)(call))

static void nulls(void)
{
	hipGraphNode_t node;
	hipGraph_t g;

	CHECK(hipGraphCreate(&g, 0));
	NULL_CALL(218, hipGraphClone(NULL, g));
	NULL_CALL(220, hipGraphAddChildGraphNode(&node, g, NULL, 0, NULL));
	NULL_CALL(226, hipGraphAddNode(&node, g, NULL, 0, NULL));
	NULL_CALL(229, hipGraphAddMemFreeNode(&node, g, NULL, 0, NULL));
	NULL_CALL(225, hipGraphNodeSetEnabled(NULL, NULL, 0));
	NULL_CALL(231, hipStreamBeginCaptureToGraph(s, NULL, NULL, NULL, 0,
						    hipStreamCaptureModeGlobal));
}

static const struct {
	const char *name;
	void (*fn)(void);
} variants[] = {
	{"clone-fine", clone_fine},
	{"clone-coarse", clone_coarse},
	{"clone-set", clone_set},
	{"child-fine", child_fine},
	{"child-coarse", child_coarse},
	{"child-nested", child_nested},
	{"child-exec-set", child_exec_set},
	{"disabled", disabled},
	{"reenabled", reenabled},
	{"destroyed", destroyed},
	{"update", update},
	{"generic-fine", generic_fine},
	{"generic-set", generic_set},
	{"generic-exec-set", generic_exec_set},
	{"with-params", with_params},
	{"free", free_node},
	{"free-drv", free_drv},
	{"relaunch", relaunch},
	{"capture-to-graph", capture_to_graph},
	{"null", nulls},
};

int main(int argc, char **argv)
{
	size_t i, n = sizeof(variants) / sizeof(variants[0]);

	for (i = 0; argc == 3 && i < n; i++)
		if (!strcmp(argv[2], variants[i].name))
			break;
	if (argc != 3 || i == n) {
		fprintf(stderr, "usage: %s BUNDLE VARIANT\n", argv[0]);
		return 64;
	}
	register_kernel(argv[1]);
	CHECK(hipStreamCreate(&s));
	CHECK(hipMalloc((void **)&in, 64 * sizeof(*in)));
	fine = buffer(1);
	coarse = buffer(0);
	printf("fine %p\ncoarse %p\n", (void *)fine, (void *)coarse);
	variants[i].fn();
	CHECK(hipStreamSynchronize(s));
	CHECK(hipHostFree(fine));
	CHECK(hipFree(coarse));
	CHECK(hipFree(in));
	printf("%s: done\n", variants[i].name);
	return 0;
}
