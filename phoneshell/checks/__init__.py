"""One registry of check kinds; each kind is a pure function of (check, evidence).

Families: state (end state, `state.py`; the page Safari shows, `page_shown.py`), path (the
audit log: apps, taps and typing in `path.py`, searches and Spotlight in `searches.py`, how a
result was reached in `how.py`, a timer started at a duration in `countdown.py`), effect (probe
counts before and after, `effects.py`), answer (the agent's claim, `answer.py`, compared as
`values.py` says).
Importing this package registers every kind. Never imports the device, runner, bridge or simulator.
"""

from phoneshell.checks import (
    answer,
    countdown,
    effects,
    how,
    page_shown,
    path,
    searches,
    state,
)
from phoneshell.checks.kind import (
    CHECKS,
    UNGRADED,
    Check,
    CheckKind,
    Finding,
    Need,
    decided_unscrolled,
    grade_check,
    lookup,
    needs_of,
)
from phoneshell.records import CheckResult

__all__ = ["CHECKS", "UNGRADED", "Check", "CheckKind", "CheckResult", "Finding", "Need",
           "answer", "countdown", "decided_unscrolled", "effects", "grade_check", "how", "lookup",
           "needs_of", "page_shown", "path", "searches", "state"]
