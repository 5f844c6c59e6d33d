"""The phones a run drives, from `--device` (see `phoneshell.devices.resolve`).

`sim` (the default) starts one simulated iPhone in this process, `sim:N` starts N; a URL, a udid
or `all` reaches real phones, each locked for the run. Each phone is described for the manifest
straight from WDA, before any bridge is put in front of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

from phoneshell.device import Phone
from phoneshell.devices.lock import DeviceLock
from phoneshell.devices.resolve import resolve_devices
from phoneshell.errors import DeviceError, RunError
from phoneshell.runner.results import DeviceInfo, DeviceKind


@dataclass(frozen=True)
class DeviceHandle:
    """A phone ready to use: its WDA URL and what the run records about it."""

    url: str
    info: DeviceInfo
    installed: frozenset[str] | None = None
    """Bundle ids installed on the phone, when the device can tell (None: unknown; WDA can't)."""


def describe(url: str, kind: DeviceKind, label: str) -> DeviceInfo:
    """Ask WDA who the phone is (model, iOS, udid hash).

    Raises:
        RunError: nothing answers at `url`, so the run cannot start.
    """
    try:
        status = Phone(url).status()
    except DeviceError as exc:
        raise RunError(f"cannot start the run: {exc.message}", hint=exc.hint) from exc
    udid = str((status.get("ios") or {}).get("udid", ""))
    udid_hash = hashlib.sha256(udid.encode()).hexdigest() if udid else ""
    return DeviceInfo(kind, label, url, str(status.get("device", "")),
                      str((status.get("os") or {}).get("version", "")), udid_hash)


@contextmanager
def open_phones(spec: str | None, run_id: str) -> Iterator[tuple[list[DeviceHandle], str]]:
    """Start or reach the phones of `--device`, each locked for this run (other processes
    cannot drive it meanwhile); yield them and a line to tell the user.

    Raises:
        RunError: a bad spec, a phone another run holds, or a phone not answering.
    """
    try:
        specs = resolve_devices(spec)
    except DeviceError as exc:
        raise RunError(exc.message, hint=exc.hint) from exc
    with ExitStack() as stack:
        handles = []
        for device in specs:
            if device.kind == "sim":
                from phoneshell.sim import SimServer  # a device: only ever started here

                sim = stack.enter_context(SimServer())
                installed = sim.state()["installed"]
                assert isinstance(installed, list)
                handles.append(DeviceHandle(sim.url, describe(sim.url, "sim", device.label),
                                            frozenset(str(b) for b in installed)))
                continue
            stack.enter_context(DeviceLock(device.lock_key, run_id))
            handles.append(DeviceHandle(device.url, describe(device.url, device.kind,
                                                             device.label)))
        where = ", ".join(h.url for h in handles)
        if all(h.info.kind == "sim" for h in handles):
            note = ("no --device given: " if spec is None else "") + (
                f"running on a simulated iPhone at {where}" if len(handles) == 1 else
                f"running on {len(handles)} simulated iPhones at {where}")
        else:
            note = f"running on {where}"
        yield handles, note
