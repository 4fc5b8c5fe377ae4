/* SPDX-License-Identifier: MIT */
/*
 * A single-precision matrix multiply, C = A x B, n x n: on the GPU (one
 * work-item per element, the inner loop in registers) and the same loop of
 * plain C on the host, each timed by the wall clock around it, so that the
 * virtual GPU's interpreter is measured against the floor of doing the
 * work on the CPU directly.  Prints "gpu_s host_s max_error".
 */
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

__global__ void matmul(const float *a, const float *b, float *c, int n)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	if (row >= n || col >= n)
		return;
	float s = 0.0f;
	for (int k = 0; k < n; k++)
		s += a[row * n + k] * b[k * n + col];
	c[row * n + col] = s;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CHECK(x)                                                               \
	do {                                                                   \
		hipError_t e_ = (x);                                           \
		if (e_ != hipSuccess) {                                        \
			fprintf(stderr, "%s: %s\n", #x, hipGetErrorString(e_)); \
			return 1;                                              \
		}                                                              \
	} while (0)

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 256;
	size_t bytes = (size_t)n * n * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
	float *c = (float *)malloc(bytes), *h = (float *)malloc(bytes);
	float *da, *db, *dc;

	if (n <= 0 || !a || !b || !c || !h)
		return 1;
	srand(1);
	for (size_t i = 0; i < (size_t)n * n; i++) {
		a[i] = (float)(rand() % 17) / 16.0f;
		b[i] = (float)(rand() % 13) / 12.0f;
	}
	CHECK(hipMalloc(&da, bytes));
	CHECK(hipMalloc(&db, bytes));
	CHECK(hipMalloc(&dc, bytes));
	CHECK(hipMemcpy(da, a, bytes, hipMemcpyHostToDevice));
	CHECK(hipMemcpy(db, b, bytes, hipMemcpyHostToDevice));
	dim3 block(16, 16), grid((n + 15) / 16, (n + 15) / 16);
	double t0 = now();
	hipLaunchKernelGGL(matmul, grid, block, 0, 0, da, db, dc, n);
	CHECK(hipDeviceSynchronize());
	double gpu = now() - t0;
	CHECK(hipMemcpy(c, dc, bytes, hipMemcpyDeviceToHost));
	t0 = now();
	for (int row = 0; row < n; row++)
		for (int col = 0; col < n; col++) {
			float s = 0.0f;
			for (int k = 0; k < n; k++)
				s += a[row * n + k] * b[k * n + col];
			h[row * n + col] = s;
		}
	double host = now() - t0;
	double err = 0;
	for (size_t i = 0; i < (size_t)n * n; i++)
		err = fmax(err, fabs((double)c[i] - h[i]));
	printf("%.6f %.6f %g\n", gpu, host, err);
	return 0;
}
