"""Fault switches of the simulated iPhone, for testing how the harness copes with a bad phone.

* `locked`: `/wda/locked` is true, the lock screen shows, every gesture and launch (a new
  session's too) answers 200 null and changes nothing, and unlock does nothing;
* `drop-writes`: reads work; taps, keys, drags, W3C actions, turning, button presses and home
  answer 200 and are ignored; launches and terminates still work;
* `stale-session`: every session-scoped request answers 404 `invalid session id`, and
  `/status` reports no session;
* `truncated-source`: `/source` (XML) is cut off at 60% of its bytes; `truncated-source=BUNDLE`
  only while that app is in front (a screen too big for WDA to write out, as a huge web page);
* `unreadable=BUNDLE`: while that app is in front, every page source and screenshot answers
  WDA's error for a snapshot it could not take (a screen WDA chokes on);
* `slow`: every WDA request waits first; `slow=SECONDS` sets how long (default 0.25);
* `gone`: the listening socket is closed, so connections are refused; only the Python API
  (`SimServer.set_faults`) reopens it.

Faults are given as strings (`--fault slow=0.5`), at start or at runtime.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from phoneshell.errors import PhoneshellError

NAMES = ("locked", "drop-writes", "stale-session", "truncated-source", "unreadable", "slow",
         "gone")
DEFAULT_SLOW_S = 0.25
TRUNCATE_AT = 0.6
"""The fraction of the XML source's bytes `truncated-source` keeps."""


@dataclass(frozen=True)
class Faults:
    """Which faults are on (and how slow `slow` is)."""

    active: frozenset[str] = frozenset()
    slow_s: float = DEFAULT_SLOW_S
    truncated_in: str = ""
    """The app whose screens `truncated-source` cuts off ("": every screen)."""
    unreadable_in: str = ""
    """The app whose screens `unreadable` makes unreadable."""

    @classmethod
    def parse(cls, specs: Iterable[str]) -> Faults:
        """Faults from strings such as "locked" or "slow=0.5".

        Raises:
            PhoneshellError: an unknown fault name or a bad delay.
        """
        active: set[str] = set()
        slow_s, truncated_in, unreadable_in = DEFAULT_SLOW_S, "", ""
        for spec in specs:
            name, sep, arg = spec.strip().partition("=")
            if name not in NAMES:
                raise PhoneshellError(f"unknown fault {name!r}",
                                      hint=f"faults are: {', '.join(NAMES)}")
            if name == "unreadable" and not arg.strip():
                raise PhoneshellError(f"fault 'unreadable' names the app whose screens it makes "
                                      f"unreadable ({spec!r})", hint="unreadable=BUNDLE")
            if sep and name == "truncated-source":
                truncated_in = arg.strip()
            elif sep and name == "unreadable":
                unreadable_in = arg.strip()
            elif sep:
                if name != "slow":
                    raise PhoneshellError(f"fault {name!r} takes no value ({spec!r})",
                                          hint="only slow and truncated-source take one: "
                                               "slow=SECONDS, truncated-source=BUNDLE")
                try:
                    slow_s = float(arg)
                except ValueError:
                    slow_s = -1.0
                if not 0 <= slow_s <= 60:
                    raise PhoneshellError(f"bad delay in {spec!r}",
                                          hint="use slow=SECONDS with 0 <= SECONDS <= 60")
            active.add(name)
        return cls(frozenset(active), slow_s, truncated_in, unreadable_in)

    def on(self, name: str) -> bool:
        """Whether a fault is switched on."""
        return name in self.active

    def specs(self) -> list[str]:
        """The faults as strings `parse` accepts, in a stable order."""
        valued = {"slow": f"slow={self.slow_s:g}",
                  "truncated-source": f"truncated-source={self.truncated_in}"
                  if self.truncated_in else "truncated-source",
                  "unreadable": f"unreadable={self.unreadable_in}"}
        return [valued.get(n, n) for n in NAMES if n in self.active]

    def cuts_off(self, front: str) -> bool:
        """Whether `/source` is cut off while `front` is the app in front."""
        return self.on("truncated-source") and self.truncated_in in ("", front)

    def chokes_on(self, front: str) -> bool:
        """Whether no source or screenshot can be taken while `front` is the app in front."""
        return self.on("unreadable") and self.unreadable_in == front
