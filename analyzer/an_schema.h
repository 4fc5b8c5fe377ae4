/* SPDX-License-Identifier: MIT */
/*
 * The events the analyzer reads and the payload fields it uses, by position.
 * Field names are resolved to member indices once per event class
 * (an_evclass.c); replay then reads fields by index only.  A field missing
 * from a trace reads as 0 or "", so older or newer schemas still load.
 * alloc, free, launch, memcpy and memset name no field here: every
 * schema's form of them is the decoder's (decode/dec_schema.h), read through dec_bt.h.
 */
#ifndef AN_SCHEMA_H
#define AN_SCHEMA_H

#include <babeltrace2/babeltrace.h>
#include <stdbool.h>
#include <stdint.h>

#include "dec_bt.h"

#define AN_MAX_FIELDS 16

/* X(KIND, "provider:event", "field", ...) */
#define AN_EVENT_LIST(X)                                                       \
	X(PROCESS, "hipgrain:process", "exe", "schema")                           \
	X(ENV, "hipgrain:env", "name", "value")                               \
	X(DEVICE, "hipgrain:device", "rc", "arch", "xnack", "name")           \
	X(CALLSITE, "hipgrain:callsite", "id", "frames")                      \
	X(ALLOC, "hipgrain:alloc", NULL)                                      \
	X(FREE, "hipgrain:free", NULL)                                        \
	X(ADVISE, "hipgrain:advise", "api", "addr", "size", "advice", "rc",   \
	  "id", "mem", "device", "callsite")                                   \
	X(PREFETCH, "hipgrain:prefetch", "api", "addr", "size", "advice", "rc", \
	  "id", "mem", "device", "callsite")                                   \
	X(EXIT, "hipgrain:exit", "normal")                                    \
	X(DIED, "hipgrain:died", "api", "addr", "size", "advice", "rc", "id",  \
	  "mem", "device", "callsite", "name", "signal", "here")               \
	X(GRANULARITY, "hipgrain:granularity", "id", "addr", "size", "gran",  \
	  "source", "rc")                                                      \
	X(MEMCPY, "hipgrain:memcpy", NULL)                                    \
	X(MEMSET, "hipgrain:memset", NULL)                                    \
	X(CODE_OBJECT, "hipgrain:code_object", "api", "rc", "targets")        \
	X(FUNCTION, "hipgrain:function", "handle", "name", "rc", "api")       \
	X(KERNEL, "hipgrain:kernel", "handle", "name", "target", "status",    \
	  "xnack", "fp_ops", "fp_mnemonics", "int_ops", "cas_count",          \
	  "int_mnemonics", "fp_sites", "int_sites", "sys_sites")              \
	X(LAUNCH, "hipgrain:launch", NULL)                                    \
	X(HEAD, "hipgrain:head", "id", "handle", "rc", "api", "callsite",     \
	  "device")                                                             \
	X(CALL, "hipgrain:call", "api", "rc", "arg")                          \
	X(WARNING, "hipgrain:warning", "code", "message")                     \
	X(RUNTIME, "hipgrain:runtime", "path", "version", "rc")               \
	X(KFD_ALLOC, "hipgrain:kfd_alloc", "va", "size", "handle", "cpu",     \
	  "flags", "gpu_id", "rc")                                             \
	X(KFD_FREE, "hipgrain:kfd_free", "handle", "rc")                      \
	X(KFD_SVM, "hipgrain:kfd_svm", "start", "size", "op", "attrs", "rc")  \
	X(KFD_XNACK, "hipgrain:kfd_xnack", "requested", "enabled", "rc")      \
	X(KFD_SMI_OPEN, "hipgrain:kfd_smi_open", "gpu_id", "rc")              \
	X(KFD_SMI, "hipgrain:kfd_smi", "kind", "trigger", "addr", "size",     \
	  "from", "to", "node", "rw", "ns", "error")                          \
	X(KFD_NODE, "hipgrain:kfd_node", "node", "gpu_id",                      \
	  "gfx_target_version", "device_id", "name", "hive_id", "capability",  \
	  "link_type", "link_flags", "kfd_major", "kfd_minor", "driver")       \
	X(VGPU_DISPATCH, "hipgrain:vgpu_dispatch", "kd", "kernel", "status",   \
	  "what")                                                              \
	X(VGPU_DROP, "hipgrain:vgpu_drop", "kd", "code_off", "op", "count",   \
	  "id")                                                                \
	X(VGPU_TRAFFIC, "hipgrain:vgpu_traffic", "kd", "id", "lo", "read",    \
	  "written", "scope")                                                  \
	X(VGPU_RACE, "hipgrain:vgpu_race", "kd", "code_off_a", "code_off_b",  \
	  "line_a", "line_b", "cls_a", "cls_b", "lds", "lo", "hi", "count")    \
	X(VGPU_STALE, "hipgrain:vgpu_stale", "kd", "code_off", "id", "off",   \
	  "lo", "hi", "count", "line", "stopped")                              \
	X(VGPU_UNWRITTEN, "hipgrain:vgpu_unwritten", "kd", "code_off", "id",  \
	  "off", "lo", "hi", "count", "lost", "line", "stopped")               \
	X(BIN_INFO, "lttng_ust_statedump:bin_info", "baddr", "memsz", "path", \
	  "is_pic")                                                            \
	X(DLOPEN, "lttng_ust_dl:dlopen", "baddr", "memsz", "path", "flags")  \
	X(STATEDUMP, "lttng_ust_statedump:start", NULL)

