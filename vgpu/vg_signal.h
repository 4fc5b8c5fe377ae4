/* SPDX-License-Identifier: MIT */
/* HSA signals as the packet processors complete them. */
#ifndef VG_SIGNAL_H
#define VG_SIGNAL_H

#include <stdint.h>

/* A completion signal's decrement, with its mailbox and event. */
void vg_signal_done(uint64_t sig, int timestamps);
int64_t vg_signal_value(uint64_t sig);
/* An SDMA atomic or fence wrote value_va.  ROCr ends a copy with an
 * atomic on its signal's value, or a fence that writes it, and adds the
 * trap that raises the interrupt only for a signal with a mailbox, which
 * its signals here lack, so a waiter that sleeps rather than spins would
 * sleep on: where value_va is laid out as such a signal's value, its
 * event is raised, as a completed dispatch raises it (a waiter woken for
 * nothing re-reads and sleeps). */
void vg_signal_value_written(uint64_t value_va);

#endif
