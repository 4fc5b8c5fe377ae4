/* SPDX-License-Identifier: MIT */
/* Pieces of the HTML report (an_html.c, an_html_tables.c, an_html_svg.c). */
#ifndef AN_HTML_H
#define AN_HTML_H

#include <stdio.h>

#include "an_output.h"
#include "an_view.h"

/*
 * Text from the trace (file, kernel and process names) into HTML: every
 * markup character escaped, bytes that are not UTF-8 replaced, so a hostile
 * trace cannot add elements or scripts to the page.
 */
void an_html_esc(FILE *out, const char *s);
/* "1.5 MiB" */

/* The placement map: live bytes over time per process, one SVG each. */
void an_html_placement(struct an_ctx *c, struct an_view *v, FILE *out);
/* The allocations (grouped by call site) and kernels tables. */
void an_html_tables(struct an_ctx *c, struct an_view *v, FILE *out);

#endif
