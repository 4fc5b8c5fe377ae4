/* SPDX-License-Identifier: MIT */
/*
 * One row per SMI event kind: how its fields are laid out after "<kind> ".
 * The parser and the formatter both walk the same row, so the two cannot
 * drift apart.
 *
 * A spec is the kernel's format with each field replaced by one letter:
 *
 *   n  time, decimal ns        p  pid, decimal (the kernel's '-' is literal)
 *   h  pid, hex                a  address, hex pages    s  size, hex pages
 *   f  from   t  to   o  node  l  prefetch_loc   q  preferred_loc  (hex)
 *   g  trigger, decimal        e  error, decimal
 *   c  one character of the row's chars       x  reset sequence, hex
 *   m  throttle mask, hex      k  throttle count, hex
 *   $  text, the rest of the line
 *   ?  an older kernel's line may end here
 *
 * Anything else is matched literally.  What changed, by release (from the
 * kernel's kfd_smi_events.c and, from 6.12, the KFD_EVENT_FMT_* macros of
 * include/uapi/linux/kfd_ioctl.h):
 *
 *   5.15  vmfault, thermal throttle (a 32-bit mask), gpu pre/post reset
 *   6.1   the SVM profiler kinds: migrations, page faults, queue eviction and
 *         restore, unmap from GPU; the throttle mask is 64 bits by now
 *   6.11  gpu resets add " <cause>"; the post reset's cause is empty, so its
 *         line ends in a space
 *   6.12  queue restore always adds " <c>": 'R' when rescheduled, else a NUL
 *         byte (the macro was given 0 for '0')
 *   6.13  migrate end adds " <error>"
 *   6.16  process start and end
 *   6.19  queue restore writes '0', not NUL (also in 6.12.y and 6.18.y)
 */
#ifndef KD_SMI_SPEC_H
#define KD_SMI_SPEC_H

#include "kd_smi.h"

struct kd_smi_row {
	int kind;
	const char *name;  /* lower_snake_case, kd_smi_kind_name */
	const char *spec;
	const char *chars; /* what 'c' may be; '0' stands for rw 0 */
};

/* The row of kind, or NULL. */
const struct kd_smi_row *kd_smi_row(int kind);

#endif
