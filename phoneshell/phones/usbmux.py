"""USB iPhones as usbmuxd sees them, read through tidevice; where usbmux errors are translated.

API (small on purpose; the runner, `resolve` and `doctor` use it):

    usbmuxd_address(address=None) -> str     explicit > $PHONESHELL_USBMUXD > tidevice's default
    check_usbmuxd(address=None) -> str       the address, or DeviceError "usbmuxd is not running"
    connected(address=None) -> list[Attached]   udid, device id, connection (no lockdown talk)
    list_phones(address=None) -> list[PhoneInfo] name, model, iOS and pairing of each phone
    phone_info(udid, address=None) -> PhoneInfo
    use_usbmuxd_for_wda(address=None)         point facebook-wda's `http+usbmux://` at it
    wda_usbmuxd() -> str                      where facebook-wda reaches usbmuxd now
    reachable_usbmuxd(address) -> str         how a sandboxed program could reach it too

The address is a unix socket path (`/var/run/usbmuxd`, the default on Linux and macOS) or
`host:port` (a usbmuxd reached over TCP, e.g. through socat). Name, model and iOS version come
from lockdown's `GetValue` without a session: a phone answers those before it trusts the
computer, so a phone that is not paired is still listed, with `paired: false`.

facebook-wda 1.5.4 opens `http+usbmux://` connections with its own usbmux client
(`wda.usbmux.pyusbmux`), which takes no address: on Linux and macOS it connects to the unix path
in the class attribute `MuxConnection.USBMUXD_PIPE`, read at every connection. So a unix path
can be given to it (`use_usbmuxd_for_wda`); a `host:port` cannot, short of replacing its code,
and is refused with a hint. This module never starts WDA and never opens a lockdown session.

Whether the sandbox hides usbmuxd: it hides every unix socket path, but it shares the host's
network, and usbmuxd's `Connect` to a phone's port needs no pair record, so whatever reaches a
usbmuxd reaches WDA on every phone it lists. phoneshell vouches only for the system's socket
(`/var/run/usbmuxd`), where usbmuxd itself listens: another path may be a forwarder to a TCP
port (socat to WSL's 127.0.0.1:27015, an ssh tunnel) that a sandboxed program reaches as well,
and nothing here can tell (`reachable_usbmuxd`). A forwarder put at the system's path cannot be
told either; docs/real-device.md says not to.
"""

from __future__ import annotations

import os
import plistlib
import socket
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from wda.usbmux.pyusbmux import MuxConnection

from phoneshell.errors import DeviceError

ENV_USBMUXD = "PHONESHELL_USBMUXD"
DEFAULT_USBMUXD = "/var/run/usbmuxd"
"""tidevice's (and libusbmuxd's) default on Linux and macOS."""
LOCKDOWN_PORT = 62078
LOCKDOWN_KEYS = ("DeviceName", "ProductType", "ProductVersion")
PROG_NAME = "phoneshell"

Connection = Literal["usb", "network"]

# ProductType -> the name on the box, for the iPhones a harness meets today (tidevice's own
# table stops at the iPhone 14 Pro). An unknown type is shown as it is.
MARKETING_NAMES = {
    "iPhone10,1": "iPhone 8", "iPhone10,4": "iPhone 8", "iPhone10,2": "iPhone 8 Plus",
    "iPhone10,5": "iPhone 8 Plus", "iPhone10,3": "iPhone X", "iPhone10,6": "iPhone X",
    "iPhone11,2": "iPhone XS", "iPhone11,4": "iPhone XS Max", "iPhone11,6": "iPhone XS Max",
    "iPhone11,8": "iPhone XR",
    "iPhone12,1": "iPhone 11", "iPhone12,3": "iPhone 11 Pro", "iPhone12,5": "iPhone 11 Pro Max",
    "iPhone12,8": "iPhone SE (2nd generation)",
    "iPhone13,1": "iPhone 12 mini", "iPhone13,2": "iPhone 12", "iPhone13,3": "iPhone 12 Pro",
    "iPhone13,4": "iPhone 12 Pro Max",
    "iPhone14,4": "iPhone 13 mini", "iPhone14,5": "iPhone 13", "iPhone14,2": "iPhone 13 Pro",
    "iPhone14,3": "iPhone 13 Pro Max", "iPhone14,6": "iPhone SE (3rd generation)",
    "iPhone14,7": "iPhone 14", "iPhone14,8": "iPhone 14 Plus", "iPhone15,2": "iPhone 14 Pro",
    "iPhone15,3": "iPhone 14 Pro Max",
    "iPhone15,4": "iPhone 15", "iPhone15,5": "iPhone 15 Plus", "iPhone16,1": "iPhone 15 Pro",
    "iPhone16,2": "iPhone 15 Pro Max",
    "iPhone17,3": "iPhone 16", "iPhone17,4": "iPhone 16 Plus", "iPhone17,1": "iPhone 16 Pro",
    "iPhone17,2": "iPhone 16 Pro Max", "iPhone17,5": "iPhone 16e",
    "iPhone18,3": "iPhone 17", "iPhone18,4": "iPhone Air", "iPhone18,1": "iPhone 17 Pro",
    "iPhone18,2": "iPhone 17 Pro Max",
}

