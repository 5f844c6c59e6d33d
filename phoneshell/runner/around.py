"""Who caused a fault on a rig an agent could reach around the bridge: judged by the phone's own
witness where it has one, never by guess. Reads a simulator's ledger; never sends it input.

On a private rig (a simulator behind a secret path, a USB phone through usbmuxd) only the bridge
reaches the phone, so a fault its log does not explain is the rig's. On any other (a `--device`
URL: a standalone simulator, a phone behind iproxy) a program can open a connection to WDA and
lock the phone, end its session or power it off where the bridge never sees it; and the phone's
owner can lock it, or switch a standalone simulator's fault, just as unseen. The two look alike
from the runner, so the runner asks the phone:

* **A witness.** phoneshell's simulator keeps a ledger of every input it received (`GET
  /phoneshell/sim/ledger`). Its total is read just before the agent's turn is granted; after the
  turn (the grant revoked, what was on its way through the bridge arrived) the inputs it received
  since are held against those the bridge sent in that window (`Upstream.inputs_sent`, by
  route). Any the bridge never sent reached the phone around it: the agent's doing, and the
  attempt fails, naming them, whether or not a fault followed. None: a fault is the rig's (an
  owner's switch on the control routes, which are no input): not scored, or the rig down.
* **No witness** (a real phone; a simulator that stopped answering, powered off): a fault the
  bridge's log does not explain cannot be told the agent's or the rig's: not scored, saying so.
  The run said at its start that on such a rig (`around_line`) a not-scored attempt may be an
  agent's doing, and run.json and every report say it.

Cost: two small reads of the ledger per attempt (control routes, no WDA request), only for a
program agent on a standalone phoneshell simulator.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from dataclasses import dataclass

from bridge.upstream import Reply, Upstream
from phoneshell.agents import Agent
from phoneshell.agents.command import CommandAgent
from phoneshell.errors import BridgeError, shown_url
from phoneshell.runner.rig import Rig

LEDGER = "/phoneshell/sim/ledger"
LEDGER_TIMEOUT_S = 10.0
"""How long a ledger read may take: a simulator that does not answer in this has no witness."""
SHOWN_ROUTES = 5
"""How many of the routes that reached the phone around the bridge a message names."""


def reaches_around(rig: Rig, agent: Agent) -> bool:
    """Whether `agent` could reach the phone without the bridge: a program (sandboxed or not)
    on a rig that is not private. An agent in this process acts through its client only."""
    return isinstance(agent, CommandAgent) and not rig.private


@dataclass
class AroundWatch:
    """What reached the phone around the bridge during one agent's turn (`watch_around`)."""

    reaches: bool
    """The agent could reach the phone around the bridge (`reaches_around`)."""
    how: str = ""
    """How it could (`Rig.reach`)."""
    upstream: Upstream | None = None
    """Where the phone's ledger is read (None: the phone keeps none: a real phone)."""
    start: tuple[int, Counter[str]] | None = None
    """The ledger's total and the bridge's inputs sent, just before the turn was granted."""
    around: tuple[str, ...] | None = None
    """The routes of the inputs that reached the phone in the turn and that the bridge never
    sent (None: not witnessed: no ledger, or it did not answer)."""
    began: bool = False
    """The agent's turn began (`begin`)."""
    count: int = 0
    """How many inputs that is (more than `around` names only where the ledger, which keeps
    its last 100,000, let some go)."""

    def begin(self) -> None:
        """Read the ledger's total and what the bridge sent so far, just before the turn."""
        self.began = True
        if self.upstream is None:
            return
        sent = self.upstream.inputs_sent()
        # a `since` past any total: the answer is the total alone, however long the ledger
        total = _ledger(self.upstream, sys.maxsize)
        self.start = None if total is None else (total[0], sent)

    def end(self) -> None:
        """Hold the inputs the phone received since `begin` against those the bridge sent;
        called once the grant is revoked and the bridge drained."""
        if self.upstream is None or self.start is None:
            return
        since, sent_before = self.start
        read = _ledger(self.upstream, since)
        if read is None:
            return  # the phone stopped answering: nothing witnesses the turn
        total, routes = read
        sent = self.upstream.inputs_sent() - sent_before
        unsent = Counter(routes) - sent
        self.around = tuple(sorted(unsent.elements()))
        self.count = max(len(self.around), total - since - sent.total())

    def fault_note(self) -> str:
        """What a skip for a rig fault the bridge's log does not explain adds, once the turn
        began: that the ledger shows no input around the bridge (the rig's), or that nothing
        witnessed the turn, so the cause cannot be told ("" on a private rig, or before the
        turn)."""
        if not self.reaches or not self.began:
            return ""
        if self.around is not None:
            return ("; the simulator's ledger shows no input reached it around the bridge in "
                    "the agent's turn: the rig's")
        why = ("it is a real phone, which keeps no ledger of the inputs it received"
               if self.upstream is None else "the simulator did not answer for its ledger of "
               "inputs around the turn")
        return (f"; this rig is not private ({self.how}: the agent could reach the phone around "
                f"the bridge) and {why}, so whether the agent or the rig caused it cannot be "
                "told")


