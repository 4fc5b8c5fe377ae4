/* SPDX-License-Identifier: MIT */
#ifndef PL_DEVICE_H
#define PL_DEVICE_H

/* gcnArchName of a device (asking the runtime the first time), "" if the
 * runtime cannot say, e.g. on a machine without a GPU. */
const char *pl_device_arch(int ordinal);
/* The current device is not known: never asked (no call needed it), or
 * the runtime could not answer. */
int pl_device_failed(void);

#endif
