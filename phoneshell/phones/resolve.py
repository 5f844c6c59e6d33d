"""What `--device` means: simulators to start, WDA URLs, or USB phones found through usbmuxd.

API (the runner and `phoneshell doctor` call it; it never starts anything):

    resolve_devices(spec, *, usbmuxd=None, wda_port=8100) -> list[DeviceSpec]

    spec                     gives
    None, "sim"              one DeviceSpec(kind="sim", url=""): the caller starts a simulator
    "sim:N"                  N of them (1 to 16)
    "sim:auto"               two per core this process may use (`auto_sims`)
    "http://HOST:PORT"       that WDA (https:// too); lock key HOST:PORT
    "http+usbmux://UDID:P"   that WDA through usbmuxd; lock key the udid
    "UDID"                   the connected phone with that udid, at http+usbmux://UDID:8100
    "all"                    every connected phone, each at http+usbmux://UDID:8100

A UDID that is not connected, or `all` with no phone, is a `DeviceError` that lists the udids
usbmuxd does list. Whenever a spec yields an `http+usbmux://` URL, facebook-wda is pointed at
the same usbmuxd (`usbmux.use_usbmuxd_for_wda`), so the URL works in this process.

One phone has one lock, however it is spelled: a URL's lock key is its canonical address (the
host name resolved, every loopback address one `loopback`, the default port filled in, the path
without a trailing slash), and `identity_keys` adds what the phone says of itself (a simulator's
instance id, a real phone's WDA device id), so two URLs reaching one phone share a lock.
"""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from phoneshell.errors import DeviceError
from phoneshell.phones import usbmux
from phoneshell.phones.usbmux import PhoneInfo
from phoneshell.records import DeviceKind

DEFAULT_WDA_PORT = 8100
MAX_SIMS = 16
URL_SCHEMES = ("http://", "https://", "http+usbmux://")


@dataclass(frozen=True)
class DeviceSpec:
    """One phone a command will drive."""

    kind: DeviceKind
    """sim: a simulated iPhone the caller starts; url: a WDA URL given; usb: a phone by udid."""
    url: str
    """The WDA URL ("" for a simulator not started yet)."""
    label: str
    """A short name for output: sim-1, phone-1, ..."""
    udid: str = ""
    """The phone's udid, when known (usb, and http+usbmux:// URLs)."""
    phone: PhoneInfo | None = None
    """What usbmuxd and lockdown said about the phone (usb only)."""

    @property
    def via_usbmux(self) -> bool:
        """Whether WDA is reached through usbmuxd (`http+usbmux://`)."""
        return self.url.startswith("http+usbmux://")

    @property
    def lock_key(self) -> str:
        """What `DeviceLock` locks: the udid, else the URL's canonical address ("" for a
        simulator the caller starts)."""
        if self.udid:
            return self.udid.replace("-", "").lower()
        if self.kind == "sim":
            return ""
        return canonical_address(self.url)


def canonical_address(url: str) -> str:
    """`host:port[/path]` of a WDA URL, the same however it is spelled.

    `http://localhost:8100/`, `http://127.0.0.1:8100` and `http://[::1]:8100` are all
    `loopback:8100`; other host names are resolved to their first address.
    """
    where = urlsplit(url)
    port = where.port or (443 if where.scheme == "https" else 80)
    host = (where.hostname or "").lower()
    try:
        found = sorted({str(info[4][0]) for info in socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM)})
    except (OSError, UnicodeError):
        found = []
    addresses = [a.split("%", 1)[0] for a in found] or [host]
    try:
        loopback = all(ipaddress.ip_address(a).is_loopback for a in addresses)
    except ValueError:
        loopback = False
    name = "loopback" if loopback else addresses[0]
    path = re.sub("/+", "/", where.path).rstrip("/")
    return f"{name}:{port}{path}"


def identity_keys(spec: DeviceSpec, status: Mapping[str, object],
                  info: Mapping[str, object]) -> list[str]:
    """Every lock key of a phone: its spec's, and what it says of itself.

    Args:
        status: WDA's `/status` value (a simulated iPhone names its `instance` there).
        info: WDA's `/wda/device/info` value (a real phone's `uuid`, the same over any URL;
            simulators all report one fixed uuid, so theirs is not used).
    """
    keys = [spec.lock_key] if spec.lock_key else []
    instance = status.get("instance")
    if status.get("simulated") == "phoneshell":
        if isinstance(instance, str) and instance:
            keys.append(f"sim-{instance.lower()}")
    else:
        uuid = info.get("uuid")
        if isinstance(uuid, str) and uuid:
            keys.append(f"device-{uuid.replace('-', '').lower()}")
    return keys


def usbmux_url(udid: str, port: int = DEFAULT_WDA_PORT) -> str:
    """facebook-wda's URL for WDA on a USB phone: `http+usbmux://UDID:PORT`."""
    return f"http+usbmux://{udid}:{port}"


