/* SPDX-License-Identifier: MIT */
/*
 * Variants of a virtual GPU: the conditions AMD's atomics tables set
 * apart that are the machine's, not the product's.  The CPU link (MI200
 * "PCIe" against "A+A"), a host whose PCIe root port does not carry
 * AtomicOps (the tables without them), and amdgpu booted with retry on
 * (noretry=0), under which amdkfd starts every process with XNACK on
 * (kfd_process.c, kfd_process_xnack_mode; amdgpu_gmc.c sets noretry by
 * default on every part offered here).  Each product keeps the link it is
 * deployed with; an option names only what differs.
 */
#include <stdio.h>
#include <string.h>

#include "isa_atab.h"
#include "vg_node.h"

enum { OPT_PCIE, OPT_XGMI, OPT_NO_ATOMICS, OPT_XNACK, NOPTS };

static const struct {
	const char *name, *means;
} opts[NOPTS] = {
	{ "pcie", "the GPUs reach their CPU over PCIe (AMD's \"MI200 PCIe\")" },
	{ "xgmi", "the GPUs reach their CPU over xGMI (AMD's \"MI200 A+A\")" },
	{ "no-pcie-atomics", "the PCIe root port carries no AtomicOps: the "
			     "driver marks the link, and no atomic reaches host "
			     "memory" },
	{ "xnack", "amdgpu booted with retry on (noretry=0): processes start "
		   "with XNACK on" },
};

const char *vg_variant_option(size_t i, const char **means)
{
	if (i >= NOPTS)
		return NULL;
	if (means)
		*means = opts[i].means;
	return opts[i].name;
}

/* The CPU links a product is built with: an APU's GPU is in its CPU's
 * package; an MI250X is wired either way (an OAM module on a host with
 * xGMI to its CPU, as HPC systems are, or on PCIe); the others are PCIe
 * cards or modules only. */
static int can_link(const struct vg_profile *p, int xgmi)
{
	if (p->apu)
		return xgmi;
	return !xgmi || p->cpu_xgmi;
}

static int option(const char *s, size_t len)
{
	for (int i = 0; i < NOPTS; i++)
		if (strlen(opts[i].name) == len && !strncmp(opts[i].name, s, len))
			return i;
	return -1;
}

/* Which options the spec names, as bits: 0, or -1 with why. */
static int options(const char *s, unsigned *set, char *err, size_t cap)
{
	while (s && *s) {
		size_t len = strcspn(s, ",");
		int o = option(s, len);
		if (o < 0) {
			snprintf(err, cap, "'%.*s' is no option (pcie, xgmi, "
				 "no-pcie-atomics, xnack)", (int)len, s);
			return -1;
		}
		*set |= 1u << o;
		s += len;
		if (*s == ',' && !*++s) {
			snprintf(err, cap, "an empty option after ','");
			return -1;
		}
	}
	return 0;
}

static int check(const struct vg_node *n, unsigned set, char *err, size_t cap)
{
	const struct vg_profile *p = n->gpu;
	if ((set & 1u << OPT_PCIE) && (set & 1u << OPT_XGMI)) {
		snprintf(err, cap, "pcie and xgmi: a GPU has one link to its CPU");
		return -1;
	}
	if ((set & 1u << OPT_PCIE) && !can_link(p, 0)) {
		snprintf(err, cap, "%s is an APU: its GPU reaches the CPU inside "
			 "its package, never over PCIe", p->name);
		return -1;
	}
	if ((set & 1u << OPT_XGMI) && !can_link(p, 1)) {
		snprintf(err, cap, "%s reaches its CPU only over PCIe", p->name);
		return -1;
	}
	return 0;
}

int vg_node_parse(const char *spec, struct vg_node *out, char *err, size_t cap)
{
	char name[32];
	const char *colon = spec ? strchr(spec, ':') : NULL;
	size_t len = colon ? (size_t)(colon - spec) : (spec ? strlen(spec) : 0);
	const struct vg_node *base = NULL;
	unsigned set = 0;

	if (len && len < sizeof(name)) {
		memcpy(name, spec, len);
		name[len] = '\0';
		base = vg_node_find(name);
	}
	if (!base) {
		snprintf(err, cap, "no such GPU '%.*s'", (int)(len < 32 ? len : 32),
			 spec ? spec : "");
		return -1;
	}
	if (colon && !colon[1]) {
		snprintf(err, cap, "no option after ':'");
		return -1;
	}
	if ((colon && options(colon + 1, &set, err, cap)) || check(base, set, err, cap))
		return -1;
	*out = *base;
	if (set & 1u << OPT_PCIE)
		out->cpu_xgmi = 0;
	if (set & 1u << OPT_XGMI)
		out->cpu_xgmi = 1;
	if ((set & 1u << OPT_NO_ATOMICS) && out->cpu_xgmi) {
		snprintf(err, cap, "no-pcie-atomics: %s reaches its CPU over xGMI%s",
			 base->gpu->name, base->gpu->apu ? "" : "; add pcie");
		return -1;
	}
	out->pcie_atomics = !(set & 1u << OPT_NO_ATOMICS);
	out->retry = (set & 1u << OPT_XNACK) != 0;
	/* Its name, then only the options that change it, in one order. */
	int w = snprintf(out->spec, sizeof(out->spec), "%s", base->name);
	const char *sep = ":";
	int differ[NOPTS] = { out->cpu_xgmi != base->cpu_xgmi && !out->cpu_xgmi,
			      out->cpu_xgmi != base->cpu_xgmi && out->cpu_xgmi,
			      !out->pcie_atomics, out->retry };
	for (int i = 0; i < NOPTS; i++) {
		if (!differ[i] || w < 0 || (size_t)w >= sizeof(out->spec))
			continue;
		w += snprintf(out->spec + w, sizeof(out->spec) - (size_t)w, "%s%s",
			      sep, opts[i].name);
		sep = ",";
	}
	return 0;
}

int vg_node_cpu_xgmi(const char *spec)
{
	struct vg_node n;
	char err[8];
	return spec && *spec && !vg_node_parse(spec, &n, err, sizeof(err)) && n.cpu_xgmi;
}

void vg_node_facts_of(const struct vg_node *n, struct isa_atab_facts *out)
{
	out->cpu_link = n->cpu_xgmi ? ISA_LINK_XGMI : ISA_LINK_PCIE;
	/* Over xGMI no PCIe AtomicOps are asked for: the tables' A+A column
	 * reads the same in both. */
	out->pcie_atomics = n->cpu_xgmi || n->pcie_atomics ? ISA_FACT_YES : ISA_FACT_NO;
	out->apu = n->gpu && n->gpu->apu ? ISA_FACT_YES : ISA_FACT_NO;
}

int vg_node_facts(const char *spec, struct isa_atab_facts *out)
{
	struct vg_node n;
	char err[160];
	*out = (struct isa_atab_facts){ ISA_LINK_UNKNOWN, ISA_FACT_UNKNOWN, ISA_FACT_UNKNOWN };
	if (!spec || !*spec || vg_node_parse(spec, &n, err, sizeof(err)) || !n.gpu)
		return -1;
	vg_node_facts_of(&n, out);
	return 0;
}
