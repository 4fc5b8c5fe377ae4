/* SPDX-License-Identifier: MIT */
#include "an_link.h"

#include <linux/kfd_sysfs.h>
#include <stdio.h>
#include <string.h>

#include "hg_events.h"
#include "vg_node.h"

/* PCI device ids as amdgpu lists them (amdgpu_drv.c), named as the
 * products are sold; a card the table lacks is named by its column. */
static const struct {
	uint32_t id;
	const char *name;
} products[] = {
	{ 0x738c, "MI100" },  { 0x738e, "MI100" },  { 0x7408, "MI250X" },
	{ 0x740c, "MI250X/MI250" }, { 0x740f, "MI210" }, { 0x74a0, "MI300A" },
	{ 0x74a1, "MI300X" }, { 0x74a5, "MI325X" }, { 0x74a9, "MI300X" },
};

const char *an_column_name(enum an_column c)
{
	static const char *const n[] = { "", "MI100", "MI200 PCIe", "MI200 A+A",
					 "MI300X", "MI300A" };
	return n[c];
}

const char *an_src_name(enum an_src s)
{
	return s == AN_SRC_TRACE ? "trace" : s == AN_SRC_VGPU ? "virtual GPU" : "assumed";
}

static enum an_column column_of(const char *arch, enum an_cpu_link link, enum an_tri apu)
{
	if (!strncmp(arch, "gfx908", 6))
		return AN_COL_MI100;
	if (!strncmp(arch, "gfx90a", 6))
		return link == AN_LINK_XGMI ? AN_COL_MI200_AA : AN_COL_MI200_PCIE;
	if (!strncmp(arch, "gfx94", 5))
		return apu == AN_TRI_YES ? AN_COL_MI300A : AN_COL_MI300X;
	return AN_COL_UNKNOWN;
}

/* src's first n bytes as a string in dst, cut to fit: what snprintf's
 * "%.*s" gives, without its cost on every launch argument a rule judges. */
