"""`phoneshell grade` of any evidence folder of a run says what the run recorded for that very
try, never a bare PASSED or FAILED that contradicts it: a skipped try a `--resume` moved aside
(`<n>.skipped-<k>/`) is SKIPPED, with its reason and the try that superseded it; a folder the
run recorded no row for (set aside in `incomplete/`) is NOT RECORDED.

The skipped try with evidence is made as a phone makes one: the capture reads only cut-off page
sources (the simulated iPhone's `truncated-source`, switched on as the agent's turn ends), so
the end state cannot be graded; the resume runs the attempt again on a healthy phone. The run's
grader is pinned to the one that began it: in a checkout others edit meanwhile, the resume would
(rightly) be refused as another grader (`runner.folder.check_grader`, tested on its own).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cli_process import ROOT, run_cli

from phoneshell.agents import AGENTS, Agent, AgentContext, AgentResult, make_agent
from phoneshell.runner import RunOptions, folder, run_suite
from phoneshell.sim import SimServer

TASK = "settings.about.reach"
SIMS: list[SimServer] = []
"""The phone the agent's turn cuts off, while it holds one (empty: a healthy phone)."""


class _CutsOffCapture:
    """Plays the solution, then makes the phone send only cut-off page sources."""

    name = "cuts-off"

    def run(self, context: AgentContext) -> AgentResult:
        """The solution's turn, and the fault after it."""
        result = make_agent("solution").run(context)
        for sim in SIMS:
            sim.set_faults(["truncated-source"])
        return result


def _cuts_off(arg: str) -> Agent:
    return _CutsOffCapture()


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Run R: its one attempt skipped with evidence (cut-off capture), then resumed and passed;
    a folder of an attempt with no row, set aside by the resume."""
    if "cuts-off" not in AGENTS:
        AGENTS.register("cuts-off")(_cuts_off)
    base = tmp_path_factory.mktemp("grade-record")
    tasks = base / "tasks"
    tasks.mkdir()
    shutil.copy(ROOT / "environments" / f"{TASK}.yaml", tasks)
    runs = base / "runs"
    with SimServer() as sim, pytest.MonkeyPatch.context() as patch:
        grader = folder.this_grader()
        patch.setattr(folder, "this_grader", lambda: grader)
        def healed(line: str) -> None:  # the try is recorded: a healthy phone again
            if line.startswith("["):
                sim.set_faults([])

        options = RunOptions((str(tasks),), agent="cuts-off", device=sim.url, runs_dir=runs,
                             run_id="R")
        SIMS.append(sim)
        try:
            first = run_suite(options, healed)
        finally:
            SIMS.clear()
            sim.set_faults([])
        assert [r.outcome for r in first.rows] == ["skipped"], first.rows
        assert "cut-off page sources at capture" in first.rows[0].skip_reason
        attempts = runs / "R" / "attempts" / TASK
        assert (attempts / "1" / "evidence").is_dir(), "a skipped try with evidence"
        # a crash's leftover: an attempt folder with no row, which the resume sets aside
        shutil.copytree(attempts / "1", attempts / "7")
        again = run_suite(RunOptions((str(tasks),), agent="cuts-off", device=sim.url,
                                     runs_dir=runs, run_id="R", resume=True), lambda line: None)
    assert [r.outcome for r in again.rows] == ["passed"], again.rows
    assert (attempts / "1.skipped-1" / "evidence").is_dir()
    return runs / "R"


def _grade(evidence: Path, *extra: str) -> tuple[int, str, str]:
    done = run_cli("grade", str(evidence), "--task", str(ROOT / "environments" / f"{TASK}.yaml"),
                   *extra)
    return done.returncode, done.stdout, done.stderr


@pytest.mark.slow  # two runs on the simulated iPhone and four programs: CI runs it
def test_a_superseded_skipped_try_is_graded_skipped_and_superseded(run_dir: Path) -> None:
    aside = run_dir / "attempts" / TASK / "1.skipped-1" / "evidence"
    code, out, err = _grade(aside)
    first = out.splitlines()[0]
    assert code == 1, out + err
    assert first.startswith(f"{TASK}: SKIPPED: the run did not score it: the phone sent only "
                            "cut-off page sources at capture"), out
    assert f"superseded: try 1 of {TASK} #1, moved aside when a --resume ran the attempt " \
        f"again; the run counts its last try (passed, attempts/{TASK}/1/)" in first, first
    assert "note: the run's record of this try: superseded" in err
    code, out, _ = _grade(aside, "--format", "json")
    verdict = json.loads(out)
    assert code == 1 and not verdict["passed"] and "superseded" in verdict["run_overruled"]
    code, out, err = _grade(run_dir / "attempts" / TASK / "1" / "evidence")
    assert code == 0 and out.startswith(f"{TASK}: PASSED\n"), out + err
    assert "record of this try" not in err


@pytest.mark.slow  # as above (the module's runs are made once)
def test_evidence_the_run_recorded_no_row_for_is_not_recorded(run_dir: Path) -> None:
    (kept,) = (run_dir / "incomplete").glob(f"{TASK}-7-*")
    code, out, err = _grade(kept / "evidence")
    first = out.splitlines()[0]
    assert code == 1, out + err
    assert first == (f"{TASK}: NOT RECORDED: the run recorded no row for this evidence: a "
                     "resume of run R set it aside in incomplete/ (written after the run's last "
                     "seal, which does not vouch for it), never graded"), out
    assert "  its evidence alone grades it " in out and "the run never scored it" in out
