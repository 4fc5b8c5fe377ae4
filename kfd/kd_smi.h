/* SPDX-License-Identifier: MIT */
/*
 * The text of KFD SMI events.
 *
 * AMDKFD_IOC_SMI_EVENTS gives an anonymous fd; the process write()s a 64-bit
 * mask of KFD_SMI_EVENT_MASK_FROM_INDEX(kind) to it and read()s lines, one
 * event a line: the kind in hex, a space, then the kind's own fields.  Each
 * kernel release has written some kinds a little differently (see
 * kd_smi_spec.h); the parser takes every form seen since Linux 5.15 and the
 * formatter writes the newest, so that a virtual GPU can speak like the real
 * driver.
 */
#ifndef KD_SMI_H
#define KD_SMI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kd_uapi.h"

/* Task names are 16 bytes in the kernel and reset causes 64. */
#define KD_SMI_TEXT_MAX 64

/* The kernel builds a line in KFD_SMI_EVENT_MSG_SIZE bytes; twice that leaves
 * room for a kernel that writes longer lines before we know its format. */
#define KD_SMI_LINE_MAX (2 * KFD_SMI_EVENT_MSG_SIZE)

/* The kernel writes addresses and sizes as 4 KiB page numbers. */
#define KD_SMI_PAGE_SHIFT 12

struct kd_smi_event {
	int kind;      /* KFD_SMI_EVENT_*, KD_SMI_EVENT_PROCESS_* */
	uint64_t ns;   /* boot-time clock; 0 for kinds without a time */
	int32_t pid;   /* "-<decimal>" in the SVM kinds, the '-' no sign;
			* hex in vmfault and process events */
	uint64_t addr; /* bytes, converted from pages */
	uint64_t size; /* bytes, converted from pages */
	uint32_t from, to;     /* migration: GPU ids, 0 is system memory */
	uint32_t node;         /* the GPU id the event happened on */
	uint32_t prefetch_loc; /* GPU id, 0 system memory, ~0 undefined */
	uint32_t preferred_loc;
	int32_t trigger; /* the kind's KFD_*_TRIGGER_* (kd_smi_trigger_name) */
	int32_t error;   /* migrate end: 0, or the failure's negative errno */
	char rw;         /* page fault start 'R'/'W', fault end 'M'(igrated) or
			  * 'U'(pdated), queue restore 'R'(escheduled) or 0 */
	uint32_t seq;    /* GPU reset: the reset's sequence number */
	uint64_t mask;   /* thermal throttle: the throttle bitmask */
	uint64_t count;  /* thermal throttle: the interrupt count */
	char text[KD_SMI_TEXT_MAX]; /* task name (vmfault, process), or reset
				     * cause; NUL-terminated */
};

/*
 * Decode one line (its '\n' may be there or not; no NUL needed; nothing past
 * len is read).  0 on success; -EOPNOTSUPP for a well-formed line of a kind
 * this code does not know (a newer kernel's), with ev->kind set to it;
 * -EINVAL for anything else, ev then undefined.
 */
int kd_smi_parse(const char *line, size_t len, struct kd_smi_event *ev);

/*
 * Write ev as the newest kernel writes it, '\n' included, NUL-terminated
 * when it fits; fields the kind does not carry are not written.  Returns
 * the line's length (snprintf-like: a value >= cap means it was cut), or 0
 * when ev cannot be written: an unknown kind, an address or size that is
 * not a whole page, a negative pid, a text holding a newline, an rw the
 * kind does not have.
 */
size_t kd_smi_format(const struct kd_smi_event *ev, char *buf, size_t cap);

/* lower_snake_case names, stable; NULL for kinds and triggers we do not
 * know.  Triggers exist for migrations, queue evictions and unmaps. */
const char *kd_smi_kind_name(int kind);
const char *kd_smi_trigger_name(int kind, int trigger);

/*
 * Lines from read() chunks of any size: 5.15, like every kernel before a
 * fix of 2022, returns at most eight bytes a read.  Each complete line goes
 * to fn, without its newline, with kd_smi_parse's result: ev is the event
 * when rc is 0, and ev->kind the unknown kind when rc is -EOPNOTSUPP.  A
 * line longer than KD_SMI_LINE_MAX is skipped to its newline and counted.
 */
typedef void (*kd_smi_line_fn)(void *arg, const char *line, size_t len,
			       int rc, const struct kd_smi_event *ev);

struct kd_smi_reader {
	kd_smi_line_fn fn;
	void *arg;
	size_t len;    /* bytes of the partial line in buf */
	bool skipping; /* inside an overlong line */
	char buf[KD_SMI_LINE_MAX];
	uint64_t lines;     /* complete lines handed to fn */
	uint64_t events;    /* ... that parsed */
	uint64_t unknown;   /* ... of kinds we do not know */
	uint64_t malformed; /* ... that did not parse */
	uint64_t overlong;  /* lines skipped for their length */
	uint64_t truncated; /* a partial line left at kd_smi_reader_finish */
};

void kd_smi_reader_init(struct kd_smi_reader *r, kd_smi_line_fn fn,
			void *arg);
void kd_smi_reader_feed(struct kd_smi_reader *r, const void *data,
			size_t len);
/* The stream ended (the fd closed): a partial line is counted, then
 * dropped, as the kernel ends every line it writes. */
void kd_smi_reader_finish(struct kd_smi_reader *r);

#endif
