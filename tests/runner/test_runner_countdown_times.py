"""`countdown` on a phone whose clock runs, in attempts played as `phoneshell run` plays them
(`run_attempt`, through the bridge): the simulator's clock is moved along with real time, as a
phone's runs, and the rig takes its clock for a running one. A Start the phone is slow to
perform (the simulator's `slow` fault; XCTest waits for the app to go idle before it taps) and
a slow final read made an honest five-minute timer read as more than 3 s over and fail
(RT117-2's caveat); the log's times (the tap's intent and outcome, the capture's start and the
final source's stamp) pass it, and still fail a timer seconds off where they are close."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.reference import SolutionAgent
from phoneshell.attack import attacks
from phoneshell.device import Phone, run_steps
from phoneshell.evidence import Claim
from phoneshell.records import ResultRow
from phoneshell.runner import AttemptPlan, open_rig, run_attempt
from phoneshell.sim import SimServer
from phoneshell.tasks import Step, Task

pytestmark = pytest.mark.slow  # whole attempts on the simulator, with seconds-long taps

TASK = "clock.timer.set"


@contextmanager
def running(sim: SimServer) -> Iterator[None]:
    """The simulator's clock moved along with real time, every 20 ms, as a phone's runs."""
    stop = threading.Event()

    def tick() -> None:
        last = time.monotonic()
        while not stop.wait(0.02):
            now = time.monotonic()
            sim.advance_clock(now - last)
            last = now

    ticker = threading.Thread(target=tick, name="phone-clock", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        stop.set()
        ticker.join()


class SlowStart(SolutionAgent):
    """Plays `steps` (the last one taps Start) through its own WDA URL, Start with the phone
    `tap_s` slow to perform it, and leaves the phone `read_s` slow for the final read. With
    `iphone`, the simulator answers from Start on as slowly as a real iPhone (its `--latency
    iphone` profile): the wheels before it, which the check does not time, are dialled at once."""

    def __init__(self, sim: SimServer, steps: tuple[Step, ...], tap_s: float = 0.0,
                 read_s: float = 0.0, iphone: bool = False) -> None:
        super().__init__()
        self.sim, self.steps, self.tap_s, self.read_s = sim, steps, tap_s, read_s
        self.iphone = iphone

    def run(self, context: AgentContext) -> AgentResult:
        phone = Phone(context.wda_url, effect_timeout_s=1.0)
        run_steps(phone, self.steps[:-1])
        if self.iphone:
            self.sim.latency.profile = "iphone"
        if self.tap_s:
            self.sim.fault_on(f"slow={self.tap_s:g}")
        run_steps(phone, self.steps[-1:])
        self.sim.fault_on(f"slow={self.read_s:g}") if self.read_s else self.sim.fault_off("slow")
        return AgentResult(ran=True, turns=len(self.steps),
                           claim=Claim(status="done", summary="started the timer"))


def steps_of(task: Task, attack_id: str = "") -> tuple[Step, ...]:
    """The task's reference finish, or the `near` attack's that dials another duration."""
    if not attack_id:
        return tuple(s for s in task.solution or () if s.kind != "answer")
    return next(a for a in attacks([task], ("near",)) if a.id == attack_id).steps


def attempt(sim: SimServer, runs: Path, task: Task, agent: SlowStart) -> ResultRow:
    """One attempt on a rig whose phone's clock runs (the simulator's, moved with real time)."""
    installed = frozenset(str(b) for b in sim.state()["installed"])  # type: ignore[union-attr]
    with open_rig(sim.url, runs, effect_timeout_s=0.5, clock_runs=True) as rig, running(sim):
        try:
            row = run_attempt(AttemptPlan("R", runs / "R", task, 1, installed), rig, agent).row
        finally:
            sim.fault_off("slow")
            sim.latency.profile = "none"
    return row


def countdown_of(row: ResultRow) -> tuple[bool, str]:
    (check,) = (c for c in row.checks if c.kind == "countdown")
    return check.passed, check.detail


def test_an_honest_timer_started_by_a_slow_tap_and_read_slowly_passes(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task]) -> None:
    """Start performed 2.5 s after it was asked, and the final screen read with every request
    0.4 s slow: shown + seconds since the tap's intent came to 303.5-304.5 s, over the 3 s
    allowed. The timer started after the tap's intent and by its outcome, and was read after
    the capture began: five minutes."""
    task = suite[TASK]
    row = attempt(sim, tmp_path, task, SlowStart(sim, steps_of(task), tap_s=2.5, read_s=0.4))
    passed, detail = countdown_of(row)
    assert passed, detail
    assert row.passed, (row.error, row.checks)


@pytest.mark.parametrize(("attack_id", "holds"), [
    ("", True), ("near:5:00>4:55", False), ("near:5:00>5:05", False)])
def test_on_a_running_clock_a_timer_five_seconds_off_fails(
        sim: SimServer, tmp_path: Path, suite: dict[str, Task], attack_id: str,
        holds: bool) -> None:
    """As slow as a real iPhone from Start on (`--latency iphone`): the honest five minutes
    pass, and timers five seconds short or over fail. (4:59 and 5:02 are within what these
    times resolve: a tap's 0.5 s, an outcome line written at the read after it, the display's
    second.)"""
    task = suite[TASK]
    row = attempt(sim, tmp_path, task, SlowStart(sim, steps_of(task, attack_id), iphone=True))
    passed, detail = countdown_of(row)
    assert passed is holds, detail
