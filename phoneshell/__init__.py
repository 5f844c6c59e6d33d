"""phoneshell: grade phone agents on an iPhone, with the phone, not the model, as the witness.

The public API is what `__all__` lists; everything else may change between versions. Each name
is imported from its module when first used (`lazy_names`): a command that needs none of them
does not pay for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.lazy_names import lazy

if TYPE_CHECKING:
    from phoneshell.checks import CHECKS, Check, CheckResult
    from phoneshell.errors import PhoneshellError, Problem, TaskFileError
    from phoneshell.evidence import Claim, Evidence, load_evidence, save_evidence
    from phoneshell.grade import Verdict, grade
    from phoneshell.implication import Pair, implied_pairs
    from phoneshell.tasks import STEPS, Step, Task, TaskSet, check_tasks, load_task, load_tasks
    from phoneshell.tree import PageSource

__version__ = "0.1.0"

__all__ = [
    "CHECKS", "STEPS", "Check", "CheckResult", "Claim", "Evidence", "PageSource", "Pair",
    "PhoneshellError", "Problem", "Step", "Task", "TaskFileError", "TaskSet", "Verdict",
    "__version__", "check_tasks", "grade", "implied_pairs", "load_evidence", "load_task",
    "load_tasks", "save_evidence",
]

lazy(__name__, {
    "phoneshell.checks": ("CHECKS", "Check", "CheckResult"),
    "phoneshell.errors": ("PhoneshellError", "Problem", "TaskFileError"),
    "phoneshell.evidence": ("Claim", "Evidence", "load_evidence", "save_evidence"),
    "phoneshell.grade": ("Verdict", "grade"),
    "phoneshell.implication": ("Pair", "implied_pairs"),
    "phoneshell.tasks": ("STEPS", "Step", "Task", "TaskSet", "check_tasks", "load_task",
                         "load_tasks"),
    "phoneshell.tree": ("PageSource",),
})
