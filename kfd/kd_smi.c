/* SPDX-License-Identifier: MIT */
/* The table of SMI event kinds, and the names of kinds and triggers. */
#include "kd_smi_spec.h"

#define KD_N(a) (sizeof(a) / sizeof((a)[0]))

/* Each spec is the newest kernel's format (kd_smi_spec.h has the letters). */
static const struct kd_smi_row rows[] = {
	{KFD_SMI_EVENT_VMFAULT, "vmfault", "h:$", ""},
	{KFD_SMI_EVENT_THERMAL_THROTTLE, "thermal_throttle", "m:k", ""},
	{KFD_SMI_EVENT_GPU_PRE_RESET, "gpu_pre_reset", "x? $", ""},
	{KFD_SMI_EVENT_GPU_POST_RESET, "gpu_post_reset", "x? $", ""},
	{KFD_SMI_EVENT_MIGRATE_START, "migrate_start",
	 "n -p @a(s) f->t l:q g", ""},
	{KFD_SMI_EVENT_MIGRATE_END, "migrate_end", "n -p @a(s) f->t g? e", ""},
	{KFD_SMI_EVENT_PAGE_FAULT_START, "page_fault_start", "n -p @a(o) c",
	 "RW"},
	{KFD_SMI_EVENT_PAGE_FAULT_END, "page_fault_end", "n -p @a(o) c", "MU"},
	{KFD_SMI_EVENT_QUEUE_EVICTION, "queue_eviction", "n -p o g", ""},
	{KFD_SMI_EVENT_QUEUE_RESTORE, "queue_restore", "n -p o? c", "R0"},
	{KFD_SMI_EVENT_UNMAP_FROM_GPU, "unmap_from_gpu", "n -p @a(s) o g", ""},
	{KD_SMI_EVENT_PROCESS_START, "process_start", "h $", ""},
	{KD_SMI_EVENT_PROCESS_END, "process_end", "h $", ""},
};

static const char *const migrate_triggers[] = {
	[KFD_MIGRATE_TRIGGER_PREFETCH] = "prefetch",
	[KFD_MIGRATE_TRIGGER_PAGEFAULT_GPU] = "gpu_fault",
	[KFD_MIGRATE_TRIGGER_PAGEFAULT_CPU] = "cpu_fault",
	[KFD_MIGRATE_TRIGGER_TTM_EVICTION] = "ttm_eviction",
};

static const char *const eviction_triggers[] = {
	[KFD_QUEUE_EVICTION_TRIGGER_SVM] = "svm",
	[KFD_QUEUE_EVICTION_TRIGGER_USERPTR] = "userptr",
	[KFD_QUEUE_EVICTION_TRIGGER_TTM] = "ttm",
	[KFD_QUEUE_EVICTION_TRIGGER_SUSPEND] = "suspend",
	[KFD_QUEUE_EVICTION_CRIU_CHECKPOINT] = "criu_checkpoint",
	[KFD_QUEUE_EVICTION_CRIU_RESTORE] = "criu_restore",
};

static const char *const unmap_triggers[] = {
	[KFD_SVM_UNMAP_TRIGGER_MMU_NOTIFY] = "mmu_notify",
	[KFD_SVM_UNMAP_TRIGGER_MMU_NOTIFY_MIGRATE] = "mmu_notify_migrate",
	[KFD_SVM_UNMAP_TRIGGER_UNMAP_FROM_CPU] = "unmap_from_cpu",
};

const struct kd_smi_row *kd_smi_row(int kind)
{
	for (size_t i = 0; i < KD_N(rows); i++)
		if (rows[i].kind == kind)
			return &rows[i];
	return NULL;
}

const char *kd_smi_kind_name(int kind)
{
	const struct kd_smi_row *row = kd_smi_row(kind);

	return row ? row->name : NULL;
}

static const char *pick(const char *const *names, size_t n, int i)
{
	return i >= 0 && (size_t)i < n ? names[i] : NULL;
}

const char *kd_smi_trigger_name(int kind, int trigger)
{
	switch (kind) {
	case KFD_SMI_EVENT_MIGRATE_START:
	case KFD_SMI_EVENT_MIGRATE_END:
		return pick(migrate_triggers, KD_N(migrate_triggers), trigger);
	case KFD_SMI_EVENT_QUEUE_EVICTION:
		return pick(eviction_triggers, KD_N(eviction_triggers),
			    trigger);
	case KFD_SMI_EVENT_UNMAP_FROM_GPU:
		return pick(unmap_triggers, KD_N(unmap_triggers), trigger);
	default:
		return NULL;
	}
}
