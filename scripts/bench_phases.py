"""What bench_run measures by: which phase of an attempt (or of the run's own start and end)
each request and each moment falls in, counted where the phone receives them and where the
bridge does. Imported by bench_run.py, beside it; never touches anything the runner keeps."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

from bridge import BridgeServer
from bridge.access import Admitted
from bridge.upstream import Reply
from phoneshell.runner import Rig
from phoneshell.sim import SimServer
from phoneshell.sim.latency import route_of

PHASES = ("run start", "setup", "probe", "agent", "check", "rig check", "teardown", "run end")
"""`run start` and `run end`: once a run, before its first attempt (the input check, the counts
of what the tasks start from none of, Safari's tabs) and after its last (closing the tabs it
opened, as it also does every 100 attempts: `runner.tidy`), spread over the run's attempts."""


@dataclass
class Phases:
    """Which phase the attempt is in, as the runner tells the rig, and the wall time of each:
    the clock runs from `begin` to `end`, every moment of it in one phase, so the phases' wall
    times add up to the run's."""

    label: str = "setup"
    since: float = field(default_factory=time.perf_counter)
    wall_s: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    checked: bool = False
    outside: str = ""
    """Before the first attempt or after the last: every request is the run's own (`run start`,
    `run end`)."""
    bridge: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    """Requests the bridge received (from the harness or the agent) by phase and route."""
    sim: SimServer | None = None

    def enter(self, phase: str) -> None:
        """Move to `phase`; a second `check` in one attempt is the rig check after a failure."""
        label = self.outside or ("rig check" if phase == "check" and self.checked else phase)
        self.checked = self.checked or phase == "check"
        now = time.perf_counter()
        self.wall_s[self.label] += now - self.since
        self.label, self.since = label, now
        if self.sim is not None:
            self.sim.latency.tally.phase = label

    def begin(self) -> None:
        """Start the clock at the run's start (`run start`); what came before (the simulator
        starting) belongs to no phase."""
        self.wall_s.clear()
        self.since = time.perf_counter()
        self.run_own("run start")

    def run_own(self, label: str) -> None:
        """What follows is the run's own (`run start`, `run end`), whatever phase the runner
        names, until the next attempt: its requests and its wall time."""
        self.outside = label
        self.enter(label)

    def new_attempt(self) -> None:
        """The runner's rig check before setup belongs to the setup of the next attempt."""
        self.outside, self.checked = "", False
        self.enter("setup")

    def end(self) -> float:
        """Stop the clock; the run's wall time, the sum of the phases'."""
        self.enter(self.label)
        return sum(self.wall_s.values())


class CountingBridge(BridgeServer):
    """The bridge, counting each request it receives under the current phase."""

    phases: Phases

    def handle(self, method: str, admitted: Admitted, body: bytes, headers: dict[str, str],
               control_token: str | None = None) -> Reply:
        url = urlsplit(admitted.path)
        if not url.path.startswith("/phoneshell/"):
            route, _ = route_of(method, url.path, dict(parse_qsl(url.query)))
            self.phases.bridge[self.phases.label][route] += 1
        return super().handle(method, admitted, body, headers, control_token)


@dataclass(frozen=True)
class PhasedRig(Rig):
    """The runner's rig, telling the counters which phase the attempt is in."""

    phases: Phases = field(default_factory=Phases)

    def enter(self, run_id: str, task_id: str, attempt: int, phase: str) -> None:
        super().enter(run_id, task_id, attempt, phase)
        self.phases.enter(phase)
