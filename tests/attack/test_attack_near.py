"""The `near` family's durations a few seconds off: made from the timer tasks' wheels, and
played on the simulated iPhone, where the countdown check fails each (red team 117)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from phoneshell.attack import attacks, play_attacks
from phoneshell.replays import Swapper
from phoneshell.runner.rig import open_rig
from phoneshell.sim import SimServer
from phoneshell.tasks import Task

OFF = ("near:5:00>4:55", "near:5:00>4:59", "near:5:00>5:02", "near:5:00>5:05")


def wheels(task: Task, attack_id: str) -> list[str]:
    made = next(a for a in attacks([task], ("near",)) if a.id == attack_id)
    return [s.option("value") for s in made.steps if s.kind == "set_picker"]


def test_near_sets_the_wheels_to_a_duration_seconds_off(suite: dict[str, Task]) -> None:
    timer = suite["clock.timer.set"]
    made = [a.id for a in attacks([timer], ("near",))]
    assert [i for i in made if i.startswith("near:5:00>")] == list(OFF)
    assert wheels(timer, "near:5:00>4:55") == ["0 hours", "4 min", "55 sec"]
    assert wheels(timer, "near:5:00>5:02") == ["0 hours", "5 min", "2 sec"]
    assert wheels(suite["clock.timer.set_hours_minutes"], "near:1:30:00>1:29:55") == [
        "1 hour", "29 min", "55 sec"]
    assert not [a for a in attacks([suite["notes.type_punctuation"]], ("near",))
                if a.id.count(":") > 1], "no duration where no wheel is seconds"


@pytest.fixture
def swapper(tmp_path: Path) -> Iterator[Swapper]:
    with SimServer() as sim, open_rig(sim.url, tmp_path, timeout_s=10,
                                      effect_timeout_s=0.5) as rig:
        yield Swapper(rig, tmp_path / "A", "A")


@pytest.mark.slow
def test_a_timer_seconds_off_fails_the_five_minute_task(swapper: Swapper,
                                                        suite: dict[str, Task]) -> None:
    """4:55 and 5:05 timers passed "a timer that runs for 5 minutes" (5 s of slack both ways,
    on a simulator whose clock stands still); the one-row 5:01 still passes, as the task's
    `compatible_attacks` says."""
    task = suite["clock.timer.set"]
    report = play_attacks([swapper], [task], ("near",), lambda line: None,
                          (*OFF, "near:0 sec>1 sec"))
    results = {r.attack: r for r in report.attacks}
    assert set(results) == {*OFF, "near:0 sec>1 sec"}
    for attack in OFF:
        result = results[attack]
        assert result.scored and not result.passed and "countdown" in result.detail, (
            attack, result.detail)
    assert results["near:0 sec>1 sec"].passed and results["near:0 sec>1 sec"].compatible
