/* SPDX-License-Identifier: MIT */
/*
 * The launch API before HIP 3.  The runtime keeps a stack of configurations
 * per thread, each with the argument bytes the program set up; hipgrain
 * keeps its own copy of the same, because hipLaunchByPtr names only the
 * kernel.  The bytes are then a kernarg buffer, read as a launch's `extra`
 * buffer is: each pointer argument at the offset the code object gives.
 *
 * The stack follows the runtime's answers: a configuration is pushed when
 * hipConfigureCall succeeds, an argument is kept when hipSetupArgument
 * does, and hipLaunchByPtr pops, as the runtime does, whenever there is a
 * configuration to pop.
 */
#include "pl_legacy.h"

#include <pthread.h>
#include <string.h>

#include "hg_events.h"
#include "pl_graph.h"

/* The kernarg segment's limit on AMD GPUs. */
#define KERNARG_MAX 4096
/* Nested configurations a thread may have pushed. */
#define DEPTH 4

extern void *__libc_calloc(size_t, size_t);
extern void __libc_free(void *);

struct config {
	dim3 grid, block;
	size_t shmem;
	hipStream_t stream;
	size_t size; /* bytes set up, to the end of the furthest argument */
	unsigned char args[KERNARG_MAX];
};

struct stack {
	int depth;
	int lost; /* pushed configurations we had no room for */
	struct config c[DEPTH];
};

static __thread struct stack *stack
	__attribute__((tls_model("initial-exec")));
static pthread_key_t stack_key;
static pthread_once_t stack_once = PTHREAD_ONCE_INIT;

static void stack_gone(void *p)
{
	stack = NULL;
	__libc_free(p);
}

static void make_key(void)
{
	pthread_key_create(&stack_key, stack_gone);
}

/* Only threads that use this API pay for a stack (some 16 KiB). */
static struct stack *my_stack(void)
{
	if (!stack) {
		pthread_once(&stack_once, make_key);
		stack = __libc_calloc(1, sizeof(*stack));
		if (stack)
			pthread_setspecific(stack_key, stack);
	}
	return stack;
}

void pl_legacy_configure(hipError_t rc, dim3 grid, dim3 block, size_t shmem,
			 hipStream_t stream)
{
	struct config *c;

	if (rc != hipSuccess || !my_stack())
		return;
	if (stack->depth == DEPTH) {
		stack->lost++;
		return;
	}
	c = &stack->c[stack->depth++];
	c->grid = grid, c->block = block, c->shmem = shmem, c->stream = stream;
	c->size = 0;
}

void pl_legacy_argument(hipError_t rc, const void *arg, size_t size,
			size_t offset)
{
	struct config *c;

	if (rc != hipSuccess || !stack || !stack->depth || stack->lost || !arg ||
	    offset > KERNARG_MAX || size > KERNARG_MAX - offset)
		return; /* what is not kept reads as not set up: never guessed */
	c = &stack->c[stack->depth - 1];
	memcpy(c->args + offset, arg, size);
	if (offset + size > c->size)
		c->size = offset + size;
}

void pl_legacy_launch(hipError_t rc, const void *func)
{
	struct config *c;
	void *extra[5];

	if (!stack || (!stack->depth && !stack->lost))
		return; /* nothing configured: the runtime said so */
	if (stack->lost) {
		stack->lost--;
		return;
	}
	c = &stack->c[--stack->depth];
	extra[0] = HIP_LAUNCH_PARAM_BUFFER_POINTER, extra[1] = c->args;
	extra[2] = HIP_LAUNCH_PARAM_BUFFER_SIZE, extra[3] = &c->size;
	extra[4] = HIP_LAUNCH_PARAM_END;
	pl_graph_launch_or_capture(HG_API_HIP_LAUNCH_BY_PTR, rc, func, c->grid,
				   c->block, NULL, extra, c->shmem, c->stream);
}
