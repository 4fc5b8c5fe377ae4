/* SPDX-License-Identifier: MIT */
/*
 * Vocabulary shared by the preload (which writes events) and the analyzer
 * (which reads them).  The numbers below are part of the trace format: never
 * renumber an entry, only append.
 */
#ifndef HG_EVENTS_H
#define HG_EVENTS_H

#include <stdint.h>

/*
 * X(value, IDENT, "name as the user wrote it", CLASS), CLASS an
 * enum hg_api_class without its prefix: what the API's calls do, told once
 * here for the registry, the rules and the tests.
 */
#define HG_API_LIST(X) HG_API_LISTS(HG_API_LIST_, X)
#define HG_API_LIST_(X, lib, list) list(X)

/* Each list of entry points, with the library that defines them. */
#define HG_API_LISTS(L, X)                                                     \
	L(X, NONE, HG_API_NONE_LIST)                                           \
	L(X, SYSTEM, HG_API_SYSTEM_LIST)                                       \
	L(X, HIP, HG_API_HIP_LIST)                                             \
	L(X, OMP, HG_API_OMP_LIST)                                             \
	L(X, HSA, HG_API_HSA_LIST)                                             \
	L(X, OMP, HG_API_OMP_ALLOCATOR_LIST)                                   \
	L(X, HIP, HG_API_HIP_ARRAY_LIST)                                       \
	L(X, HIP, HG_API_GRAPH_LIST)

#define HG_API_NONE_LIST(X) X(0, UNKNOWN, "unknown", OTHER)

/* The C library's and C++'s allocators, preload/libc. */
#define HG_API_SYSTEM_LIST(X)                                                  \
	X(1, MALLOC, "malloc", ALLOC)                                          \
	X(2, CALLOC, "calloc", ALLOC)                                          \
	X(3, REALLOC, "realloc", ALLOC)                                        \
	X(4, POSIX_MEMALIGN, "posix_memalign", ALLOC)                          \
	X(5, ALIGNED_ALLOC, "aligned_alloc", ALLOC)                            \
	X(6, MEMALIGN, "memalign", ALLOC)                                      \
	X(7, VALLOC, "valloc", ALLOC)                                          \
	X(8, PVALLOC, "pvalloc", ALLOC)                                        \
	X(9, FREE, "free", FREE)                                               \
	X(10, NEW, "operator new", ALLOC)                                      \
	X(11, NEW_ARRAY, "operator new[]", ALLOC)                              \
	X(12, DELETE, "operator delete", FREE)                                 \
	X(13, DELETE_ARRAY, "operator delete[]", FREE)

