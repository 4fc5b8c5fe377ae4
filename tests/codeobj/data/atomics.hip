// Test kernels for codeobj: one per atomic situation of seed 000.  Built
// twice (default and -munsafe-fp-atomics) for gfx908, gfx90a and gfx940.
#include <hip/hip_runtime.h>
// CAS loop by default, global_atomic_add_f32 with -munsafe-fp-atomics
__global__ void fadd_default(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(a, b[i]);
}
// flat_atomic_add_f64 on gfx90a, a CAS loop on gfx908
__global__ void dadd_unsafe(double *a, const double *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) unsafeAtomicAdd(a, b[i]);
}
// system scope: a CAS loop by default; with -munsafe-fp-atomics the
// hardware add, which on MI300 carries sc1 (fadd_default's has none)
__global__ void fadd_system(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd_system(a, b[i]);
}
// integer RMW: add stays safe everywhere; min/or do not over PCIe
__global__ void iops(int *h, unsigned *u, const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { atomicAdd(&h[v[i] & 15], 1); atomicMin(&h[16], v[i]); atomicOr(u, (unsigned)v[i]); }
}
// LDS atomics: never a granularity hazard
__global__ void lds(int *out, const int *v, int n) {
  __shared__ int s[64]; __shared__ float f[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 64) s[threadIdx.x] = 0;
  __syncthreads();
  if (i < n) { atomicAdd(&s[v[i] & 63], 1); atomicAdd(&f[0], (float)v[i]); }
  __syncthreads();
  if (threadIdx.x < 64) out[threadIdx.x] = s[threadIdx.x] + (int)f[0];
}
__global__ void noatom(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i];
}
int main() { return 0; }
