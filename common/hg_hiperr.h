/* SPDX-License-Identifier: MIT */
/*
 * hipError_t names as ROCm 5.2's hipGetErrorName gives them (aliases as it
 * resolves them).  One table for the report's "failed with" lines and for the
 * test double; tests/kernels checks it against the real library.
 */
#ifndef HG_HIPERR_H
#define HG_HIPERR_H

/* X(code, "name") */
#define HG_HIP_ERRORS(X)                                                       \
	X(0, "hipSuccess")                                         \
	X(1, "hipErrorInvalidValue")                               \
	X(2, "hipErrorOutOfMemory")                                \
	X(3, "hipErrorNotInitialized")                             \
	X(4, "hipErrorDeinitialized")                              \
	X(5, "hipErrorProfilerDisabled")                           \
	X(6, "hipErrorProfilerNotInitialized")                     \
	X(7, "hipErrorProfilerAlreadyStarted")                     \
	X(8, "hipErrorProfilerAlreadyStopped")                     \
	X(9, "hipErrorInvalidConfiguration")                       \
	X(12, "hipErrorInvalidPitchValue")                         \
	X(13, "hipErrorInvalidSymbol")                             \
	X(17, "hipErrorInvalidDevicePointer")                      \
	X(21, "hipErrorInvalidMemcpyDirection")                    \
	X(35, "hipErrorInsufficientDriver")                        \
	X(52, "hipErrorMissingConfiguration")                      \
	X(53, "hipErrorPriorLaunchFailure")                        \
	X(98, "hipErrorInvalidDeviceFunction")                     \
	X(100, "hipErrorNoDevice")                                 \
	X(101, "hipErrorInvalidDevice")                            \
	X(200, "hipErrorInvalidImage")                             \
	X(201, "hipErrorInvalidContext")                           \
	X(202, "hipErrorContextAlreadyCurrent")                    \
	X(205, "hipErrorMapFailed")                                \
	X(206, "hipErrorUnmapFailed")                              \
	X(207, "hipErrorArrayIsMapped")                            \
	X(208, "hipErrorAlreadyMapped")                            \
	X(209, "hipErrorNoBinaryForGpu")                           \
	X(210, "hipErrorAlreadyAcquired")                          \
	X(211, "hipErrorNotMapped")                                \
	X(212, "hipErrorNotMappedAsArray")                         \
	X(213, "hipErrorNotMappedAsPointer")                       \
	X(214, "hipErrorECCNotCorrectable")                        \
	X(215, "hipErrorUnsupportedLimit")                         \
	X(216, "hipErrorContextAlreadyInUse")                      \
	X(217, "hipErrorPeerAccessUnsupported")                    \
	X(218, "hipErrorInvalidKernelFile")                        \
	X(219, "hipErrorInvalidGraphicsContext")                   \
	X(300, "hipErrorInvalidSource")                            \
	X(301, "hipErrorFileNotFound")                             \
	X(302, "hipErrorSharedObjectSymbolNotFound")               \
	X(303, "hipErrorSharedObjectInitFailed")                   \
	X(304, "hipErrorOperatingSystem")                          \
	X(400, "hipErrorInvalidHandle")                            \
	X(401, "hipErrorIllegalState")                             \
	X(500, "hipErrorNotFound")                                 \
	X(600, "hipErrorNotReady")                                 \
	X(700, "hipErrorIllegalAddress")                           \
	X(701, "hipErrorLaunchOutOfResources")                     \
	X(702, "hipErrorLaunchTimeOut")                            \
	X(704, "hipErrorPeerAccessAlreadyEnabled")                 \
	X(705, "hipErrorPeerAccessNotEnabled")                     \
	X(708, "hipErrorSetOnActiveProcess")                       \
	X(709, "hipErrorContextIsDestroyed")                       \
	X(710, "hipErrorAssert")                                   \
	X(712, "hipErrorHostMemoryAlreadyRegistered")              \
	X(713, "hipErrorHostMemoryNotRegistered")                  \
	X(719, "hipErrorLaunchFailure")                            \
	X(720, "hipErrorCooperativeLaunchTooLarge")                \
	X(801, "hipErrorNotSupported")                             \
	X(900, "hipErrorStreamCaptureUnsupported")                 \
	X(901, "hipErrorStreamCaptureInvalidated")                 \
	X(902, "hipErrorStreamCaptureMerge")                       \
	X(903, "hipErrorStreamCaptureUnmatched")                   \
	X(904, "hipErrorStreamCaptureUnjoined")                    \
	X(905, "hipErrorStreamCaptureIsolation")                   \
	X(906, "hipErrorStreamCaptureImplicit")                    \
	X(907, "hipErrorCapturedEvent")                            \
	X(908, "hipErrorStreamCaptureWrongThread")                 \
	X(910, "hipErrorGraphExecUpdateFailure")                   \
	X(999, "hipErrorUnknown")                                  \
	X(1052, "hipErrorRuntimeMemory")                           \
	X(1053, "hipErrorRuntimeOther")                            \
	X(1054, "hipErrorTbd")

/* The name of a hipError_t value, or NULL when it has none. */
const char *hg_hip_error_name(int code);

#endif
