"""An honest finish of clock.tab.alarms, after which a message arrives on the phone: the phone's
own doing, posted through the simulator's control route (no WDA request), as a text from someone
comes to a real phone. Run as a `command:` agent:

    python notified_finish.py SIMULATOR_URL

opens Clock, taps Alarms, has the simulator post a Messages notification (its banner comes up
over Clock), and claims `done`. Stdlib only, one file: the sandbox shows a program only the
files its command line names.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request

BRIDGE = os.environ["PHONESHELL_WDA_URL"]
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def call(url: str, method: str = "GET", body: object = None) -> dict[str, object]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read() or b"{}")  # type: ignore[no-any-return]


def main() -> None:
    reply = call(BRIDGE + "/session", "POST", {"capabilities": {}})
    value = reply.get("value")
    sid = str(value["sessionId"] if isinstance(value, dict) else reply["sessionId"])
    call(f"{BRIDGE}/session/{sid}/wda/apps/launch", "POST",
         {"bundleId": "com.apple.mobiletimer"})
    found = call(f"{BRIDGE}/session/{sid}/element", "POST",
                 {"using": "predicate string",
                  "value": "type == 'XCUIElementTypeButton' AND label == 'Alarms'"})["value"]
    assert isinstance(found, dict), found
    call(f"{BRIDGE}/session/{sid}/element/{found.get(ELEMENT) or found['ELEMENT']}/click",
         "POST", {})
    call(sys.argv[1].rstrip("/") + "/phoneshell/sim/notify", "POST",
         {"app": "com.apple.MobileSMS", "title": "Mom", "body": "Call me when you can"})
    print(json.dumps({"status": "done", "summary": "opened Alarms"}), flush=True)


if __name__ == "__main__":
    main()
