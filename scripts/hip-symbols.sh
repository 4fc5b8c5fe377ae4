#!/bin/sh
# hip-symbols.sh LIB > OUT.tsv: the functions a libamdhip64 exports, one
# "name<TAB>version" line each, sorted, so releases can be compared as data
# (tests/entrypoints/).  Default versions (@@) and hidden ones (@) both count:
# a program linked against an older release binds to either.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 path/to/libamdhip64.so.N" >&2; exit 2; }
[ -r "$1" ] || { echo "$0: cannot read $1" >&2; exit 1; }
nm -D --defined-only "$1" |
	awk '$2 == "T" || $2 == "W" || $2 == "i" {
		n = $3; v = "";
		if (match(n, /@@?/)) { v = substr(n, RSTART + RLENGTH); n = substr(n, 1, RSTART - 1) }
		print n "\t" v }' |
	LC_ALL=C sort -u
