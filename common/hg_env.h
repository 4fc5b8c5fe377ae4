/* SPDX-License-Identifier: MIT */
/*
 * The one table of environment variables hipgrain reads or records.  --help,
 * the man pages and the preload all go through it; a test checks that the
 * man pages name every entry.
 */
#ifndef HG_ENV_H
#define HG_ENV_H

#include <stddef.h>

enum hg_env_kind {
	HG_ENV_CONFIG,	 /* configures hipgrain itself */
	HG_ENV_RECORDED, /* decides GPU memory semantics: recorded in traces */
};

/* X(IDENT, "NAME", kind, "default", "one-line description") */
#define HG_ENV_LIST(X)                                                         \
	X(DISABLE, "HIPGRAIN_DISABLE", HG_ENV_CONFIG, "0",                     \
	  "1 turns the preload into a pure pass-through")                      \
	X(STACK_THRESHOLD, "HIPGRAIN_STACK_THRESHOLD", HG_ENV_CONFIG, "65536", \
	  "host blocks of at least this many bytes get a full call stack")     \
	X(STACK_DEPTH, "HIPGRAIN_STACK_DEPTH", HG_ENV_CONFIG, "24",            \
	  "frames kept per call stack (1-64)")                                 \
	X(HOST_EVENTS, "HIPGRAIN_HOST_EVENTS", HG_ENV_CONFIG, "lazy",          \
	  "lazy: host blocks are traced when the GPU sees them; all: always")  \
	X(WARN, "HIPGRAIN_WARN", HG_ENV_CONFIG, "0",                           \
	  "1 prints hazards seen at run time on stderr")                       \
	X(CACHE_DIR, "HIPGRAIN_CACHE_DIR", HG_ENV_CONFIG, "",                  \
	  "kernel profile cache (default $XDG_CACHE_HOME/hipgrain)")           \
	X(PRELOAD_LIB, "HIPGRAIN_PRELOAD_LIB", HG_ENV_CONFIG, "",              \
	  "preload object hipgrain run injects instead of the built one")      \
	X(VIRTUAL_GPU, "HIPGRAIN_VIRTUAL_GPU", HG_ENV_RECORDED, "",            \
	  "virtual GPU answering the driver (hipgrain run --virtual-gpu)")    \
	X(VGPU_TRACE, "HIPGRAIN_VGPU_TRACE", HG_ENV_CONFIG, "0",               \
	  "1 prints each driver call the virtual GPU answers on stderr")       \
	X(VGPU_EXEC, "HIPGRAIN_VGPU_EXEC", HG_ENV_RECORDED, "1",               \
	  "0: the virtual GPU retires kernels unexecuted (run --no-exec)")     \
	X(VGPU_UNKNOWN, "HIPGRAIN_VGPU_UNKNOWN", HG_ENV_RECORDED, "",          \
	  "why the ROCm runtime cannot drive the virtual GPU (--force-gpu)")  \
	X(VGPU_THREADS, "HIPGRAIN_VGPU_THREADS", HG_ENV_CONFIG, "0",           \
	  "threads running a kernel's work-groups (0: one per CPU allowed)")   \
	X(VGPU_RACES, "HIPGRAIN_VGPU_RACES", HG_ENV_CONFIG, "1",               \
	  "0 turns off the virtual GPU's check for races between waves")      \
	X(VGPU_BLOCK_WAITS, "HIPGRAIN_VGPU_BLOCK_WAITS", HG_ENV_CONFIG, "1",   \
	  "0 keeps the runtime's spinning waits, which take a CPU from the "   \
	  "virtual GPU's interpreter")                                         \
	X(VGPU_BUDGET, "HIPGRAIN_VGPU_BUDGET", HG_ENV_CONFIG, "1000000000",    \
	  "wave-instructions a kernel runs on the virtual GPU before it is "    \
	  "stopped (0: no limit)")                                             \
	X(VGPU_SYSFS, "HIPGRAIN_VGPU_SYSFS", HG_ENV_CONFIG, "",                \
	  "the virtual GPU's topology tree, made by a job's first process")   \
	X(GROUP_AT_OUTPUT, "HIPGRAIN_GROUP_AT_OUTPUT", HG_ENV_CONFIG, "0",     \
	  "1: report keeps every finding and groups them at output, not as "  \
	  "traces arrive (a check; memory grows with ranks)")                  \
	X(HSA_XNACK, "HSA_XNACK", HG_ENV_RECORDED, "",                         \
	  "1 enables GPU page-fault retry (XNACK) for the process")            \
	X(HIP_HOST_COHERENT, "HIP_HOST_COHERENT", HG_ENV_RECORDED, "",         \
	  "coherence of hipHostMalloc memory allocated without a flag")        \
	X(HIP_VISIBLE_DEVICES, "HIP_VISIBLE_DEVICES", HG_ENV_RECORDED, "",     \
	  "GPUs the HIP runtime exposes")                                      \
	X(ROCR_VISIBLE_DEVICES, "ROCR_VISIBLE_DEVICES", HG_ENV_RECORDED, "",   \
	  "GPUs the ROCr runtime exposes")                                     \
	X(HSA_ENABLE_SDMA, "HSA_ENABLE_SDMA", HG_ENV_RECORDED, "",             \
	  "0 makes copies use blit kernels instead of DMA engines")            \
	X(OMPI_RANK, "OMPI_COMM_WORLD_RANK", HG_ENV_RECORDED, "",              \
	  "MPI rank (Open MPI), to tell ranks apart in reports")               \
	X(PMI_RANK, "PMI_RANK", HG_ENV_RECORDED, "",                           \
	  "MPI rank (MPICH, Cray MPICH)")                                      \
	X(PMIX_RANK, "PMIX_RANK", HG_ENV_RECORDED, "",                         \
	  "MPI rank (any PMIx launcher)")                                      \
	X(SLURM_PROCID, "SLURM_PROCID", HG_ENV_RECORDED, "",                   \
	  "task rank under Slurm")                                             \
	X(SLURM_JOB_ID, "SLURM_JOB_ID", HG_ENV_RECORDED, "",                   \
	  "Slurm job id, to name a job's traces")                              \
	X(SLURM_STEP_ID, "SLURM_STEP_ID", HG_ENV_RECORDED, "",                 \
	  "Slurm job step, to tell a job's steps apart")                       \
	X(OMPI_JOBID, "OMPI_MCA_ess_base_jobid", HG_ENV_RECORDED, "",          \
	  "Open MPI job id, to name a job's traces")                           \
	X(PMIX_NAMESPACE, "PMIX_NAMESPACE", HG_ENV_RECORDED, "",               \
	  "PMIx job namespace, to name a job's traces")

enum hg_env_id {
#define HG_X(id, name, kind, def, doc) HG_ENV_##id,
	HG_ENV_LIST(HG_X)
#undef HG_X
	HG_ENV_COUNT
};

struct hg_env_var {
	const char *name;
	enum hg_env_kind kind;
	const char *def;
	const char *doc;
};

extern const struct hg_env_var hg_env_table[HG_ENV_COUNT];

/* The variable's value, or its default when unset or empty. */
const char *hg_env_get(enum hg_env_id id);
/* The variable's value as an unsigned number within [lo, hi], else def. */
unsigned long long hg_env_get_ull(enum hg_env_id id, unsigned long long lo,
				  unsigned long long hi);
/* Whether the variable is set at all. */
int hg_env_isset(enum hg_env_id id);

#endif /* HG_ENV_H */