def ios_major(version: str) -> int:
    """The major version of an iOS version string ("17.4.1" -> 17; 0 when unknown)."""
    head = version.split(".", 1)[0]
    return int(head) if head.isascii() and head.isdigit() else 0


_SETUP_HINT = ("Linux: `sudo apt install usbmuxd` (it starts when a phone is plugged in; "
               "`sudo systemctl start usbmuxd` otherwise), plug the phone in, unlock it and tap "
               "Trust. macOS: usbmuxd is built in; plug the phone in and trust the Mac. "
               f"Another socket: set {ENV_USBMUXD}=PATH or HOST:PORT")


@dataclass(frozen=True)
class Attached:
    """A phone usbmuxd lists, before anything is asked of the phone itself."""

    udid: str
    device_id: int
    """usbmuxd's number for the attachment (changes when the cable is replugged)."""
    connection: Connection


@dataclass(frozen=True)
class PhoneInfo:
    """One phone as `phoneshell devices` lists it."""

    udid: str
    name: str
    """The user-visible name (Settings > General > About > Name); "" when unreadable."""
    product_type: str
    """Apple's model identifier, e.g. `iPhone18,1`."""
    model: str
    """The marketing name when known (`iPhone 17 Pro`), else the product type."""
    ios_version: str
    connection: Connection
    paired: bool
    """usbmuxd holds a pair record: the phone trusted this computer."""
    device_id: int
    error: str = ""
    """Why name/model/iOS could not be read (lockdown did not answer), "" when they were."""

    @property
    def ios_major(self) -> int:
        """The major iOS version (0 when unknown)."""
        return ios_major(self.ios_version)

    def to_json(self) -> dict[str, str | int | bool]:
        """The fields `phoneshell devices --format json` prints."""
        return {"udid": self.udid, "name": self.name, "model": self.model,
                "product_type": self.product_type, "ios": self.ios_version,
                "connection": self.connection, "paired": self.paired, "error": self.error}


def marketing_name(product_type: str) -> str:
    """`iPhone18,1` -> `iPhone 17 Pro`; an unknown type comes back unchanged."""
    return MARKETING_NAMES.get(product_type, product_type)


def usbmuxd_address(address: str | None = None) -> str:
    """The usbmuxd to use: `address`, else $PHONESHELL_USBMUXD, else /var/run/usbmuxd."""
    return address or os.environ.get(ENV_USBMUXD) or DEFAULT_USBMUXD


def is_tcp(address: str) -> bool:
    """Whether the address is `host:port` rather than a unix socket path."""
    return ":" in address and not address.startswith(("/", "."))


def check_usbmuxd(address: str | None = None) -> str:
    """Return the address when usbmuxd answers there (a `ReadBUID` round trip).

    Raises:
        DeviceError: "usbmuxd is not running", with what was found at the address.
    """
    where = usbmuxd_address(address)
    try:
        _reach(where)
        _mux(where).read_system_BUID()
    except (OSError, KeyError, ValueError) as exc:  # tidevice's MuxError is an OSError
        raise _absent(where, exc) from exc
    return where


