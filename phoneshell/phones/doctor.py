"""`phoneshell doctor`: walk the chain from usbmuxd to the screen for one phone, with the fixes.

API:

    doctor_targets(spec, usbmuxd=None) -> list[DeviceSpec]    what `--device spec` checks
    diagnose(device, usbmuxd=None, ...) -> Diagnosis           rungs in order, each with a fix
    Diagnosis.ok, .to_json(), .lines()

The rungs, in order (a rung whose prerequisite failed is skipped, saying which):

    usbmuxd   usbmuxd answers (phones reached through usbmux only)
    phone     the phone is connected (and what it is: model, name, iOS)
    paired    the phone trusts this computer (usbmuxd holds a pair record)
    wda       WDA answers /status at the URL
    ready     WDA says it is ready
    unlocked  the phone is not locked (WDA answers 200 to gestures on a locked phone)
    input     a gesture reaches the screen: go home, swipe sideways between home pages and
              back, and compare screenshots (a phone can read fine and drop every touch)

The input probe (`probe.py`) is harmless: it pages the home screen and back, and never taps.
Phones on iOS 17 and later get a note on how WDA is started there (from a Mac).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from wda.usbmux.exceptions import MuxConnectError, MuxConnectToUsbmuxdError

from phoneshell.device import Phone
from phoneshell.device.input_probe import probe_input
from phoneshell.errors import DeviceError
from phoneshell.phones import usbmux
from phoneshell.phones.resolve import DeviceSpec, resolve_devices, usbmux_url
from phoneshell.phones.usbmux import PhoneInfo

RungStatus = Literal["ok", "failed", "skipped"]
RUNGS = ("usbmuxd", "phone", "paired", "wda", "ready", "unlocked", "input")
NEEDS = {"phone": ("usbmuxd",), "paired": ("phone",), "wda": ("usbmuxd", "phone"),
         "ready": ("wda",), "unlocked": ("wda",), "input": ("ready", "unlocked")}
"""What each rung needs; `paired` is not among them: WDA started elsewhere can still answer."""

DOCS = "docs/real-device.md"
IOS17_NOTE = (
    "iOS {ios}: tidevice cannot start WDA on iOS 17 and later. Start WebDriverAgent from a Mac "
    "with `xcodebuild test-without-building -project WebDriverAgent.xcodeproj -scheme "
    "WebDriverAgentRunner -destination id={udid}` (or, from Linux or a Mac: "
    "`pymobiledevice3 remote tunneld` then `pymobiledevice3 developer dvt xcuitest "
    "com.facebook.WebDriverAgentRunner.xctrunner`; or go-ios: `ios tunnel start` then "
    "`ios runwda`). phoneshell then needs only the URL: {url}. See " + DOCS)
WEDGED_FIX = (
    "WDA answers, but touches do not reach the screen. Check, in order: a system alert or "
    "the lock screen covering the home screen (look at the phone); Settings > Developer > "
    "Enable UI Automation is on; restart WDA (stop the runner first, so no old one keeps the "
    "port). If it persists the phone's HID event system is wedged and only a reboot clears "
    "it: reboot, unlock the phone once by hand (Before First Unlock), start WDA again")
LOCKED_FIX = (
    "unlock the phone, then set Settings > Display & Brightness > Auto-Lock to Never so it "
    "stays unlocked during runs. After a reboot the phone is in Before First Unlock: a person "
    "must enter the passcode once; nothing remote can")
TRUST_FIX = (
    "unlock the phone, tap Trust on 'Trust This Computer?' and enter the passcode. No prompt? "
    "Replug the cable (Linux: `idevicepair pair`; macOS: select the phone in Finder). An earlier "
    "'Don't Trust' is undone by Settings > General > Transfer or Reset iPhone > Reset > Reset "
    "Location & Privacy")
CABLE_FIX = (
    "plug the phone in with a data cable (a charge-only cable shows nothing), unlock it, "
    "and trust this computer; `phoneshell devices` lists what usbmuxd sees")


@dataclass(frozen=True)
class Rung:
    """One link of the chain, as checked."""

    name: str
    status: RungStatus
    detail: str
    """What was seen."""
    fix: str = ""
    """What to do, when the rung failed."""

    def to_json(self) -> dict[str, str]:
        """The rung as JSON."""
        return {"name": self.name, "status": self.status, "detail": self.detail,
                "fix": self.fix}


@dataclass(frozen=True)
class Diagnosis:
    """The doctor's finding for one device."""

    device: str
    """The device as the user named it (label and udid or URL)."""
    url: str
    rungs: tuple[Rung, ...]
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether no rung failed."""
        return all(r.status != "failed" for r in self.rungs)

    def rung(self, name: str) -> Rung:
        """The rung of this name."""
        return next(r for r in self.rungs if r.name == name)

    def to_json(self) -> dict[str, Any]:
        """The diagnosis as JSON (`phoneshell doctor --format json`)."""
        return {"device": self.device, "url": self.url, "ok": self.ok,
                "rungs": [r.to_json() for r in self.rungs], "notes": list(self.notes)}

    def lines(self) -> list[str]:
        """The diagnosis for a terminal: a line per rung, the fix under each failure."""
        out = [f"doctor: {self.device}" + (f" at {self.url}" if self.url else "")]
        for r in self.rungs:
            word = {"ok": "ok", "failed": "FAILED", "skipped": "skipped"}[r.status]
            out.append(f"  {word:<8} {r.name:<9} {r.detail}")
            if r.fix:
                out.append(f"  {'':<8} {'':<9} fix: {r.fix}")
        out += [f"note: {n}" for n in self.notes]
        failed = sum(r.status == "failed" for r in self.rungs)
        out.append("result: every check passed" if not failed else
                   f"result: {failed} of {len(self.rungs)} checks failed")
        return out


def doctor_targets(spec: str | None, usbmuxd: str | None = None) -> list[DeviceSpec]:
    """The devices `phoneshell doctor --device spec` checks.

    Unlike `resolve_devices`, a phone that cannot be found is still a target, so the doctor can
    say which rung is missing: no spec (or `all`) without usbmuxd or phones gives one unnamed
    USB phone, and a udid is taken as it is.
    """
    if spec in (None, "all"):
        try:
            return resolve_devices("all", usbmuxd=usbmuxd)
        except DeviceError:
            return [DeviceSpec("usb", "", "phone-1")]
    assert spec is not None
    try:
        return resolve_devices(spec, usbmuxd=usbmuxd)
    except DeviceError:
        if spec.startswith("sim") or spec.startswith(("http://", "https://")):
            raise
        if spec.startswith("http+usbmux://"):
            udid = spec.split("://", 1)[1].rsplit(":", 1)[0]
            return [DeviceSpec("url", spec, "phone-1", udid=udid)]
        return [DeviceSpec("usb", usbmux_url(spec), "phone-1", udid=spec)]


@dataclass
class _Walk:
    """What the rungs learn on the way up."""

    device: DeviceSpec
    address: str
    timeout_s: float
    input_timeout_s: float
    phone: PhoneInfo | None = None
    wda: Phone | None = None
    status: dict[str, Any] = field(default_factory=dict)
    ios: str = ""

    @property
    def usb(self) -> bool:
        return self.device.kind == "usb" or self.device.via_usbmux

    @property
    def simulated(self) -> bool:
        # A phone found through usbmux is real, whatever answers on its WDA port.
        return self.device.kind == "sim" or (not self.usb and bool(self.status.get("simulated")))


def diagnose(device: DeviceSpec, usbmuxd: str | None = None, *, timeout_s: float = 10.0,
             input_timeout_s: float = 3.0) -> Diagnosis:
    """Check every rung for one device (a simulator must be started: `device.url` set).

    Args:
        device: what to check (from `doctor_targets` or `resolve_devices`).
        usbmuxd: usbmuxd's address (default: $PHONESHELL_USBMUXD, else /var/run/usbmuxd).
        timeout_s: per WDA request.
        input_timeout_s: how long a swipe may take to show on the screen.
    """
    walk = _Walk(device, usbmux.usbmuxd_address(usbmuxd), timeout_s, input_timeout_s)
    checks: dict[str, Callable[[_Walk], Rung]] = {
        "usbmuxd": _usbmuxd, "phone": _phone, "paired": _paired, "wda": _wda,
        "ready": _ready, "unlocked": _unlocked, "input": _input}
    done: dict[str, Rung] = {}
    missing: dict[str, str] = {}  # rung -> the failed rung that keeps it from being reached
    for name in RUNGS:
        blocked = [missing[n] for n in NEEDS.get(name, ()) if n in missing]
        if blocked:
            missing[name] = blocked[0]
            done[name] = Rung(name, "skipped", f"not checked: {blocked[0]} failed")
            continue
        done[name] = checks[name](walk)
        if done[name].status == "failed":
            missing[name] = name
    notes: list[str] = []
    if usbmux.ios_major(walk.ios) >= 17 and not walk.simulated:
        udid = device.udid or "UDID"
        notes.append(IOS17_NOTE.format(ios=walk.ios, udid=udid,
                                       url=device.url or usbmux_url(udid)))
    where = device.udid or device.url
    name = f"{device.label} ({where})" if where and device.kind != "sim" else device.label
    return Diagnosis(name, device.url, tuple(done[n] for n in RUNGS), tuple(notes))


# -- the rungs --------------------------------------------------------------------------------


def _not_usb(walk: _Walk, name: str) -> Rung:
    what = "a simulated iPhone" if walk.device.kind == "sim" else f"WDA at {walk.device.url}"
    return Rung(name, "skipped", f"not needed: {what} is reached over the network, not usbmux")


def _usbmuxd(walk: _Walk) -> Rung:
    if not walk.usb:
        return _not_usb(walk, "usbmuxd")
    try:
        usbmux.check_usbmuxd(walk.address)
    except DeviceError as exc:
        return Rung("usbmuxd", "failed", exc.message, exc.hint)
    return Rung("usbmuxd", "ok", f"usbmuxd answers at {walk.address}")


def _phone(walk: _Walk) -> Rung:
    if not walk.usb:
        return _not_usb(walk, "phone")
    udid = walk.device.udid
    try:
        if not udid:
            attached = usbmux.connected(walk.address)
            if not attached:
                return Rung("phone", "failed",
                            f"no phone is connected to usbmuxd at {walk.address}", CABLE_FIX)
            udid = attached[0].udid
        info = usbmux.phone_info(udid, walk.address)
    except DeviceError as exc:
        return Rung("phone", "failed", exc.message, CABLE_FIX)
    walk.phone, walk.ios = info, info.ios_version
    named = f" {info.name!r}" if info.name else ""
    seen = (f"{info.model}{named}, iOS {info.ios_version}, {info.connection}"
            if not info.error else f"connected ({info.connection}); {info.error}")
    return Rung("phone", "ok", f"{info.udid}: {seen}")


def _paired(walk: _Walk) -> Rung:
    if not walk.usb:
        return _not_usb(walk, "paired")
    assert walk.phone is not None
    if walk.phone.paired:
        return Rung("paired", "ok", "the phone trusts this computer (usbmuxd holds its pair "
                                    "record)")
    return Rung("paired", "failed", f"the phone {walk.phone.udid} has not trusted this computer "
                                    "(usbmuxd holds no pair record for it)", TRUST_FIX)


def _wda(walk: _Walk) -> Rung:
    url = walk.device.url or (usbmux_url(walk.phone.udid) if walk.phone else "")
    try:
        if walk.device.via_usbmux or walk.device.kind == "usb":
            usbmux.use_usbmuxd_for_wda(walk.address)
        walk.wda = Phone(url, timeout_s=walk.timeout_s)
        walk.status = walk.wda.status()
    except DeviceError as exc:
        detail = exc.message
        if _refused_by_phone(exc):
            detail = (f"nothing listens on port {url.rsplit(':', 1)[-1]} of the phone "
                      f"(usbmuxd: connection refused), so WDA is not running: {url}")
        return Rung("wda", "failed", detail, _start_wda_fix(walk, url))
    os_version = str((walk.status.get("os") or {}).get("version", ""))
    walk.ios = walk.ios or os_version
    build = str((walk.status.get("build") or {}).get("version", ""))
    about = ", ".join(x for x in (f"WDA {build}" if build else "",
                                  f"iOS {os_version}" if os_version else "") if x)
    return Rung("wda", "ok", f"WDA answers /status at {url}" + (f" ({about})" if about else ""))


def _refused_by_phone(exc: DeviceError) -> bool:
    """Whether usbmuxd reached the phone and the phone refused the port (WDA not running)."""
    # facebook-wda wraps usbmuxd's "connection refused" result (MuxConnectError) in its
    # HTTPError, which Phone translated into the DeviceError in hand.
    cause = exc.__cause__
    inner = cause.args[0] if cause is not None and cause.args else None
    return isinstance(inner, MuxConnectError) and not isinstance(inner,
                                                                 MuxConnectToUsbmuxdError)


def _start_wda_fix(walk: _Walk, url: str) -> str:
    if walk.device.kind == "sim":
        return "the simulated iPhone stopped listening; start it again (`phoneshell sim`)"
    major = walk.ios.split(".", 1)[0]
    udid = walk.device.udid or (walk.phone.udid if walk.phone else "UDID")
    if walk.usb and major.isascii() and major.isdigit() and int(major) >= 17:
        start = (f"start WDA on the phone from a Mac: `xcodebuild test-without-building -project "
                 f"WebDriverAgent.xcodeproj -scheme WebDriverAgentRunner -destination id={udid}` "
                 "(or pymobiledevice3 `developer dvt xcuitest`, or go-ios `ios runwda`; tidevice "
                 "cannot on iOS 17+)")
    elif walk.usb:
        start = (f"start WDA on the phone: `tidevice -u {udid} xctest -B "
                 "com.facebook.WebDriverAgentRunner.xctrunner` (iOS 16 and earlier), or "
                 "`xcodebuild test-without-building` from a Mac")
    else:
        start = ("start WDA on the phone and forward its port here (`iproxy 8100 8100`, "
                 "`tidevice relay 8100 8100` or `pymobiledevice3 usbmux forward 8100 8100`); "
                 "if the port is taken by a stale iproxy, stop that process first; or pass the "
                 "phone's udid to reach WDA over usbmux")
    return (f"{start}. Settings > Developer > Enable UI Automation must be on. Then rerun "
            f"`phoneshell doctor --device {walk.device.udid or url}`; see {DOCS}")


def _ready(walk: _Walk) -> Rung:
    ready = walk.status.get("ready")
    if ready is None:
        return Rung("ready", "ok", "WDA answered (this WDA does not report readiness)")
    if ready:
        return Rung("ready", "ok", "WDA is ready to accept commands")
    message = str(walk.status.get("message") or "")
    return Rung("ready", "failed", f"WDA answers but is not ready ({message or 'no reason'})",
                "WDA is still starting: wait a few seconds and rerun; if it stays like this, "
                "stop the WDA runner and start it again")


def _unlocked(walk: _Walk) -> Rung:
    assert walk.wda is not None
    try:
        locked = walk.wda.locked()
    except DeviceError as exc:
        return Rung("unlocked", "failed", exc.message, exc.hint)
    if locked:
        return Rung("unlocked", "failed", "the phone is locked: WDA would answer every gesture "
                                          "and nothing would happen", LOCKED_FIX)
    return Rung("unlocked", "ok", "the phone is unlocked")


def _input(walk: _Walk) -> Rung:
    assert walk.wda is not None
    try:
        seen = probe_input(walk.wda, walk.input_timeout_s)
    except DeviceError as exc:
        return Rung("input", "failed", f"the input probe could not run: {exc.message}",
                    exc.hint or WEDGED_FIX)
    return Rung("input", "ok" if seen.reached else "failed", seen.detail,
                "" if seen.reached else WEDGED_FIX)


__all__ = ["Diagnosis", "RUNGS", "Rung", "RungStatus", "diagnose",
           "doctor_targets"]
