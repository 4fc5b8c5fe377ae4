/* SPDX-License-Identifier: MIT */
/* Pieces of the HTML report (an_html.c, an_html_tables.c, an_html_svg.c). */
#ifndef AN_HTML_H
#define AN_HTML_H

#include <stdio.h>

#include "an_output.h"
#include "an_view.h"

/* The placement map: live bytes over time per process, one SVG each. */
void an_html_placement(struct an_ctx *c, struct an_view *v, FILE *out);
/* The allocations (grouped by call site) and kernels tables. */
void an_html_tables(struct an_ctx *c, struct an_view *v, FILE *out);

#endif
