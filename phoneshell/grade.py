"""grade(task, evidence) -> Verdict: every check of the task against recorded evidence.

Pure and device-free, so any saved attempt can be graded again, or graded as another task (the
swap test). A task passes when it has at least one check, all of them pass, and its evidence can
be trusted: an attempt whose phone was changed outside the bridge (a custody line in its log),
whose log held lines the bridge never wrote, or whose agent used up its share of the log (so
its turn was ended and what it did after is not in the log), fails with that reason, whatever
its checks say; so does one whose agent broke the rig by its own logged actions (it locked the
phone, ended WDA's session: `audit.agent_broke_rig`).

Every rule that fails an attempt is either here, read from the evidence, or one only the run
could know (out of time or turns, the owner's collections harmed, a spoiled phone, an end state
that could not be read), kept in the verdict's `run_overruled`, which `phoneshell grade` reads
back (`apply_run`), so an attempt graded again offline reaches the run's verdict.
"""

from __future__ import annotations

import traceback

from phoneshell.audit import agent_broke_rig, custody_breaks, describe_break, share_spent
from phoneshell.checks import UNGRADED, grade_check, lookup
from phoneshell.evidence import Evidence
from phoneshell.records import Verdict
from phoneshell.tasks import Task

__all__ = ["Verdict", "apply_run", "distrust", "grade", "raised"]


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
    # its doing, whatever the screen it left shows: a lock screen is the cover sheet
    # Notification Centre is
    why = "; ".join(r for r in (distrust(evidence), agent_broke_rig(evidence.events)) if r)
    return Verdict(task_id=task.id, evidence_task_id=evidence.task_id,
                   passed=passed and not why, results=results, overruled=why)


def raised(task: Task, evidence: Evidence, verdict: Verdict) -> str:
    """The tracebacks of the checks `verdict` (`grade` of `evidence` as `task`) says could not
    be graded, for the attempt's traceback.txt ("" when none): each is graded again unguarded,
    and raises again, as grading is pure."""
    kept: list[str] = []
    for check, result in zip(task.checks, verdict.results, strict=True):
        if result.detail.startswith(UNGRADED):
            try:
                lookup(check.kind).find(check, evidence)
            except Exception:  # noqa: BLE001 - kept as text: the check has failed already
                kept.append(f"grading {check.label()}:\n{traceback.format_exc()}")
    return "".join(kept)


def apply_run(verdict: Verdict, why: str) -> Verdict:
    """`verdict` failed for `why`, a reason only the run knew ("": unchanged), kept apart in
    `run_overruled` and said after any reason of the grade's own in `overruled`."""
    if not why:
        return verdict
    return verdict.model_copy(update={
        "passed": False, "run_overruled": "; ".join(r for r in (verdict.run_overruled, why) if r),
        "overruled": "; ".join(r for r in (verdict.overruled, why) if r)})
