/* SPDX-License-Identifier: MIT */
/* Modules loaded with hipModuleLoad* and the functions looked up in them. */
#ifndef PL_MODULE_H
#define PL_MODULE_H

#include "pl_hip.h"

void pl_rec_module_load(uint8_t api, hipError_t rc, hipModule_t *m,
			const void *image, const char *path);
void pl_rec_get_function(hipError_t rc, hipFunction_t *f, hipModule_t m,
			 const char *name);

#endif
