/* SPDX-License-Identifier: MIT */
#ifndef REG_RUNTIME_CODE_H
#define REG_RUNTIME_CODE_H

#include <stdbool.h>
#include <stdint.h>

/* ip lies in a ROCm runtime or the LLVM it loads, not the program. */
bool reg_runtime_code(uintptr_t ip);

#endif