enum an_ev_kind {
	AN_EV_OTHER = 0,
#define AN_X(k, name, ...) AN_EV_##k,
	AN_EVENT_LIST(AN_X)
#undef AN_X
	AN_EV_COUNT
};

/* Field positions, in the order the list above names them. */
enum { F_PROCESS_EXE, F_PROCESS_SCHEMA };
enum { F_ENV_NAME, F_ENV_VALUE };
enum { F_DEV_RC, F_DEV_ARCH, F_DEV_XNACK, F_DEV_NAME };
enum { F_CS_ID, F_CS_FRAMES };
enum { F_RO_API, F_RO_ADDR, F_RO_SIZE, F_RO_ADVICE, F_RO_RC, F_RO_ID,
       F_RO_MEM, F_RO_DEVICE, F_RO_CALLSITE };
/* died: the range fields as F_RO_ (no rc), then these. */
enum { F_DI_NAME = F_RO_CALLSITE + 1, F_DI_SIGNAL, F_DI_HERE };
enum { F_GR_ID, F_GR_ADDR, F_GR_SIZE, F_GR_GRAN, F_GR_SOURCE, F_GR_RC };
enum { F_CO_API, F_CO_RC, F_CO_TARGETS };
enum { F_FN_HANDLE, F_FN_NAME, F_FN_RC, F_FN_API };
enum { F_KE_HANDLE, F_KE_NAME, F_KE_TARGET, F_KE_STATUS, F_KE_XNACK,
       F_KE_FP_OPS, F_KE_FP_MN, F_KE_INT_OPS, F_KE_CAS, F_KE_INT_MN,
       F_KE_FP_SITES, F_KE_INT_SITES, F_KE_SYS_SITES };
enum { F_HD_ID, F_HD_HANDLE, F_HD_RC, F_HD_API, F_HD_CALLSITE, F_HD_DEVICE };
enum { F_CALL_API, F_CALL_RC, F_CALL_ARG };
enum { F_WARN_CODE, F_WARN_MSG };
enum { F_RT_PATH, F_RT_VERSION, F_RT_RC };
enum { F_KA_VA, F_KA_SIZE, F_KA_HANDLE, F_KA_CPU, F_KA_FLAGS, F_KA_GPU,
       F_KA_RC };
