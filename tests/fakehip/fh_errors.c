/* SPDX-License-Identifier: MIT */
/*
 * TEST DOUBLE of libamdhip64 (see README.md): error names.  The table was
 * taken from the real ROCm 5.2 library's hipGetErrorName for every
 * hipError_t enumerator (aliases resolve as it resolves them); like 5.2,
 * hipGetErrorString returns the name and unknown codes are "hipErrorUnknown".
 * A test compares this table with the real library.
 */
#include "fh.h"

static const struct {
	int code;
	const char *name;
} fh_errors[] = {
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
	{704, "hipErrorPeerAccessAlreadyEnabled"},
	{705, "hipErrorPeerAccessNotEnabled"},
	{708, "hipErrorSetOnActiveProcess"},
	{709, "hipErrorContextIsDestroyed"},
	{710, "hipErrorAssert"},
	{712, "hipErrorHostMemoryAlreadyRegistered"},
	{713, "hipErrorHostMemoryNotRegistered"},
	{719, "hipErrorLaunchFailure"},
	{720, "hipErrorCooperativeLaunchTooLarge"},
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
	{1054, "hipErrorTbd"},
};

const char *hipGetErrorName(hipError_t err)
{
	for (size_t i = 0; i < sizeof(fh_errors) / sizeof(fh_errors[0]); i++)
		if (fh_errors[i].code == (int)err)
			return fh_errors[i].name;
	return "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t err)
{
	return hipGetErrorName(err);
}
