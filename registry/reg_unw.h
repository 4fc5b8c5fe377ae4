/* SPDX-License-Identifier: MIT */
/* libunwind's address checker made ready while the program has one thread,
 * and kept from the program's close() (reg_unw.c says why). */
#ifndef REG_UNW_H
#define REG_UNW_H

#include <stdbool.h>

void reg_unw_prime(void);
/* fd is libunwind's pipe, which a close() of the program must leave open. */
bool reg_unw_keeps(int fd);

#endif
