"""Who caused a fault on a rig an agent could reach around the bridge: judged by the phone's own
witness where it has one, never by guess. Reads a simulator's counts of requests; never sends
it input.

On a private rig (a simulator behind a secret path, a USB phone through usbmuxd) only the bridge
reaches the phone, so a fault its log does not explain is the rig's. On any other (a `--device`
URL: a standalone simulator, a phone behind iproxy) a program can open a connection to WDA and
lock the phone, end its session or power it off where the bridge never sees it; and the phone's
owner can lock it, or switch a standalone simulator's fault, just as unseen. The two look alike
from the runner, so the runner asks the phone:

* **A witness.** phoneshell's simulator counts every WDA request it receives, by route, reads
  as much as inputs (`GET /phoneshell/sim/requests`): a read breaks a phone too (an unbounded
  find holding it for minutes, a flood queued behind it). The counts are read just before the
  agent's turn is granted and after it (the grant revoked, what was on its way through the
  bridge arrived), and what the phone received between is held by route against every request
  the bridge sent in that window (`Upstream.requests_sent`: what it forwarded and its own
  reads). Any the bridge never sent reached the phone around it, and the attempt fails, naming
  them, whether or not a fault followed. None: a fault is the rig's (an owner's switch on the
  control routes, which are no WDA request): not scored, or the rig down.
* **Whom the witness can blame.** The counts say what arrived, not who sent it. A simulator
  started without `--secret-path` serves WDA to every local process that finds its port
  (another run's agent reading /proc/net/tcp, a monitor, a person's curl), so its counts cannot
  tell the agent's requests from a neighbour's: the attempt still fails (an agent that went
  around the bridge must not turn that into a pass or a skip), but the reason says the agent
  *or any other local process* sent them, and how to run so that only the run reaches the
  phone. One under a secret path (the URL the run was given holds it) counts only what holders
  of that URL sent: there the agent is blamed. Which it is follows from the URL the run was
  given and the simulator's answer under it (`serves_secret`), which no stranger can sway.
* **No witness** (a real phone; a simulator that stopped answering, powered off, or too busy to
  answer in `WITNESS_TIMEOUT_S`): a fault the bridge's log does not explain cannot be told the
  agent's or the rig's: not scored, saying so. The run said at its start that on such a rig
  (`around_line`) a not-scored attempt may be an agent's doing, and run.json and every report
  say it.

The window's ends: the bridge counts a request before sending it, and the phone's counts are
read before the bridge's at the end, so whatever the bridge sent that the phone counted is
counted by the bridge too. At the start the bridge's are read first, and only requests it had
settled (answered, or never sent) are left out of the window: one still on its way then may be
counted by the phone after its read. Control routes are no WDA request: the reads of the counts
are counted by neither side.

Cost: two small reads per attempt (control routes, no WDA request), only for a program agent on
a standalone phoneshell simulator, and one at the run's start (`serves_secret`).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

from bridge.upstream import Upstream
from phoneshell.agents import Agent
from phoneshell.agents.command import CommandAgent
from phoneshell.errors import BridgeError, shown_url
from phoneshell.runner.rig import Rig

REQUESTS = "/phoneshell/sim/requests"
WITNESS_TIMEOUT_S = 10.0
"""How long a read of the simulator's counts may take: one that does not answer in this (a
phone stopped, or busy with a flood of requests) witnesses nothing."""
SHOWN_ROUTES = 5
"""How many of the routes that reached the phone around the bridge a message names."""
SECRET_FIX = ("start the simulator with --secret-path and give the run the URL it prints, so that "
              "only the run can reach the phone")
"""What to do so that a simulator's counts blame only the agent."""


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
    """Where the phone's counts are read (None: it keeps none: a real phone)."""
    start: tuple[Counter[str], Counter[str]] | None = None
    """Just before the turn was granted: the requests the phone had received, and those the
    bridge had sent and settled, by route."""
    around: tuple[str, ...] | None = None
    """The routes of the WDA requests that reached the phone in the turn and that the bridge
    never sent, one per request (None: not witnessed: no counts, or no answer)."""
    began: bool = False
    """The agent's turn began (`begin`)."""
    secret: bool = False
    """Whom the counts can blame, set once requests reached the phone around the bridge: True,
    the simulator serves WDA only under the URL's secret path, so only holders of the URL could
    send them; False, any local process could (`serves_secret`)."""

    @property
    def count(self) -> int:
        """How many requests reached the phone around the bridge in the turn."""
        return len(self.around or ())

    def begin(self) -> None:
        """Read what the bridge had settled, then what the phone had received, just before the
        turn (in that order: see the module's docstring)."""
        self.began = True
        if self.upstream is None:
            return
        settled = self.upstream.requests_sent(settled=True)
        received = _received(self.upstream)
        self.start = None if received is None else (received, settled)

    def end(self) -> None:
        """Hold the requests the phone received since `begin` against those the bridge sent;
        called once the grant is revoked and the bridge drained."""
        if self.upstream is None or self.start is None:
            return
        received_before, settled_before = self.start
        received = _received(self.upstream)
        if received is None:
            return  # the phone stopped answering, or is too busy to: nothing witnesses the turn
        sent = self.upstream.requests_sent() - settled_before
        unsent = (received - received_before) - sent
        self.around = tuple(sorted(unsent.elements()))
        if self.around:  # who could have sent them, said with the blame: the counts just
            # answered under the URL, so its path alone says (`serves_secret`)
            self.secret = _has_path(self.upstream)

    def fault_note(self) -> str:
        """What a skip for a rig fault the bridge's log does not explain adds, once the turn
        began: that the phone's counts show no request around the bridge (the rig's), or that
        nothing witnessed the turn, so the cause cannot be told ("" on a private rig, or before the
        turn)."""
        if not self.reaches or not self.began:
            return ""
        if self.around is not None:
            return ("; the simulator's count of the WDA requests it received shows none reached "
                    "it around the bridge in the agent's turn: the rig's")
        why = ("it is a real phone, which keeps no count of the requests it received"
               if self.upstream is None else "the simulator did not answer for its count of the "
               "requests it received around the turn")
        return (f"; this rig is not private ({self.how}: the agent could reach the phone around "
                f"the bridge) and {why}, so whether the agent or the rig caused it cannot be "
                "told")


