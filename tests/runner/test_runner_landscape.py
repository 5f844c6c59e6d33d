"""An honest agent that leaves the phone in landscape (Notes and Reminders turn on an iPhone):
its end state is captured as it left it, and then the phone is turned back before anything else
the harness reads or does (the counts after capture, the owner watch, the teardown's deletes),
so its new note is counted, deleted, and never taken for a change to the owner's notes; and
turning the phone is no change of a setting (`settings_unchanged`). Through the CLI, with the
agent as a program over facebook-wda."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest

from tests.cli_process import run_one

AGENT = Path(__file__).with_name("held_sideways.py")


def run_held(tmp_path: Path, task: str, what: str) -> dict[str, object]:
    """Run `task` with the sideways agent doing `what`; its one results row."""
    return run_one(tmp_path, "sideways", "environments", "--task", task, "--agent",
                   f"command:{shlex.quote(sys.executable)} {shlex.quote(str(AGENT))} {what}")


@pytest.mark.slow  # 7 s of whole programs: the README's command stays quick
@pytest.mark.parametrize(("task", "what"), [("notes.create_titled", "note"),
                                            ("reminders.create", "reminder")])
def test_an_item_made_in_landscape_is_counted_and_deleted(tmp_path: Path, task: str,
                                                          what: str) -> None:
    row = run_held(tmp_path, task, what)
    assert row["outcome"] == "passed", row
    teardown = row["teardown"]
    assert isinstance(teardown, dict)
    assert teardown["ok"], teardown["error"]  # delete_created found what it made
    assert teardown["switched"] == ["orientation: set back to PORTRAIT"]
    assert "owner" not in json.dumps(row["error"])


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_the_counts_after_capture_read_the_phone_upright(tmp_path: Path) -> None:
    run_held(tmp_path, "notes.create_titled", "note")
    lines = [json.loads(line) for line in
             (tmp_path / "sideways" / "audit.jsonl").read_text().splitlines()]
    # (a turn may be sent twice: once more on a new session when the agent's one is gone)
    turns = [(e["seq"], e["phase"]) for e in lines if e["stage"] == "outcome"
             and e["params"].get("route") == "/orientation" and e["ok"]]
    assert [phase for _, phase in turns] == ["agent", "teardown"]
    back = turns[-1][0]
    # the turn back comes before the first count after the agent (its probe phase)
    agent_done = max(e["seq"] for e in lines if e["phase"] == "agent")
    probes = [e["seq"] for e in lines if e["phase"] == "probe" and e["seq"] > agent_done]
    assert probes and back < min(probes)


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_turning_the_phone_changes_no_setting(tmp_path: Path) -> None:
    row = run_held(tmp_path, "settings.software_update.reach", "settings")
    assert row["outcome"] == "passed", row
    assert row["teardown"]["switched"] == ["orientation: set back to PORTRAIT"]  # type: ignore[index]
