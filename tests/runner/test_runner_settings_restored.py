"""A setting an agent changed and put back is judged by the phone, not by the last screen (red
team 56): the teardown's set-back reads each changed value on the phone after the attempt, and
the owner watch takes its word for those it found as they were (`Teardown.as_was`). Airplane
Mode turned on and off before going to About, and Control Center's Wi-Fi turned off and on
before opening the Wi-Fi page, failed as "the owner's settings changed" because the last screen
did not show them; they pass now. One left changed still fails and is set back, and one the
set-back cannot read fails (fail closed). Through the CLI, with this file as the agent program
(`python test_runner_settings_restored.py MODE [SIM_URL]`, over facebook-wda)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest

SWITCH = "XCUIElementTypeSwitch"
PREFS = "com.apple.Preferences"
GLANCE = """\
id: settings.airplane.glance
name: Glance at Settings
app: com.apple.Preferences
instruction: Open Settings, then go back to the home screen.
setup:
- terminate: com.apple.Preferences
- home
checks:
- kind: foreground_app
  text: com.apple.springboard
teardown:
- terminate: com.apple.Preferences
"""
"""A task any agent that ends at home passes, so only the owner watch can fail it."""


def agent(mode: str, sim_url: str) -> None:
    """Play `mode` on the phone at $PHONESHELL_WDA_URL: `twice` (turns Airplane Mode on and off
    by its knob, then opens General > About), `left` (turns it on, then opens General >
    About), `cc` (pulls Control Center down over Settings, turns Wi-Fi off and on, closes it
    by a tap on its blank area, opens the Wi-Fi page), `unread` (turns Airplane Mode on and
    off, goes home, then makes the simulated iPhone at `sim_url` unable to read Settings'
    screens, so the set-back cannot read the switch)."""
    import os
    import urllib.request

    import wda

    client = wda.Client(os.environ["PHONESHELL_WDA_URL"])
    s = client.session(PREFS)
    if mode == "cc":
        width = s.window_size().width
        s.swipe(width - 10, 2, width - 10, 450, 0.3)
        s(name="wifi-button").get().tap()
        s(name="wifi-button").get().tap()
        s.tap(200, 800)  # Control Center's blank area closes it
        s(name="com.apple.settings.wifi").get().tap()
    else:
        row = s(label="Airplane Mode", type=SWITCH).get().bounds
        knob = (row.x + row.width - 30, row.center.y)
        for _ in range(1 if mode == "left" else 2):
            s.tap(*knob)
        if mode == "unread":
            client.home()
            urllib.request.urlopen(urllib.request.Request(
                f"{sim_url}/phoneshell/sim/faults", method="POST",
                data=json.dumps({"on": [f"unreadable={PREFS}"]}).encode(),
                headers={"Content-Type": "application/json"}))
        else:
            s(name="com.apple.settings.general").get().tap()
            s(name="About").get().tap()
    print(json.dumps({"status": "done"}))


def run_agent(tmp_path: Path, task: str, mode: str, *device: str) -> dict[str, object]:
    """Run `task` (an id in environments/, or GLANCE when "glance") with this file's agent
    doing `mode` (on `device`: `--device URL`); its one results row."""
    from tests.cli_process import ROOT, run_one

    tasks = tmp_path / "tasks"
    tasks.mkdir()
    if task == "glance":
        (tasks / "settings.airplane.glance.yaml").write_text(GLANCE)
    else:
        shutil.copy(ROOT / "environments" / f"{task}.yaml", tasks)
    program = f"{shlex.quote(sys.executable)} {shlex.quote(__file__)} {mode}"
    return run_one(tmp_path, "R", str(tasks), *device,
                   "--agent", f"command:{program} {' '.join(device[1:])}".rstrip())


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
@pytest.mark.parametrize(("task", "mode", "switched", "as_was"), [
    ("settings.about.reach", "twice", "Airplane Mode: found off as it was; nothing set back",
     ["switch", "Airplane Mode", "Settings"]),
    ("settings.wifi.switch_visible", "cc",
     "Wi-Fi (Control Center): found on as it was; nothing set back",
     ["control", "wifi-button", ""]),
])
def test_a_setting_turned_and_turned_back_out_of_sight_passes(
        tmp_path: Path, task: str, mode: str, switched: str, as_was: list[str]) -> None:
    row = run_agent(tmp_path, task, mode)
    teardown = row["teardown"]
    assert isinstance(teardown, dict) and teardown["ok"], teardown
    assert teardown["switched"] == [switched] and teardown["as_was"] == [as_was], teardown
    assert row["outcome"] == "passed" and not row["error"], row


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_setting_left_changed_still_fails_and_is_set_back(tmp_path: Path) -> None:
    row = run_agent(tmp_path, "settings.about.reach", "left")
    assert row["outcome"] == "failed", row
    assert row["error"] == "the owner's settings changed: Airplane Mode (was off)", row
    checks = row["checks"]
    assert isinstance(checks, list) and checks and all(c["passed"] for c in checks), row
    teardown = row["teardown"]
    assert isinstance(teardown, dict) and teardown["ok"], teardown
    assert teardown["switched"] == ["Airplane Mode: set back off"] and not teardown["as_was"]


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_setting_the_set_back_cannot_read_fails_closed(tmp_path: Path) -> None:
    from phoneshell.sim import SimServer

    with SimServer() as sim:
        row = run_agent(tmp_path, "glance", "unread", "--device", sim.url)
    teardown = row["teardown"]
    assert isinstance(teardown, dict), row
    assert teardown["switched"] == ["Airplane Mode: was off; could not be set back"], teardown
    assert not teardown["as_was"], teardown
    checks = row["checks"]
    assert isinstance(checks, list) and checks and all(c["passed"] for c in checks), row
    assert row["outcome"] == "failed", row
    assert row["error"] == "the owner's settings changed: Airplane Mode (was off)", row


def test_the_phones_word_decides_not_the_last_screen() -> None:
    from audit_logs import act

    from phoneshell.audit import actions
    from phoneshell.checks.effects import settings_left
    from phoneshell.records import Target

    knob = Target(type=SWITCH, label="Airplane Mode", name="Airplane Mode", value="0",
                  page="Settings")
    intent, outcome = act(1, "tap", PREFS, PREFS, target=knob)
    events = [intent.model_copy(update={"screen_before": "aa"}),
              outcome.model_copy(update={"screen_after": "bb"})]
    changed = ("Airplane Mode (was off)",)
    assert settings_left(actions(events), events, None) == changed  # out of sight: changed
    assert settings_left(actions(events), events, None,
                         as_was={("switch", "Airplane Mode", "Settings")}) == ()
    # set back, not found or not read: the phone did not say it was as it was
    assert settings_left(actions(events), events, None, as_was=()) == changed
    assert settings_left(actions(events), events, None,
                         as_was={("control", "airplane-mode-button", "")}) == changed


if __name__ == "__main__":
    agent(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
