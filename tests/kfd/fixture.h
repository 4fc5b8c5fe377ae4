/* SPDX-License-Identifier: MIT */
/*
 * SMI fixture files: lines as one kernel release writes them, each followed
 * by what it must decode to.
 *
 *   # a comment
 *   @ newest            every line here is the formatter's output too
 *   > 6 81 -42 @7f(2) afea->0 3 -14\n
 *   = migrate_end ns=81 pid=42 addr=0x7f000 size=0x2000 from=0xafea
 *     trigger=3 error=-14           (one line in the file)
 *
 * "> " holds the bytes with C escapes (\n \0 \\ \xHH), so trailing spaces
 * and NULs survive editors.  "= " names the kind and every field that is
 * not 0 (numbers as strtoll reads them, rw as its letter, text last and to
 * the end of the line); "= EINVAL" and "= EOPNOTSUPP kind=N" expect errors.
 */
#ifndef TEST_KFD_FIXTURE_H
#define TEST_KFD_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "kd_smi.h"

struct fx_case {
	int lineno;
	char line[512];
	size_t len;
	int rc; /* what kd_smi_parse must return */
	struct kd_smi_event want;
};

struct fx_file {
	const char *path;
	bool newest;
	size_t n;
	struct fx_case *cases;
};

/* 0, or -1 with a message in err. */
int fx_load(const char *path, struct fx_file *f, char *err, size_t cap);
void fx_free(struct fx_file *f);

/* The name of the first field where a and b differ, or NULL. */
const char *fx_diff(const struct kd_smi_event *a,
		    const struct kd_smi_event *b);

#endif
