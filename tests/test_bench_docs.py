"""The docs quote bench_run's figures from one block it writes (`scripts/bench_docs.py`), and a
stale block is caught: CI runs `bench_run.py --latency none --check-docs` (about a minute), and
these tests, which take none, prove what that check refuses and that the docs repeat none of the
block's figures elsewhere."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench_docs() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_docs", ROOT / "scripts" / "bench_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_docs"] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def _figures(bench_docs: ModuleType) -> object:
    """Figures as bench_run keeps them (the red team's run of it)."""
    return bench_docs.Figures(
        attempts=80, passed=80,
        phases=[("run start", 1.3, 0.1, 0.51), ("setup", 3.6, 0.1, 0.86),
                ("agent", 9.6, 0.1, 3.65), ("run end", 1.1, 0.0, 0.41)],
        agent_n=9.5, agent_s=3.63, harness_n=13.2, harness_s=4.33, actions=3.1,
        thinking=[(1.0, 0.61), (3.0, 0.75)], round_trips={"agent": 0.03, "all phases": 0.09},
        kinds=[("plain", 47, 1.23, 2.99, 0.71), ("probes", 16, 8.75, 5.36, 0.38)])


def test_a_block_that_differs_from_what_bench_run_prints_is_stale(bench_docs: ModuleType) -> None:
    printed = bench_docs.render(_figures(bench_docs))
    assert "| **the harness, all but the agent's own** | **13.2** | | **4.33** |" in printed
    assert bench_docs.differences(printed, printed) == []
    # the red team's stale figures: 12.7 requests, 4.11 s, 47%, a kind's 8.04 s and 40%
    old = (printed.replace("**13.2**", "**12.7**").replace("**4.33**", "**4.11**")
           .replace("time: 46%", "time: 47%").replace("| 8.75 | 5.36 | 38% |",
                                                      "| 8.04 | 5.36 | 40% |"))
    stale = bench_docs.differences(old, printed)
    assert [line.split(" in: ")[0] for line in stale] == [
        "12.7 is now 13.2", "4.11 is now 4.33", "8.04 is now 8.75", "40% is now 38%"], stale
    # a rounding's worth is no drift; a goal met that is no longer is, whatever its figures
    assert bench_docs.differences(printed.replace("**13.2**", "**13.3**"), printed) == []
    unmet = bench_docs.render(_figures(bench_docs)).replace("(13.37): **met**",
                                                             "(13.37): **not met**")
    assert bench_docs.differences(unmet, printed)


def test_counts_must_match_and_small_figures_drift_by_their_last_digit(
        bench_docs: ModuleType) -> None:
    """A red team's edits passed the 0.05 floor: 80 attempts (79 passed) for 80 (80), and round
    trips 0.08 / 0.14 for 0.03 / 0.09. A count moves not at all; a figure with decimals by 2%
    of it or one unit of its last digit."""
    printed = bench_docs.render(_figures(bench_docs))
    edited = (printed.replace("80 attempts", "81 attempts").replace("(80 passed)", "(79 passed)")
              .replace("0.03 in", "0.08 in").replace("0.09 over", "0.14 over")
              .replace("| 47 |", "| 46 |"))
    stale = [line.split(" in: ")[0] for line in bench_docs.differences(edited, printed)]
    assert stale == ["81 is now 80", "79 is now 80", "0.08 is now 0.03", "0.14 is now 0.09",
                     "46 is now 47"], stale
    assert bench_docs.differences(printed.replace("0.03 in", "0.04 in"), printed) == []
    # the kinds are from setup to teardown: the block says what they leave out
    assert "the run's own start and end, 0.92 s an attempt above" in printed


def test_the_block_sets_what_the_share_leaves_against_what_grading_alone_takes(
        bench_docs: ModuleType) -> None:
    """A 75% share leaves the harness a third of the agent's time; the setup and the check are
    what grading an attempt takes at all, so the block sets one against the other."""
    figures = _figures(bench_docs)
    printed = bench_docs.render(figures)
    assert ("- what a 75% share leaves the whole harness: 1.21 s an attempt; the setup and the "
            "check alone take 0.86, which leave the agent 80.8% with every count, teardown and "
            "the run's own start and end free\n") in printed  # no check row: the setup alone
    figures.phases.append(("check", 2.3, 0.0, 0.45))
    more = bench_docs.render(figures)
    assert "the check alone take 1.31, which leave the agent 73.5% with" in more
    figures.phases[-1] = ("check", 2.3, 0.0, 0.35)
    assert [line.split(" in: ")[0] for line in bench_docs.differences(
        bench_docs.render(figures), more)] == ["0.35 is now 0.45", "1.21 is now 1.31",
                                               "75.0% is now 73.5%"]


def test_the_docs_hold_the_block_and_repeat_none_of_its_figures(bench_docs: ModuleType) -> None:
    block = bench_docs.committed()
    assert "the harness, all but the agent's own" in block and block.endswith(bench_docs.END)
    # its seconds (two decimals, a second or more: a phase's, a kind's, the totals) and the
    # harness's requests, the figures prose once copied
    harness = re.search(r"\*\*(\d+\.\d)\*\*", block)
    assert harness is not None
    figures = {n for n in re.findall(r"\d+\.\d\d", block) if float(n) >= 1 and n != "13.37"}
    figures.add(harness.group(1))
    for doc in (ROOT / "docs").glob("*.md"):
        text = doc.read_text().replace(block, "")
        for line in text.splitlines():
            if "bench_run" in line or "modelled" in line:  # prose about the bench's figures
                repeated = figures & set(re.findall(r"\d+\.\d+", line))
                assert not repeated, f"{doc.name} repeats the bench block's {repeated}: {line}"
