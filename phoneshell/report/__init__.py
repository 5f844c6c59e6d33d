"""Reports people read, from run folders: the terminal summary, `--format json`, one
self-contained HTML file, JUnit XML, and swap results exported and scored AgentHorizon's way.

Reports read files only (run.json, results.jsonl, audit.jsonl, evidence folders, task files);
they never touch a device. docs/reports.md describes every output and how each number is made.
"""

from phoneshell.report.runs import Attempt, ReportError, RunRecord, TaskFile, load_run
from phoneshell.report.stats import min_differing, sign_test, wilson
from phoneshell.report.tally import Report, build_report

__all__ = ["Attempt", "Report", "ReportError", "RunRecord", "TaskFile", "build_report",
           "load_run", "min_differing", "sign_test", "wilson"]