/* The HIP runtime, preload/hip. */
#define HG_API_HIP_LIST(X)                                                     \
	X(20, HIP_MALLOC, "hipMalloc", ALLOC)                                  \
	X(21, HIP_MALLOC_MANAGED, "hipMallocManaged", ALLOC)                   \
	X(22, HIP_HOST_MALLOC, "hipHostMalloc", ALLOC)                         \
	X(23, HIP_HOST_ALLOC, "hipHostAlloc", ALLOC)                           \
	X(24, HIP_EXT_HOST_ALLOC, "hipExtHostAlloc", ALLOC)                    \
	X(25, HIP_EXT_MALLOC_WITH_FLAGS, "hipExtMallocWithFlags", ALLOC)       \
	X(26, HIP_MALLOC_PITCH, "hipMallocPitch", ALLOC)                       \
	X(27, HIP_MALLOC_3D, "hipMalloc3D", ALLOC)                             \
	X(28, HIP_MALLOC_ASYNC, "hipMallocAsync", ALLOC)                       \
	X(29, HIP_MALLOC_FROM_POOL_ASYNC, "hipMallocFromPoolAsync", ALLOC)     \
	X(30, HIP_HOST_REGISTER, "hipHostRegister", PIN)                       \
	X(31, HIP_MEM_MAP, "hipMemMap", VM)                                    \
	X(32, HIP_MALLOC_HOST, "hipMallocHost", ALLOC)                         \
	X(33, HIP_MEM_ALLOC_HOST, "hipMemAllocHost", ALLOC)                    \
	X(34, HIP_MEM_ALLOC_PITCH, "hipMemAllocPitch", ALLOC)                  \
	X(35, HIP_GRAPH_MEM_ALLOC, "hipGraphAddMemAllocNode", ALLOC)           \
	X(36, HIP_MEM_POOL_IMPORT_POINTER, "hipMemPoolImportPointer", IMPORT)  \
	X(37, HIP_IPC_OPEN_MEM_HANDLE, "hipIpcOpenMemHandle", IMPORT)          \
	X(38, HIP_EXTERNAL_MEMORY_GET_MAPPED_BUFFER,                           \
	  "hipExternalMemoryGetMappedBuffer", IMPORT)                          \
	X(39, HIP_IMPORT_EXTERNAL_MEMORY, "hipImportExternalMemory", IMPORT)   \
	X(40, HIP_FREE, "hipFree", FREE)                                       \
	X(41, HIP_HOST_FREE, "hipHostFree", FREE)                              \
	X(42, HIP_FREE_HOST, "hipFreeHost", FREE)                              \
	X(43, HIP_FREE_ASYNC, "hipFreeAsync", FREE)                            \
	X(44, HIP_HOST_UNREGISTER, "hipHostUnregister", PIN)                   \
	X(45, HIP_MEM_UNMAP, "hipMemUnmap", VM)                                \
	X(46, HIP_IPC_CLOSE_MEM_HANDLE, "hipIpcCloseMemHandle", IMPORT)        \
	X(47, HIP_DESTROY_EXTERNAL_MEMORY, "hipDestroyExternalMemory", IMPORT) \
	X(50, HIP_MEMCPY, "hipMemcpy", COPY)                                   \
	X(51, HIP_MEMCPY_ASYNC, "hipMemcpyAsync", COPY)                        \
	X(52, HIP_MEMCPY_HTOD, "hipMemcpyHtoD", COPY)                          \
	X(53, HIP_MEMCPY_DTOH, "hipMemcpyDtoH", COPY)                          \
	X(54, HIP_MEMCPY_DTOD, "hipMemcpyDtoD", COPY)                          \
	X(55, HIP_MEMCPY_HTOD_ASYNC, "hipMemcpyHtoDAsync", COPY)               \
	X(56, HIP_MEMCPY_DTOH_ASYNC, "hipMemcpyDtoHAsync", COPY)               \
	X(57, HIP_MEMCPY_DTOD_ASYNC, "hipMemcpyDtoDAsync", COPY)               \
	X(58, HIP_MEMCPY_2D, "hipMemcpy2D", COPY)                              \
	X(59, HIP_MEMCPY_2D_ASYNC, "hipMemcpy2DAsync", COPY)                   \
	X(60, HIP_MEMCPY_WITH_STREAM, "hipMemcpyWithStream", COPY)             \
	X(61, HIP_MEMCPY_PEER, "hipMemcpyPeer", COPY)                          \
	X(62, HIP_MEMCPY_PEER_ASYNC, "hipMemcpyPeerAsync", COPY)               \
	X(63, HIP_MEMCPY_3D, "hipMemcpy3D", COPY)                              \
	X(64, HIP_MEMCPY_3D_ASYNC, "hipMemcpy3DAsync", COPY)                   \
	X(65, HIP_DRV_MEMCPY_3D, "hipDrvMemcpy3D", COPY)                       \
	X(66, HIP_DRV_MEMCPY_3D_ASYNC, "hipDrvMemcpy3DAsync", COPY)            \
	X(67, HIP_MEMCPY_PARAM_2D, "hipMemcpyParam2D", COPY)                   \
	X(68, HIP_MEMCPY_PARAM_2D_ASYNC, "hipMemcpyParam2DAsync", COPY)        \
	X(69, HIP_DRV_MEMCPY_2D_UNALIGNED, "hipDrvMemcpy2DUnaligned", COPY)    \
	X(70, HIP_MEMSET, "hipMemset", SET)                                    \
	X(71, HIP_MEMSET_ASYNC, "hipMemsetAsync", SET)                         \
	X(72, HIP_MEMSET_D8, "hipMemsetD8", SET)                               \
	X(73, HIP_MEMSET_D32, "hipMemsetD32", SET)                             \
	X(74, HIP_MEMSET_2D, "hipMemset2D", SET)                               \
	X(75, HIP_MEMSET_2D_ASYNC, "hipMemset2DAsync", SET)                    \
	X(76, HIP_MEMSET_3D, "hipMemset3D", SET)                               \
	X(77, HIP_MEMSET_3D_ASYNC, "hipMemset3DAsync", SET)                    \
	X(78, HIP_MEMSET_D8_ASYNC, "hipMemsetD8Async", SET)                    \
	X(79, HIP_MEMSET_D16, "hipMemsetD16", SET)                             \
	X(80, HIP_MEM_PREFETCH_ASYNC, "hipMemPrefetchAsync", PREFETCH)         \
	X(81, HIP_MEM_PREFETCH_ASYNC_V2, "hipMemPrefetchAsync_v2", PREFETCH)   \
	X(82, HIP_MEM_ADVISE, "hipMemAdvise", ADVISE)                          \
	X(83, HIP_MEM_ADVISE_V2, "hipMemAdvise_v2", ADVISE)                    \
	X(84, HIP_MEMSET_D16_ASYNC, "hipMemsetD16Async", SET)                  \
	X(85, HIP_MEMSET_D32_ASYNC, "hipMemsetD32Async", SET)                  \
	X(86, HIP_MEMCPY_TO_SYMBOL, "hipMemcpyToSymbol", COPY)                 \
	X(87, HIP_MEMCPY_TO_SYMBOL_ASYNC, "hipMemcpyToSymbolAsync", COPY)      \
	X(88, HIP_MEMCPY_FROM_SYMBOL, "hipMemcpyFromSymbol", COPY)             \
	X(89, HIP_MEMCPY_FROM_SYMBOL_ASYNC, "hipMemcpyFromSymbolAsync", COPY)  \
	X(90, HIP_LAUNCH_KERNEL, "hipLaunchKernel", LAUNCH)                    \
	X(91, HIP_EXT_LAUNCH_KERNEL, "hipExtLaunchKernel", LAUNCH)             \
	X(92, HIP_MODULE_LAUNCH_KERNEL, "hipModuleLaunchKernel", LAUNCH)       \
	X(93, HIP_EXT_MODULE_LAUNCH_KERNEL,                                    \
	  "hipExtModuleLaunchKernel", LAUNCH)                                  \
	X(94, HIP_LAUNCH_COOPERATIVE_KERNEL,                                   \
	  "hipLaunchCooperativeKernel", LAUNCH)                                \
	X(95, HIP_GRAPH_LAUNCH, "hipGraphLaunch", LAUNCH)                      \
	X(96, HIP_LAUNCH_KERNEL_SPT, "hipLaunchKernel_spt", LAUNCH)            \
	X(97, HIP_LAUNCH_COOPERATIVE_KERNEL_SPT,                               \
	  "hipLaunchCooperativeKernel_spt", LAUNCH)                            \
	X(98, HIP_MODULE_LAUNCH_COOPERATIVE_KERNEL,                            \
	  "hipModuleLaunchCooperativeKernel", LAUNCH)                          \
	X(99, HIP_LAUNCH_COOPERATIVE_KERNEL_MULTI_DEVICE,                      \
	  "hipLaunchCooperativeKernelMultiDevice", LAUNCH)                     \
	X(100, HIP_DEVICE_SYNCHRONIZE, "hipDeviceSynchronize", SYNC)           \
	X(101, HIP_STREAM_SYNCHRONIZE, "hipStreamSynchronize", SYNC)           \
	X(102, HIP_EVENT_SYNCHRONIZE, "hipEventSynchronize", SYNC)             \
	X(103, HIP_HCC_MODULE_LAUNCH_KERNEL,                                   \
	  "hipHccModuleLaunchKernel", LAUNCH)                                  \
	X(104, HIP_EXT_LAUNCH_MULTI_KERNEL_MULTI_DEVICE,                       \
	  "hipExtLaunchMultiKernelMultiDevice", LAUNCH)                        \
	X(105, HIP_LAUNCH_BY_PTR, "hipLaunchByPtr", LAUNCH)                    \
	X(110, HIP_REGISTER_FAT_BINARY, "__hipRegisterFatBinary", MODULE)      \
	X(111, HIP_REGISTER_FUNCTION, "__hipRegisterFunction", MODULE)         \
	X(112, HIP_MODULE_LOAD, "hipModuleLoad", MODULE)                       \
	X(113, HIP_MODULE_LOAD_DATA, "hipModuleLoadData", MODULE)              \
	X(114, HIP_MODULE_LOAD_DATA_EX, "hipModuleLoadDataEx", MODULE)         \
	X(115, HIP_MODULE_GET_FUNCTION, "hipModuleGetFunction", MODULE)        \
	X(116, HIP_UNREGISTER_FAT_BINARY, "__hipUnregisterFatBinary", MODULE)  \
	X(117, HIP_MODULE_UNLOAD, "hipModuleUnload", MODULE)                   \
	X(120, HIP_GET_DEVICE_PROPERTIES, "hipGetDeviceProperties", QUERY)     \
	X(121, HIP_POINTER_GET_ATTRIBUTES, "hipPointerGetAttributes", QUERY)   \
	X(122, HIP_MEM_RANGE_GET_ATTRIBUTE, "hipMemRangeGetAttribute", QUERY)  \
	X(123, HIP_GET_DEVICE, "hipGetDevice", QUERY)                          \
	X(124, HIP_RUNTIME_GET_VERSION, "hipRuntimeGetVersion", QUERY)         \
	X(125, HIP_SET_DEVICE, "hipSetDevice", OTHER)                          \
	X(126, HIP_GET_DEVICE_COUNT, "hipGetDeviceCount", QUERY)               \
	X(127, HIP_INIT, "hipInit", OTHER)                                     \
	X(128, HIP_STREAM_CREATE, "hipStreamCreate", OTHER)                    \
	X(129, HIP_GRAPH_ADD_KERNEL_NODE, "hipGraphAddKernelNode", GRAPH)      \
	X(130, HIP_GRAPH_KERNEL_NODE_SET_PARAMS,                               \
	  "hipGraphKernelNodeSetParams", GRAPH)                                \
	X(131, HIP_GRAPH_EXEC_KERNEL_NODE_SET_PARAMS,                          \
	  "hipGraphExecKernelNodeSetParams", GRAPH)                            \
	X(132, HIP_GRAPH_INSTANTIATE, "hipGraphInstantiate", GRAPH)            \
	X(133, HIP_GRAPH_INSTANTIATE_WITH_FLAGS,                               \
	  "hipGraphInstantiateWithFlags", GRAPH)                               \
	X(134, HIP_STREAM_BEGIN_CAPTURE, "hipStreamBeginCapture", GRAPH)       \
	X(135, HIP_STREAM_END_CAPTURE, "hipStreamEndCapture", GRAPH)           \
	X(136, HIP_MEM_CREATE, "hipMemCreate", VM)                             \
	X(137, HIP_MEM_RELEASE, "hipMemRelease", VM)                           \
	X(138, HIP_MEM_ADDRESS_RESERVE, "hipMemAddressReserve", VM)            \
	X(139, HIP_MEM_ADDRESS_FREE, "hipMemAddressFree", VM)                  \
	X(140, HIP_MEM_POOL_CREATE, "hipMemPoolCreate", POOL)                  \
	X(141, HIP_GRAPH_LAUNCH_SPT, "hipGraphLaunch_spt", LAUNCH)             \
	X(142, HIP_MODULE_LAUNCH_COOPERATIVE_KERNEL_MULTI_DEVICE,              \
	  "hipModuleLaunchCooperativeKernelMultiDevice", LAUNCH)               \
	X(143, HIP_GRAPH_ADD_MEMCPY_NODE_1D, "hipGraphAddMemcpyNode1D", GRAPH) \
	X(144, HIP_GRAPH_ADD_MEMSET_NODE, "hipGraphAddMemsetNode", GRAPH)      \
	X(145, HIP_MEM_POOL_DESTROY, "hipMemPoolDestroy", POOL)

