/* SPDX-License-Identifier: MIT */
/*
 * A rank of an MPI job on a whole node gets a GPU of its own, as the
 * sites' wrappers give it: LUMI's select_gpu sets ROCR_VISIBLE_DEVICES to
 * the task's local id, Frontier's srun --gpu-bind binds the same way.  A
 * job that chose already (ROCR_ or HIP_VISIBLE_DEVICES set) keeps its
 * choice, and a process that is no rank sees every GPU.  This runs as the
 * library loads, before any runtime reads the variable.
 */
#include <stdio.h>
#include <stdlib.h>

#include "hg_env.h"
#include "vg.h"

/* The launchers' local rank: Open MPI, MPICH and Cray PALS, Slurm. */
static const char *const local_rank_vars[] = {
	"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PALS_LOCAL_RANKID",
	"SLURM_LOCALID",
};

static const char *local_rank(void)
{
	for (size_t i = 0; i < sizeof(local_rank_vars) / sizeof(local_rank_vars[0]); i++) {
		const char *v = getenv(local_rank_vars[i]);
		if (v && *v)
			return v;
	}
	return NULL;
}

__attribute__((constructor)) static void vg_rank_gpu(void)
{
	const char *name = hg_env_get(HG_ENV_VIRTUAL_GPU);
	struct vg_node node;
	char why[8];
	const struct vg_node *n = name && *name && !vg_node_parse(name, &node, why, sizeof(why))
					  ? &node : NULL;
	const char *rocr = hg_env_get(HG_ENV_ROCR_VISIBLE_DEVICES);
	const char *hip = hg_env_get(HG_ENV_HIP_VISIBLE_DEVICES);
	const char *rank = local_rank();
	if (!n || n->gpus < 2 || (rocr && *rocr) || (hip && *hip) || !rank)
		return;
	char *end;
	unsigned long r = strtoul(rank, &end, 10);
	if (end == rank || *end)
		return;
	char gpu[16];
	snprintf(gpu, sizeof(gpu), "%lu", r % n->gpus);
	setenv(hg_env_table[HG_ENV_ROCR_VISIBLE_DEVICES].name, gpu, 1);
}
