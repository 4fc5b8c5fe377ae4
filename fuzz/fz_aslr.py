# SPDX-License-Identifier: MIT
"""The seed scripts' harness runs without address randomisation."""
import ctypes


def no_aslr():
    """libFuzzer takes values the reader compared into its dictionary,
    addresses among them: with the harness's addresses the same every run,
    a seed's run is the same run (personality's ADDR_NO_RANDOMIZE, from
    the exec on; where it is refused, the run is as before).  A
    subprocess's preexec_fn."""
    try:
        ctypes.CDLL(None, use_errno=True).personality(0x0040000)
    except (OSError, AttributeError):
        pass
