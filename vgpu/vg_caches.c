/* SPDX-License-Identifier: MIT */
/*
 * A GPU node's caches, as kfd_crat.c fills them (kfd_fill_gpu_cache_info)
 * and kfd_topology.c's cache_show prints them: one entry per cache, each
 * naming the first CU it serves (processor_id_low, counted from the
 * node's simd_id_base) and the CUs that share it (sibling_map).  The L1
 * kinds are walked shader engine by shader engine in groups of the CUs
 * that share one; then come one L2 per XCC and the L3 over them all.
 * ROCr keeps the data caches and reports the first of each level.
 */
#include <stdio.h>
#include <linux/kfd_sysfs.h>

#include "vg_caches.h"
#include "vg_sysfs.h"
#include "vg_sysfs_io.h"

#define VG_DATA (HSA_CACHE_TYPE_DATA | HSA_CACHE_TYPE_HSACU)
#define VG_INST (HSA_CACHE_TYPE_INSTRUCTION | HSA_CACHE_TYPE_HSACU)
/* The scalar L1 of the SQC: its size on every part here. */
#define VG_SCALAR_KIB 16u

struct kind {
	uint32_t kib, level, type, cus; /* cus: how many CUs share one */
};

static size_t kinds(const struct vg_profile *p, struct kind *k)
{
	size_t n = 0;
	k[n++] = (struct kind){ p->l1_kib, 1, VG_DATA, 1 };
	k[n++] = (struct kind){ p->inst_kib, 1, VG_INST, p->sqc_cus };
	k[n++] = (struct kind){ VG_SCALAR_KIB, 1, VG_DATA, p->sqc_cus };
	k[n++] = (struct kind){ p->l2_kib, 2, VG_DATA, p->cu_count / p->num_xcc };
	if (p->l3_kib)
		k[n++] = (struct kind){ p->l3_kib, 3, VG_DATA, p->cu_count };
	return n;
}

/* The CUs of shader engine se: the part's CUs spread over its engines. */
static uint32_t se_cus(const struct vg_profile *p, uint32_t se)
{
	return p->cu_count / p->shader_engines + (se < p->cu_count % p->shader_engines);
}

/* Calls put for each cache in order: the first CU (an offset from the
 * node's first), how many share it, and its kind.  Returns the count. */
static unsigned walk(const struct vg_profile *p,
		     int (*put)(void *, unsigned, uint32_t, uint32_t, const struct kind *),
		     void *ctx, int *rc)
{
	struct kind k[5];
	size_t n = kinds(p, k);
	unsigned count = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t cu = 0;
		if (k[i].level > 1) {
			for (; cu < p->cu_count; cu += k[i].cus) {
				if (put)
					*rc |= put(ctx, count, cu, k[i].cus, &k[i]);
				count++;
			}
			continue;
		}
		for (uint32_t se = 0; se < p->shader_engines; se++) {
			uint32_t in_se = se_cus(p, se);
			for (uint32_t c = 0; c < in_se; c += k[i].cus) {
				uint32_t share = in_se - c < k[i].cus ? in_se - c : k[i].cus;
				if (put)
					*rc |= put(ctx, count, cu + c, share, &k[i]);
				count++;
			}
			cu += in_se;
		}
	}
	return count;
}

unsigned vg_caches_count(const struct vg_profile *p)
{
	int rc = 0;
	return walk(p, NULL, NULL, &rc);
}

struct out {
	const char *dir; /* the node's caches directory */
	uint32_t first;	 /* the node's simd_id_base */
};

static int put_one(void *ctx, unsigned idx, uint32_t cu, uint32_t share,
		   const struct kind *k)
{
	const struct out *o = ctx;
	char path[600];
	snprintf(path, sizeof(path), "%s/%u", o->dir, idx);
	if (vg_sysfs_dir(path))
		return -1;
	snprintf(path, sizeof(path), "%s/%u/properties", o->dir, idx);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f,
		"processor_id_low %u\nlevel %u\nsize %u\ncache_line_size %u\n"
		"cache_lines_per_tag 1\nassociation %u\nlatency 1\ntype %u\n"
		"sibling_map ",
		o->first + cu, k->level, k->kib, k->level == 1 ? 64u : 128u,
		k->level == 1 ? 4u : 16u, k->type);
	for (uint32_t i = 0; i < share; i++)
		fprintf(f, i + 1 < share ? "1," : "1\n");
	return fclose(f) ? -1 : 0;
}

int vg_caches_write(const char *dir, uint32_t simd_id_base, const struct vg_profile *p)
{
	struct out o = { dir, simd_id_base };
	int rc = 0;
	walk(p, put_one, &o, &rc);
	return rc;
}
