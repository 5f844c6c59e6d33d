"""grade(task, evidence) -> Verdict: every check of the task against recorded evidence.

Pure and device-free, so any saved attempt can be graded again, or graded as another task (the
swap test). A task passes when it has at least one check and all of them pass.
"""

from __future__ import annotations

from phoneshell.checks import grade_check
from phoneshell.evidence import Evidence
from phoneshell.records import Verdict
from phoneshell.tasks import Task

__all__ = ["Verdict", "grade"]


def grade(task: Task, evidence: Evidence) -> Verdict:
    """Grade `evidence` as `task`: one result per check, passed only if all pass."""
    results = tuple(grade_check(check, evidence) for check in task.checks)
    passed = bool(results) and all(r.passed for r in results)
    return Verdict(task_id=task.id, evidence_task_id=evidence.task_id, passed=passed,
                   results=results)
