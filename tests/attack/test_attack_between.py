"""Each replay of the attack finds the phone as the replays before it found it: what one finish
left running (a timer, the stopwatch) is deleted after its job, so a later finish on the same
phone is scored, and a finish that never went near Clock costs no count."""

from __future__ import annotations

from pathlib import Path

import pytest

from phoneshell.attack import not_scored, play_attacks
from phoneshell.audit import read_audit
from phoneshell.records import AttackReport
from phoneshell.replays import open_swappers
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

CLOCK = "com.apple.mobiletimer"
LEAVER = "leaver:clock.tab.timers"
"""For clock.timer.set: an attempt of clock.tab.timers whose agent started the 5-minute timer,
then that task's teardown (it only stops Clock), then clock.timer.set's finish (its teardown
deletes only the timers its own counts saw grow): the timer outlasts the job, by design."""


def attack(tasks: list[Task], only: tuple[str, ...], runs: Path,
           lines: list[str]) -> AttackReport:
    """The finishes `only` of `tasks`, on one simulated phone, in the order they are made (every
    other family's before `swap`'s)."""
    with SimServer() as sim, open_swappers(sim.url, runs, progress=lines.append,
                                           kind="attack", tasks=tasks) as swappers:
        return play_attacks(swappers, tasks, ("leaver", "echo", "swap"), lines.append, only)


@pytest.mark.slow  # attacks played on a phone: 5-7 s on a busy 2-core machine
def test_a_timer_one_finish_left_running_does_not_spoil_the_next(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    tasks = [suite["clock.timer.set"], suite["clock.tab.timers"], suite["clock.tab.alarms"]]
    lines: list[str] = []
    report = attack(tasks, (LEAVER, "swap:clock.timer.set"), tmp_path, lines)
    # before: the swap that came next found the timer, and clock.timer.set's own start state
    # (none running) refused it: every task it was graded as, not scored
    assert not not_scored(report), [(r.task, r.attack, r.skip_reason) for r in report.attacks]
    assert [(r.task, r.attack, r.passed, r.compatible) for r in report.attacks] == [
        ("clock.timer.set", LEAVER, False, False),
        ("clock.tab.timers", "swap:clock.timer.set", True, True),
    ], [r.detail for r in report.attacks]
    # the wheels it dialled too: a running timer hid them from the finish's count after it
    # (`HIDDEN_BY`), and the swap's clock.timer.set would have found them at 5:00 (its start)
    assert any(line.endswith(f"after {LEAVER}: deleted clock_timers 1 this run's agents left; "
                             "deleted timer_dialled('0:05:00') 1 this run's agents left")
               for line in lines), lines
    assert CLOCK in counted_between_jobs(tmp_path)


def counted_between_jobs(runs: Path) -> list[str]:
    """The apps the harness launched to count or delete, under the attack itself, between its
    first attempt and its last (the tidy-up before the first and when it ends are left out)."""
    events = [e for e in read_audit(next(runs.glob("attack-*")) / "audit.jsonl").records
              if e.stage == "intent"]
    attempts = [n for n, e in enumerate(events) if e.task_id]
    return [str(e.params.get("bundle_id")) for e in events[attempts[0]:attempts[-1]]
            if not e.task_id and e.kind == "launch"]


@pytest.mark.slow  # attacks played on a phone: 5-7 s on a busy 2-core machine
def test_a_finish_that_never_went_near_clock_costs_no_count(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    finishes = ("echo:note:5:00", "echo:spotlight:5:00")
    report = attack([suite["clock.timer.set"]], finishes, tmp_path, [])
    assert [(r.attack, r.scored) for r in report.attacks] == [(f, True) for f in finishes]
    assert counted_between_jobs(tmp_path) == []


@pytest.mark.slow  # attacks played on a phone: 5-7 s on a busy 2-core machine
def test_a_finish_the_harness_fails_before_it_runs_is_scored_as_failing(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    """An attempt of clock.tab.alarms whose agent dialled clock.timer.set_minutes's 5 minutes
    leaves the wheels there (Clock keeps them): the timer task's next attempt is failed before
    its finish as that earlier agent's doing, as a run records it, not a hole left unscored."""
    tasks = [suite["clock.timer.set_minutes"], suite["clock.tab.alarms"]]
    report = attack(tasks, ("leaver:clock.tab.alarms",), tmp_path, [])
    assert not not_scored(report), [(r.task, r.attack, r.skip_reason) for r in report.attacks]
    (only,) = report.attacks
    assert (only.scored, only.passed) == (True, False)
    assert only.detail.startswith("failed by the run, with no evidence: "), only.detail
