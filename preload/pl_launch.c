/* SPDX-License-Identifier: MIT */
/*
 * A launch: which allocation every pointer argument reaches.  The layout of
 * the arguments comes from the kernel's code object (pl_profile.c); the
 * values come from the args array (or the `extra` kernarg buffer), which the
 * launch API's contract tells us is valid for the duration of the call.
 */
#include <sched.h>
#include <stdatomic.h>
#include <string.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_kernel.h"
#include "pl_profile.h"
#include "reg_emit.h"
#include "reg_kernel.h"
#include "reg_track.h"

/* hip_runtime_api.h's HIP_LAUNCH_PARAM_* markers in the `extra` array. */
#define PARAM_BUFFER_POINTER ((void *)0x01)
#define PARAM_BUFFER_SIZE ((void *)0x02)
#define PARAM_END ((void *)0x03)

struct kernarg {
	const unsigned char *buf;
	size_t size;
};

static struct kernarg from_extra(void **extra)
{
	struct kernarg ka = {NULL, 0};

	for (int i = 0; extra && i < 16 && extra[i] != PARAM_END; i += 2) {
		if (extra[i] == PARAM_BUFFER_POINTER)
			ka.buf = extra[i + 1];
		else if (extra[i] == PARAM_BUFFER_SIZE && extra[i + 1])
			memcpy(&ka.size, extra[i + 1], sizeof(ka.size));
		else
			break; /* a marker we do not know: stop reading */
	}
	if (!ka.buf)
		ka.size = 0;
	return ka;
}

static struct reg_kernel *profiled(const void *handle)
{
	struct reg_kernel *k = reg_kernel_get((uintptr_t)handle);
	int expected = 0;

	if (!k)
		return NULL;
	if (atomic_compare_exchange_strong(&k->state, &expected, 1)) {
		pl_profile_kernel(k);
		atomic_store(&k->state, 2);
	}
	while (atomic_load(&k->state) != 2)
		sched_yield(); /* another thread reads the code object */
	return k;
}

static int arg_value(const struct reg_kernel *k, int i, void **args,
		     const struct kernarg *ka, uint64_t *v)
{
	if (args) {
		if (!args[k->ptr_index[i]])
			return 0;
		memcpy(v, args[k->ptr_index[i]], sizeof(*v));
		return 1;
	}
	if (ka->buf && k->ptr_offset[i] + sizeof(*v) <= ka->size) {
		memcpy(v, ka->buf + k->ptr_offset[i], sizeof(*v));
		return 1;
	}
	return 0;
}

void pl_rec_launch(uint8_t api, hipError_t rc, const void *handle, dim3 grid,
		   dim3 block, void **args, void **extra, size_t shmem,
		   hipStream_t stream)
{
	struct reg_kernel *k = profiled(handle);
	struct kernarg ka = args ? (struct kernarg){NULL, 0} : from_extra(extra);
	uint16_t idx[REG_KMAX_PTR];
	uint64_t val[REG_KMAX_PTR], id[REG_KMAX_PTR], off[REG_KMAX_PTR];
	uint8_t mem[REG_KMAX_PTR], gran[REG_KMAX_PTR];
	struct hg_tp_launch l = {
		.handle = (uintptr_t)handle, .stream = (uintptr_t)stream,
		.arg_index = idx, .arg_value = val, .arg_id = id,
		.arg_offset = off, .arg_mem = mem, .arg_gran = gran,
		.grid = {grid.x, grid.y, grid.z},
		.block = {block.x, block.y, block.z},
		.shmem = (uint32_t)shmem, .rc = rc, .api = api,
	};

	if (!k)
		reg_emit_warning(HG_WARN_UNKNOWN_KERNEL,
				 "launch of a kernel that was never registered");
	for (int i = 0; k && i < k->nptr; i++) {
		struct reg_ptr r;
		uint64_t v;

		if (!arg_value(k, i, args, &ka, &v))
			continue;
		reg_track_resolve((uintptr_t)v, &r);
		idx[l.nptr] = k->ptr_index[i];
		val[l.nptr] = v;
		id[l.nptr] = r.id;
		off[l.nptr] = r.off;
		mem[l.nptr] = r.mem;
		gran[l.nptr] = r.gran;
		l.nptr++;
	}
	reg_emit_launch(&l);
}