/* OpenMP offload (libomptarget), preload/omp/pl_omp.c.  OMP_MAP is the device
 * copy a map makes in the default mode, OMP_MAP_END its release. */
#define HG_API_OMP_LIST(X)                                                     \
	X(150, OMP_REGISTER_REQUIRES, "__tgt_register_requires", MODULE)       \
	X(151, OMP_REGISTER_LIB, "__tgt_register_lib", MODULE)                 \
	X(152, OMP_TARGET_KERNEL, "__tgt_target_kernel", LAUNCH)               \
	X(153, OMP_TARGET_TEAMS_MAPPER, "__tgt_target_teams_mapper", LAUNCH)   \
	X(154, OMP_TARGET_MAPPER, "__tgt_target_mapper", LAUNCH)               \
	X(155, OMP_TARGET_DATA_BEGIN, "__tgt_target_data_begin_mapper", MAP)   \
	X(156, OMP_TARGET_DATA_END, "__tgt_target_data_end_mapper", MAP)       \
	X(157, OMP_TARGET_DATA_UPDATE, "__tgt_target_data_update_mapper", MAP) \
	X(158, OMP_MAP, "map", ALLOC)                                          \
	X(159, OMP_MAP_END, "end of map", FREE)                                \
	X(160, OMP_TARGET_ALLOC, "omp_target_alloc", ALLOC)                    \
	X(161, OMP_TARGET_FREE, "omp_target_free", FREE)                       \
	X(162, OMP_TARGET_MEMCPY, "omp_target_memcpy", COPY)                   \
	X(163, OMP_TARGET_MEMCPY_RECT, "omp_target_memcpy_rect", COPY)         \
	X(164, OMP_TARGET_ASSOCIATE_PTR, "omp_target_associate_ptr", MAP)      \
	X(165, OMP_TARGET_DISASSOCIATE_PTR,                                    \
	  "omp_target_disassociate_ptr", MAP)                                  \
	X(166, LLVM_OMP_TARGET_ALLOC_HOST,                                     \
	  "llvm_omp_target_alloc_host", ALLOC)                                 \
	X(167, LLVM_OMP_TARGET_ALLOC_SHARED,                                   \
	  "llvm_omp_target_alloc_shared", ALLOC)                               \
	X(168, LLVM_OMP_TARGET_ALLOC_DEVICE,                                   \
	  "llvm_omp_target_alloc_device", ALLOC)

