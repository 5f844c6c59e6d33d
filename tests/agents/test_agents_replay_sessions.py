"""`replay:` over a real run of a facebook-wda command agent (wda_session_agent.py): the client's
own `POST /session` (naming no app, or naming one) is replayed as a session, so a finish that
passed passes replayed and one that failed fails; a run whose log cannot be replayed as it was
is not scored, and nothing of it is sent (red team 120, RT120-5)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from phoneshell.audit import read_audit
from phoneshell.records import ResultRow
from phoneshell.runner import RunOptions, run_suite

ROOT = Path(__file__).resolve().parents[2]
AGENT = Path(__file__).with_name("wda_session_agent.py")
TASK = "settings.back.twice"


def played(runs: Path, run_id: str, agent: str) -> ResultRow:
    options = RunOptions((str(ROOT / "environments"),), agent=agent, device="sim",
                         task_globs=(TASK,), runs_dir=runs, run_id=run_id)
    (row,) = run_suite(options, lambda line: None).rows
    return row


def agent_kinds(run_dir: Path) -> list[tuple[str, object]]:
    """The agent's logged actions: kind, and the route or app it names."""
    return [(e.kind, e.params.get("route") or e.params.get("bundle_id"))
            for e in read_audit(run_dir / "audit.jsonl").records
            if e.phase == "agent" and e.stage == "intent"]


@pytest.mark.slow  # two whole runs, one a command agent's
@pytest.mark.parametrize(("mode", "outcome"), [("bare", "passed"), ("named", "passed"),
                                               ("short", "failed")])
def test_a_facebook_wda_agents_run_replays_to_its_own_outcome(tmp_path: Path, mode: str,
                                                               outcome: str) -> None:
    first = played(tmp_path, "PLAY", f"command:{sys.executable} {AGENT} {mode}")
    assert first.outcome == outcome, (first.error, [c.detail for c in first.checks])
    again = played(tmp_path, "REPLAY", f"replay:{tmp_path / 'PLAY'}")
    assert again.outcome == outcome, (again.error, [c.detail for c in again.checks])
    original = agent_kinds(tmp_path / "PLAY")
    assert original[0] in (("other", "/session"), ("launch", "com.apple.Preferences"))
    # its settings touched nothing on the phone: replayed as nothing, every other action sent
    acted = [a for a in original if a != ("other", "/appium/settings")]
    assert len(acted) == len(original) - (mode != "named")
    assert agent_kinds(tmp_path / "REPLAY") == acted


@pytest.mark.slow  # two whole runs, one a command agent's
@pytest.mark.parametrize(("mode", "why"), [
    ("dark", "changed the phone's appearance to a value the log does not keep"),
    ("refused", "no replay repeats (#"),  # a ban may read it; no request is kept to resend
])
def test_a_run_the_log_cannot_replay_is_not_scored_and_nothing_is_sent(tmp_path: Path, mode: str,
                                                                        why: str) -> None:
    first = played(tmp_path, "PLAY", f"command:{sys.executable} {AGENT} {mode}")
    assert first.outcome == "passed", (first.error, [c.detail for c in first.checks])
    again = played(tmp_path, "REPLAY", f"replay:{tmp_path / 'PLAY'}")
    assert again.outcome == "skipped"
    assert "cannot replay" in again.skip_reason and why in again.skip_reason
    assert agent_kinds(tmp_path / "REPLAY") == []
