/* SPDX-License-Identifier: MIT */
/*
 * The device facts that decide semantics (arch, xnack, sramecc), asked of
 * the runtime once per device, lazily, before the first call that needs
 * them: asking at load time would initialise the runtime behind the
 * program's back.
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <string.h>

#include "hg_events.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "pl_device.h"
#include "pl_hip.h"
#include "pl_launch.h"
#include "reg.h"

#define MAX_DEVICES 64

struct device {
	atomic_int state; /* 0: not asked, 1: asking, 2: known */
	char arch[256];	  /* gcnArchName, "" when the runtime could not say */
};

static struct device devices[MAX_DEVICES];
static atomic_int runtime_reported;
static __thread int current_device
	__attribute__((tls_model("initial-exec")));

static uint8_t feature(const char *arch, const char *name)
{
	const char *f = strstr(arch, name);
	char sign;

	if (!f)
		return arch[0] ? HG_FEAT_ANY : HG_FEAT_UNSUPPORTED;
	sign = f[strlen(name)];
	return sign == '+' ? HG_FEAT_ON : sign == '-' ? HG_FEAT_OFF : HG_FEAT_ANY;
}

static void report_runtime(void)
{
	hipError_t (*version)(int *) = pl_next_sym("hipRuntimeGetVersion");
	Dl_info info = {0};
	int v = 0;
	hipError_t rc = version(&v);

	dladdr((void *)version, &info);
	reg_emit_runtime(info.dli_fname ? info.dli_fname : "", v, rc);
}

static void ask(int ord, struct device *d)
{
	/* The one whose struct the headers give (PL_NAME). */
	hipError_t (*props_fn)(hipDeviceProp_t *, int) =
		pl_next_sym(PL_NAME(hipGetDeviceProperties));
	hipDeviceProp_t props;
	struct hg_tp_device ev = {.ordinal = ord, .arch = "", .name = ""};
	int v = 0;

	memset(&props, 0, sizeof(props));
	ev.rc = props_fn(&props, ord);
	if (ev.rc == hipSuccess) {
		props.gcnArchName[sizeof(props.gcnArchName) - 1] = 0;
		props.name[sizeof(props.name) - 1] = 0;
		memcpy(d->arch, props.gcnArchName, sizeof(d->arch));
		ev.arch = d->arch;
		ev.name = props.name;
		ev.managed_memory = props.managedMemory;
	}
	ev.xnack = feature(d->arch, "xnack");
	ev.sramecc = feature(d->arch, "sramecc");
	((hipError_t(*)(int *))pl_next_sym("hipRuntimeGetVersion"))(&v);
	ev.runtime_version = v;
	reg_emit_device(&ev);
}

const char *pl_device_arch(int ord)
{
	struct device *d;
	int expected = 0;

	if (ord < 0 || ord >= MAX_DEVICES)
		return "";
	d = &devices[ord];
	if (atomic_load_explicit(&d->state, memory_order_acquire) == 2)
		return d->arch; /* every launch asks: no locked instruction */
	if (atomic_compare_exchange_strong(&d->state, &expected, 1)) {
		if (!atomic_exchange(&runtime_reported, 1))
			report_runtime();
		ask(ord, d);
		atomic_store(&d->state, 2);
	}
	return atomic_load(&d->state) == 2 ? d->arch : "";
}

int pl_device_failed(void)
{
	struct device *d = &devices[current_device];

	/* Never asked: no launch needed it, so no kernel was profiled. */
	return atomic_load(&d->state) != 2 || !d->arch[0];
}

int pl_device_current(void)
{
	return current_device;
}

void pl_rec_set_device(hipError_t rc, int dev)
{
	reg_emit_call(HG_API_HIP_SET_DEVICE, rc, (uint64_t)dev);
	if (rc == hipSuccess) {
		current_device = dev;
		pl_hip_settled = 0; /* ask the new one before its next call */
	}
}

/*
 * The program's first HIP call reaches the runtime before any question of
 * ours: without a GPU, ROCm 5.7 answers the call that initialises it
 * differently from the ones after (hipErrorInvalidDevice, then
 * hipErrorNoDevice), and the program must read its own first answer.  The
 * device is asked before the next call that wants it.
 */
static atomic_int runtime_touched;

__thread int pl_hip_settled __attribute__((tls_model("initial-exec")));

int pl_hip_enter_slow(int query, int tr)
{
	if (!atomic_load_explicit(&runtime_touched, memory_order_relaxed) &&
	    !atomic_exchange(&runtime_touched, 1))
		return tr;
	if (tr && query) {
		pl_device_arch(current_device);
		pl_hip_settled = current_device >= 0 &&
				 current_device < MAX_DEVICES &&
				 atomic_load(&devices[current_device].state) == 2;
	}
	return tr;
}

