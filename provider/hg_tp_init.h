/* SPDX-License-Identifier: MIT */
#ifndef HG_TP_INIT_H
#define HG_TP_INIT_H
/* Register the hipgrain probes now rather than whenever constructors run. */
void hg_tp_init(void);
#endif
