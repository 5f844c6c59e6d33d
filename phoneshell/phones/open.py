"""The phones a run drives, from `--device` (see `phoneshell.phones.resolve`).

`sim` (the default) starts one simulated iPhone in this process, `sim:N` starts N, each behind a
secret path only this process knows (so only the run's bridge can drive it); a URL, a udid or
`all` reaches real phones, each locked for the run under every name it answers to. Each phone
is described for the manifest straight from WDA, before any bridge is put in front of it; the
manifest never holds a simulator's secret.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass

from phoneshell.device import Phone
from phoneshell.errors import DeviceError, RunError, shown_url
from phoneshell.phones.lock import DeviceLock
from phoneshell.phones.resolve import DeviceSpec, identity_keys, resolve_devices
from phoneshell.records import DeviceInfo, DeviceKind


@dataclass(frozen=True)
class DeviceHandle:
    """A phone ready to use: its WDA URL and what the run records about it."""

    url: str
    info: DeviceInfo
    installed: frozenset[str] | None = None
    """Bundle ids installed on the phone, when the device can tell (None: unknown; WDA can't)."""
    simulated: bool = False
    """A phoneshell simulator (its /status says so): effects at once, screens still until
    input, whoever started it."""


@contextmanager
def start_sim(latency: str = "none", seed: int | None = None) -> Iterator[str]:
    """A simulated iPhone in this process, stopped on exit; yields its WDA URL.

    Args:
        seed: which phone (`phoneshell sim --seed`); None: `PHONESHELL_SIM_SEED`, else a
            fresh one.
    """
    from phoneshell.sim import SimServer  # the simulator is a device: only ever started here
    from phoneshell.sim.facts import pick_seed

    # each phone another phone (its seed drawn, or fixed by PHONESHELL_SIM_SEED), so a value a
    # task asks for is read off it, never remembered from an earlier one
    with SimServer(secret=SimServer.new_secret(), latency=latency,
                   seed=pick_seed(seed)) as sim:
        yield sim.url


@contextmanager
def _sim_process(latency: str = "none", seed: int | None = None) -> Iterator[str]:
    """A simulated iPhone in a child process (`phoneshell sim --port 0`), stopped on exit; its
    seed as `start_sim`'s."""
    # Its stderr goes to a file, not a pipe nobody drains: a chatty child must never block.
    # Its stdin is a pipe this process holds the only write end of (not inheritable: no agent
    # or other simulator holds it) and never writes to: when this process ends, SIGKILL
    # included, the kernel closes it and the child stops (`--until-stdin-closes`); else it
    # would serve on, orphaned, as red team 74 found 11 minutes after a run was killed.
    with tempfile.TemporaryFile("w+") as errors:
        child = subprocess.Popen([sys.executable, "-m", "phoneshell", "sim", "--port", "0",
                                  "--secret-path", "--until-stdin-closes", "--latency", latency,
                                  *(("--seed", str(seed)) if seed is not None else ())],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                                 text=True)
        try:
            assert child.stdout is not None
            first = child.stdout.readline()  # "simulated iPhone (...) at http://HOST:PORT; ..."
            match = re.search(r"at (http://\S+);", first)
            if match is None:
                with suppress(subprocess.TimeoutExpired):
                    child.wait(timeout=10)  # let it finish saying why
                errors.seek(0)
                raise RunError("the simulated iPhone did not start: "
                               f"{first.strip() or errors.read().strip()}",
                               hint="try `phoneshell sim --port 0` by hand")
            yield match.group(1)
        finally:
            child.terminate()
            try:
                child.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.communicate()


def _sim_state(url: str) -> tuple[frozenset[str], int]:
    """The bundle ids a simulated iPhone has and its seed, from its control route (outside
    WDA's)."""
    with urllib.request.urlopen(f"{url}/phoneshell/sim/state", timeout=10) as reply:
        state = json.load(reply)
    return frozenset(str(b) for b in state["installed"]), int(state.get("seed", 0))


def _status(url: str) -> dict[str, object]:
    """WDA's /status.

    Raises:
        RunError: nothing answers at `url`, so the run cannot start.
    """
    try:
        return Phone(url).status()
    except DeviceError as exc:
        raise RunError(f"cannot start the run: {exc.message}", hint=exc.hint) from exc


def describe(url: str, kind: DeviceKind, label: str,
             status: dict[str, object] | None = None) -> DeviceInfo:
    """Ask WDA who the phone is (model, iOS, udid hash); its URL is recorded as messages name it
    (`errors.shown_url`: no path, so never a simulator's secret or a proxy's token).

    Raises:
        RunError: nothing answers at `url`, so the run cannot start.
    """
    status = _status(url) if status is None else status
    ios = status.get("ios")
    udid = str(ios.get("udid", "")) if isinstance(ios, dict) else ""
    udid_hash = hashlib.sha256(udid.encode()).hexdigest() if udid else ""
    system = status.get("os")
    return DeviceInfo(kind=kind, label=label, url=shown_url(url),
                      model=str(status.get("device", "")),
                      ios=str(system.get("version", "")) if isinstance(system, dict) else "",
                      udid_sha256=udid_hash)


def _lock(stack: ExitStack, device: DeviceSpec, status: dict[str, object], run_id: str) -> None:
    """Lock the phone under every name it answers to, so no other run drives it by another."""
    try:
        info = Phone(device.url).device_info()
    except DeviceError:
        info = {}  # an older WDA without the route: the spec's own key still holds
    for key in identity_keys(device, status, info):
        stack.enter_context(DeviceLock(key, run_id))


@contextmanager
def open_phones(spec: str | None, run_id: str, latency: str = "none",
                seeds: Sequence[int] = ()) -> Iterator[tuple[list[DeviceHandle], str]]:
    """Start or reach the phones of `--device`, each locked for this run (other processes
    cannot drive it meanwhile); yield them and a line to tell the user.

    Args:
        latency: the simulators' latency profile (`phoneshell sim --latency`).
        seeds: the simulators' seeds in order (a resume's: the phones the run began on);
            past them, each draws its own (`phoneshell sim --seed`).

    Raises:
        RunError: a bad spec, a latency for a real phone, a phone another run holds, or a
            phone not answering.
    """
    try:
        specs = resolve_devices(spec)
    except DeviceError as exc:
        raise RunError(exc.message, hint=exc.hint) from exc
    sims = sum(1 for d in specs if d.kind == "sim")
    if latency != "none" and sims < len(specs):
        raise RunError(f"--latency {latency} slows the simulated iPhone down to a real "
                       f"phone's pace; --device {spec} is a real phone, which has its own",
                       hint="drop --latency, or use --device sim or sim:N")
    with ExitStack() as stack:
        handles: list[DeviceHandle] = []
        for device in specs:
            if device.kind == "sim":
                # One simulator shares this process; several each get their own, so they do
                # not queue for one interpreter while the workers drive them in parallel.
                seed = seeds[len(handles)] if len(handles) < len(seeds) else None
                url = stack.enter_context(_sim_process(latency, seed) if sims > 1
                                          else start_sim(latency, seed))
                installed, seed = _sim_state(url)
                info = describe(url, "sim", device.label).model_copy(
                    update={"seed": seed, "latency": latency})
                handles.append(DeviceHandle(url, info, installed, simulated=True))
                continue
            status = _status(device.url)
            _lock(stack, device, status, run_id)
            handles.append(DeviceHandle(device.url, describe(device.url, device.kind,
                                                             device.label, status),
                                        simulated=status.get("simulated") == "phoneshell"))
        where = ", ".join(h.info.url for h in handles)  # never a simulator's secret
        if all(h.info.kind == "sim" for h in handles):
            note = ("no --device given: " if spec is None else "") + (
                f"running on a simulated iPhone at {where}" if len(handles) == 1 else
                f"running on {len(handles)} simulated iPhones at {where}")
        else:
            note = f"running on {where}"
        if latency != "none":  # said at every start, a resume's too: it goes on at the run's
            note += f", each answering as slowly as a real iPhone (--latency {latency})"
        yield handles, note
