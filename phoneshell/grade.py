"""grade(task, evidence) -> Verdict: every check of the task against recorded evidence.

Pure and device-free, so any saved attempt can be graded again, or graded as another task (the
swap test). A task passes when it has at least one check, all of them pass, and its evidence can
be trusted: an attempt whose phone was changed outside the bridge (a custody line in its log),
whose log held lines the bridge never wrote, or whose agent used up its share of the log (so
its turn was ended and what it did after is not in the log), fails with that reason, whatever
its checks say.
"""

from __future__ import annotations

from phoneshell.audit import custody_breaks, describe_break, share_spent
from phoneshell.checks import grade_check
from phoneshell.evidence import Evidence
from phoneshell.records import Verdict
from phoneshell.tasks import Task

__all__ = ["Verdict", "distrust", "grade"]


def distrust(evidence: Evidence) -> str:
    """Why the evidence cannot vouch for the attempt ("" when it can)."""
    breaks = custody_breaks(evidence.events)
    if breaks:
        more = f" (and {len(breaks) - 1} more)" if len(breaks) > 1 else ""
        return ("the phone was changed outside the bridge: "
                + describe_break(breaks[0]) + more)
    spent = share_spent(evidence.events)
    if spent:
        return spent
    flags = evidence.all_flags()
    if "acted_outside_bridge" in flags:
        return "the phone was changed outside the bridge"
    if "audit_forged" in flags:
        return ("the run's audit log held lines for this attempt that the bridge never wrote "
                "(they were left out)")
    return ""


def grade(task: Task, evidence: Evidence) -> Verdict:
    """Grade `evidence` as `task`: one result per check, passed only if all pass and the
    evidence can be trusted."""
    results = tuple(grade_check(check, evidence) for check in task.checks)
    passed = bool(results) and all(r.passed for r in results)
    why = distrust(evidence)
    return Verdict(task_id=task.id, evidence_task_id=evidence.task_id,
                   passed=passed and not why, results=results, overruled=why)
