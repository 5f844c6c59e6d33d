"""An agent program for `test_runner_wda_state`, over facebook-wda and plain HTTP: what it does
depends on its argument, the task ($PHONESHELL_TASK_ID) and the attempt (its folder's name).

* `poison`: in settings.fonts.reach, moves Brightness to 10%, then posts the WDA settings that
  make every element find answer an error, and gives up (red team 87); in any other task, opens
  the Wi-Fi page by finds, as a facebook-wda client does.
* `calculator`: attempt 1 opens a session for Calculator (`shouldTerminateApp` at WDA's
  default, true) and gives up; attempt 2 works out 47 x 9 by finds, then opens a session of its
  own (facebook-wda's `session()`), and claims done.
* `unread SIM_URL`: moves Brightness to 10%, goes home, then makes the simulated iPhone at
  SIM_URL unable to read Settings' screens, so the teardown cannot set it back.
"""

import json
import os
import sys
import urllib.request
from pathlib import Path

import wda

PREFS, CALCULATOR = "com.apple.Preferences", "com.apple.calculator"
POISON = {"shouldUseCompactResponses": False, "elementResponseAttributes": "attribute/bogus"}
URL = os.environ["PHONESHELL_WDA_URL"]


def post(url: str, body: object) -> None:
    urllib.request.urlopen(urllib.request.Request(
        url, method="POST", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}), timeout=20).read()


def dim(client: wda.Client) -> None:
    """Open Display & Brightness and move Brightness to 10%."""
    client.app_start(PREFS)
    client.swipe(200, 600, 200, 350, 0.2)
    client(label="Display & Brightness").click()
    slider = client(type="XCUIElementTypeSlider").get()
    post(f"{URL}/session/{client.session_id}/element/{slider.id}/value", {"value": "0.10"})


def main(mode: str, sim_url: str) -> str:
    client = wda.Client(URL)
    attempt = Path(os.environ["PHONESHELL_ATTEMPT_DIR"]).resolve().parent.name
    if mode == "poison" and os.environ["PHONESHELL_TASK_ID"] == "settings.fonts.reach":
        dim(client)
        post(f"{URL}/session/{client.session_id}/appium/settings", {"settings": POISON})
        return "gave_up"
    if mode == "poison":
        client.app_start(PREFS)
        client(label="Wi-Fi", type="XCUIElementTypeButton").click()
        return "done"
    if mode == "unread":
        dim(client)
        client.home()
        post(f"{sim_url}/phoneshell/sim/faults", {"on": [f"unreadable={PREFS}"]})
        return "gave_up"
    if attempt == "1":
        post(f"{URL}/session", {"capabilities": {"alwaysMatch": {"bundleId": CALCULATOR}}})
        return "gave_up"
    client.app_start(CALCULATOR)
    for key in ("4", "7", "multiply", "9", "equals"):
        client(name=key).click()
    client.session()  # a client that opens a session of its own, as many do
    return "done"


if __name__ == "__main__":
    status = main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")
    print(json.dumps({"status": status}))
