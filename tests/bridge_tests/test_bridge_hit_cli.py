"""A tap on a navigation bar's blank space over a row scrolled under it is the bar's: through the
CLI, an agent that never opens About fails settings.back.twice (the red team's navbar_about:
the log named the row under the bar 'About', and the task passed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

AGENT = """
import json, os, wda
s = wda.Client(os.environ["PHONESHELL_WDA_URL"]).session("com.apple.Preferences")
s(label="General").click()
s.swipe(200, 500, 200, 460, 0.2)  # About (y 93-146) slides under the bar (y 62-116)
s.click(300, 100)                  # the bar's blank space: the phone gives the touch to the bar
print("About opened:", "Model Number" in s.source(), flush=True)
s(label="Settings", className="XCUIElementTypeButton").click()
print(json.dumps({"status": "done", "summary": "went General > About > back"}))
"""


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_tap_on_the_bar_over_a_scrolled_row_does_not_open_it_in_the_log(
        tmp_path: Path) -> None:
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "phoneshell", "run", "environments/settings.back.twice.yaml",
         "--runs", str(tmp_path / "runs"), "--run-id", "navbar",
         "--agent", f"command:{sys.executable} {agent}"],
        capture_output=True, text=True, cwd=root, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    rows = [json.loads(line) for line in
            (tmp_path / "runs" / "navbar" / "results.jsonl").read_text().splitlines()]
    assert [r.get("outcome") for r in rows] == ["failed"], rows
    assert "no tap on 'About'" in done.stdout