/* HSA (what a runtime did), preload/hsa/pl_hsa.c. */
#define HG_API_HSA_LIST(X)                                                     \
	X(170, HSA_SVM_ATTRIBUTES_SET, "hsa_amd_svm_attributes_set", ADVISE)   \
	X(171, HSA_MEMORY_POOL_ALLOCATE,                                       \
	  "hsa_amd_memory_pool_allocate", ALLOC)                               \
	X(172, HSA_MEMORY_POOL_FREE, "hsa_amd_memory_pool_free", FREE)         \
	X(173, HSA_MEMORY_LOCK, "hsa_amd_memory_lock", PIN)                    \
	X(174, HSA_MEMORY_LOCK_TO_POOL, "hsa_amd_memory_lock_to_pool", PIN)    \
	X(175, HSA_MEMORY_UNLOCK, "hsa_amd_memory_unlock", PIN)

/* libomp's allocators with the pinned trait, preload/omp/pl_omp_alloc.c. */
#define HG_API_OMP_ALLOCATOR_LIST(X)                                           \
	X(176, OMP_ALLOC_PINNED, "omp_alloc (pinned allocator)", ALLOC)        \
	X(177, OMP_FREE, "omp_free", FREE)

/* Copies to and from arrays (opaque image memory): only their linear side
 * is an address.  The _spt forms record as these. */
#define HG_API_HIP_ARRAY_LIST(X)                                               \
	X(180, HIP_MEMCPY_ATOA, "hipMemcpyAtoA", COPY)                         \
	X(181, HIP_MEMCPY_ATOD, "hipMemcpyAtoD", COPY)                         \
	X(182, HIP_MEMCPY_ATOH, "hipMemcpyAtoH", COPY)                         \
	X(183, HIP_MEMCPY_ATOH_ASYNC, "hipMemcpyAtoHAsync", COPY)              \
	X(184, HIP_MEMCPY_DTOA, "hipMemcpyDtoA", COPY)                         \
	X(185, HIP_MEMCPY_HTOA, "hipMemcpyHtoA", COPY)                         \
	X(186, HIP_MEMCPY_HTOA_ASYNC, "hipMemcpyHtoAAsync", COPY)              \
	X(187, HIP_MEMCPY_TO_ARRAY, "hipMemcpyToArray", COPY)                  \
	X(188, HIP_MEMCPY_FROM_ARRAY, "hipMemcpyFromArray", COPY)              \
	X(189, HIP_MEMCPY_2D_TO_ARRAY, "hipMemcpy2DToArray", COPY)             \
	X(190, HIP_MEMCPY_2D_TO_ARRAY_ASYNC, "hipMemcpy2DToArrayAsync", COPY)  \
	X(191, HIP_MEMCPY_2D_FROM_ARRAY, "hipMemcpy2DFromArray", COPY)         \
	X(192, HIP_MEMCPY_2D_FROM_ARRAY_ASYNC,                                 \
	  "hipMemcpy2DFromArrayAsync", COPY)                                   \
	X(193, HIP_MEMCPY_2D_ARRAY_TO_ARRAY, "hipMemcpy2DArrayToArray", COPY)

