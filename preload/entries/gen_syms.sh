#!/bin/sh
# The functions a libamdhip64 exports, one "name version" a line, sorted:
# the data the entry-point table (entries.tsv) is checked against.
# usage: preload/entries/gen_syms.sh LIBAMDHIP64 > preload/entries/VERSION.syms
set -eu
nm -D --defined-only "$1" |
	awk '$2 == "T" || $2 == "W" { split($3, v, "@"); print v[1], v[length(v)] }' |
	LC_ALL=C sort -u
