"""A command agent written as the docs tell one to be: facebook-wda's `wda.Client(url).session()`,
then settings.back.twice by the back button's history menu (hold the back button on About, pick
"Settings"), and a claim through `phoneshell finish`.

Modes (argv[1]): `bare` opens a session naming no app and launches Settings itself; `named`
opens a session naming Settings (WDA starts it afresh); `short` goes back one page only (the
task fails); `dark` also sets the phone's appearance dark and back to light (a change whose value
the log does not keep); `refused` also asks for what the bridge refuses (the pasteboard),
and goes on.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys

import wda

SETTINGS = "com.apple.Preferences"


def main(mode: str) -> int:
    client = wda.Client(os.environ["PHONESHELL_WDA_URL"])
    if mode == "named":
        s = client.session(SETTINGS)
    else:
        s = client.session()
        s.appium_settings({"shouldUseCompactResponses": True})  # a harmless setting
        s.app_launch(SETTINGS)
    if mode == "dark":
        for name in ("dark", "light"):
            client.http.post("/wda/device/appearance", {"name": name})
    if mode == "refused":
        with contextlib.suppress(wda.WDAError):  # refused: nothing reached the phone
            client.http.post("/wda/setPasteboard", {"content": "aGk=", "contentType": "plaintext"})
    s(label="General", type="XCUIElementTypeButton").click()
    s(label="About").click()
    back = s(name="BackButton").get()
    if mode == "short":
        back.click()
    else:
        back.tap_hold(1.0)
        s(label="Settings", type="XCUIElementTypeButton", visible=True).click()
    return subprocess.call([sys.executable, "-m", "phoneshell", "finish", "--status", "done"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