def resolve_devices(spec: str | None, *, usbmuxd: str | None = None,
                    wda_port: int = DEFAULT_WDA_PORT) -> list[DeviceSpec]:
    """The phones `spec` names (see the module docstring for the forms).

    Args:
        spec: the `--device` value; None means one simulator.
        usbmuxd: usbmuxd's address (default: $PHONESHELL_USBMUXD, else /var/run/usbmuxd).
        wda_port: WDA's port on the phone, for phones given by udid or `all`.

    Raises:
        DeviceError: a spec of no known form, usbmuxd absent, a udid not connected, `all` with
            no phone connected.
    """
    spec = (spec or "sim").strip()
    if spec == "sim" or spec.startswith("sim:"):
        return [DeviceSpec("sim", "", f"sim-{n}") for n in range(1, _sim_count(spec) + 1)]
    if spec.startswith(URL_SCHEMES):
        return [_from_url(spec, usbmuxd)]
    if spec == "all":
        phones = usbmux.list_phones(usbmuxd)
        if not phones:
            raise DeviceError(f"--device all: no phone is connected to usbmuxd at "
                              f"{usbmux.usbmuxd_address(usbmuxd)}",
                              hint="plug a phone in with a data cable, unlock it and trust "
                                   "this computer; `phoneshell devices` lists what is seen")
        usbmux.use_usbmuxd_for_wda(usbmuxd)
        return [_from_phone(p, n, wda_port) for n, p in enumerate(phones, 1)]
    if not _looks_like_udid(spec):
        raise DeviceError(f"--device {spec!r} is not sim, sim:N, a WDA URL, a udid or all",
                          hint="e.g. --device sim, --device http://127.0.0.1:8100, "
                               "--device 00008150-001A24E11E78801C, --device all")
    phone = usbmux.phone_info(spec, usbmuxd)
    usbmux.use_usbmuxd_for_wda(usbmuxd)
    return [_from_phone(phone, 1, wda_port)]


def auto_sims(cores: int | None = None) -> int:
    """How many simulated iPhones `sim:auto` starts: two per core this process may use.

    Each simulator is a process of its own and the run's workers share this one, but a worker
    spends much of an attempt waiting (for a step's effect, for a phone as slow as a real one),
    so phones beyond the cores still help. Measured on two cores against sim:1 without latency
    (docs/simulator.md#several-simulated-iphones): sim:2 1.32x, sim:3 1.43x, sim:4 1.53x; with
    `--latency iphone`, sim:4 2.9x.
    """
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
            (os.cpu_count() or 1)
    return max(1, min(MAX_SIMS, 2 * cores))


def _sim_count(spec: str) -> int:
    count = spec.removeprefix("sim:") if spec != "sim" else "1"
    if count == "auto":
        return auto_sims()
    if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= MAX_SIMS:
        raise DeviceError(f"--device {spec!r}: the number of simulated iPhones must be 1 to "
                          f"{MAX_SIMS}, or auto", hint="e.g. --device sim:4, --device sim:auto")
    return int(count)


def _from_url(url: str, usbmuxd: str | None) -> DeviceSpec:
    where = urlsplit(url)
    try:
        port = where.port
    except ValueError as exc:
        raise DeviceError(f"--device {url!r}: bad port", hint="e.g. http://127.0.0.1:8100"
                          ) from exc
    if not where.hostname:
        raise DeviceError(f"--device {url!r} names no host", hint="e.g. http://127.0.0.1:8100")
    if where.scheme == "http+usbmux":
        if port is None:
            raise DeviceError(f"--device {url!r} needs WDA's port on the phone",
                              hint=f"e.g. {usbmux_url(where.hostname)}")
        usbmux.use_usbmuxd_for_wda(usbmuxd)
        # urlsplit lowercases hostname; keep the udid as written.
        udid = where.netloc.rsplit(":", 1)[0]
        return DeviceSpec("url", url.rstrip("/"), "phone-1", udid=udid)
    return DeviceSpec("url", url.rstrip("/"), "phone-1")


def _from_phone(phone: PhoneInfo, n: int, wda_port: int) -> DeviceSpec:
    return DeviceSpec("usb", usbmux_url(phone.udid, wda_port), f"phone-{n}", udid=phone.udid,
                      phone=phone)


def _looks_like_udid(spec: str) -> bool:
    """A udid: 40 hex digits (older phones) or 8-16 hex digits with a dash (newer ones).

    Lenient on purpose (any hex-and-dash word of 6+ characters): usbmuxd is the judge, and a
    wrong one gets an error listing the udids that are connected.
    """
    return len(spec) >= 6 and all(c in "0123456789abcdefABCDEF-" for c in spec)


__all__ = ["DEFAULT_WDA_PORT", "DeviceKind", "DeviceSpec", "MAX_SIMS", "auto_sims",
           "canonical_address", "identity_keys", "resolve_devices", "usbmux_url"]
