/* SPDX-License-Identifier: MIT */
#ifndef PL_EXPORT_H
#define PL_EXPORT_H
/* The preload exports only the functions it replaces (a test checks). */
#define PL_EXPORT __attribute__((visibility("default")))
#endif
