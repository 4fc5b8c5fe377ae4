/* SPDX-License-Identifier: MIT */
/* libunwind's address checker made ready while the program has one thread
 * (reg_unw.c says why). */
#ifndef REG_UNW_H
#define REG_UNW_H

void reg_unw_prime(void);

#endif
