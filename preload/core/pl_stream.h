/* SPDX-License-Identifier: MIT */
/* The GPU each stream was made on: a launch runs on its stream's GPU,
 * whatever device its thread has set since. */
#ifndef PL_STREAM_H
#define PL_STREAM_H

#include "pl_hip.h"

/* After a hipStreamCreate* call: *s was made on the thread's device. */
void pl_stream_made(hipError_t rc, const hipStream_t *s);
/* After hipStreamDestroy: the stream's GPU is forgotten. */
void pl_stream_gone(hipError_t rc, hipStream_t s);
/* The GPU a launch on s runs on: its stream's, the calling thread's for
 * the null stream, the per-thread stream and a stream not seen made. */
int pl_stream_device(hipStream_t s);

#endif
