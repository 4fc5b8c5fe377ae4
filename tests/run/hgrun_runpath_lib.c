/* SPDX-License-Identifier: MIT */
/* What hgrun_runpath opens through its RUNPATH. */
int hgrun_runpath_answer(void);

int hgrun_runpath_answer(void)
{
	return 42;
}
