"""The chain of custody: what the phone showed after each logged action, and any change since that
no logged action explains.

Every read the bridge makes or passes through is an observation (front app, screen digest,
tree). After an action the bridge reads the phone and that becomes what is `known`; a later
observation that differs, with no action between, means something changed the phone outside the
bridge: a `Break`. Two things are not breaks:

* on a real phone, a change before the phone has settled after the last action: it finishes a
  transition (an app opening after a tap on its icon, a page sliding in, a menu or an alert
  appearing) after WDA has answered, and a read begun before then may still show the screen
  from before the action. So the state the log vouches for is the first one read by a request
  begun at least `settle_s` after the answer (an agent whose model took ten seconds to reply
  sees the app the tap opened: that is no break). A client's read begun earlier is never kept
  (`read_token` marks it raced): what is known, and aimed and refused by, is never a screen the
  phone may already have left (red team 63: an agent that read the source right after each
  action made the bridge judge every touch against the screen before it, and deleted an app).
  The bridge's own reads count from when its turn began (`own_reads_begin`); one begun early (a
  harness step's, which does not wait) is kept for that step but leaves what is known
  unsettled, so the next agent action reads again (`pending`, `settles_in`). From the settled
  read on, any change is a break. On the simulated iPhone, whose effects are immediate
  (`settle_s` 0), the read right after the action settles it. An adversary acting outside
  the bridge before a real phone's state is settled is not caught here, which is what the
  sandbox is for;
* a read that raced an action (it started before the action or ran while it did): it may show
  either side of the action.

Screen digests are compared only when the phone's screens change on input alone
(`screens_static`: the simulated iPhone, whose clock moves only when told); a real phone's
screens animate, scroll and tick by themselves, so there only the front app is compared.
The known tree is reused for the next action's target until an action could have changed it.

An action's "after" may be left `pending` when nothing but the bridge can reach the phone (a
confined agent's turn and the harness's steps), and on a real phone for every agent action
(its outcome line, which path checks read, must show what the phone settled into): the first
whole read after the phone settled (a client's XML source passing through, or the bridge's own
before the next action) shows what the action left, and costs nothing when a client reads
anyway. Until it comes, no other read is compared or kept (it may be one the next action's
before-read outdates), and `settle` takes the first one that is whole, raced no action and
began once the phone had settled. Pure state, no I/O; the recorder feeds it, waits out
`settles_in` and writes what it finds.
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
        self._own_from = float("-inf")
        """When the bridge's current turn began: its own reads began no earlier."""
        self._settled = True
        """What is known was read once the phone had settled after the last action (compared
        against, aimed and refused by, from now)."""
        self._pending = False
        """The last action's after is not read yet (`settle` takes it)."""
        self._lock = threading.Lock()

    @property
    def pending(self) -> bool:
        """The last action was answered and what the phone settled into after it is not read
        yet (on a real phone, a read begun within `settle_s` of the answer does not count)."""
        return self._pending or not self._settled

    def settles_in(self) -> float:
        """Seconds until the phone has settled after the last action's answer (0: it has; on
        the simulated iPhone always)."""
        with self._lock:
            if self.settle_s <= 0:
                return 0.0
            return max(0.0, self._answered_at + self.settle_s - time.monotonic())

    def own_reads_begin(self) -> None:
        """The bridge's turn begins (the caller holds the action lock): its own reads from now
        on, until the next action is answered, began no earlier than now."""
        with self._lock:
            self._own_from = time.monotonic()

    def read_token(self) -> int:
        """Take before forwarding a read; give back to `observe` with what it showed.

        A read begun while an action is in flight, or on a real phone within `settle_s` of the
        last answer, gets -1: it may show either side of the action, so it is never compared
        or kept (nor taken for a look by `Looks`)."""
        with self._lock:
            early = self.settle_s > 0 and time.monotonic() - self._answered_at < self.settle_s
            return -1 if self._in_flight or early else self._generation

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
            found = self._compare(seen, token)
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
            # The bridge's own read begun early (a harness step's): later changes are still
            # late effects, and an agent's next action reads again.
            self._settled = self._late(token)
            return True

    def _late(self, token: int | None) -> bool:
        """Whether a read that raced nothing began once the phone had settled: a client's
        always (`read_token` gives an early one -1), the bridge's own when its turn did."""
        return (token is not None or self.settle_s <= 0
                or self._own_from - self._answered_at >= self.settle_s)

    def _compare(self, seen: Observation, token: int | None) -> Break | None:
        if not self._settled:  # the action may still be taking effect: this is its effect
            self._settled = self._late(token)
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

    def finish_action(self, after: Observation | None, moved: bool = True) -> None:
        """The action was answered and the phone read again: that is what is known now (None:
        not read yet, `pending` until `settle`).

        Whatever the read could not show is unknown, never carried over from before the action.

        Args:
            moved: False for an action that leaves the screen as it was (terminating an app
                in the background): what was known stays, as settled as it was, and the
                phone's settling after the action before goes on.
        """
        with self._lock:
            self.known = after or Observation()
            self._pending = after is None
            self._in_flight = False
            self._generation += 1
            if moved:
                self._answered_at = time.monotonic()
                self._settled = self.settle_s <= 0