static void put(char *dst, size_t cap, const char *src, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* The process's GPU in the recorded topology: the first of its target. */
static const struct an_topo_gpu *topo_gpu(const struct an_proc *p, char *arch, size_t cap)
{
	for (int pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < p->ntopo; i++) {
			uint32_t v = p->topo[i].target;
			snprintf(arch, cap, "gfx%u%u%x", v / 10000, v / 100 % 100, v % 100);
			if (pass || !p->arch[0] || !strncmp(p->arch, arch, strlen(arch)))
				return &p->topo[i];
		}
	return NULL;
}

static void from_topology(const struct an_proc *p, const struct an_topo_gpu *g,
			  struct an_machine *m)
{
	m->link = g->link_type == HSA_IOLINK_TYPE_XGMI		? AN_LINK_XGMI
		  : g->link_type == HSA_IOLINK_TYPE_PCIEXPRESS ? AN_LINK_PCIE
							       : AN_LINK_UNKNOWN;
	m->pcie_atomics = g->link_flags & (HSA_IOLINK_FLAGS_NO_ATOMICS_32_BIT |
					   HSA_IOLINK_FLAGS_NO_ATOMICS_64_BIT)
				  ? AN_TRI_NO : AN_TRI_YES;
	/* An MI300A's GPU reaches its CPU inside the package, by xGMI; an
	 * MI300X only over PCIe. */
	m->apu = g->device_id == 0x74a0 ||
			 (!strncmp(m->arch, "gfx94", 5) && m->link == AN_LINK_XGMI)
		 ? AN_TRI_YES : AN_TRI_NO;
	m->link_src = m->atomics_src = m->apu_src = m->column_src = AN_SRC_TRACE;
	for (size_t i = 0; i < sizeof(products) / sizeof(products[0]); i++)
		if (products[i].id == g->device_id)
			put(m->product, sizeof(m->product), products[i].name,
			    strlen(products[i].name));
	(void)p;
}

static void from_variant(const struct vg_node *n, struct an_machine *m)
{
	snprintf(m->arch, sizeof(m->arch), "%s", n->gpu->gfx);
	snprintf(m->product, sizeof(m->product), "%s", n->gpu->name);
	m->link = n->cpu_xgmi ? AN_LINK_XGMI : AN_LINK_PCIE;
	m->pcie_atomics = n->pcie_atomics ? AN_TRI_YES : AN_TRI_NO;
	m->apu = n->gpu->apu ? AN_TRI_YES : AN_TRI_NO;
	m->xnack = n->retry ? AN_TRI_YES : AN_TRI_NO;
	m->link_src = m->atomics_src = m->apu_src = m->column_src = m->xnack_src = AN_SRC_VGPU;
}

void an_link_facts(const struct an_proc *p, struct an_machine *m)
{
	const struct an_topo_gpu *g;
	struct vg_node n;
	char why[8];

	memset(m, 0, sizeof(*m));
	put(m->arch, sizeof(m->arch), p->arch, strcspn(p->arch, ":"));
	/* Nothing recorded: a GPU on PCIe with AtomicOps, as hipgrain judged
	 * before traces held the topology. */
	m->link = AN_LINK_PCIE;
	m->pcie_atomics = AN_TRI_YES;
	m->apu = AN_TRI_NO;
	m->xnack = an_proc_xnack_on(p) ? AN_TRI_YES : AN_TRI_NO;
	m->xnack_src = p->kfd_xnack || p->dev_xnack || p->xnack_env[0] ? AN_SRC_TRACE
									 : AN_SRC_ASSUMED;
	if (p->vgpu[0] && !vg_node_parse(p->vgpu, &n, why, sizeof(why))) {
		snprintf(m->vgpu, sizeof(m->vgpu), "%s", p->vgpu);
		from_variant(&n, m);
		if (p->kfd_xnack) { /* what the driver answered the runtime */
			m->xnack = p->kfd_xnack == HG_FEAT_ON ? AN_TRI_YES : AN_TRI_NO;
			m->xnack_src = AN_SRC_TRACE;
		}
	} else if ((g = topo_gpu(p, m->arch, sizeof(m->arch)))) {
		from_topology(p, g, m);
	} else if (!strncmp(m->arch, "gfx908", 6)) {
		m->column_src = AN_SRC_TRACE; /* an MI100 whatever its link */
	}
	m->column = column_of(m->arch, m->link, m->apu);
	if (!m->product[0])
		put(m->product, sizeof(m->product), an_column_name(m->column),
		    strlen(an_column_name(m->column)));
}

const char *an_link_vgpu_text(const char *spec, char *buf, size_t cap)
{
	struct vg_node n;
	char why[8];

	if (vg_node_parse(spec, &n, why, sizeof(why)))
		snprintf(buf, cap, "%s", spec);
	else
		snprintf(buf, cap, "%s (%s, XNACK %s by default)", spec,
			 n.gpu->apu ? "an APU" : n.cpu_xgmi ? "xGMI to its CPU"
			 : n.pcie_atomics ? "PCIe, AtomicOps" : "PCIe, no AtomicOps",
			 n.retry ? "on" : "off");
	return buf;
}

bool an_link_cpu_xgmi(const struct an_proc *p)
{
	struct an_machine m;
	an_link_facts(p, &m);
	return m.link == AN_LINK_XGMI;
}

/* The facts that came from `s`, named, joined by commas and "and". */
static size_t facts_from(const struct an_machine *m, enum an_src s, char *buf, size_t cap)
{
	const char *names[] = { "GPU", "CPU link", "PCIe AtomicOps", "XNACK" };
	enum an_src src[] = { m->column_src, m->link_src, m->atomics_src, m->xnack_src };
	size_t n = 0, total = 0, w = 0;

	for (int i = 0; i < 4; i++)
		total += src[i] == s;
	buf[0] = '\0';
	for (int i = 0; i < 4 && w < cap; i++)
		if (src[i] == s)
			w += (size_t)snprintf(buf + w, cap - w, "%s%s",
					      !n++ ? "" : n == total ? " and " : ", ", names[i]);
	return total;
}

const char *an_link_text(const struct an_machine *m, char *buf, size_t cap)
{
	static const char *const from[] = { "assumed", "from the trace",
					    "from the virtual GPU's variant, a model" };
	const char *atom = m->link == AN_LINK_XGMI	     ? "n/a"
			   : m->pcie_atomics == AN_TRI_YES ? "yes"
			   : m->pcie_atomics == AN_TRI_NO  ? "no" : "unknown";
	int w = snprintf(buf, cap, "judged for %s%s (%s), CPU link %s, PCIe AtomicOps %s, "
			 "XNACK %s", m->vgpu[0] ? "the virtual " : "",
			 m->vgpu[0] ? m->vgpu : m->product[0] ? m->product : "an unknown GPU",
			 m->arch[0] ? m->arch : "no target", m->link == AN_LINK_XGMI ? "xGMI"
			 : m->link == AN_LINK_PCIE ? "PCIe" : "unknown", atom,
			 m->xnack == AN_TRI_YES ? "on" : "off");
	const char *sep = ", ";
	for (int s = AN_SRC_TRACE; s >= AN_SRC_ASSUMED && w > 0 && (size_t)w < cap;
	     s = s == AN_SRC_TRACE ? AN_SRC_VGPU : s == AN_SRC_VGPU ? AN_SRC_ASSUMED : -1) {
		char names[96];
		size_t k = facts_from(m, (enum an_src)s, names, sizeof(names));
		if (!k)
			continue;
		w += snprintf(buf + w, cap - (size_t)w, "%s%s%s%s", sep, k == 4 ? "" : names,
			      k == 4 ? "" : " ", from[s]);
		sep = "; ";
	}
	return buf;
}

static enum isa_fact tri(enum an_tri t, enum an_src src)
{
	if (src == AN_SRC_ASSUMED || t == AN_TRI_UNKNOWN)
		return ISA_FACT_UNKNOWN;
	return t == AN_TRI_YES ? ISA_FACT_YES : ISA_FACT_NO;
}

void an_link_atab_facts(const struct an_proc *p, struct isa_atab_facts *out)
{
	struct an_machine m;
	an_link_facts(p, &m);
	/* A fact hipgrain only assumed stays unknown: the table's lookup
	 * then says what it took it as, where that changes the cell. */
	out->cpu_link = m.link_src == AN_SRC_ASSUMED || m.link == AN_LINK_UNKNOWN
				? ISA_LINK_UNKNOWN
			: m.link == AN_LINK_XGMI ? ISA_LINK_XGMI
						 : ISA_LINK_PCIE;
	out->pcie_atomics = tri(m.pcie_atomics, m.atomics_src);
	out->apu = tri(m.apu, m.apu_src);
}