/* Graph nodes of every form, preload/hip/graph/pl_graph*.c (from 200: other
 * lists grow below it). */
#define HG_API_GRAPH_LIST(X)                                                   \
	X(200, HIP_GRAPH_ADD_MEMCPY_NODE, "hipGraphAddMemcpyNode", GRAPH)      \
	X(201, HIP_GRAPH_ADD_MEMCPY_NODE_TO_SYMBOL,                            \
	  "hipGraphAddMemcpyNodeToSymbol", GRAPH)                              \
	X(202, HIP_GRAPH_ADD_MEMCPY_NODE_FROM_SYMBOL,                          \
	  "hipGraphAddMemcpyNodeFromSymbol", GRAPH)                            \
	X(203, HIP_GRAPH_MEMCPY_NODE_SET_PARAMS,                               \
	  "hipGraphMemcpyNodeSetParams", GRAPH)                                \
	X(204, HIP_GRAPH_MEMCPY_NODE_SET_PARAMS_1D,                            \
	  "hipGraphMemcpyNodeSetParams1D", GRAPH)                              \
	X(205, HIP_GRAPH_MEMCPY_NODE_SET_PARAMS_TO_SYMBOL,                     \
	  "hipGraphMemcpyNodeSetParamsToSymbol", GRAPH)                        \
	X(206, HIP_GRAPH_MEMCPY_NODE_SET_PARAMS_FROM_SYMBOL,                   \
	  "hipGraphMemcpyNodeSetParamsFromSymbol", GRAPH)                      \
	X(207, HIP_GRAPH_MEMSET_NODE_SET_PARAMS,                               \
	  "hipGraphMemsetNodeSetParams", GRAPH)                                \
	X(208, HIP_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,                          \
	  "hipGraphExecMemcpyNodeSetParams", GRAPH)                            \
	X(209, HIP_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS_1D,                       \
	  "hipGraphExecMemcpyNodeSetParams1D", GRAPH)                          \
	X(210, HIP_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS_TO_SYMBOL,                \
	  "hipGraphExecMemcpyNodeSetParamsToSymbol", GRAPH)                    \
	X(211, HIP_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS_FROM_SYMBOL,              \
	  "hipGraphExecMemcpyNodeSetParamsFromSymbol", GRAPH)                  \
	X(212, HIP_GRAPH_EXEC_MEMSET_NODE_SET_PARAMS,                          \
	  "hipGraphExecMemsetNodeSetParams", GRAPH)                            \
	X(213, HIP_DRV_GRAPH_ADD_MEMCPY_NODE,                                  \
	  "hipDrvGraphAddMemcpyNode", GRAPH)                                   \
	X(214, HIP_DRV_GRAPH_ADD_MEMSET_NODE,                                  \
	  "hipDrvGraphAddMemsetNode", GRAPH)                                   \
	X(215, HIP_DRV_GRAPH_MEMCPY_NODE_SET_PARAMS,                           \
	  "hipDrvGraphMemcpyNodeSetParams", GRAPH)                             \
	X(216, HIP_DRV_GRAPH_EXEC_MEMCPY_NODE_SET_PARAMS,                      \
	  "hipDrvGraphExecMemcpyNodeSetParams", GRAPH)                         \
	X(217, HIP_DRV_GRAPH_EXEC_MEMSET_NODE_SET_PARAMS,                      \
	  "hipDrvGraphExecMemsetNodeSetParams", GRAPH)                         \
	X(218, HIP_GRAPH_CLONE, "hipGraphClone", GRAPH)                        \
	X(219, HIP_GRAPH_NODE_FIND_IN_CLONE, "hipGraphNodeFindInClone", GRAPH) \
	X(220, HIP_GRAPH_ADD_CHILD_GRAPH_NODE,                                 \
	  "hipGraphAddChildGraphNode", GRAPH)                                  \
	X(221, HIP_GRAPH_EXEC_CHILD_GRAPH_NODE_SET_PARAMS,                     \
	  "hipGraphExecChildGraphNodeSetParams", GRAPH)                        \
	X(222, HIP_GRAPH_EXEC_UPDATE, "hipGraphExecUpdate", GRAPH)             \
	X(223, HIP_GRAPH_INSTANTIATE_WITH_PARAMS,                              \
	  "hipGraphInstantiateWithParams", GRAPH)                              \
	X(224, HIP_GRAPH_DESTROY_NODE, "hipGraphDestroyNode", GRAPH)           \
	X(225, HIP_GRAPH_NODE_SET_ENABLED, "hipGraphNodeSetEnabled", GRAPH)    \
	X(226, HIP_GRAPH_ADD_NODE, "hipGraphAddNode", GRAPH)                   \
	X(227, HIP_GRAPH_NODE_SET_PARAMS, "hipGraphNodeSetParams", GRAPH)      \
	X(228, HIP_GRAPH_EXEC_NODE_SET_PARAMS,                                 \
	  "hipGraphExecNodeSetParams", GRAPH)                                  \
	X(229, HIP_GRAPH_ADD_MEM_FREE_NODE, "hipGraphAddMemFreeNode", FREE)    \
	X(230, HIP_DRV_GRAPH_ADD_MEM_FREE_NODE,                                \
	  "hipDrvGraphAddMemFreeNode", FREE)                                   \
	X(231, HIP_STREAM_BEGIN_CAPTURE_TO_GRAPH,                              \
	  "hipStreamBeginCaptureToGraph", GRAPH)                               \
	X(232, HIP_MEM_IMPORT_FROM_SHAREABLE_HANDLE,                           \
	  "hipMemImportFromShareableHandle", IMPORT)                           \
	X(233, HIP_MEM_POOL_IMPORT_FROM_SHAREABLE_HANDLE,                      \
	  "hipMemPoolImportFromShareableHandle", IMPORT)

