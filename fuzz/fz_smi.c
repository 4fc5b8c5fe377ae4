/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the KFD SMI event text (kfd/kd_smi*.c).  The input is parsed whole as
 * one line, and fed to the reader in two reads cut where its first byte
 * says, so that a partial line is carried across a read at every offset the
 * fuzzer tries.  Each event that parses must come back the same through
 * kd_smi_format and kd_smi_parse: a line the formatter cannot write, or
 * writes differently, is a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kd_smi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(const struct kd_smi_event *ev)
{
	struct kd_smi_event again;
	char buf[KD_SMI_LINE_MAX + 1];
	size_t n = kd_smi_format(ev, buf, sizeof(buf));

	if (!n || n >= sizeof(buf) || kd_smi_parse(buf, n, &again) ||
	    memcmp(ev, &again, sizeof(again))) {
		fprintf(stderr, "fz_smi: kind %d does not come back (%zu: %s)\n",
			ev->kind, n, buf);
		abort();
	}
}

static void line(void *arg, const char *text, size_t len, int rc,
		 const struct kd_smi_event *ev)
{
	(void)arg, (void)text, (void)len;
	if (rc == 0)
		round_trip(ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kd_smi_event ev;
	struct kd_smi_reader r;
	size_t cut = size && data[0] < size ? data[0] : size;

	if (kd_smi_parse((const char *)data, size, &ev) == 0)
		round_trip(&ev);
	kd_smi_reader_init(&r, line, NULL);
	kd_smi_reader_feed(&r, data, cut);
	kd_smi_reader_feed(&r, data + cut, size - cut);
	kd_smi_reader_finish(&r);
	return 0;
}