def watch_around(rig: Rig, agent: Agent) -> AroundWatch:
    """A watch for one attempt's turn: it reads the phone's counts of requests only for an
    agent that could reach it around the bridge, on a phone that keeps them."""
    reaches = reaches_around(rig, agent)
    witness = rig.bridge.upstream if reaches and rig.counts_requests else None
    return AroundWatch(reaches, _how(rig), witness)


def around_bridge(watch: AroundWatch, fault: object = "") -> str:
    """Why the attempt fails: the WDA requests the phone's counts show reached it around the
    bridge in the agent's turn, and the fault found after (`fault`, when there was one); ""
    when they show none, or nothing witnessed the turn."""
    if watch.around is None or not watch.count:
        return ""
    shown = Counter(watch.around)
    names = ", ".join(f"{route} (x{n})" if n > 1 else route
                      for route, n in list(shown.items())[:SHOWN_ROUTES])
    more = f" and {len(shown) - SHOWN_ROUTES} more route(s)" if len(shown) > SHOWN_ROUTES else ""
    then = f"; then {fault}" if str(fault) else ""
    return (f"{watch.count} WDA request(s) reached the phone that the bridge never sent (the "
            f"simulator's count of the requests it received, in the agent's turn): "
            f"{names}{more}: {SENDERS[watch.secret]}{then}")


SENDERS: dict[bool, str] = {
    True: ("the agent acted around the bridge (the simulator serves WDA only under the secret "
           "path of the run's --device URL, so only a holder of that URL could send them)"),
    False: ("sent around the bridge by the agent or by any other local process (another run's "
            "agent, a monitor, a person's curl): the simulator serves WDA without a secret "
            f"path, to every process that finds its port, so who sent them cannot be told; "
            f"{SECRET_FIX}"),
}
"""Who sent what reached the phone around the bridge, by whether the simulator serves WDA only
under a secret path (`AroundWatch.secret`)."""


def around_line(rig: Rig, agent: Agent, label: str) -> str:
    """What a run says at its start, and run.json and reports keep, of a phone its agents can
    reach around the bridge ("" for one they cannot)."""
    if not reaches_around(rig, agent):
        return ""
    if not rig.counts_requests:
        who, witness = "", ("a fault the bridge's log does not explain cannot be told the "
                            "agent's or the rig's, and is not scored")
    else:
        who, blame = OTHERS[serves_secret(rig.bridge.upstream)]
        witness = (f"its own count of the WDA requests it received shows any the bridge never "
                   f"sent, and those fail the attempt in progress{blame}; a fault with none is "
                   "the rig's")
    return (f"{label}: this phone is not private: {_how(rig)}; agents can reach it around the "
            f"bridge{who}: {witness}, so an attempt not scored there may be an agent's doing, "
            "and the results are not tamper-proof (for results that must hold against an "
            "agent, use a private rig: a USB phone through the system's usbmuxd, or --device "
            "sim)")


OTHERS: dict[bool | None, tuple[str, str]] = {
    True: (" if they learn its URL (the simulator serves WDA only under that URL's secret "
           "path)", ""),
    False: (", and so can any other local process (the simulator serves WDA without a secret "
            "path, to every process that finds its port)",
            f", whoever sent them (another run's agent, a monitor, a person's curl): "
            f"{SECRET_FIX}"),
    None: (" (and so can other local processes, if the simulator serves WDA without a secret "
           "path: it did not answer whether it does)", f", whoever sent them: {SECRET_FIX}"),
}
"""Who else can reach the phone, and whom its counts blame, as a run says at its start, by
what the simulator says of its secret (`serves_secret`)."""


def serves_secret(upstream: Upstream) -> bool | None:
    """Whether the simulator at `upstream` serves WDA only under its URL's path, a secret only
    holders of the URL know (True), or to every local process that finds its port (False); None:
    it did not answer for its counts.

    A URL with no path is its port, which any process can find. A simulator without a secret
    serves its control routes at the root only (under any path it answers them as WDA's unknown
    command), and one with a secret only under it: so its counts answering under a URL with a
    path say that path is its secret. Decided by the run's own URL and a read under it, which
    no stranger can sway (a probe of the port outside the secret could be kept waiting by a
    stranger's flood there, and turn the answer to "did not say")."""
    if not _has_path(upstream):
        return False
    return True if _received(upstream) is not None else None


def _has_path(upstream: Upstream) -> bool:
    return bool(urlsplit(upstream.url).path.strip("/"))


def _how(rig: Rig) -> str:
    return rig.reach or f"a --device URL ({shown_url(rig.bridge.upstream.url)})"


def _received(upstream: Upstream) -> Counter[str] | None:
    """The WDA requests the simulator received so far, by route (None: no answer in
    `WITNESS_TIMEOUT_S`, or not its counts)."""
    try:
        reply = upstream.send("GET", REQUESTS, None, {}, timeout_s=WITNESS_TIMEOUT_S,
                              counted=False)
    except BridgeError:
        return None
    try:
        data = json.loads(reply.body)
    except ValueError:
        return None
    if reply.status != 200 or not isinstance(data, dict):
        return None
    return Counter({route: n for route, n in data.items()
                    if route != "total" and isinstance(n, int) and not isinstance(n, bool)})
