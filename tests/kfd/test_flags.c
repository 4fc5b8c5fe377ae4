/* SPDX-License-Identifier: MIT */
/*
 * kd_flags: every flag's name, unknown bits, the domain and granularity the
 * driver gives the flag sets the HIP runtime allocates with, and the SVM
 * flags and attributes.
 */
#include <string.h>

#include "kd_flags.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	uint32_t bit;
	const char *name;
} alloc_names[] = {
	{KFD_IOC_ALLOC_MEM_FLAGS_VRAM, "vram"},
	{KFD_IOC_ALLOC_MEM_FLAGS_GTT, "gtt"},
	{KFD_IOC_ALLOC_MEM_FLAGS_USERPTR, "userptr"},
	{KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL, "doorbell"},
	{KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP, "mmio_remap"},
	{1u << 23, "contiguous"},
	{1u << 24, "ext_coherent"},
	{KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED, "uncached"},
	{KFD_IOC_ALLOC_MEM_FLAGS_COHERENT, "coherent"},
	{KFD_IOC_ALLOC_MEM_FLAGS_AQL_QUEUE_MEM, "aql_queue_mem"},
	{KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE, "no_substitute"},
	{KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC, "public"},
	{KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE, "executable"},
	{KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE, "writable"},
}, svm_names[] = {
	{KFD_IOCTL_SVM_FLAG_HOST_ACCESS, "host_access"},
	{KFD_IOCTL_SVM_FLAG_COHERENT, "coherent"},
	{KFD_IOCTL_SVM_FLAG_HIVE_LOCAL, "hive_local"},
	{KFD_IOCTL_SVM_FLAG_GPU_RO, "gpu_ro"},
	{KFD_IOCTL_SVM_FLAG_GPU_EXEC, "gpu_exec"},
	{KFD_IOCTL_SVM_FLAG_GPU_READ_MOSTLY, "gpu_read_mostly"},
	{KFD_IOCTL_SVM_FLAG_GPU_ALWAYS_MAPPED, "gpu_always_mapped"},
	{0x80, "ext_coherent"},
};

enum {
	VRAM = KFD_IOC_ALLOC_MEM_FLAGS_VRAM,
	GTT = KFD_IOC_ALLOC_MEM_FLAGS_GTT,
	USERPTR = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR,
	DOORBELL = KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL,
	MMIO = KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP,
	COHERENT = KFD_IOC_ALLOC_MEM_FLAGS_COHERENT,
	UNCACHED = KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED,
	EXT_COHERENT = 1 << 24,
};
/* What the runtime adds to most allocations; it must not change the rule. */
static const uint32_t rwx = KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
			    KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE |
			    KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE;

static void check_alloc_names(void)
{
	char buf[256];

	for (size_t i = 0; i < N(alloc_names); i++) {
		kd_alloc_flag_names(alloc_names[i].bit, buf, sizeof(buf));
		ok(!strcmp(buf, alloc_names[i].name), "alloc flag %#x: %s (%s)",
		   alloc_names[i].bit, alloc_names[i].name, buf);
	}
	kd_alloc_flag_names(VRAM | COHERENT | rwx, buf, sizeof(buf));
	ok(!strcmp(buf, "vram|coherent|no_substitute|executable|writable"),
	   "several flags in bit order (%s)", buf);
	kd_alloc_flag_names(VRAM | 0x00600000, buf, sizeof(buf));
	ok(!strcmp(buf, "vram|0x600000"), "unknown bits as hex, last (%s)",
	   buf);
	kd_alloc_flag_names(0, buf, sizeof(buf));
	ok(!strcmp(buf, "0"), "no flags: 0 (%s)", buf);
	ok(kd_alloc_flag_names(VRAM | GTT, buf, 4) == strlen("vram|gtt") &&
		   !strcmp(buf, "vra"),
	   "cut to the buffer, the full length returned");
}

static void check_svm_names(void)
{
	char buf[256];

	for (size_t i = 0; i < N(svm_names); i++) {
		kd_svm_flag_names(svm_names[i].bit, buf, sizeof(buf));
		ok(!strcmp(buf, svm_names[i].name), "svm flag %#x: %s (%s)",
		   svm_names[i].bit, svm_names[i].name, buf);
	}
	kd_svm_flag_names(0x103, buf, sizeof(buf));
	ok(!strcmp(buf, "host_access|coherent|0x100"),
	   "svm: unknown bits as hex (%s)", buf);
}

static void gran_is(uint32_t flags, enum kd_gran want, const char *what)
{
	enum kd_gran g = kd_alloc_gran(flags);

	ok(g == want, "%s: %s (%s)", what, kd_gran_name(want),
	   kd_gran_name(g));
}

