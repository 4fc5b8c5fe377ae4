/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see doc/testing.md): error names.  The table was
 * taken from the real ROCm 5.2 library's hipGetErrorName for every
 * hipError_t enumerator (aliases resolve as it resolves them); like 5.2,
 * hipGetErrorString returns the name and unknown codes are "hipErrorUnknown".
 * A test compares this table with the real library.
 */
#include "fh.h"
#include "hg_hiperr.h"

const char *hipGetErrorName(hipError_t err)
{
	const char *name = hg_hip_error_name((int)err);

	return name ? name : "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t err)
{
	return hipGetErrorName(err);
}
