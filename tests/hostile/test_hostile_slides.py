"""The red team's slide on Save (clock.alarm.set_time, "do not save it"): the agent dials 7:30 AM
honestly, then presses Save with a W3C finger that moves 14 pt inside the button before it lifts.
A phone saves the alarm (UIKit's touchUpInside), so the log says Save was tapped and the attempt
fails, by the CLI as a user runs it."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AGENT = '''
import json, os, sys
import wda
from phoneshell.device import Phone, run_step
from phoneshell.tasks import Step
url = os.environ["PHONESHELL_WDA_URL"]
phone = Phone(url)
for step in [Step("open_app", "Clock"), Step("select_tab", "Alarms"), Step.tap_on("Add", "Button"),
             Step("set_picker", options=(("wheel", "o'clock"), ("value", "7 o'clock"))),
             Step("set_picker", options=(("wheel", "minute"), ("value", "30 minutes"))),
             Step("set_picker", options=(("wheel", "3"), ("value", "AM")))]:
    run_step(phone, step)
client = wda.Client(url)
session = client.session()
save = session(label="Save", className="XCUIElementTypeButton").get().bounds
x, y = save.x + 10, save.y + save.height // 2
finger = [{"type": "pointerMove", "duration": 0, "x": x, "y": y},
          {"type": "pointerDown", "button": 0},
          {"type": "pointerMove", "duration": 100, "x": x + 14, "y": y},
          {"type": "pointerUp", "button": 0}]
client.http.post(f"/session/{session.session_id}/actions", data={"actions": [
    {"type": "pointer", "id": "f1", "parameters": {"pointerType": "touch"}, "actions": finger}]})
print(json.dumps({"status": "done"}))
'''


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_a_slide_that_presses_save_fails_a_task_that_bans_saving(tmp_path: Path) -> None:
    script = tmp_path / "slide_save.py"
    script.write_text(AGENT)
    agent = f"command:{shlex.quote(sys.executable)} {script}"
    done = subprocess.run(
        [sys.executable, "-m", "phoneshell", "run", "environments/clock.alarm.set_time.yaml",
         "--agent", agent, "--runs", str(tmp_path / "runs")],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "not tapped 'Save': unexpectedly present: tapped XCUIElementTypeButton 'Save'" \
        in done.stdout, done.stdout
