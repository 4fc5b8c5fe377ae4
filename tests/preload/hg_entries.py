# SPDX-License-Identifier: MIT
"""Which libamdhip64 entry points matter to hipgrain, by name: the rules
preload/entries/entries.tsv is checked with (tests/preload/test_entries.py).
A function a rule names is one the table must account for."""
import re

# First match wins.  Names are matched on the C name (a C++ overload's
# mangled name is reduced to it).
RULES = (
    ('proc', r'^hipGetProcAddress|^hipGetDriverEntryPoint'),
    ('module', r'^__hip(Un)?RegisterFatBinary|^__hipRegisterFunction|'
               r'^hipModuleLoad|^hipModuleUnload'),
    ('graph', r'^hipGraph(?!ics)|^hipDrvGraph|^hipStreamBeginCapture|^hipStreamEndCapture|'
              r'^hipStreamUpdateCaptureDependencies|^hipStreamIsCapturing|'
              r'^hipStreamGetCaptureInfo|^hipThreadExchangeStreamCaptureMode'),
    ('vm', r'^hipMem(Create|Release|Map|MapArrayAsync|Unmap|AddressReserve|'
           r'AddressFree|SetAccess|GetAccess|ExportToShareableHandle|'
           r'ImportFromShareableHandle|GetAllocationGranularity|'
           r'GetAllocationPropertiesFromHandle|RetainAllocationHandle)$'),
    ('pool', r'^hipMemPool|^hipMallocAsync|^hipFreeAsync|'
             r'^hipMallocFromPoolAsync|^hipDevice(Get|Set)MemPool|'
             r'^hipDeviceGetDefaultMemPool'),
    ('launch', r'Launch|^hipConfigureCall|^hipSetupArgument|'
               r'^__hip(Push|Pop)CallConfiguration'),
    ('prefetch', r'Prefetch'),
    ('advise', r'Advise'),
    ('copy', r'Memcpy'),
    ('set', r'Memset'),
    ('free', r'Free|^hipHostUnregister|^hipArrayDestroy|'
             r'^hipDestroyExternalMemory|^hipIpcCloseMemHandle'),
    ('alloc', r'Malloc|Alloc|^hipHostRegister|^hipArray3?DCreate|'
              r'^hipArrayCreate|^hipMipmappedArrayCreate|'
              r'^hipImportExternalMemory|^hipExternalMemoryGetMappedBuffer|'
              r'^hipIpcOpenMemHandle|^hipHostGetDevicePointer'),
)

QUERY = r'Get(?!ProcAddress|DriverEntryPoint|MappedBuffer|DevicePointer)|' \
        r'Query|IsCapturing'


def c_name(sym):
    """hipFoo for hipFoo and for a mangled C++ overload _Z6hipFoo..."""
    m = re.match(r'_Z(\d+)(\w+)', sym)
    if m:
        return m.group(2)[:int(m.group(1))]
    return sym


def category(sym):
    name = c_name(sym)
    if not (name.startswith('hip') or name.startswith('__hip')):
        return None
    for cat, rx in RULES:
        if re.search(rx, name):
            return cat
    return None


def is_query(sym):
    return bool(re.search(QUERY, c_name(sym)))