/* The flag sets the HIP runtime asks the driver for. */
static void check_alloc_gran(void)
{
	gran_is(VRAM | rwx, KD_GRAN_COARSE, "VRAM (hipMalloc)");
	gran_is(VRAM | COHERENT | rwx, KD_GRAN_FINE, "VRAM|COHERENT");
	gran_is(GTT | COHERENT | rwx, KD_GRAN_FINE, "GTT|COHERENT");
	gran_is(GTT | rwx, KD_GRAN_COARSE, "GTT alone");
	gran_is(USERPTR | COHERENT | rwx, KD_GRAN_FINE, "USERPTR|COHERENT");
	gran_is(USERPTR | rwx, KD_GRAN_COARSE, "USERPTR alone");
	gran_is(DOORBELL | rwx, KD_GRAN_NONE, "DOORBELL");
	gran_is(MMIO | rwx, KD_GRAN_NONE, "MMIO_REMAP");
	gran_is(VRAM | UNCACHED, KD_GRAN_FINE, "VRAM|UNCACHED");
	gran_is(VRAM | EXT_COHERENT, KD_GRAN_FINE, "VRAM|EXT_COHERENT");
	gran_is(COHERENT | rwx, KD_GRAN_NONE, "no domain");
	gran_is(VRAM | DOORBELL, KD_GRAN_COARSE, "VRAM|DOORBELL: VRAM decides");
	gran_is(VRAM | 0x00400000, KD_GRAN_COARSE, "an unknown bit changes nothing");
}

static void check_domains(void)
{
	ok(kd_alloc_domain(VRAM | GTT) == KD_DOMAIN_VRAM, "VRAM before GTT");
	ok(kd_alloc_domain(GTT | USERPTR) == KD_DOMAIN_GTT, "GTT before USERPTR");
	ok(kd_alloc_domain(USERPTR | DOORBELL) == KD_DOMAIN_USERPTR,
	   "USERPTR before DOORBELL");
	ok(kd_alloc_domain(DOORBELL | MMIO) == KD_DOMAIN_DOORBELL,
	   "DOORBELL before MMIO_REMAP");
	ok(kd_alloc_domain(MMIO) == KD_DOMAIN_MMIO_REMAP, "MMIO_REMAP");
	ok(kd_alloc_domain(rwx) == KD_DOMAIN_INVALID, "no domain bit");
	ok(!strcmp(kd_domain_name(KD_DOMAIN_MMIO_REMAP), "mmio_remap") &&
		   !strcmp(kd_domain_name(KD_DOMAIN_INVALID), "invalid") &&
		   !kd_domain_name((enum kd_domain)99),
	   "domain names");
	ok(!strcmp(kd_gran_name(KD_GRAN_NONE), "none") &&
		   !strcmp(kd_gran_name(KD_GRAN_FINE), "fine") &&
		   !kd_gran_name((enum kd_gran)3),
	   "granularity names");
}

static void check_svm(void)
{
	static const char *const attrs[] = {
		"preferred_loc", "prefetch_loc", "access", "access_in_place",
		"no_access", "set_flags", "clr_flags", "granularity",
	};

	ok(kd_svm_gran(0) == KD_GRAN_COARSE, "svm: no flags: coarse");
	ok(kd_svm_gran(KFD_IOCTL_SVM_FLAG_COHERENT) == KD_GRAN_FINE,
	   "svm: COHERENT: fine");
	ok(kd_svm_gran(0x80) == KD_GRAN_FINE, "svm: EXT_COHERENT: fine");
	ok(kd_svm_gran(KFD_IOCTL_SVM_FLAG_HOST_ACCESS |
		       KFD_IOCTL_SVM_FLAG_GPU_EXEC) == KD_GRAN_COARSE,
	   "svm: HOST_ACCESS|GPU_EXEC: coarse");
	for (uint32_t i = 0; i < N(attrs); i++)
		ok(kd_svm_attr_name(i) && !strcmp(kd_svm_attr_name(i), attrs[i]),
		   "svm attribute %u: %s", i, attrs[i]);
	ok(!kd_svm_attr_name(N(attrs)), "svm attribute past the last: none");
	ok(kd_svm_attr_name(KFD_IOCTL_SVM_ATTR_GRANULARITY) &&
		   !strcmp(kd_svm_attr_name(KFD_IOCTL_SVM_ATTR_GRANULARITY),
			   "granularity"),
	   "svm attribute names follow the uapi enum");
}

int main(void)
{
	check_alloc_names();
	check_svm_names();
	check_alloc_gran();
	check_domains();
	check_svm();
	return done();
}
