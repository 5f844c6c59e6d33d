"""Runs: attempts of tasks against a phone, recorded in a run folder (run.json, results.jsonl).

Each name is imported from its module when first used (`phoneshell.lazy_names`): importing one
module of the runner (`runner.stop`, which every command reads) does not import them all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phoneshell.lazy_names import lazy

if TYPE_CHECKING:
    from phoneshell.records import ResultRow, RunManifest
    from phoneshell.runner.attempt import AttemptResult, run_attempt
    from phoneshell.runner.folder import read_results
    from phoneshell.runner.plan import AttemptPlan
    from phoneshell.runner.rig import Rig, open_rig
    from phoneshell.runner.run import RunOptions, RunSummary, run_suite

__all__ = ["AttemptPlan", "AttemptResult", "ResultRow", "Rig", "RunManifest", "RunOptions",
           "RunSummary", "open_rig", "read_results", "run_attempt", "run_suite"]

lazy(__name__, {
    "phoneshell.records": ("ResultRow", "RunManifest"),
    "phoneshell.runner.attempt": ("AttemptResult", "run_attempt"),
    "phoneshell.runner.folder": ("read_results",),
    "phoneshell.runner.plan": ("AttemptPlan",),
    "phoneshell.runner.rig": ("Rig", "open_rig"),
    "phoneshell.runner.run": ("RunOptions", "RunSummary", "run_suite"),
})
