"""Claims against the device: an agent that claims done and does nothing shows 100% false
claims; rows written through the real records show claimed-failure-but-passed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from report.report_rig import LIAR_COMMAND, LIE, phoneshell

from phoneshell.evidence import Claim
from phoneshell.runner.folder import append_result, read_results


def test_a_command_agent_that_claims_done_and_does_nothing_is_100_percent_false(
        runs: dict[str, Path]) -> None:
    done = phoneshell("report", str(runs["CMD"]))
    assert done.returncode == 1
    assert done.stdout.startswith(f"{LIAR_COMMAND} @ CMD")
    assert "  passed 0/4 = 0.0% of scored" in done.stdout
    assert "    claimed success but failed: 4/4 = 100.0%" in done.stdout
    rows = read_results(runs["CMD"] / "results.jsonl")
    assert [r.claim.status if r.claim else None for r in rows] == ["done"] * 4


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_an_agent_that_claims_done_and_does_nothing_is_100_percent_false(
        runs: dict[str, Path]) -> None:
    done = phoneshell("report", str(runs["LIAR"]))
    assert done.returncode == 1
    assert "  passed 0/4 = 0.0% of scored" in done.stdout
    assert "  claims (scored attempts): 4 done, 0 gave up, 0 failed, 0 with no claim" in \
        done.stdout
    assert "    claimed success but failed: 4/4 = 100.0%" in done.stdout
    assert "    claimed failure but passed: 0/4 = 0.0%" in done.stdout
    (liar,) = json.loads(phoneshell("report", str(runs["LIAR"]), "--format",
                                    "json").stdout)["agents"]
    assert (liar["false_claims"], liar["false_claim_rate"], liar["with_claim"]) == (4, 1.0, 4)
    assert liar["missed_claims"] == 0 and liar["missed_claim_rate"] == 0.0
    # the claim is kept in full in the results, never trusted
    assert all(r.claim is not None and r.claim.summary == LIE
               for r in read_results(runs["LIAR"] / "results.jsonl"))


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_claimed_failure_but_passed_and_no_claim(runs: dict[str, Path], tmp_path: Path) -> None:
    run = tmp_path / "SOL"
    shutil.copytree(runs["SOL"], run)
    rows = read_results(run / "results.jsonl")
    (run / "results.jsonl").unlink()
    claims = [Claim(status="gave_up"), Claim(status="failed", summary="could not find it"), None]
    for i, row in enumerate(rows):
        append_result(run / "results.jsonl",
                      row.model_copy(update={"claim": claims[i]}) if i < len(claims) else row)
    # The rows were rewritten here, so the run no longer matches its seal: shown, marked.
    (agent,) = json.loads(phoneshell("report", str(run), "--format", "json",
                                     "--unverified").stdout)["agents"]
    assert (agent["passed"], agent["claimed_done"], agent["claimed_gave_up"],
            agent["claimed_failed"], agent["no_claim"], agent["with_claim"]) == (8, 5, 1, 1, 1, 7)
    assert (agent["missed_claims"], agent["missed_claim_rate"]) == (2, 2 / 7)
    assert agent["false_claims"] == 0
    text = phoneshell("report", str(run), "--unverified").stdout
    assert "    claimed failure but passed: 2/7 = 28.6%" in text
    assert "warning: UNVERIFIED SOL: results.jsonl:" in text
    assert "1 with no claim" in text
