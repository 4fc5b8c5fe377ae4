/* SPDX-License-Identifier: MIT */
/*
 * The driver's view of a process: the buffer objects (BOs) the runtime
 * allocated through /dev/kfd and the shared virtual memory it set
 * attributes on, joined to the process's blocks by address.  A block that
 * lies in a BO takes the BO's granularity; one in shared virtual memory,
 * that of the ranges it spans.  The join is made whenever a verdict needs
 * it, so the order of the events does not matter: a BO comes before the
 * blocks the runtime carves from it, SVM attributes after the block they
 * change.
 */
#ifndef AN_DRV_H
#define AN_DRV_H

#include "an_span.h"
#include "an_state.h"
#include "an_svm.h"

#define AN_DRV_SVM 0xff
#define AN_KFD_GPUS 16 /* the most GPUs a node has that hipgrain names */ /* struct an_drv's domain for shared virtual memory */

struct an_bo {
	uint64_t lo, hi; /* where the program sees it: a userptr's CPU range */
	uint64_t handle;
	uint32_t flags, gpu_id;
};

struct an_kfd {
	struct hg_map bos;     /* handle → struct an_bo */
	struct an_spans bo_at; /* the BOs that are memory, by address */
	struct an_svm svm;
	struct an_spans live; /* live blocks by address, kept once built */
	bool live_built;
	int32_t smi_rc; /* the first SMI event file that would not open */
	uint32_t smi_gpu;
	/* The GPUs' driver ids in the driver's order: the preload opens an
	 * SMI file on each as the apertures list them, in topology order. */
	uint32_t gpu_ids[AN_KFD_GPUS];
	unsigned ngpus;
};

/* 1 + the index of driver id gpu_id among p's GPUs; 0 if not known. */
uint8_t an_kfd_gpu_slot(const struct an_proc *p, uint32_t gpu_id);

/* p's driver state, made on first use; NULL out of memory. */
struct an_kfd *an_kfd_of(struct an_proc *p);
void an_kfd_fini(struct an_proc *p);

void an_drv_bo_add(struct an_proc *p, const struct an_bo *bo);
void an_drv_bo_free(struct an_proc *p, uint64_t handle);
/*
 * a->drv as the driver now sees the block, and a->gran (and its pieces)
 * where the driver decides; the model's own stays in a->model_gran.
 * Returns whether a->gran changed.
 */
bool an_drv_resolve(const struct an_proc *p, struct an_alloc *a);
/* The flags that decide the driver's granularity, as text: "userptr|
 * coherent", "svm, coherent cleared". */
const char *an_drv_why(const struct an_drv *d, char *buf, size_t cap);
/* "vram", "gtt", "userptr", "svm" */
const char *an_drv_domain(const struct an_drv *d);

/* Live blocks by address: built when first asked for (migrations only
 * need it), then kept as blocks come and go. */
struct an_spans *an_drv_live(struct an_proc *p);
void an_drv_live_add(struct an_proc *p, struct an_alloc *a);
void an_drv_live_del(struct an_proc *p, struct an_alloc *a);

#endif
