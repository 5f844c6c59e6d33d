"""One registry of check kinds; each kind is a pure function of (check, evidence).

Families: state (end state, `state.py`), answer (the agent's claim, `answer.py`). Importing this
package registers every kind. Never imports the device, runner, bridge or simulator.
"""

from phoneshell.checks import answer, state
from phoneshell.checks.kind import (
    CHECKS,
    Check,
    CheckKind,
    CheckResult,
    Finding,
    Need,
    grade_check,
    lookup,
)

__all__ = ["CHECKS", "Check", "CheckKind", "CheckResult", "Finding", "Need", "answer",
           "grade_check", "lookup", "state"]
