/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for `hipgrain report`'s reading of traces: babeltrace's
 * CTF source as we drive it, the metadata check, salvage, replay and every
 * report format (the timeline of html and perfetto included).
 *
 * One input is one trace: a 32-bit little-endian metadata length, the
 * metadata, then one stream file.  Seeds come from real traces
 * (fz_trace_seed.py packs them).  babeltrace2 2.0.4 leaks on its error
 * paths: run with -detect_leaks=0.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an.h"

static char fz_dir[] = "/tmp/hipgrain-fz-trace-XXXXXX";
static FILE *fz_null;

static int fz_put(const char *name, const uint8_t *p, size_t n)
{
	char path[sizeof(fz_dir) + 16];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", fz_dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	rc = fwrite(p, 1, n, f) == n ? 0 : -1;
	return fclose(f) || rc ? -1 : 0;
}

static void fz_cleanup(void)
{
	char path[sizeof(fz_dir) + 16];

	snprintf(path, sizeof(path), "%s/metadata", fz_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stream_0", fz_dir);
	unlink(path);
	rmdir(fz_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_null = fopen("/dev/null", "w");
	if (!fz_null || !mkdtemp(fz_dir))
		abort();
	atexit(fz_cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int round;
	char *inputs[] = {fz_dir};
	struct an_opts o = {.inputs = inputs, .ninputs = 1};
	struct an_outcome res;
	uint32_t mlen;

	if (size < 4)
		return 0;
	memcpy(&mlen, data, 4);
	if (mlen > size - 4)
		return 0;
	if (fz_put("metadata", data + 4, mlen) ||
	    fz_put("stream_0", data + 4 + mlen, size - 4 - mlen))
		abort();
	/* Each input in turn through each format, with and without inventory. */
	o.format = (enum an_format)(round % 5);
	o.inventory = (round / 5) & 1;
	round++;
	an_report(&o, fz_null, fz_null, &res);
	return 0;
}