def connected(address: str | None = None) -> list[Attached]:
    """The phones usbmuxd lists (USB preferred over Wi-Fi for a phone seen both ways).

    Raises:
        DeviceError: usbmuxd is not running or sent something that is not a device list.
    """
    where = usbmuxd_address(address)
    try:
        _reach(where)
        infos = _mux(where).device_list()
    except (OSError, KeyError, ValueError) as exc:
        raise _absent(where, exc) from exc
    return [Attached(str(i.udid), int(i.device_id),
                     "network" if str(getattr(i.conn_type, "value", i.conn_type)) == "network"
                     else "usb") for i in infos]


def list_phones(address: str | None = None) -> list[PhoneInfo]:
    """Every connected phone with its name, model, iOS version and pairing.

    A phone whose lockdown does not answer is still listed, with `error` saying why.

    Raises:
        DeviceError: usbmuxd is not running.
    """
    where = usbmuxd_address(address)
    return [_describe(where, a) for a in connected(where)]


def phone_info(udid: str, address: str | None = None) -> PhoneInfo:
    """One connected phone by udid (dashes and case ignored).

    Raises:
        DeviceError: usbmuxd is not running, or the phone is not connected (the error lists the
            udids that are).
    """
    where = usbmuxd_address(address)
    attached = connected(where)
    for a in attached:
        if same_udid(a.udid, udid):
            return _describe(where, a)
    raise not_connected(udid, [a.udid for a in attached], where)


def same_udid(a: str, b: str) -> bool:
    """Whether two udids name one phone (usbmuxd may drop the dash of newer udids)."""
    return a.replace("-", "").lower() == b.replace("-", "").lower()


def not_connected(udid: str, udids: list[str], address: str) -> DeviceError:
    """The error for a udid usbmuxd does not list."""
    listed = ", ".join(udids) if udids else "none"
    return DeviceError(f"no phone with udid {udid} is connected to usbmuxd at {address} "
                       f"(connected: {listed})",
                       hint="plug the phone in with a data cable and unlock it; "
                            "`phoneshell devices` lists connected phones")


def use_usbmuxd_for_wda(address: str | None = None) -> str:
    """Point facebook-wda's `http+usbmux://` connections at this usbmuxd; return its address.

    Process-wide: facebook-wda reads the path from a class attribute at every connection.

    Raises:
        DeviceError: a `host:port` address, which facebook-wda 1.5.4 cannot use.
    """
    where = usbmuxd_address(address)
    if is_tcp(where):
        raise DeviceError(f"facebook-wda reaches usbmuxd only through a unix socket, not "
                          f"{where}, so http+usbmux:// URLs cannot use it",
                          hint=f"bridge it to a socket (`socat UNIX-LISTEN:/tmp/usbmuxd,fork "
                               f"TCP:{where}` and {ENV_USBMUXD}=/tmp/usbmuxd), or forward "
                               "port 8100 (`iproxy 8100 8100`) and pass --device "
                               "http://127.0.0.1:8100")
    MuxConnection.USBMUXD_PIPE = where
    return where


def wda_usbmuxd() -> str:
    """Where facebook-wda's `http+usbmux://` connections in this process reach usbmuxd (the
    path `use_usbmuxd_for_wda` set, else facebook-wda's own default)."""
    return str(MuxConnection.USBMUXD_PIPE)


def reachable_usbmuxd(address: str, shown: Sequence[Path] = ()) -> str:
    """How a program in the sandbox could reach the usbmuxd at `address` too, and through it
    WDA on its phones ("" when phoneshell knows of no way: the system's socket, which the
    sandbox hides).

    Args:
        shown: the paths the sandbox shows besides the system's (`PHONESHELL_SANDBOX_SHARE`).
    """
    if is_tcp(address):
        return (f"usbmuxd answers at {address}, a TCP port the sandbox, which shares the host's "
                "network, reaches too")
    real = Path(os.path.realpath(address))
    share = next((p for p in shown if p == real or p in real.parents), None)
    if share is not None:
        return f"usbmuxd's socket {address} lies in {share}, which the sandbox shows"
    if real == Path(os.path.realpath(DEFAULT_USBMUXD)):
        return ""
    return (f"usbmuxd is reached through {address}, not the system's socket {DEFAULT_USBMUXD}: "
            "phoneshell cannot tell it is not a forwarder to a TCP port (socat to "
            "127.0.0.1:27015, an ssh tunnel) that the sandbox, which shares the host's network, "
            "reaches too")


