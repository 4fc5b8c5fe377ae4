/* SPDX-License-Identifier: MIT */
/*
 * Registered code: modules (a fat binary the program carries, or an image
 * given to hipModuleLoad*) and kernels by the handle a launch names.  What
 * a kernel's arguments are is learnt once, at its first launch.
 */
#ifndef REG_KERNEL_H
#define REG_KERNEL_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define REG_KMAX_PTR 64

struct reg_module {
	uint64_t handle;
	const void *image; /* bundle or ELF in memory, NULL if from a file */
	char *path;	   /* hipModuleLoad's file, else NULL */
	uint8_t api;
	/* The module's code for the device, read at its first launch. */
	atomic_int state;  /* 0: not read, 1: reading, 2: read */
	void *profiles;	   /* owned by the reader (preload/core/pl_profile.c) */
	int status;	   /* 0, or -errno when no profile could be had */
};

struct reg_kernel {
	uint64_t handle;
	uint64_t module;
	char *name;
	atomic_int state; /* 0: not profiled, 1: profiling, 2: profiled */
	int status;	  /* 0, or why the profile is missing (-errno) */
	uint32_t kernarg_size;
	uint32_t atomic_ops;	  /* enum hg_aop bits reaching global memory */
	char fp_mnemonics[64];	  /* for the online warning */
	uint16_t nexplicit; /* entries a launch's args array holds */
	uint16_t nptr;
	uint16_t ptr_index[REG_KMAX_PTR];  /* index in the args array */
	uint32_t ptr_offset[REG_KMAX_PTR]; /* offset in the kernarg segment */
};

struct reg_module *reg_module_add(uint64_t handle, const void *image,
				  const char *path, uint8_t api);
struct reg_module *reg_module_get(uint64_t handle);
void reg_module_forget(uint64_t handle);

struct reg_kernel *reg_kernel_add(uint64_t handle, uint64_t module,
				  const char *name);
struct reg_kernel *reg_kernel_get(uint64_t handle);
/* Up to max registered kernels, for a walk at exit. */
size_t reg_kernel_all(struct reg_kernel **out, size_t max);

#endif
