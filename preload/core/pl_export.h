/* SPDX-License-Identifier: MIT */
#ifndef PL_EXPORT_H
#define PL_EXPORT_H
/* The preload exports only the functions it replaces (a test checks). */
#define PL_EXPORT __attribute__((visibility("default")))
/*
 * A function's name as the headers make it, for looking it up: ROCm 6's
 * are macros for versioned functions (hipGetDeviceProperties is
 * hipGetDevicePropertiesR0600, whose struct differs from the old symbol's),
 * which #name would miss.
 */
#define PL_NAME(x) PL_NAME_(x)
#define PL_NAME_(x) #x
#endif
