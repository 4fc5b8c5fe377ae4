/* SPDX-License-Identifier: MIT */
/*
 * The output's trace IR: for each input trace class, stream class, clock
 * class, event class, trace, stream and packet, the one the filter made
 * for it, made at first sight.  Every event class passes through copied,
 * except the packed ones, which several input classes (alloc, alloc16,
 * ...) share as one decoded class per stream class.
 */
#ifndef BP_IR_H
#define BP_IR_H

#include <babeltrace2/babeltrace.h>

#include "hg_map.h"
#include "dec_bt.h"

/* A head's members, as the `head` event names them. */
enum { BP_HD_ID, BP_HD_API, BP_HD_HANDLE, BP_HD_STREAM, BP_HD_GRID,
       BP_HD_BLOCK, BP_HD_SHMEM, BP_HD_RC, BP_HD_CALLSITE, BP_HD_DEVICE,
       BP_HD_FIELDS };
#define BP_HEAD DEC_KINDS /* bp_ec.kind of a `head` */
#define BP_COPIED (-1)

struct bp_ec {
	bt_event_class *out;
	int kind;	       /* BP_COPIED, a dec_kind, or BP_HEAD */
	struct dec_class dec;  /* a dec_kind's form */
	bt_event_class *damaged;
	int16_t vpid;	       /* common context member, or -1 */
	int16_t head[BP_HD_FIELDS];
	const char *name;
};

struct bp_sc {
	bt_stream_class *out;
	bt_event_class *decoded[DEC_KINDS];
	bt_event_class *damaged;
};

struct bp_ir {
	bt_self_component *comp;
	struct hg_map tcs, ccs, scs, ecs, traces, streams, packets;
};

struct bp_ec *bp_ir_ec(struct bp_ir *ir, const bt_event_class *in);
bt_clock_class *bp_ir_cc(struct bp_ir *ir, const bt_clock_class *in);
bt_stream *bp_ir_stream(struct bp_ir *ir, const bt_stream *in);
/* The stream's entry is dropped (its end). */
void bp_ir_stream_end(struct bp_ir *ir, const bt_stream *in);
/* The output packet, made with its context at its beginning. */
bt_packet *bp_ir_packet(struct bp_ir *ir, const bt_packet *in);
void bp_ir_packet_end(struct bp_ir *ir, const bt_packet *in);
void bp_ir_fini(struct bp_ir *ir);

#endif
