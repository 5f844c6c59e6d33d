"""A command agent that does its Clock task and leaves a timer or the stopwatch going beside it
(red team 98's plans): in the stopwatch task a timer first (Timers > Start), in Go to the
Alarms tab the stopwatch (Stopwatch > Start)."""

import json
import os

import wda

session = wda.Client(os.environ["PHONESHELL_WDA_URL"]).session()
session.app_activate("com.apple.mobiletimer")
task = os.environ["PHONESHELL_TASK_ID"]
labels = (("Timers", "Start", "Stopwatch", "Start") if task == "clock.stopwatch.start"
          else ("Stopwatch", "Start", "Alarms"))
for label in labels:
    session(label=label, type="XCUIElementTypeButton").click()
print(json.dumps({"status": "done", "summary": "did it, and a little more"}))
