"""An honest agent that holds the phone sideways (`test_runner_landscape`): it turns the phone
to landscape, then does the task as a person would, and leaves the phone turned. Which task by
its argument: `note` (New Note, type, Done), `reminder` (New Reminder from the lists, type,
Add), `settings` (General > Software Update, in Settings, which stays upright but turns the
phone). Needs only facebook-wda."""

import contextlib
import json
import os
import sys
import time

import wda

what = sys.argv[1]
bundle = {"note": "com.apple.mobilenotes", "reminder": "com.apple.reminders",
          "settings": "com.apple.Preferences"}[what]
s = wda.Client(os.environ["PHONESHELL_WDA_URL"]).session(bundle)
if what == "reminder":  # Reminders reopens in the list it stopped in: back to the lists
    for _ in range(4):
        if s(type="XCUIElementTypeCell", name="Reminders").exists:
            break
        s(type="XCUIElementTypeNavigationBar").child(type="XCUIElementTypeButton").get().tap()
with contextlib.suppress(wda.WDAError):  # Settings stays upright; the phone turns anyway
    s.orientation = "LANDSCAPE"
time.sleep(0.2)
if what == "note":
    s(name="New Note", type="XCUIElementTypeButton").get().tap()
    s.send_keys("phoneshell benchmark")
    s(name="Done", type="XCUIElementTypeButton").get().tap()
elif what == "reminder":
    s(name="New Reminder", type="XCUIElementTypeButton").get().tap()
    s.send_keys("collect parcel")
    s(name="Add", type="XCUIElementTypeButton").get().tap()
else:
    s(label="General", type="XCUIElementTypeButton").get().tap()
    s(label="Software Update").get().tap()
print(json.dumps({"status": "done"}))
