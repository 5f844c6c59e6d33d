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
* `screenshot-fails`: every screenshot answers WDA's error for one XCTest could not take (a
  phone whose screenshots broke); `screenshot-fails=BUNDLE` only while that app is in front;
* `hiccups=N`: the next N page sources (any format) and screenshots, whoever asks, answer
  WDA's error for a snapshot or screenshot it could not take, then it switches itself off (a
  real phone's WDA fails a read now and then and serves it a moment later);
* `drag-hiccups=N`: the next N drags by coordinates (`dragfromtoforduration`, on the screen or
  an element, and `pressAndDragWithVelocity` between points), whoever sends them, answer WDA's
  error for an event XCTest could not synthesize and move nothing, then it switches itself off
  (a real phone's WDA fails a gesture now and then too; many stand for one that keeps failing);
* `slow`: every WDA request waits first; `slow=SECONDS` sets how long (default 0.25);
* `gone`: the listening socket is closed, so connections are refused; only the Python API
  (`SimServer.set_faults`) reopens it.

Faults are given as strings (`--fault slow=0.5`), at start or at runtime.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from phoneshell.errors import PhoneshellError

NAMES = ("locked", "drop-writes", "stale-session", "truncated-source", "unreadable",
         "screenshot-fails", "hiccups", "drag-hiccups", "slow", "gone")
VALUED = ("slow", "truncated-source", "unreadable", "screenshot-fails", "hiccups",
          "drag-hiccups")
"""The faults that take a value (`name=VALUE`)."""
MAX_HICCUPS = 1000
DEFAULT_SLOW_S = 0.25
TRUNCATE_AT = 0.6
"""The fraction of the XML source's bytes `truncated-source` keeps."""


COUNTED = ("hiccups", "drag-hiccups")
"""The faults that fail the next N requests of theirs, then switch themselves off."""


class Countdown:
    """How many more requests a counted fault (`hiccups`, `drag-hiccups`) fails (the server's
    lock serialises requests)."""

    def __init__(self, left: int = 0) -> None:
        self.left = left

    def take(self) -> bool:
        """Spend one; False once none is left."""
        if self.left <= 0:
            return False
        self.left -= 1
        return True


@dataclass(frozen=True)
class Faults:
    """Which faults are on (and how slow `slow` is)."""

    active: frozenset[str] = frozenset()
    slow_s: float = DEFAULT_SLOW_S
    truncated_in: str = ""
    """The app whose screens `truncated-source` cuts off ("": every screen)."""
    unreadable_in: str = ""
    """The app whose screens `unreadable` makes unreadable."""
    shots_fail_in: str = ""
    """The app whose screenshots `screenshot-fails` refuses ("": every screen's)."""
    hiccups: Countdown = field(default_factory=Countdown)
    """The reads `hiccups` still fails."""
    drag_hiccups: Countdown = field(default_factory=Countdown)
    """The drags `drag-hiccups` still fails."""

    @classmethod
    def parse(cls, specs: Iterable[str]) -> Faults:
        """Faults from strings such as "locked" or "slow=0.5".

        Raises:
            PhoneshellError: an unknown fault name or a bad delay.
        """
        active: set[str] = set()
        slow_s, truncated_in, unreadable_in, shots_in = DEFAULT_SLOW_S, "", "", ""
        counts = dict.fromkeys(COUNTED, 0)
        for spec in specs:
            name, sep, arg = spec.strip().partition("=")
            arg = arg.strip()
            if name not in NAMES:
                raise PhoneshellError(f"unknown fault {name!r}",
                                      hint=f"faults are: {', '.join(NAMES)}")
            if name in ("unreadable", *COUNTED) and not arg:
                raise PhoneshellError(f"fault {name!r} needs a value ({spec!r})",
                                      hint="unreadable=BUNDLE, hiccups=N, drag-hiccups=N")
            if sep and name not in VALUED:
                raise PhoneshellError(f"fault {name!r} takes no value ({spec!r})",
                                      hint="only these take one: slow=SECONDS, "
                                           "truncated-source=BUNDLE, unreadable=BUNDLE, "
                                           "screenshot-fails=BUNDLE, hiccups=N, "
                                           "drag-hiccups=N")
            if name == "truncated-source":
                truncated_in = arg
            elif name == "unreadable":
                unreadable_in = arg
            elif name == "screenshot-fails":
                shots_in = arg
            elif name in COUNTED:
                counts[name] = int(arg) if arg.isdigit() else -1
                if not 0 < counts[name] <= MAX_HICCUPS:
                    raise PhoneshellError(f"bad count in {spec!r}",
                                          hint=f"use {name}=N with 1 <= N <= {MAX_HICCUPS}")
            elif name == "slow" and sep:
                try:
                    slow_s = float(arg)
                except ValueError:
                    slow_s = -1.0
                if not 0 <= slow_s <= 60:
                    raise PhoneshellError(f"bad delay in {spec!r}",
                                          hint="use slow=SECONDS with 0 <= SECONDS <= 60")
            active.add(name)
        return cls(frozenset(active), slow_s, truncated_in, unreadable_in, shots_in,
                   Countdown(counts["hiccups"]), Countdown(counts["drag-hiccups"]))

    def on(self, name: str) -> bool:
        """Whether a fault is switched on (a counted one until it has failed its requests)."""
        return name in self.active and (name not in COUNTED or self._count(name).left > 0)

    def _count(self, name: str) -> Countdown:
        return self.drag_hiccups if name == "drag-hiccups" else self.hiccups

    def specs(self) -> list[str]:
        """The faults as strings `parse` accepts, in a stable order."""
        valued = {"slow": f"slow={self.slow_s:g}",
                  "truncated-source": f"truncated-source={self.truncated_in}"
                  if self.truncated_in else "truncated-source",
                  "unreadable": f"unreadable={self.unreadable_in}",
                  "screenshot-fails": f"screenshot-fails={self.shots_fail_in}"
                  if self.shots_fail_in else "screenshot-fails",
                  "hiccups": f"hiccups={self.hiccups.left}",
                  "drag-hiccups": f"drag-hiccups={self.drag_hiccups.left}"}
        return [valued.get(n, n) for n in NAMES if self.on(n)]

    def cuts_off(self, front: str) -> bool:
        """Whether `/source` is cut off while `front` is the app in front."""
        return self.on("truncated-source") and self.truncated_in in ("", front)

    def chokes_on(self, front: str) -> bool:
        """Whether no source or screenshot can be taken while `front` is the app in front."""
        return self.on("unreadable") and self.unreadable_in == front

    def refuses_shot(self, front: str) -> bool:
        """Whether no screenshot can be taken while `front` is the app in front."""
        return self.on("screenshot-fails") and self.shots_fail_in in ("", front)

    def hiccup(self) -> bool:
        """Whether this read fails for `hiccups` (it spends one)."""
        return "hiccups" in self.active and self.hiccups.take()

    def drag_hiccup(self) -> bool:
        """Whether this drag fails for `drag-hiccups` (it spends one)."""
        return "drag-hiccups" in self.active and self.drag_hiccups.take()
