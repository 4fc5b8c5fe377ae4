/* SPDX-License-Identifier: MIT */
/* Names as their authors wrote them: C++ demangled, OpenMP target regions
 * by file and line. */
#ifndef CO_DEMANGLE_H
#define CO_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* Demangled C++ name (malloc'd), or NULL; uses libstdc++'s __cxa_demangle
 * when the process can load it. */
char *co_demangle(const char *mangled);

/*
 * An OpenMP target region's kernel name, __omp_offloading_<device id>_<file
 * id>_<function>_l<line> (ids in hex, the function mangled in C++), said the
 * way its author knows it: "target region at line 9 in main() (file id
 * fe00_a72569)".  False when `name` is not one.
 */
bool co_omp_region(const char *name, char *buf, size_t size);

#endif
