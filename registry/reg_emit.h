/* SPDX-License-Identifier: MIT */
/* The one door from the registry to the trace. */
#ifndef REG_EMIT_H
#define REG_EMIT_H

#include <stdint.h>

#include "hg_tp_types.h"

void reg_emit_callsite(uint64_t id, const uint64_t *frames, uint16_t n);
void reg_emit_alloc(const struct hg_tp_alloc *a);
void reg_emit_free(const struct hg_tp_free *f);
void reg_emit_advise(const struct hg_tp_range_op *r);
void reg_emit_prefetch(const struct hg_tp_range_op *r);
void reg_emit_granularity(const struct hg_tp_granularity *g);
void reg_emit_memcpy(const struct hg_tp_memcpy *m);
void reg_emit_memset(const struct hg_tp_memset *m);
/* Writes into the HG_TP_LAUNCH_ROOM bytes before l->argb. */
void reg_emit_launch(const struct hg_tp_launch *l);
/* In a forked child: the heads its thread declared are its parent's. */
void reg_emit_forget_heads(void);
void reg_emit_kernel(const struct hg_tp_kernel *k);
void reg_emit_code_object(const struct hg_tp_code_object *c);
void reg_emit_function(const struct hg_tp_function *f);
void reg_emit_call(uint8_t api, int32_t rc, uint64_t arg);
void reg_emit_warning(uint16_t code, const char *message);
void reg_emit_process(const struct hg_tp_process *p);
void reg_emit_env(const char *name, const char *value);
void reg_emit_device(const struct hg_tp_device *d);
void reg_emit_runtime(const char *path, int32_t version, int32_t rc);
void reg_emit_kfd_alloc(const struct hg_tp_kfd_alloc *a);
void reg_emit_kfd_free(uint64_t handle, int32_t rc);
void reg_emit_kfd_svm(uint64_t start, uint64_t size, uint8_t op,
		      const uint32_t *attrs, uint16_t n, int32_t rc);
void reg_emit_kfd_xnack(int32_t requested, int32_t enabled, int32_t rc);
void reg_emit_kfd_smi_open(uint32_t gpu_id, int32_t rc);
void reg_emit_kfd_smi(const struct hg_tp_kfd_smi *e);

#endif
