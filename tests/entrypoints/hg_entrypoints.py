# SPDX-License-Identifier: MIT
"""The memory-relevant HIP entry points: name rules shared by the table's
generator and its test, so a function a release adds is classified the
same way in both places and cannot slip by."""
import re

# Order matters: the first rule that matches names the category.
RULES = [
    ("pool", r"MemPool|FromPool"),
    ("graph", r"Graph|StreamBeginCapture|StreamEndCapture|StreamIsCapturing|StreamGetCaptureInfo|StreamUpdateCaptureDependencies|ThreadExchangeStreamCaptureMode"),
    ("virtual-memory", r"^hipMem(AddressReserve|AddressFree|Create|Map|MapArrayAsync|Unmap|Release|SetAccess|GetAccess|ExportToShareableHandle|ImportFromShareableHandle|GetAllocationGranularity|GetAllocationPropertiesFromHandle|RetainAllocationHandle)$"),
    ("prefetch", r"Prefetch"),
    ("advice", r"Advise|RangeGetAttribute"),
    ("copy", r"Memcpy|hipMemcpy"),
    ("set", r"Memset"),
    ("launch", r"Launch|^hipConfigureCall$|^hipSetupArgument$|^__hipPushCallConfiguration$|^__hipPopCallConfiguration$"),
    ("free", r"Free|HostUnregister|ArrayDestroy"),
    ("alloc", r"Malloc|Alloc(?!ation)|HostRegister|hipArrayCreate|hipArray3DCreate|hipMipmappedArrayCreate"),
]


def demangle_base(name):
    """hipFoo of a C++-mangled export (_Z6hipFoo..., _ZN8hip_impl..)."""
    m = re.match(r"_Z(?:N\d+\w+?)?(\d+)(\w+)", name)
    if not m or not name.startswith("_Z"):
        return name
    if name.startswith("_ZN"):
        m = re.match(r"_ZN(\d+)", name)
        n = int(m.group(1))
        rest = name[len(m.group(0)) + n:]
        m = re.match(r"(\d+)", rest)
        return rest[len(m.group(1)):len(m.group(1)) + int(m.group(1))] if m else name
    m = re.match(r"_Z(\d+)", name)
    n = int(m.group(1))
    return name[len(m.group(0)):len(m.group(0)) + n]


def category(name):
    base = demangle_base(name)
    if not (base.startswith("hip") or base.startswith("__hip")):
        return None
    for cat, rx in RULES:
        if re.search(rx, base):
            return cat
    return None


def read_symbols(path):
    with open(path) as f:
        return {line.split("\t")[0] for line in f if line.strip()}
