"""Through the CLI: an agent that touches About in a way the phone takes as no press (two fingers,
one tap of two fingers, no tap at all) and goes Back fails settings.back.twice; a press of one
finger, once or twice, passes (red team 48's twofinger_about: `passed`, "tapped
XCUIElementTypeCell 'About'", while the page never changed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cli_process import run_cli

AGENT = """
import json, os, sys, wda
c = wda.Client(os.environ["PHONESHELL_WDA_URL"])
s = c.session("com.apple.Preferences")
s(label="General").click()
about = s(label="About").get()
route, body = {MODE}
c.http.post(f"/session/{{s.id}}/wda/element/{{about.id}}/{{route}}", data=body)
for _ in range(2):  # back to Settings: from About (when it opened) or General
    back = s(name="BackButton")
    if back.exists:
        back.get(timeout=2).click()
print(json.dumps({{"status": "done", "summary": "General > About > back"}}))
"""
MODES = {
    "two fingers": (("twoFingerTap", {}), "failed"),
    "no tap": (("tapWithNumberOfTaps", {"numberOfTaps": 0, "numberOfTouches": 1}), "failed"),
    "one tap of two fingers": (
        ("tapWithNumberOfTaps", {"numberOfTaps": 1, "numberOfTouches": 2}), "failed"),
    "one finger twice": (
        ("tapWithNumberOfTaps", {"numberOfTaps": 2, "numberOfTouches": 1}), "passed"),
}


@pytest.mark.slow  # 11 s of whole programs: the README's command stays quick
@pytest.mark.parametrize("mode", list(MODES))
def test_settings_back_twice_needs_a_press_of_about(tmp_path: Path, mode: str) -> None:
    request, outcome = MODES[mode]
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT.format(MODE=repr(request)))
    done = run_cli("run", "environments/settings.back.twice.yaml", "--runs",
                   str(tmp_path / "runs"), "--run-id", "press",
                   "--agent", f"command:{sys.executable} {agent}",
                   env={"PYTHONWARNINGS": "default"})  # the agent's facebook-wda warns
    rows = [json.loads(line) for line in
            (tmp_path / "runs" / "press" / "results.jsonl").read_text().splitlines()]
    assert [r.get("outcome") for r in rows] == [outcome], done.stdout + done.stderr
    assert done.returncode == (0 if outcome == "passed" else 1), done.stdout + done.stderr
    if outcome == "failed":
        assert "no tap on 'About'" in done.stdout, done.stdout
