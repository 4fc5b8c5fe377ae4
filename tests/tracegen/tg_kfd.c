/* SPDX-License-Identifier: MIT */
/*
 * The driver front end's events (kfd_*): what the runtime told /dev/kfd and
 * what the driver's SMI file reported.  Keys are the fields of
 * provider/hg_tp.h; kfd_svm's attrs are a list of numbers, its (type, value)
 * pairs flattened.
 */
#include <errno.h>
#include <string.h>

#include "hg_tp.h"
#include "tg.h"

#define U(k) tg_u64(l, k, 0)
#define I(k) ((int32_t)tg_i64(l, k, 0))

static void tg_kfd_alloc(const struct tg_line *l)
{
	struct hg_tp_kfd_alloc a = {
		.va = U("va"), .size = U("size"), .handle = U("handle"),
		.cpu = U("cpu"), .flags = (uint32_t)U("flags"),
		.gpu_id = (uint32_t)U("gpu_id"), .rc = I("rc"),
	};

	lttng_ust_tracepoint(hipgrain, kfd_alloc, &a);
}

static void tg_kfd_free(const struct tg_line *l)
{
	lttng_ust_tracepoint(hipgrain, kfd_free, U("handle"), I("rc"));
}

static void tg_kfd_svm(const struct tg_line *l)
{
	uint64_t v[TG_MAX_ARGS];
	uint32_t attrs[TG_MAX_ARGS];
	int n = tg_list(l, "attrs", v, TG_MAX_ARGS);

	for (int i = 0; i < n; i++)
		attrs[i] = (uint32_t)v[i];
	lttng_ust_tracepoint(hipgrain, kfd_svm, U("start"), U("size"),
			     (uint8_t)U("op"), attrs, (uint16_t)n, I("rc"));
}

static void tg_kfd_xnack(const struct tg_line *l)
{
	lttng_ust_tracepoint(hipgrain, kfd_xnack, I("requested"), I("enabled"),
			     I("rc"));
}

static void tg_kfd_smi_open(const struct tg_line *l)
{
	lttng_ust_tracepoint(hipgrain, kfd_smi_open, (uint32_t)U("gpu_id"),
			     I("rc"));
}

static void tg_kfd_smi(const struct tg_line *l)
{
	struct hg_tp_kfd_smi e = {
		.addr = U("addr"), .size = U("size"), .ns = U("ns"),
		.from = (uint32_t)U("from"), .to = (uint32_t)U("to"),
		.node = (uint32_t)U("node"), .trigger = I("trigger"),
		.error = I("error"), .kind = (uint8_t)U("kind"),
		.rw = (uint8_t)U("rw"),
	};

	lttng_ust_tracepoint(hipgrain, kfd_smi, &e);
}

static void tg_kfd_node(const struct tg_line *l)
{
	struct hg_tp_kfd_node n = {
		.node = (uint32_t)U("node"), .gpu_id = (uint32_t)U("gpu_id"),
		.gfx_target_version = (uint32_t)U("gfx_target_version"),
		.device_id = (uint32_t)U("device_id"), .hive_id = U("hive_id"),
		.capability = (uint32_t)U("capability"),
		.cpu_node = (uint32_t)U("cpu_node"),
		.link_type = (uint32_t)U("link_type"),
		.link_flags = (uint32_t)U("link_flags"),
		.kfd_major = (uint32_t)U("kfd_major"),
		.kfd_minor = (uint32_t)U("kfd_minor"),
		.name = tg_str(l, "name", ""), .driver = tg_str(l, "driver", ""),
	};

	lttng_ust_tracepoint(hipgrain, kfd_node, &n);
}

static const struct {
	const char *name;
	void (*fn)(const struct tg_line *l);
} tg_kfd_events[] = {
	{"kfd_node", tg_kfd_node},
	{"kfd_alloc", tg_kfd_alloc},	   {"kfd_free", tg_kfd_free},
	{"kfd_svm", tg_kfd_svm},	   {"kfd_xnack", tg_kfd_xnack},
	{"kfd_smi_open", tg_kfd_smi_open}, {"kfd_smi", tg_kfd_smi},
};

int tg_emit_kfd(const struct tg_line *l)
{
	for (size_t i = 0; i < sizeof(tg_kfd_events) / sizeof(tg_kfd_events[0]);
	     i++) {
		if (!strcmp(l->event, tg_kfd_events[i].name)) {
			tg_kfd_events[i].fn(l);
			return 0;
		}
	}
	return -ENOENT;
}