enum hg_api {
#define HG_X(v, id, name, cls) HG_API_##id = (v),
	HG_API_LIST(HG_X)
#undef HG_X
};

/* What an API's calls do.  Not part of the trace: only the API is. */
enum hg_api_class {
	HG_CLASS_OTHER = 0,
	HG_CLASS_ALLOC,	   /* new memory, the program's to release */
	HG_CLASS_FREE,	   /* releases an ALLOC's memory */
	HG_CLASS_PIN,	   /* locks memory the program already has for the
			    * GPU, or unlocks it: nothing is allocated */
	HG_CLASS_IMPORT,   /* maps memory another process or API owns, or
			    * unmaps it: not the program's to free */
	HG_CLASS_COPY,
	HG_CLASS_SET,
	HG_CLASS_PREFETCH,
	HG_CLASS_ADVISE,
	HG_CLASS_LAUNCH,   /* a kernel, or a graph of them, run */
	HG_CLASS_SYNC,
	HG_CLASS_GRAPH,	   /* builds or edits a graph: its nodes act when it
			    * is launched (allocation and free nodes are
			    * ALLOC and FREE: the registry records them so) */
	HG_CLASS_VM,	   /* physical handles, address ranges and maps */
	HG_CLASS_POOL,
	HG_CLASS_MAP,	   /* OpenMP's data mapping directives */
	HG_CLASS_MODULE,   /* code objects loaded and registered */
	HG_CLASS_QUERY,	   /* asks and changes nothing */
};

/* Whose entry point an API is: the list it is in. */
enum hg_api_lib {
	HG_LIB_NONE = 0,
	HG_LIB_SYSTEM, /* the C library and C++ */
	HG_LIB_HIP,
	HG_LIB_OMP,
	HG_LIB_HSA,
};

/* Tables, not switches: a rule asks for every event it reads. */
static inline enum hg_api_class hg_api_class(uint8_t api)
{
	static const uint8_t class_of[256] = {
#define HG_X(v, id, name, cls) [v] = HG_CLASS_##cls,
		HG_API_LIST(HG_X)
#undef HG_X
	};

	return (enum hg_api_class)class_of[api];
}

/* hg_api_lib's table: each list's entries marked with its library. */
#define HG_API_LIB_(X, lib, list) list(HG_API_LIB_##lib)
#define HG_API_LIB_NONE(v, id, name, cls) [v] = HG_LIB_NONE,
#define HG_API_LIB_SYSTEM(v, id, name, cls) [v] = HG_LIB_SYSTEM,
#define HG_API_LIB_HIP(v, id, name, cls) [v] = HG_LIB_HIP,
#define HG_API_LIB_OMP(v, id, name, cls) [v] = HG_LIB_OMP,
#define HG_API_LIB_HSA(v, id, name, cls) [v] = HG_LIB_HSA,

static inline enum hg_api_lib hg_api_lib(uint8_t api)
{
	static const uint8_t lib_of[256] = {HG_API_LISTS(HG_API_LIB_, 0)};

	return (enum hg_api_lib)lib_of[api];
}

/*
 * Memory the HIP runtime allocated for the program, which the program must
 * give back with a HIP free: what gpu-leak reports and dealloc-mismatch
 * pairs.  hipHostRegister's memory is the program's own (PIN), hipMemMap's
 * a handle's (VM), an import another process's (IMPORT); and what OpenMP
 * or HSA allocates is freed through them, or by their runtime itself (a
 * map's device copy, the blocks of an HSA pool).
 */
static inline int hg_api_hip_alloc(uint8_t api)
{
	return hg_api_class(api) == HG_CLASS_ALLOC &&
	       hg_api_lib(api) == HG_LIB_HIP;
}

/*
 * What kind of memory a pointer reaches.  Decided by the registry from the
 * allocator that produced the range, not from the address.
 */
#define HG_MEM_LIST(X)                                                         \
	X(0, UNKNOWN, "unknown")                                               \
	X(1, DEVICE, "device")                /* hipMalloc family */           \
	X(2, DEVICE_FINE, "device-fine")      /* hipExtMallocWithFlags fine */ \
	X(3, MANAGED, "managed")              /* hipMallocManaged */           \
	X(4, HOST_PINNED, "host-pinned")      /* hipHostMalloc family */       \
	X(5, HOST_REGISTERED, "host-registered") /* hipHostRegister */         \
	X(6, SYSTEM, "system")                /* malloc/new, tracked */        \
	X(7, SYSTEM_UNTRACKED, "system-untracked") /* stack, static, mmap */   \
	X(8, NULLPTR, "null")

enum hg_mem {
#define HG_X(v, id, name) HG_MEM_##id = (v),
	HG_MEM_LIST(HG_X)
#undef HG_X
};

