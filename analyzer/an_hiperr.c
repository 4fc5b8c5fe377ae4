/* SPDX-License-Identifier: MIT */
/*
 * hipError_t names, from hip_runtime_api.h of ROCm 5.2 (values are part of
 * the HIP ABI).  Regenerate with:
 *   sed -n '/typedef enum __HIP_NODISCARD hipError_t/,/} hipError_t/p' \
 *     /usr/include/hip/hip_runtime_api.h | grep -o 'hip[A-Za-z]* *= *[0-9]*'
 */
#include "an_names.h"

#include <stddef.h>

static const struct {
	int code;
	const char *name;
} an_hip_errors[] = {
	{0, "hipSuccess"},
	{1, "hipErrorInvalidValue"},
	{2, "hipErrorOutOfMemory"},
	{3, "hipErrorNotInitialized"},
	{4, "hipErrorDeinitialized"},
	{5, "hipErrorProfilerDisabled"},
	{6, "hipErrorProfilerNotInitialized"},
	{7, "hipErrorProfilerAlreadyStarted"},
	{8, "hipErrorProfilerAlreadyStopped"},
	{9, "hipErrorInvalidConfiguration"},
	{12, "hipErrorInvalidPitchValue"},
	{13, "hipErrorInvalidSymbol"},
	{17, "hipErrorInvalidDevicePointer"},
	{21, "hipErrorInvalidMemcpyDirection"},
	{35, "hipErrorInsufficientDriver"},
	{52, "hipErrorMissingConfiguration"},
	{53, "hipErrorPriorLaunchFailure"},
	{98, "hipErrorInvalidDeviceFunction"},
	{100, "hipErrorNoDevice"},
	{101, "hipErrorInvalidDevice"},
	{200, "hipErrorInvalidImage"},
	{201, "hipErrorInvalidContext"},
	{202, "hipErrorContextAlreadyCurrent"},
	{205, "hipErrorMapFailed"},
	{206, "hipErrorUnmapFailed"},
	{207, "hipErrorArrayIsMapped"},
	{208, "hipErrorAlreadyMapped"},
	{209, "hipErrorNoBinaryForGpu"},
	{210, "hipErrorAlreadyAcquired"},
	{211, "hipErrorNotMapped"},
	{212, "hipErrorNotMappedAsArray"},
	{213, "hipErrorNotMappedAsPointer"},
	{214, "hipErrorECCNotCorrectable"},
	{215, "hipErrorUnsupportedLimit"},
	{216, "hipErrorContextAlreadyInUse"},
	{217, "hipErrorPeerAccessUnsupported"},
	{218, "hipErrorInvalidKernelFile"},
	{219, "hipErrorInvalidGraphicsContext"},
	{300, "hipErrorInvalidSource"},
	{301, "hipErrorFileNotFound"},
	{302, "hipErrorSharedObjectSymbolNotFound"},
	{303, "hipErrorSharedObjectInitFailed"},
	{304, "hipErrorOperatingSystem"},
	{400, "hipErrorInvalidHandle"},
	{401, "hipErrorIllegalState"},
	{500, "hipErrorNotFound"},
	{600, "hipErrorNotReady"},
	{700, "hipErrorIllegalAddress"},
	{701, "hipErrorLaunchOutOfResources"},
	{702, "hipErrorLaunchTimeOut"},
	{708, "hipErrorSetOnActiveProcess"},
	{709, "hipErrorContextIsDestroyed"},
	{710, "hipErrorAssert"},
	{801, "hipErrorNotSupported"},
	{900, "hipErrorStreamCaptureUnsupported"},
	{901, "hipErrorStreamCaptureInvalidated"},
	{902, "hipErrorStreamCaptureMerge"},
	{903, "hipErrorStreamCaptureUnmatched"},
	{904, "hipErrorStreamCaptureUnjoined"},
	{905, "hipErrorStreamCaptureIsolation"},
	{906, "hipErrorStreamCaptureImplicit"},
	{907, "hipErrorCapturedEvent"},
	{908, "hipErrorStreamCaptureWrongThread"},
	{910, "hipErrorGraphExecUpdateFailure"},
	{999, "hipErrorUnknown"},
	{1052, "hipErrorRuntimeMemory"},
	{1053, "hipErrorRuntimeOther"},
};

const char *an_hip_error_name(int code)
{
	for (size_t i = 0; i < sizeof(an_hip_errors) / sizeof(an_hip_errors[0]); i++)
		if (an_hip_errors[i].code == code)
			return an_hip_errors[i].name;
	return NULL;
}
