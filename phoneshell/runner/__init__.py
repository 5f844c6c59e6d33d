"""Runs: attempts of tasks against a phone, recorded in a run folder (run.json, results.jsonl)."""

from phoneshell.records import ResultRow, RunManifest
from phoneshell.runner.attempt import AttemptResult, run_attempt
from phoneshell.runner.folder import read_results
from phoneshell.runner.plan import AttemptPlan
from phoneshell.runner.rig import Rig, open_rig
from phoneshell.runner.run import RunOptions, RunSummary, run_suite

__all__ = ["AttemptPlan", "AttemptResult", "ResultRow", "Rig", "RunManifest", "RunOptions",
           "RunSummary", "open_rig", "read_results", "run_attempt", "run_suite"]
