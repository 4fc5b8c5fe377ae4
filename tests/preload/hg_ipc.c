/* SPDX-License-Identifier: MIT */
/*
 * Device memory from outside the process, against the test double: an IPC
 * handle opened and closed, external memory imported, two buffers mapped
 * and destroyed with it, a copy into each kind, and NULL calls; with
 * "leak", one IPC handle opened and never closed, and nothing else.  Prints
 * one line per call: "NAME rc=N [ptr=ADDR] [ext=ADDR]" (addresses in
 * decimal).
 */
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define U(p) ((unsigned long)(uintptr_t)(p))

static char host[256];

/* n bytes of device memory, opened through an IPC handle of their own. */
static void *opened(size_t n, hipIpcMemHandle_t *h, void **d)
{
	void *p = NULL;
	hipError_t rc;

	hipMalloc(d, n);
	printf("hipIpcGetMemHandle rc=%d\n", (int)hipIpcGetMemHandle(h, *d));
	rc = hipIpcOpenMemHandle(&p, *h, hipIpcMemLazyEnablePeerAccess);
	printf("hipIpcOpenMemHandle rc=%d ptr=%lu\n", (int)rc, U(p));
	return p;
}

static void ipc(void)
{
	hipIpcMemHandle_t h;
	void *d = NULL, *p = opened(8192, &h, &d);

	printf("hipMemcpy rc=%d ptr=%lu\n",
	       (int)hipMemcpy((char *)p + 64, host, 64, hipMemcpyHostToDevice),
	       U((char *)p + 64));
	printf("hipIpcCloseMemHandle rc=%d ptr=%lu\n",
	       (int)hipIpcCloseMemHandle(p), U(p));
	printf("hipIpcOpenMemHandle NULL rc=%d\n",
	       (int)hipIpcOpenMemHandle(NULL, h, 0));
	printf("hipIpcCloseMemHandle NULL rc=%d\n",
	       (int)hipIpcCloseMemHandle(NULL));
	hipFree(d);
}

static void external(void)
{
	hipExternalMemoryHandleDesc hd;
	hipExternalMemoryBufferDesc b1 = {.offset = 0, .size = 4096},
				    b2 = {.offset = 8192, .size = 8192};
	hipExternalMemory_t ext = NULL;
	void *p1 = NULL, *p2 = NULL, *p3 = NULL;
	hipError_t rc;

	memset(&hd, 0, sizeof(hd));
	hd.type = hipExternalMemoryHandleTypeOpaqueFd;
	hd.handle.fd = 3;
	hd.size = 65536;
	rc = hipImportExternalMemory(&ext, &hd);
	printf("hipImportExternalMemory rc=%d ext=%lu\n", (int)rc, U(ext));
	rc = hipExternalMemoryGetMappedBuffer(&p1, ext, &b1);
	printf("hipExternalMemoryGetMappedBuffer rc=%d ptr=%lu\n", (int)rc,
	       U(p1));
	rc = hipExternalMemoryGetMappedBuffer(&p2, ext, &b2);
	printf("hipExternalMemoryGetMappedBuffer rc=%d ptr=%lu\n", (int)rc,
	       U(p2));
	printf("hipExternalMemoryGetMappedBuffer NULL rc=%d\n",
	       (int)hipExternalMemoryGetMappedBuffer(&p3, ext, NULL));
	printf("hipMemset rc=%d ptr=%lu\n", (int)hipMemset(p2, 1, 100), U(p2));
	printf("hipDestroyExternalMemory rc=%d ext=%lu\n",
	       (int)hipDestroyExternalMemory(ext), U(ext));
	printf("hipDestroyExternalMemory NULL rc=%d\n",
	       (int)hipDestroyExternalMemory(NULL));
}

static void leak(void)
{
	hipIpcMemHandle_t h;
	void *d = NULL;

	opened(4096, &h, &d);
	hipFree(d);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "leak")) {
		leak();
		return 0;
	}
	ipc();
	external();
	return 0;
}
