"""An honest command agent for settings.scroll.to_bottom that scrolls as facebook-wda users do:
`Element.scroll("down")` on the Application (WDA's scroll by direction on the app) until the
page stops changing, then finishes. On a phone WDA's drags land on Settings' list and scroll it
to its end."""

import os
import subprocess

import wda

session = wda.Client(os.environ["PHONESHELL_WDA_URL"]).session("com.apple.Preferences")
app = session(xpath="//XCUIElementTypeApplication").get(timeout=5)
last = None
for _ in range(30):
    page = session.source()
    if page == last:
        break
    last = page
    app.scroll("down")
subprocess.run(["phoneshell", "finish", "--status", "done",
                "--summary", "scrolled Settings to its end"], check=True)
