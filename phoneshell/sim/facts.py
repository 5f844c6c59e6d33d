"""Device facts of the simulated iPhone: identity, screen geometry, battery, clock. Configurable.

Defaults describe an iPhone 17 Pro on iOS 26.2 (402x874 points at scale 3), the device of the
reference dumps. The clock is frozen at Apple's 9:41 so that two reads of an unchanged screen
are identical: the harness detects a tap's effect by comparing sources, and a ticking clock
would look like an effect.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

from phoneshell.errors import PhoneshellError
from phoneshell.sim.store import JSON


@dataclass(frozen=True)
class DeviceFacts:
    """What the phone says about itself (About page, /status, device/info, screen size)."""

    name: str = "iPhone"
    """The user-visible device name (Settings > General > About > Name)."""
    model: str = "iPhone 17 Pro"
    """Model Name on the About page."""
    model_number: str = "MQ163LL/A"
    """Model Number on the About page (cell `ProductModel`)."""
    serial: str = "F4GZK7Q2XM"
    """Serial Number on the About page (cell `SerialNumber`)."""
    ios_version: str = "26.2"
    udid: str = "00008150-001A24E11E78801C"
    width: int = 402
    """Screen width in points."""
    height: int = 874
    """Screen height in points."""
    scale: int = 3
    """Pixels per point: screenshots are width*scale x height*scale pixels."""
    capacity: str = "256 GB"
    available: str = "201.35 GB"
    battery_level: float = 0.87
    """0.0 to 1.0; the Battery page shows it as a percentage."""
    battery_state: int = 1
    """UIDeviceBatteryState: 1 unplugged, 2 charging, 3 full."""
    locale: str = "en_US"
    time_zone: str = "America/Los_Angeles"
    time: str = "9:41"
    """The status-bar and lock-screen time, frozen (see the module docstring)."""
    date: str = "Tuesday 9 January"
    wifi_network: str = "HomeNet"
    """The network Wi-Fi is joined to while the Wi-Fi switch is on."""

    @property
    def battery_percent(self) -> str:
        """The battery level as the Battery page shows it, e.g. "87%"."""
        return f"{round(self.battery_level * 100)}%"

    def to_json(self) -> dict[str, JSON]:
        """Every fact as a JSON object (for the state route and state files)."""
        return dict(asdict(self))

    def overrides(self) -> dict[str, JSON]:
        """The facts that differ from the defaults (what a state file's "facts" holds)."""
        default = DeviceFacts().to_json()
        return {k: v for k, v in self.to_json().items() if v != default[k]}

    def updated(self, data: dict[str, JSON]) -> DeviceFacts:
        """A copy with the given facts replaced; unknown keys or wrong types are an error.

        Raises:
            PhoneshellError: a key that is not a fact, or a value of the wrong type.
        """
        known = {f.name: type(getattr(self, f.name)) for f in fields(self)}
        changes: dict[str, object] = {}
        for key, value in data.items():
            want = known.get(key)
            if want is None:
                raise PhoneshellError(f"unknown device fact {key!r}",
                                      hint=f"device facts are: {', '.join(known)}")
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, want) or isinstance(value, bool) != (want is bool):
                raise PhoneshellError(f"device fact {key!r} must be {want.__name__}, "
                                      f"not {value!r}", hint="fix the state file's facts")
            changes[key] = value
        return replace(self, **changes)  # type: ignore[arg-type]
