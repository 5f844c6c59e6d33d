"""The system calls a confined program may not make: the kernel's keyrings.

A keyring is not in any namespace the sandbox makes. A user's keyring belongs to its uid, and
every confined program of a root harness is the same uid (`agent_user.AGENT_UID`); the session
keyring is inherited from the harness itself. A red team's agent stored a note in its user's
keyring, and the next run's agent read it: attempts were no longer independent, and one agent
could fill the uid's key quota for all later ones. So bubblewrap loads a seccomp filter
(`--seccomp FD`) that answers `add_key`, `request_key` and `keyctl` with EPERM, as Docker's
default profile does; nothing an agent needs uses them.

The filter is classic BPF over `struct seccomp_data` (the call's number at offset 0, the ABI's
audit arch at 4), for the ABIs of this machine's kind (`ABIS`: x86-64 with its i386 and x32
calls, arm64 with its 32-bit ARM calls). A machine of another kind gets no filter, and
`available` says so.
"""

from __future__ import annotations

import atexit
import functools
import os
import platform
import struct
import tempfile
from pathlib import Path

from phoneshell.agents.pidns import SHELL

EPERM = 1
RET_ALLOW = 0x7FFF0000
RET_ERRNO = 0x00050000
X32_BIT = 0x40000000
"""x86-64's x32 ABI: the call's number with this bit set, under the x86-64 audit arch."""
LD_ABS_W, JEQ_K, AND_K, RET_K = 0x20, 0x15, 0x54, 0x06
NR_OFFSET, ARCH_OFFSET = 0, 4
ABIS: dict[str, tuple[tuple[int, tuple[int, ...]], ...]] = {
    # (audit arch, (add_key, request_key, keyctl)) for each ABI a program may call with
    "x86_64": ((0xC000003E, (248, 249, 250)), (0x40000003, (286, 287, 288))),
    "aarch64": ((0xC00000B7, (217, 218, 219)), (0x40000028, (309, 310, 311))),
}
FD = 9
"""The descriptor bubblewrap reads the filter from (`--seccomp 9`)."""


def _program(abis: tuple[tuple[int, tuple[int, ...]], ...]) -> bytes:
    """The filter: for each known ABI, the three calls answer EPERM; everything else runs."""
    blocks: list[list[tuple[int, int, int, int]]] = []
    for arch, calls in abis:
        block = [(LD_ABS_W, 0, 0, NR_OFFSET)]
        if arch == ABIS["x86_64"][0][0]:
            block.append((AND_K, 0, 0, ~X32_BIT & 0xFFFFFFFF))  # an x32 call as its x86-64 twin
        for i, call in enumerate(calls):  # on a match jump to the EPERM after the last test
            block.append((JEQ_K, len(calls) - 1 - i + 1, 0, call))
        block += [(RET_K, 0, 0, RET_ALLOW), (RET_K, 0, 0, RET_ERRNO | EPERM)]
        blocks.append(block)
    program = [(LD_ABS_W, 0, 0, ARCH_OFFSET)]
    # the arch tests, one per ABI, each jumping to its block; no known arch: allowed
    tests = len(abis)
    offset = 1  # the allow after the tests
    for i, (arch, _calls) in enumerate(abis):
        to_block = (tests - 1 - i) + offset + sum(len(b) for b in blocks[:i])
        program.append((JEQ_K, to_block, 0, arch))
    program.append((RET_K, 0, 0, RET_ALLOW))
    for block in blocks:
        program += block
    return b"".join(struct.pack("=HBBI", *row) for row in program)


def available() -> str:
    """"" when this machine's kind has a filter, else why not."""
    machine = platform.machine().lower()
    if machine in ("amd64",):
        machine = "x86_64"
    if machine in ("arm64",):
        machine = "aarch64"
    return "" if machine in ABIS else f"no keyring filter is known for {machine or 'this CPU'}"


@functools.lru_cache(maxsize=1)
def filter_file() -> Path | None:
    """The compiled filter, written once per process where the agent cannot see it (outside
    every folder the sandbox shows) and removed when the process ends; None where `available`
    says no."""
    if available():
        return None
    machine = platform.machine().lower()
    abis = ABIS["aarch64" if machine in ("aarch64", "arm64") else "x86_64"]
    handle, name = tempfile.mkstemp(prefix="phoneshell-seccomp-", suffix=".bpf")
    with os.fdopen(handle, "wb") as out:
        out.write(_program(abis))
    writer = os.getpid()  # a forked child that exits must not take it from its parent

    def remove() -> None:
        if os.getpid() == writer:
            Path(name).unlink(missing_ok=True)

    atexit.register(remove)
    return Path(name)


def wrap(bwrap_argv: list[str]) -> list[str]:
    """`bwrap_argv` (the bubblewrap program first) with the filter loaded: a shell opens the
    filter on `FD` and becomes bubblewrap, told `--seccomp FD`. Unchanged where there is no
    filter for this machine."""
    path = filter_file()
    if path is None:
        return bwrap_argv
    program, *rest = bwrap_argv
    return [SHELL, "-c", f'exec "$@" {FD}<"$0"', str(path), program, "--seccomp", str(FD),
            *rest]