enum { F_KF_HANDLE, F_KF_RC };
enum { F_KS_START, F_KS_SIZE, F_KS_OP, F_KS_ATTRS, F_KS_RC };
enum { F_KX_REQUESTED, F_KX_ENABLED, F_KX_RC };
enum { F_KO_GPU, F_KO_RC };
enum { F_SMI_KIND, F_SMI_TRIGGER, F_SMI_ADDR, F_SMI_SIZE, F_SMI_FROM,
       F_SMI_TO, F_SMI_NODE, F_SMI_RW, F_SMI_NS, F_SMI_ERROR };
enum { F_KN_NODE, F_KN_GPU, F_KN_TARGET, F_KN_DEVICE, F_KN_NAME, F_KN_HIVE,
       F_KN_CAP, F_KN_LTYPE, F_KN_LFLAGS, F_KN_MAJOR, F_KN_MINOR,
       F_KN_DRIVER };
enum { F_VD_KD, F_VD_KERNEL, F_VD_STATUS, F_VD_WHAT };
enum { F_VX_KD, F_VX_CODE_OFF, F_VX_OP, F_VX_COUNT, F_VX_ID };
enum { F_VT_KD, F_VT_ID, F_VT_LO, F_VT_READ, F_VT_WRITTEN, F_VT_SCOPE };
enum { F_VR_KD, F_VR_CODE_OFF_A, F_VR_CODE_OFF_B, F_VR_LINE_A, F_VR_LINE_B,
       F_VR_CLS_A, F_VR_CLS_B, F_VR_LDS, F_VR_LO, F_VR_HI, F_VR_COUNT };
enum { F_VS_KD, F_VS_CODE_OFF, F_VS_ID, F_VS_OFF, F_VS_LO, F_VS_HI, F_VS_COUNT,
       F_VS_LINE, F_VS_STOPPED };
enum { F_VU_KD, F_VU_CODE_OFF, F_VU_ID, F_VU_OFF, F_VU_LO, F_VU_HI, F_VU_COUNT,
       F_VU_LOST, F_VU_LINE, F_VU_STOPPED };
enum { F_BIN_BADDR, F_BIN_MEMSZ, F_BIN_PATH, F_BIN_IS_PIC };
enum { F_DL_FLAGS = 3 }; /* lttng_ust_dl:dlopen: baddr, memsz, path, flags */

/* What replay needs to know about one event class, computed once. */
struct an_evclass {
	enum an_ev_kind kind;
	int16_t field[AN_MAX_FIELDS]; /* payload member index, -1 if absent */
	uint8_t read[AN_MAX_FIELDS];  /* enum dec_read bits */
	int16_t ctx_vpid, ctx_procname, ctx_vtid;
	uint8_t ctx_vpid_read, ctx_vtid_read; /* enum dec_read */
	struct dec_class dec; /* alloc, free, launch: the form they hold */
};

/*
 * Set: every value is read through its own field's class, one array
 * element at a time, asking nothing of the event class: the plain reading
 * that the one by event class is checked against
 * (tests/analyzer/report_ref.c).  Never set otherwise.
 */
extern bool an_read_reference;

/* One event as replay sees it. */
struct an_ev {
	const struct an_evclass *cls;
	const bt_field *payload;
	const bt_field *ctx;
	const bt_stream *stream;
};

struct an_evcache;
struct an_evcache *an_evcache_new(void);
void an_evcache_free(struct an_evcache *c);
const struct an_evclass *an_evclass_of(struct an_evcache *c,
				       const bt_event_class *ec);

/* An integer field read as its class says (enum dec_read), without asking
 * the field; as the field says under an_read_reference. */
uint64_t an_field_int(const bt_field *f, uint8_t read);
uint64_t an_ev_u64(const struct an_ev *e, int f);
int64_t an_ev_i64(const struct an_ev *e, int f);
const char *an_ev_str(const struct an_ev *e, int f);
/* An array field and its length; NULL (and 0) if absent. */
const bt_field *an_ev_arr(const struct an_ev *e, int f, uint64_t *len);
uint64_t an_arr_u64(const bt_field *arr, uint64_t i);

#endif
