/* SPDX-License-Identifier: MIT */
#ifndef PL_DEVICE_H
#define PL_DEVICE_H

/* gcnArchName of a device (asking the runtime the first time), "" if the
 * runtime cannot say, e.g. on a machine without a GPU. */
const char *pl_device_arch(int ordinal);

#endif
