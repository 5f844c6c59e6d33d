"""grade(task, evidence): all checks must pass, and a task without checks never passes."""

from __future__ import annotations

from sources import El, evidence

from phoneshell.checks import Check
from phoneshell.grade import grade
from phoneshell.tasks import Task

TASK = Task("settings.about.reach", "About", "open About",
            checks=(Check.make("foreground_app", "com.apple.Preferences"),
                    Check.make("element_exists", "Model Number")))


def test_all_checks_pass() -> None:
    verdict = grade(TASK, evidence(El(label="Model Number, MQ163LL/A")))
    assert verdict.passed and [r.passed for r in verdict.results] == [True, True]
    assert (verdict.task_id, verdict.evidence_task_id) == ("settings.about.reach", "t")


def test_one_failing_check_fails_the_task_and_is_named() -> None:
    verdict = grade(TASK, evidence(El(label="General")))
    assert not verdict.passed
    assert [r.label for r in verdict.failed()] == ["element_exists 'Model Number'"]


def test_a_task_with_no_checks_never_passes() -> None:
    assert not grade(Task("empty", "E", "nothing"), evidence()).passed


def test_grading_as_another_task_keeps_both_ids() -> None:
    ev = evidence(El(label="Model Number"), task_id="settings.about.serial")
    verdict = grade(TASK, ev)
    assert (verdict.task_id, verdict.evidence_task_id) == ("settings.about.reach",
                                                           "settings.about.serial")
