"""grade(task, evidence) -> Verdict: every check of the task against recorded evidence.

Pure and device-free, so any saved attempt can be graded again, or graded as another task (the
swap test). A task passes when it has at least one check and all of them pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from phoneshell.checks import CheckResult, grade_check
from phoneshell.evidence import Evidence
from phoneshell.records import Fields, dumps
from phoneshell.tasks import Task

VERDICT_VERSION = 1


@dataclass(frozen=True)
class Verdict:
    """The grade of one attempt as one task."""

    version: int
    task_id: str
    """The task graded as."""
    evidence_task_id: str
    """The task the evidence was recorded for (differs in a swap)."""
    passed: bool
    """At least one check, and every check passed."""
    results: tuple[CheckResult, ...]
    """One per check, in the task's order."""

    def to_json(self) -> str:
        """This verdict as one JSON line."""
        return dumps(self)

    def failed(self) -> tuple[CheckResult, ...]:
        """The checks that did not pass."""
        return tuple(r for r in self.results if not r.passed)

    @classmethod
    def read(cls, f: Fields) -> Verdict:
        """Read a verdict strictly."""
        verdict = cls(version=f.version("version", VERDICT_VERSION), task_id=f.text("task_id"),
                      evidence_task_id=f.text("evidence_task_id"), passed=f.flag("passed"),
                      results=f.objs("results", read_result, required=True))
        f.done()
        return verdict


def read_result(f: Fields) -> CheckResult:
    """Read one check result strictly."""
    result = CheckResult(kind=f.text("kind"), passed=f.flag("passed"), detail=f.text("detail"),
                         negate=f.flag("negate", False), label=f.text("label", ""))
    f.done()
    return result


def grade(task: Task, evidence: Evidence) -> Verdict:
    """Grade `evidence` as `task`: one result per check, passed only if all pass."""
    results = tuple(grade_check(check, evidence) for check in task.checks)
    passed = bool(results) and all(r.passed for r in results)
    return Verdict(VERDICT_VERSION, task.id, evidence.task_id, passed, results)
