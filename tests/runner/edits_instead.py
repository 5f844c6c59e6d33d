"""A hostile finish of "make a note": edit one that is there instead, so a count of notes by
title or text grows with no note made. Run as a `command:` agent:

    python edits_instead.py VICTIM TEXT [--new OTHER]

opens Notes, opens the note titled VICTIM, erases it and types TEXT; with `--new`, first makes
a note of its own holding OTHER, so the notes as a whole grow by one too. Stdlib only, one file:
the sandbox shows a program only the files its command line names. It claims `done` whatever
happened: the grade, not the claim, must say no.
"""

from __future__ import annotations

import json
import os
import re
import sys
import urllib.request

BRIDGE = os.environ["PHONESHELL_WDA_URL"]
NOTES = "com.apple.mobilenotes"
ELEMENT = "element-6066-11e4-a52e-4a4b1d5f1a6b"


def call(method: str, path: str, body: object = None) -> dict[str, object]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BRIDGE + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read() or b"{}")  # type: ignore[no-any-return]


def session() -> str:
    reply = call("POST", "/session", {"capabilities": {}})
    value = reply.get("value")
    return str(value["sessionId"] if isinstance(value, dict) else reply["sessionId"])


SID = session()


def tap(using: str, value: str) -> None:
    found = call("POST", f"/session/{SID}/element", {"using": using, "value": value})["value"]
    assert isinstance(found, dict), found
    call("POST", f"/session/{SID}/element/{found.get(ELEMENT) or found['ELEMENT']}/click")


def type_keys(text: str) -> None:
    call("POST", f"/session/{SID}/wda/keys", {"value": [text]})


def note_titled(title: str) -> None:
    """Tap the row of the note titled `title` in Notes' list."""
    source = str(call("GET", "/source")["value"])
    assert re.search(f'type="XCUIElementTypeCell"[^>]*label="{re.escape(title)}"', source), title
    tap("predicate string", f"type == 'XCUIElementTypeCell' AND label == '{title}'")


def main() -> None:
    victim, text = sys.argv[1], sys.argv[2]
    call("POST", f"/session/{SID}/wda/apps/launch", {"bundleId": NOTES})
    if "--new" in sys.argv:
        tap("accessibility id", "New Note")
        type_keys(sys.argv[sys.argv.index("--new") + 1])
        tap("accessibility id", "Done")
        tap("accessibility id", "BackButton")
    note_titled(victim)
    tap("class name", "XCUIElementTypeTextView")
    type_keys("\b" * 200 + text)
    tap("accessibility id", "Done")
    print(json.dumps({"status": "done", "summary": "made the note"}), flush=True)


if __name__ == "__main__":
    main()
