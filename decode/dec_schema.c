/* SPDX-License-Identifier: MIT */
#include "dec_schema.h"

#include <string.h>

/*
 * An event class is read in the form of the newest row whose field it
 * has, with elements of the row's width.  Schemas 5 and 6 write an alloc
 * and a free alike, and a schema 6 launch has `ref` where schema 5's has
 * `pack`; schema 7 writes schema 6's bytes as 32-bit elements, and
 * schema 8 the same (it adds the `died` event); schema 9 writes them as
 * text (`text`, `reftext`), and schema 10 a memcpy and a memset too,
 * which earlier schemas wrote as named fields; schemas 1 and 2 differ only in a
 * launch's arguments.
 */
#define DEC_DST_NAMED {DEC_FORM_NAMED, "dst"} /* a memcpy's, a memset's */
const struct dec_layout dec_layouts[] = {
	{1, 0, {{DEC_FORM_NAMED, "id"}, {DEC_FORM_NAMED, "id"},
	     {DEC_FORM_SEQS, "arg_index"}, DEC_DST_NAMED, DEC_DST_NAMED}, false},
	{2, 0, {{DEC_FORM_NAMED, "id"}, {DEC_FORM_NAMED, "id"},
	     {DEC_FORM_ARGS, "args"}, DEC_DST_NAMED, DEC_DST_NAMED}, false},
	{3, 0, {{DEC_FORM_WORDS, "words"}, {DEC_FORM_WORDS, "words"},
	     {DEC_FORM_WORDS, "words"}, DEC_DST_NAMED, DEC_DST_NAMED}, false},
	{4, 0, {{DEC_FORM_BYTES, "bytes"}, {DEC_FORM_BYTES, "bytes"},
	     {DEC_FORM_BYTES, "bytes"}, DEC_DST_NAMED, DEC_DST_NAMED}, false},
	{5, 0, {{DEC_FORM_PACK, "pack"}, {DEC_FORM_PACK, "pack"},
	     {DEC_FORM_PACK, "pack"}, DEC_DST_NAMED, DEC_DST_NAMED}, false},
	{6, 0, {{DEC_FORM_PACK, "pack"}, {DEC_FORM_PACK, "pack"},
	     {DEC_FORM_REF, "ref"}, DEC_DST_NAMED, DEC_DST_NAMED}, false},
	{7, 32, {{DEC_FORM_PACK, "pack"}, {DEC_FORM_PACK, "pack"},
		 {DEC_FORM_REF, "ref"}, DEC_DST_NAMED, DEC_DST_NAMED}, false},
	{8, 32, {{DEC_FORM_PACK, "pack"}, {DEC_FORM_PACK, "pack"},
		 {DEC_FORM_REF, "ref"}, DEC_DST_NAMED, DEC_DST_NAMED}, false},
	{9, 0, {{DEC_FORM_PACK, "text"}, {DEC_FORM_PACK, "text"},
		{DEC_FORM_REF, "reftext"}, DEC_DST_NAMED, DEC_DST_NAMED}, true},
	{10, 0, {{DEC_FORM_PACK, "text"}, {DEC_FORM_PACK, "text"},
		 {DEC_FORM_REF, "reftext"}, {DEC_FORM_PACK, "text"},
		 {DEC_FORM_PACK, "text"}}, true},
};
const unsigned dec_nlayouts = sizeof(dec_layouts) / sizeof(dec_layouts[0]);

const char *const dec_named[DEC_KINDS][DEC_NAMED_MAX] = {
	[DEC_ALLOC] = {"id", "api", "addr", "size", "flags", "mem", "gran",
		       "rc", "callsite", "device", "extra", "lazy"},
	[DEC_FREE] = {"id", "api", "addr", "size", "rc", "alloc_api",
		      "callsite"},
	[DEC_LAUNCH] = {"api", "handle", "stream", "grid", "block", "shmem",
			"rc", "repeat", "args", "arg_index", "arg_value",
			"arg_id", "arg_offset", "arg_mem", "arg_gran"},
	[DEC_MEMCPY] = {"api", "dst", "src", "size", "kind", "async",
			"stream", "rc", "dst_id", "src_id", "dst_mem",
			"src_mem", "callsite"},
	[DEC_MEMSET] = {"api", "dst", "value", "size", "stream", "rc",
			"dst_id", "dst_mem", "callsite"},
};

static const char *const dec_kind_names[DEC_KINDS] = {
	"hipgrain:alloc", "hipgrain:free", "hipgrain:launch", "hipgrain:memcpy",
	"hipgrain:memset"};

int dec_kind_of(const char *name)
{
	for (int k = 0; k < DEC_KINDS && name; k++) {
		size_t n = strlen(dec_kind_names[k]);
		const char *p = name + n;

		if (strncmp(name, dec_kind_names[k], n))
			continue;
		while (*p >= '0' && *p <= '9')
			p++;
		if (!*p)
			return k;
	}
	return -1;
}
