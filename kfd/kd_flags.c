/* SPDX-License-Identifier: MIT */
#include "kd_flags.h"

#include <stdio.h>
#include <string.h>

#define KD_N(a) (sizeof(a) / sizeof((a)[0]))

struct kd_bit {
	uint32_t bit;
	const char *name;
};

/* Every KFD_IOC_ALLOC_MEM_FLAGS_* of the newest uapi, in bit order. */
static const struct kd_bit alloc_bits[] = {
	{KFD_IOC_ALLOC_MEM_FLAGS_VRAM, "vram"},
	{KFD_IOC_ALLOC_MEM_FLAGS_GTT, "gtt"},
	{KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, "userptr"},
	{KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL, "doorbell"},
	{KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, "mmio_remap"},
	{KFD_IOC_ALLOC_MEM_FLAGS_CONTIGUOUS, "contiguous"},
	{KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT, "ext_coherent"},
	{KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED, "uncached"},
	{KFD_IOC_ALLOC_MEM_FLAGS_COHERENT, "coherent"},
	{KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM, "aql_queue_mem"},
	{KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE, "no_substitute"},
	{KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC, "public"},
	{KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE, "executable"},
	{KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, "writable"},
};

static const struct kd_bit svm_bits[] = {
	{KFD_IOCTL_SVM_FLAG_HOST_ACCESS, "host_access"},
	{KFD_IOCTL_SVM_FLAG_COHERENT, "coherent"},
	{KFD_IOCTL_SVM_FLAG_HIVE_LOCAL, "hive_local"},
	{KFD_IOCTL_SVM_FLAG_GPU_RO, "gpu_ro"},
	{KFD_IOCTL_SVM_FLAG_GPU_EXEC, "gpu_exec"},
	{KFD_IOCTL_SVM_FLAG_GPU_READ_MOSTLY, "gpu_read_mostly"},
	{KFD_IOCTL_SVM_FLAG_GPU_ALWAYS_MAPPED, "gpu_always_mapped"},
	{KFD_IOCTL_SVM_FLAG_EXT_COHERENT, "ext_coherent"},
};

static const char *const svm_attrs[] = {
	[KFD_IOCTL_SVM_ATTR_PREFERRED_LOC] = "preferred_loc",
	[KFD_IOCTL_SVM_ATTR_PREFETCH_LOC] = "prefetch_loc",
	[KFD_IOCTL_SVM_ATTR_ACCESS] = "access",
	[KFD_IOCTL_SVM_ATTR_ACCESS_IN_PLACE] = "access_in_place",
	[KFD_IOCTL_SVM_ATTR_NO_ACCESS] = "no_access",
	[KFD_IOCTL_SVM_ATTR_SET_FLAGS] = "set_flags",
	[KFD_IOCTL_SVM_ATTR_CLR_FLAGS] = "clr_flags",
	[KFD_IOCTL_SVM_ATTR_GRANULARITY] = "granularity",
};

static const char *const gran_names[] = {"none", "coarse", "fine"};
static const char *const domain_names[] = {
	"invalid", "vram", "gtt", "userptr", "doorbell", "mmio_remap",
};

/* The order amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu tests the domain bits
 * in: the first one set decides. */
enum kd_domain kd_alloc_domain(uint32_t flags)
{
	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM)
		return KD_DOMAIN_VRAM;
	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT)
		return KD_DOMAIN_GTT;
	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_USERPTR)
		return KD_DOMAIN_USERPTR;
	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL)
		return KD_DOMAIN_DOORBELL;
	if (flags & KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP)
		return KD_DOMAIN_MMIO_REMAP;
	return KD_DOMAIN_INVALID;
}

/*
 * The driver's rule (drivers/gpu/drm/amd/amdgpu/): amdgpu_amdkfd_gpuvm.c's
 * amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu turns COHERENT, EXT_COHERENT and
 * UNCACHED into AMDGPU_GEM_CREATE_COHERENT, _EXT_COHERENT and _UNCACHED, and
 * gmc_v9_0.c's gmc_v9_0_get_coherence_flags maps those to MTYPE_UC (MTYPE_CC
 * on a GPU's own VRAM), everything else to MTYPE_NC or MTYPE_RW: cached
 * without coherence, coarse grain.  Kernels before that move chose the same
 * MTYPEs from the same flags in get_pte_flags of amdgpu_amdkfd_gpuvm.c.
 * GFX 9.4.3 (MI300) is the exception: there only UNCACHED and EXT_COHERENT
 * move the MTYPE, so for it this is what the process asked for, not what
 * the page tables got.
 */
enum kd_gran kd_alloc_gran(uint32_t flags)
{
	const uint32_t fine = KFD_IOC_ALLOC_MEM_FLAGS_COHERENT |
			      KFD_IOC_ALLOC_MEM_FLAGS_EXT_COHERENT |
			      KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED;

	switch (kd_alloc_domain(flags)) {
	case KD_DOMAIN_VRAM:
	case KD_DOMAIN_GTT:
	case KD_DOMAIN_USERPTR:
		return flags & fine ? KD_GRAN_FINE : KD_GRAN_COARSE;
	default:
		return KD_GRAN_NONE;
	}
}

/* amdkfd/kfd_svm.c, svm_range_get_pte_flags: a range is coherent when
 * COHERENT or EXT_COHERENT is set; SVM has no uncached flag. */
enum kd_gran kd_svm_gran(uint32_t flags)
{
	const uint32_t fine =
		KFD_IOCTL_SVM_FLAG_COHERENT | KFD_IOCTL_SVM_FLAG_EXT_COHERENT;

	return flags & fine ? KD_GRAN_FINE : KD_GRAN_COARSE;
}

const char *kd_gran_name(enum kd_gran g)
{
	return (size_t)g < KD_N(gran_names) ? gran_names[g] : NULL;
}

const char *kd_domain_name(enum kd_domain d)
{
	return (size_t)d < KD_N(domain_names) ? domain_names[d] : NULL;
}

const char *kd_svm_attr_name(uint32_t type)
{
	return type < KD_N(svm_attrs) ? svm_attrs[type] : NULL;
}

/* Append s, counting what does not fit (snprintf's contract). */
static void append(char *buf, size_t cap, size_t *len, const char *s)
{
	for (; *s; s++, (*len)++)
		if (*len + 1 < cap)
			buf[*len] = *s;
}

static size_t names(const struct kd_bit *bits, size_t n, uint32_t flags,
		    char *buf, size_t cap)
{
	char hex[16];
	size_t len = 0;

	for (size_t i = 0; i < n; i++) {
		if (!(flags & bits[i].bit))
			continue;
		append(buf, cap, &len, len ? "|" : "");
		append(buf, cap, &len, bits[i].name);
		flags &= ~bits[i].bit;
	}
	if (flags || !len) {
		snprintf(hex, sizeof(hex), "%s%#x", len ? "|" : "", flags);
		append(buf, cap, &len, hex);
	}
	if (cap)
		buf[len < cap ? len : cap - 1] = '\0';
	return len;
}

size_t kd_alloc_flag_names(uint32_t flags, char *buf, size_t cap)
{
	return names(alloc_bits, KD_N(alloc_bits), flags, buf, cap);
}

size_t kd_svm_flag_names(uint32_t flags, char *buf, size_t cap)
{
	return names(svm_bits, KD_N(svm_bits), flags, buf, cap);
}
