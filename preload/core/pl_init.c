/* SPDX-License-Identifier: MIT */
/* Start-up, configuration, and fork. */
#include <lttng/ust-fork.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hg_config.h"
#include "hg_env.h"
#include "hg_events.h"
#include "hg_tp_init.h"
#include "pl_boot.h"
#include "pl_export.h"
#include "pl_inflight.h"
#include "pl_launch.h"
#include "reg.h"
#include "hg_olock.h"

static void read_config(struct reg_config *c)
{
	const char *hc = getenv("HIP_HOST_COHERENT");

	c->stack_threshold = hg_env_get_ull(HG_ENV_STACK_THRESHOLD, 0, ~0ull);
	c->stack_depth = (unsigned)hg_env_get_ull(HG_ENV_STACK_DEPTH, 1, 64);
	c->host_all = !strcmp(hg_env_get(HG_ENV_HOST_EVENTS), "all");
	c->host_coherent = hc && *hc ? atoi(hc) != 0 : -1;
}

/* Who we are and what decides semantics: only whitelisted variables. */
static void announce(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	struct hg_tp_process p = {
		.ppid = getppid(), .exe = exe, .version = HG_VERSION,
		.host_mode = (uint8_t)reg_cfg.host_all,
		.stack_threshold = reg_cfg.stack_threshold,
		.stack_depth = reg_cfg.stack_depth, .schema = HG_TRACE_SCHEMA,
	};

	exe[n > 0 ? n : 0] = 0;
	PL_NESTED();

	reg_emit_process(&p);
	for (int i = 0; i < HG_ENV_COUNT; i++) {
		const char *v = getenv(hg_env_table[i].name);

		if (v && hg_env_table[i].kind == HG_ENV_RECORDED)
			reg_emit_env(hg_env_table[i].name, v);
	}
}

__attribute__((constructor)) static void pl_init(void)
{
	struct reg_config cfg = {0};
	const char *off = hg_env_get(HG_ENV_DISABLE);

	pl_boot_resolve();
	if (off[0] && strcmp(off, "0"))
		return; /* HIPGRAIN_DISABLE: a pure pass-through */
	read_config(&cfg);
	pl_launch_watched = hg_env_get(HG_ENV_VIRTUAL_GPU)[0] != '\0';
	reg_track_init(&cfg);
	pthread_atfork(reg_track_fork_prepare, reg_track_fork_parent,
		       reg_track_fork_child);
	hg_olock_init();
	hg_tp_init();
	pl_inflight_install();
	pl_enabled = true;
	announce();
}

/* Every thread's counted launches, at exit: threads still running then
 * (pools, OpenMP workers) never reach their own thread exit. */
__attribute__((destructor)) static void pl_fini(void)
{
	if (!pl_enabled)
		return;
	PL_NESTED();
	pl_launch_flush_all();
	reg_emit_exit();
}

/* lttng-ust must hear about a fork to trace the child under its own vpid
 * (what liblttng-ust-fork.so would do, without a second preload). */
PL_EXPORT pid_t fork(void);
PL_EXPORT pid_t fork(void)
{
	static pid_t (*real)(void);
	sigset_t saved;
	pid_t pid;

	if (!real)
		real = (pid_t(*)(void))pl_next_sym("fork");
	if (!pl_enabled)
		return real();
	lttng_ust_before_fork(&saved);
	pid = real();
	if (pid == 0) {
		lttng_ust_after_fork_child(&saved);
		hg_olock_init(); /* the child is a process of its own */
		reg_emit_forget_heads();
		pl_launch_forget();
		announce();
	} else {
		lttng_ust_after_fork_parent(&saved);
	}
	return pid;
}
