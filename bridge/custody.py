"""The chain of custody: what the phone showed after each logged action, and any change since that
no logged action explains.

Every read the bridge makes or passes through is an observation (front app, screen digest,
tree). After an action the bridge reads the phone and that becomes what is `known`; a later
observation that differs, with no action between, means something changed the phone outside the
bridge: a `Break`. Two things are not breaks:

* on a real phone, a change before the phone has settled after the last action: it finishes a
  transition (an app opening after a tap on its icon) after WDA has answered, so the state the
  log vouches for is the first one seen at least `settle_s` after the answer (an agent whose
  model took ten seconds to reply sees the app the tap opened; that is no break). Until that
  observation, changes are the action's late effects; from it on, any change is a break. On the
  simulated iPhone, whose effects are immediate, the read right after the action settles it. An
  adversary acting outside the bridge before a real phone's state is settled is not caught here,
  which is what the sandbox is for;
* a read that raced an action (it started before the action or ran while it did): it may show
  either side of the action.

Screen digests are compared only when the phone's screens change on input alone
(`screens_static`: the simulated iPhone, whose clock moves only when told); a real phone's
screens animate, scroll and tick by themselves, so there only the front app is compared.
The known tree is reused for the next action's target until an action could have changed it.

An action's "after" may be left `pending` when nothing but the bridge can reach the phone (a
confined agent's turn and the harness's steps): the phone can then change only by a logged
action, so the first whole read after the answer (a client's XML source passing through, or the
bridge's own before the next action) shows what the action left as surely as a read made at
once, and costs nothing when a client reads anyway. Until it comes, no other read is compared
or kept (it may be one the next action's before-read outdates), and `settle` takes the first one
that is whole and raced no action. Pure state, no I/O; the recorder feeds it and writes what it
finds.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from bridge.observe import Observation


@dataclass(frozen=True)
class Break:
    """A change of the phone that no logged action explains."""

    was_app: str
    seen_app: str
    was_screen: str
    seen_screen: str

    def describe(self) -> str:
        """For the log's `error`."""
        if self.was_app != self.seen_app:
            return (f"{self.seen_app} was in front, where the last logged action left "
                    f"{self.was_app}: something acted on the phone outside the bridge")
        return (f"the screen of {self.seen_app or 'the front app'} changed with no logged "
                "action: something acted on the phone outside the bridge")


class Custody:
    """The custody state of one phone (thread-safe: reads pass through on many threads).

    Args:
        settle_s: how long after an action's answer a change still counts as its late effect.
        screens_static: the phone's screens change only on input, so digests are compared too.
    """

    def __init__(self, settle_s: float = 0.0, screens_static: bool = False) -> None:
        self.settle_s = settle_s
        self.screens_static = screens_static
        self.known = Observation()
        """What the log last showed of the phone."""
        self._generation = 0
        self._in_flight = False
        self._answered_at = float("-inf")
        self._settled = True
        """What is known is what the last action left, settled (compared against from now)."""
        self._pending = False
        """The last action's after is not read yet (`settle` takes it)."""
        self._lock = threading.Lock()

    @property
    def pending(self) -> bool:
        """The last action was answered and its after is not read yet."""
        return self._pending

    def read_token(self) -> int:
        """Take before forwarding a read; give back to `observe` with what it showed."""
        with self._lock:
            return -1 if self._in_flight else self._generation

    def unchanged_since(self, token: int) -> bool:
        """Whether no action started or was answered since `read_token` gave `token` (a read
        taken while one was in flight never counts)."""
        with self._lock:
            return 0 <= token == self._generation

    def observe(self, seen: Observation, token: int | None = None) -> Break | None:
        """Compare an observation with what is known, then know it.

        Args:
            token: from `read_token` for a read that passed through (None: the bridge's own
                read, made while it holds the action lock, so nothing raced it).

        Returns:
            The break, when the phone changed with no logged action to explain it.
        """
        if seen.empty:
            return None
        with self._lock:
            if self._pending or self._raced(token):
                # Pending: nothing is known to compare with; only `settle` may fill it in.
                # Raced: it ran while an action did, so either side of it may show.
                return None
            found = self._compare(seen)
            self._merge(seen)
            return found

    def _raced(self, token: int | None) -> bool:
        return token is not None and (token < 0 or token != self._generation
                                      or self._in_flight)

    def settle(self, seen: Observation, token: int | None = None) -> bool:
        """Take a read as the pending after of the last action; say whether it was taken.

        Args:
            token: from `read_token` for a client's read, taken only when whole (the front app
                and the screen: an XML source) and raced no action; None for the bridge's own
                read under the action lock, taken whatever it showed (an unreadable phone
                leaves the after unknown, as an unreadable read right after the action would).
        """
        if token is not None and not (seen.app and seen.screen):
            return False
        with self._lock:
            if not self._pending or self._raced(token):
                return False
            self.known, self._pending = seen, False
            # As if it had been read at once: a real phone's later changes are still late
            # effects until one read comes `settle_s` after the answer.
            self._settled = (self.settle_s <= 0
                             or time.monotonic() - self._answered_at >= self.settle_s)
            return True

    def _compare(self, seen: Observation) -> Break | None:
        if not self._settled:  # the action may still be taking effect: this is its effect
            self._settled = time.monotonic() - self._answered_at >= self.settle_s
            return None
        known = self.known
        app_moved = bool(known.app and seen.app and seen.app != known.app)
        screen_moved = bool(self.screens_static and known.screen and seen.screen
                            and seen.screen != known.screen)
        if not (app_moved or screen_moved):
            return None
        return Break(known.app, seen.app or known.app, known.screen, seen.screen)

    def _merge(self, seen: Observation) -> None:
        known = self.known
        self.known = Observation(
            app=seen.app or known.app,
            screen=seen.screen or known.screen,
            page=seen.page if seen.page is not None else known.page,
            focus_known=seen.focus_known if seen.page is not None else known.focus_known)

    def start_action(self) -> None:
        """An action is about to be forwarded: reads from now on may show either side of it."""
        with self._lock:
            self._generation += 1
            self._in_flight = True

    def finish_action(self, after: Observation | None) -> None:
        """The action was answered and the phone read again: that is what is known now (None:
        not read yet, `pending` until `settle`).

        Whatever the read could not show is unknown, never carried over from before the action.
        """
        with self._lock:
            self.known = after or Observation()
            self._pending = after is None
            self._in_flight = False
            self._answered_at = time.monotonic()
            self._settled = self.settle_s <= 0
            self._generation += 1