def watch_around(rig: Rig, agent: Agent) -> AroundWatch:
    """A watch for one attempt's turn: it reads the phone's ledger only for an agent that could
    reach it around the bridge, on a phone that keeps one."""
    reaches = reaches_around(rig, agent)
    return AroundWatch(reaches, _how(rig), rig.bridge.upstream if reaches and rig.ledger else None)


def around_bridge(watch: AroundWatch, fault: object = "") -> str:
    """Why the attempt fails: the inputs the phone's ledger shows reached it around the bridge
    in the agent's turn, and the fault found after (`fault`, when there was one); "" when it
    shows none, or nothing witnessed the turn."""
    if watch.around is None or not watch.count:
        return ""
    shown = Counter(watch.around)
    names = ", ".join(f"{route} (x{n})" if n > 1 else route
                      for route, n in list(shown.items())[:SHOWN_ROUTES])
    more = f" and {len(shown) - SHOWN_ROUTES} more route(s)" if len(shown) > SHOWN_ROUTES else ""
    then = f"; then {fault}" if str(fault) else ""
    return (f"{watch.count} input(s) reached the phone that the bridge never forwarded "
            f"(the simulator's ledger, in the agent's turn): {names}{more}: the agent acted "
            f"around the bridge{then}")


def around_line(rig: Rig, agent: Agent, label: str) -> str:
    """What a run says at its start, and run.json and reports keep, of a phone its agents can
    reach around the bridge ("" for one they cannot)."""
    if not reaches_around(rig, agent):
        return ""
    witness = ("its own ledger of inputs shows any the bridge never forwarded, and those fail "
               "their attempt; a fault with none is the rig's" if rig.ledger else
               "a fault the bridge's log does not explain cannot be told the agent's or the "
               "rig's, and is not scored")
    return (f"{label}: this phone is not private: {_how(rig)}; agents can reach it around the "
            f"bridge: {witness}, so an attempt not scored there may be an agent's doing, and "
            "the results are not tamper-proof (for results that must hold against an agent, "
            "use a private rig: a USB phone through the system's usbmuxd, or --device sim)")


def _how(rig: Rig) -> str:
    return rig.reach or f"a --device URL ({shown_url(rig.bridge.upstream.url)})"


def _ledger(upstream: Upstream, since: int) -> tuple[int, list[str]] | None:
    """The ledger's total and the routes of the inputs after the `since`th (None: no
    answer, or not a ledger)."""
    try:
        reply = upstream.send("GET", f"{LEDGER}?since={since}", None, {},
                              timeout_s=LEDGER_TIMEOUT_S)
    except BridgeError:
        return None
    return _read_ledger(reply)


def _read_ledger(reply: Reply) -> tuple[int, list[str]] | None:
    try:
        data = json.loads(reply.body)
    except ValueError:
        return None
    if reply.status != 200 or not isinstance(data, dict):
        return None
    total, inputs = data.get("total"), data.get("inputs")
    if not isinstance(total, int) or not isinstance(inputs, list):
        return None
    return total, [str(e.get("route", "")) for e in inputs if isinstance(e, dict)]
