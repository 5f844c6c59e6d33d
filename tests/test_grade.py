"""grade(task, evidence): all checks must pass, and a task without checks never passes."""

from __future__ import annotations

from dataclasses import replace

from sources import El, evidence

from phoneshell.checks import Check
from phoneshell.grade import grade, raised
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


def test_a_check_that_raises_fails_alone_negated_too_and_its_traceback_is_kept() -> None:
    """Red team 86: a kind function that raised on what an agent sent made its attempt not
    scored and `phoneshell grade` end in a traceback. It fails that check only, negated too
    (never "correctly absent"), naming the error; `raised` gives the traceback for the
    attempt's traceback.txt."""
    task = Task("t", "T", "answer", checks=(
        Check.make("answer_contains", "CARDAMOM"),
        Check.make("answer_contains", "CARDAMOM", negate=True),
        Check.make("element_exists", "Model Number")))
    # a claim that is no Claim (a caller in Python can build any evidence): the answer kinds
    # raise reading it
    odd = replace(evidence(El(label="Model Number")), claim="CARDAMOM")  # type: ignore[arg-type]
    verdict = grade(task, odd)
    assert not verdict.passed
    assert [r.passed for r in verdict.results] == [False, False, True], verdict.results
    for result in verdict.results[:2]:
        assert result.detail.startswith("could not be graded: AttributeError: "), result.detail
        assert "(at answer.py:" in result.detail
    assert verdict.results[1].negate
    trace = raised(task, odd, verdict)
    assert trace.count("Traceback (most recent call last)") == 2
    assert "grading not answer_contains 'CARDAMOM':" in trace
    plain = evidence(El(label="General"))
    assert raised(TASK, plain, grade(TASK, plain)) == "", "a check that failed is not kept"