# -- talking to usbmuxd and lockdown through tidevice ----------------------------------------


def _reach(address: str) -> None:
    """Connect to usbmuxd once and hang up; raise OSError when nothing answers.

    tidevice leaks its socket when a connection fails, so it is only let connect once usbmuxd
    is known to answer.
    """
    if is_tcp(address):
        host, _, port = address.rpartition(":")
        with socket.create_connection((host, int(port)), timeout=5):
            return
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(5)
        probe.connect(address)


def _mux(address: str) -> Any:
    """tidevice's usbmux client for this address."""
    # Imported here: tidevice costs ~0.15 s to import, and `--device sim` never needs it.
    import tidevice

    return tidevice.Usbmux(address)


def _device(udid: str, mux: Any) -> Any:
    """tidevice's handle on one phone behind `mux`."""
    import tidevice

    return tidevice.Device(udid, mux)


def _paired(mux: Any, udid: str) -> bool:
    """Whether usbmuxd holds a pair record for the phone (`ReadPairRecord`)."""
    from tidevice.exceptions import MuxReplyError

    try:
        reply = mux.send_recv({"MessageType": "ReadPairRecord", "PairRecordID": udid,
                               "ClientVersionString": "libusbmuxd 1.1.0",
                               "ProgName": PROG_NAME, "kLibUSBMuxVersion": 3}, timeout=10)
    except MuxReplyError:  # usbmuxd answers a missing record with a non-zero result
        return False
    return bool(reply.get("PairRecordData"))


def _lockdown_values(device: Any) -> tuple[dict[str, str], str]:
    """Name, product type and iOS version by lockdown `GetValue` without a session.

    Returns the values read and "" or what lockdown refused.
    """
    values: dict[str, str] = {}
    refused: list[str] = []
    with device.create_inner_connection(LOCKDOWN_PORT) as conn:
        for key in LOCKDOWN_KEYS:
            reply = conn.send_recv_packet({"Request": "GetValue", "Key": key,
                                           "Label": PROG_NAME})
            if "Value" in reply:
                values[key] = str(reply["Value"])
            else:
                refused.append(f"{key}: {reply.get('Error', 'no value')}")
    return values, ("lockdown refused GetValue " + ", ".join(refused)) if refused else ""


def _describe(address: str, attached: Attached) -> PhoneInfo:
    mux = _mux(address)
    problems: list[str] = []
    try:
        paired = _paired(mux, attached.udid)
    except (OSError, KeyError) as exc:  # tidevice's MuxError is an OSError
        paired = False
        problems.append(f"usbmuxd did not answer ReadPairRecord ({exc})")
    try:
        values, refused = _lockdown_values(_device(attached.udid, mux))
    except (OSError, KeyError, plistlib.InvalidFileException) as exc:
        values, refused = {}, f"lockdown did not answer ({exc.__class__.__name__}: {exc})"
    problems += [refused] if refused else []
    product = values.get("ProductType", "")
    return PhoneInfo(attached.udid, values.get("DeviceName", ""), product,
                     marketing_name(product), values.get("ProductVersion", ""),
                     attached.connection, paired, attached.device_id, "; ".join(problems))


def _absent(address: str, exc: BaseException) -> DeviceError:
    """The error for a usbmuxd that is missing or not answering at `address`."""
    if is_tcp(address):
        seen = f"nothing answers at {address}"
    elif not os.path.exists(address):
        seen = f"no socket at {address}"
    else:
        cause = exc.__cause__ or exc
        seen = f"the socket at {address} does not answer: {cause}"
    return DeviceError(f"usbmuxd is not running ({seen})", hint=_SETUP_HINT)


__all__ = ["Attached", "Connection", "DEFAULT_USBMUXD", "ENV_USBMUXD", "PhoneInfo",
           "check_usbmuxd", "connected", "is_tcp", "list_phones", "marketing_name",
           "not_connected", "phone_info", "reachable_usbmuxd", "same_udid",
           "use_usbmuxd_for_wda", "usbmuxd_address", "wda_usbmuxd"]
