// Test kernels for synchronization at system scope (issue 49): each says in
// a comment what the code sequences of LLVM's memory model make of it.
// Built for gfx908, gfx90a and MI300, like atomics.hip.
#include <hip/hip_runtime.h>
// Spins on a flag the host sets: an acquire load at system scope, on MI300
// a load with sc0 sc1 and buffer_inv sc0 sc1, on gfx90a buffer_invl2
__global__ void wait_flag(int *flag, const int *data, int *out) {
  while (!__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM))
    ;
  out[threadIdx.x] = data[threadIdx.x];
}
// Publishes data then a flag: a release store (system scope by default),
// buffer_wbl2 before the flag's store, with sc0 sc1 on MI300
__global__ void publish(int *data, int *flag) {
  data[threadIdx.x] = 42;
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
}
// The fence alone: release and acquire at system scope between two stores
__global__ void fence_sys(int *data, int *flag) {
  data[threadIdx.x] = 1;
  __threadfence_system();
  flag[0] = 1;
}
// A relaxed system-scope add: sc1 on MI300, the agent's code elsewhere
__global__ void add_sys(int *count) {
  atomicAdd_system(count, 1);
}
// Through a pointer the kernel loads: the fence's argument is unknown
__global__ void fence_unknown(int **where) {
  where[0][threadIdx.x] = 1;
  __threadfence_system();
}
// The near-miss: the same at agent scope, which the device's L2 keeps
__global__ void near_agent(int *flag, const int *data, int *out) {
  while (!__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT))
    ;
  out[threadIdx.x] = data[threadIdx.x];
  __threadfence();
  atomicAdd(out, 1);
  __hip_atomic_store(flag, 0, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
}
int main() { return 0; }