#define HG_GRAN_LIST(X)                                                        \
	X(0, UNKNOWN, "unknown")                                               \
	X(1, COARSE, "coarse")                                                 \
	X(2, FINE, "fine")                                                     \
	X(3, MIXED, "mixed") /* part coarse, part fine (hipMemAdvise split) */

enum hg_gran {
#define HG_X(v, id, name) HG_GRAN_##id = (v),
	HG_GRAN_LIST(HG_X)
#undef HG_X
};

/* Where a granularity record came from. */
enum hg_gran_source {
	HG_GRAN_SRC_MODEL = 0,  /* allocator + flags + environment */
	HG_GRAN_SRC_ADVISE = 1, /* hipMemAdvise(Set/UnsetCoarseGrain) */
	HG_GRAN_SRC_QUERY = 2,  /* the runtime's own answer */
	HG_GRAN_SRC_OMP_MAP = 3, /* an OpenMP map under unified_shared_memory:
				  * the pages turn coarse for good (seed 000) */
	HG_GRAN_SRC_RUNTIME = 4, /* a runtime's own HSA call inside a traced
				  * call (what it did, e.g. underneath
				  * hipMemAdvise or a target region) */
	HG_GRAN_SRC_HSA_CALL = 5, /* the program's own
				   * hsa_amd_svm_attributes_set */
};

/* A target feature (xnack, sramecc) as a code object or device states it. */
enum hg_feature {
	HG_FEAT_UNSUPPORTED = 0,
	HG_FEAT_ANY = 1,
	HG_FEAT_OFF = 2,
	HG_FEAT_ON = 3,
};

/* AMDHSA metadata .value_kind of a kernel argument. */
#define HG_VK_LIST(X)                                                          \
	X(0, UNKNOWN, "unknown")                                               \
	X(1, BY_VALUE, "by_value")                                             \
	X(2, GLOBAL_BUFFER, "global_buffer")                                   \
	X(3, DYNAMIC_SHARED_POINTER, "dynamic_shared_pointer")                 \
	X(4, SAMPLER, "sampler")                                               \
	X(5, IMAGE, "image")                                                   \
	X(6, PIPE, "pipe")                                                     \
	X(7, QUEUE, "queue")                                                   \
	X(8, HIDDEN, "hidden") /* every hidden_* kind */

enum hg_value_kind {
#define HG_X(v, id, name) HG_VK_##id = (v),
	HG_VK_LIST(HG_X)
#undef HG_X
};

/* AMDHSA metadata .address_space of a pointer argument. */
enum hg_addr_space {
	HG_AS_NONE = 0,
	HG_AS_PRIVATE = 1,
	HG_AS_GLOBAL = 2,
	HG_AS_CONSTANT = 3,
	HG_AS_LOCAL = 4,
	HG_AS_GENERIC = 5,
	HG_AS_REGION = 6,
};

/*
 * Atomic operations found in a kernel's machine code, as a bit set.  FP bits
 * are hardware floating-point read-modify-write instructions; CAS loops that
 * emulate FP atomics are reported as CMPSWAP.
 */
#define HG_AOP_LIST(X)                                                         \
	X(0, ADD, "add")                                                       \
	X(1, SUB, "sub")                                                       \
	X(2, MIN, "min")                                                       \
	X(3, MAX, "max")                                                       \
	X(4, AND, "and")                                                       \
	X(5, OR, "or")                                                         \
	X(6, XOR, "xor")                                                       \
	X(7, INC, "inc")                                                       \
	X(8, DEC, "dec")                                                       \
	X(9, SWAP, "swap")                                                     \
	X(10, CMPSWAP, "cmpswap")                                              \
	X(16, FADD, "fadd")                                                    \
	X(17, FMIN, "fmin")                                                    \
	X(18, FMAX, "fmax")                                                    \
	X(19, PK_FADD_F16, "pk_add_f16")                                       \
	X(20, PK_FADD_BF16, "pk_add_bf16")

enum hg_aop {
#define HG_X(bit, id, name) HG_AOP_##id = (1u << (bit)),
	HG_AOP_LIST(HG_X)
#undef HG_X
};

#define HG_AOP_FP_MASK                                                         \
	(HG_AOP_FADD | HG_AOP_FMIN | HG_AOP_FMAX | HG_AOP_PK_FADD_F16 |        \
	 HG_AOP_PK_FADD_BF16)
#define HG_AOP_INT_MASK (0xffffu & ~HG_AOP_CMPSWAP)

/* Codes of the `warning` event. */
#define HG_WARN_LIST(X)                                                        \
	X(1, NO_CODE_OBJECT, "no code object for the device's target")        \
	X(2, CODE_OBJECT_UNREADABLE, "code object could not be read")          \
	X(3, DEEPBIND, "library opened with RTLD_DEEPBIND")                    \
	X(4, REGISTRY_FULL, "allocation registry out of memory")               \
	X(5, UNKNOWN_KERNEL, "launch of a kernel never registered")            \
	X(6, SYMBOL_MISSING, "HIP symbol not found in the runtime")            \
	X(7, HAZARD, "hazard seen at run time")                                \
	X(8, PROPERTIES_UNREAD, "allocation properties could not be read")

enum hg_warn {
#define HG_X(v, id, text) HG_WARN_##id = (v),
	HG_WARN_LIST(HG_X)
#undef HG_X
};

