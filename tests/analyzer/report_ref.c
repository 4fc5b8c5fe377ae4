/* SPDX-License-Identifier: MIT */
/*
 * `hipgrain report` of one trace in one format, read either the fast way
 * or (--reference) the reference way, where every value is read through
 * its own field's class (an_read_reference), and every frame of a call
 * site named even where only the site is shown (an_sym_every_frame).
 * test_read_same.py checks that both write the same bytes.
 *
 * usage: report_ref [--reference] FORMAT TRACE
 */
#include <stdio.h>
#include <string.h>

#include "an.h"
#include "an_schema.h"
#include "an_sym.h"

int main(int argc, char **argv)
{
	struct an_opts o = {0};
	struct an_outcome res;
	int a = 1, fmt;

	if (argc > a && !strcmp(argv[a], "--reference")) {
		an_read_reference = true;
		an_sym_every_frame = true;
		a++;
	}
	if (argc != a + 2 || (fmt = an_format_parse(argv[a])) < 0) {
		fprintf(stderr, "usage: report_ref [--reference] FORMAT TRACE\n");
		return 2;
	}
	o.format = (enum an_format)fmt;
	o.inputs = &argv[a + 1];
	o.ninputs = 1;
	return an_report(&o, stdout, stderr, &res) ? 1 : 0;
}
