/* SPDX-License-Identifier: MIT */
/* Variants of a virtual GPU (vg_variant.c). */
#ifndef VG_VARIANT_H
#define VG_VARIANT_H

#include <stddef.h>

struct isa_atab_facts; /* isa/isa_atab.h */

struct vg_node;

/* A product or machine with options, NAME[:OPTION,...] (vg_variant.c):
 * 0 with *out filled, or -1 with why in err. */
int vg_node_parse(const char *spec, struct vg_node *out, char *err, size_t cap);
/* The i-th option a variant may name and what it means; NULL past the
 * last. */
const char *vg_variant_option(size_t i, const char **means);
/* Whether the GPUs of `spec` reach their CPU over xGMI: the profile's
 * cpu_xgmi unless the variant says pcie; 0 for a spec that does not
 * parse.  The report's rules and the preload's warning ask it alike. */
int vg_node_cpu_xgmi(const char *spec);
/* What AMD's atomics tables ask of machine n (its variant's CPU link and
 * AtomicOps, its product's APU), or of the machine `spec` names: 0, or
 * -1 with every fact unknown for a spec that does not parse. */
void vg_node_facts_of(const struct vg_node *n, struct isa_atab_facts *out);
int vg_node_facts(const char *spec, struct isa_atab_facts *out);

#endif
