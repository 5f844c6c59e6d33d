"""The report files `phoneshell report` can write, one registry: `--html FILE`, `--junit FILE`.

Each writer takes the built report and the runs it came from, and writes one file. Built in,
listed here: html (html_page.py) and junit (junit.py); docs/reports.md documents each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from phoneshell.registry import Registry
from phoneshell.report.html_page import write_html
from phoneshell.report.junit import write_junit
from phoneshell.report.runs import RunRecord
from phoneshell.report.tally import Report

Writer = Callable[[Report, Sequence[RunRecord], Path], None]
WRITERS: Registry[Writer] = Registry("report writer", "phoneshell report --help")
WRITERS.register("html")(write_html)
WRITERS.register("junit")(write_junit)
