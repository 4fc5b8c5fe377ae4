/* SPDX-License-Identifier: MIT */
/* tracegen: turns a line-oriented script into `hipgrain` events (tests only). */
#ifndef TG_H
#define TG_H

#include <stdbool.h>
#include <stdint.h>

#define TG_MAX_KV 48
#define TG_MAX_ARGS 64

struct tg_kv {
	char *key;
	char *val;
};

/* One tokenised script line; pointers point into the line buffer. */
struct tg_line {
	char *event;
	struct tg_kv kv[TG_MAX_KV];
	int n;
};

int tg_tokenise(char *line, struct tg_line *out);
uint64_t tg_u64(const struct tg_line *l, const char *key, uint64_t def);
int64_t tg_i64(const struct tg_line *l, const char *key, int64_t def);
const char *tg_str(const struct tg_line *l, const char *key, const char *def);
int tg_list(const struct tg_line *l, const char *key, uint64_t *out, int max);

/* Emits the event a line names; -ENOENT if there is no such event. */
int tg_emit(const struct tg_line *l);
/* Set by a `noexit` line: no `exit` event ends the script. */
extern bool tg_noexit;
/* Set by a `process` line: a script without one writes no `exit` either
 * (a trace with no hipgrain process stays foreign). */
extern bool tg_had_process;
/* The same for the driver front end's kfd_* events (tg_kfd.c). */
int tg_emit_kfd(const struct tg_line *l);
/* The same for the virtual GPU's vgpu_* events (tg_vgpu.c). */
int tg_emit_vgpu(const struct tg_line *l);

#endif
