/* SPDX-License-Identifier: MIT */
/*
 * Fuzz the OpenMP readers: an LLVM offload binary as __tgt_register_lib
 * hands it over (memory), and a file as `hipgrain scan` reads it (a host
 * ELF's .llvm.offloading, .omp_offloading.* sections or embedded images).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "co.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_all(struct co_set *set)
{
	struct co_error err;

	for (size_t i = 0; set && i < co_set_count(set) && i < 2; i++) {
		const struct co_entry *e = co_set_entry(set, i);
		struct co_object *o =
		    co_object_open(e->data, e->size, "fuzz", &err);

		if (o)
			co_object_analyse(o, CO_DEC_OWN, &err);
		co_object_free(o);
	}
	co_set_free(set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct co_error err;
	char path[64];

	if (size == 0)
		return 0; /* size 0 means "derive it from the headers" */
	read_all(co_set_from_image(data, size, &err));
	if (fd < 0 && (fd = memfd_create("fz_offload", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	read_all(co_set_from_file(path, &err));
	return 0;
}
