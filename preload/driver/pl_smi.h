/* SPDX-License-Identifier: MIT */
#ifndef PL_SMI_H
#define PL_SMI_H

#include <stdint.h>

/* The SMI reader of this process: started once the runtime has
 * named its GPUs, restarted in a forked child that opens the driver again. */
void pl_smi_start(int kfd_fd, const uint32_t *gpu_ids, unsigned n);
/* Read what the SMI files hold now, in the calling thread. */
void pl_smi_drain(void);

#endif