/*
 * The trace layout's version, written in every `process` event; a trace
 * without the field is schema 1.  Bump it whenever an event's fields change
 * meaning or move, and keep reading the old layout (doc/design.md says how,
 * and keeps each schema's history); `hipgrain report` refuses schemas newer
 * than its own.
 */
#define HG_TRACE_SCHEMA 10

/*
 * From schema 3, `alloc`, `free` and `launch` are each one field of 64-bit
 * words (`words`), since LTTng-UST pays a call per field.  The positions
 * below are the format; hg_tp_pack_* (provider/hg_tp_types.h) write them,
 * hipgrain-events(7) documents them.  Signed values are stored as their
 * 32-bit two's complement, and 8-bit codes are masked out, never
 * sign-extended.
 */
enum hg_alloc_word {
	HG_AW_ID, HG_AW_ADDR, HG_AW_SIZE, HG_AW_EXTRA, HG_AW_CALLSITE,
	HG_AW_FLAGS_RC, /* flags | rc << 32 */
	HG_AW_CODES,	/* device | api << 32 | mem << 40 | gran << 48 | lazy << 56 */
	HG_ALLOC_WORDS
};

enum hg_free_word {
	HG_FW_ID, HG_FW_ADDR, HG_FW_SIZE, HG_FW_CALLSITE,
	HG_FW_CODES, /* rc | api << 32 | alloc_api << 40 */
	HG_FREE_WORDS
};

/* A memcpy's words (schema 10 on). */
enum hg_memcpy_word {
	HG_MW_DST, HG_MW_SRC, HG_MW_SIZE, HG_MW_DST_ID, HG_MW_SRC_ID,
	HG_MW_STREAM, HG_MW_CALLSITE,
	HG_MW_KIND_RC, /* kind | rc << 32 */
	HG_MW_CODES,   /* api | dst_mem << 8 | src_mem << 16 | async << 24 */
	HG_MEMCPY_WORDS
};

/* A memset's words (schema 10 on). */
enum hg_memset_word {
	HG_SW_DST, HG_SW_SIZE, HG_SW_DST_ID, HG_SW_STREAM, HG_SW_CALLSITE,
	HG_SW_VALUE_RC, /* value | rc << 32 */
	HG_SW_CODES,	/* api | dst_mem << 8 */
	HG_MEMSET_WORDS
};

/* The launch's fixed words; HG_LAUNCH_WORDS per pointer argument follow. */
enum hg_launch_word {
	HG_LW_HANDLE, HG_LW_STREAM,
	HG_LW_GRID_XY,	     /* grid.x | grid.y << 32 */
	HG_LW_GRID_Z_BLOCK_X, /* grid.z | block.x << 32 */
	HG_LW_BLOCK_YZ,	     /* block.y | block.z << 32 */
	HG_LW_SHMEM_RC,	     /* shmem | rc << 32 */
	HG_LW_REPEAT_API,     /* repeat | api << 32 */
	HG_LAUNCH_HEAD
};

/* Words per pointer argument of a launch (schema 2 and later): value, id,
 * offset, index | mem << 16 | gran << 24. */
#define HG_LAUNCH_WORDS 4

/*
 * Schema 4's bytes hold three per argument: id, then the offset, or the
 * value itself where the pointer is in no allocation (id 0), then index |
 * mem << 16 | gran << 24.  A resolved pointer is its allocation's address
 * plus the offset, which the reader adds back.
 */
/*
 * Schema 5 writes schema 4's words in a field named `pack`, some laid out or
 * changed so that their usual values are zero (hg_pack.h, hg_pack_v5_*): a
 * launch's dimensions and repeat less one, in three uncut words, and its
 * api XOR hipLaunchKernel's; an argument's codes as its classes XOR device
 * and coarse, and its index as a step from the argument before, in one
 * uncut word, the three words of an argument paired across arguments; and
 * a free of a known allocation without its address and size (the reader
 * takes the allocation's).
 *
 * Schema 6 declares a launch's head once, as a `head` event under a
 * number unique in its process, and writes a launch as that number, its
 * repeat less one and its arguments as schema 5 does (`ref`,
 * hg_pack_launch_ref).  Where an event's bytes fit one of its sizes, it is
 * written as that size's event (`launch12`: 12 bytes) with a field of
 * fixed length, a value widened to make up the size (hg_pack_widen):
 * LTTng writes no length, and makes one call for the field where a
 * sequence takes two.
 * Readers take `alloc16` ... `launch32` as `alloc` ... `launch`.
 *
 * Schema 7 writes the same bytes as 32-bit elements, widened to a whole
 * number of them (hg_pack_class): a reader pays for each element of an
 * array, and babeltrace2 reads a quarter as many much faster.
 *
 * Schema 9 writes schema 7's widened bytes as one string of text
 * (hg_text.h), `text` for an alloc or a free and `reftext` for a launch,
 * and no sized events: a reader reads a string whole, with no cost per
 * element.
 *
 * Schema 10 writes a memcpy and a memset the same way (`text`,
 * hg_shape_memcpy, hg_shape_memset), where schemas 1 to 9 wrote a field a
 * value: a program that copies or clears in a loop writes them as often
 * as it launches.
 */
enum hg_launch_byte_word {
	HG_LB_ID, HG_LB_WHERE, HG_LB_CODES,
	HG_LAUNCH_BYTE_WORDS
};

#endif /* HG_EVENTS_H */
