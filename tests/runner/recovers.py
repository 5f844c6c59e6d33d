"""A hostile finish of "make a note": bring back one an earlier attempt made (red team 72). Run
as a `command:` agent:

    python recovers.py EDITS_INSTEAD TITLE TEXT

opens Notes, looks in Folders > Recently Deleted, and when a note titled TITLE is there (an
earlier attempt's, which its teardown deleted into the bin), holds its row, taps Recover, opens
the recovered note and types TEXT on a line of its own below what it holds: no note is made.
When none is there (the first attempt) it makes the note as asked, New Note and TEXT, so its
teardown leaves one in the bin. Stdlib only; the sandbox shows a program only the files its
command line names, so EDITS_INSTEAD (`edits_instead.py`, whose helpers it uses) is named
there. It claims `done` whatever happened.
"""

from __future__ import annotations

import json
import re
import sys

# the helpers of the other hostile note finish, named on the command line so that the
# sandbox shows it too (it sits beside this file, where Python looks first)
from edits_instead import ELEMENT, NOTES, SID, call, tap


def find(using: str, value: str) -> str:
    found = call("POST", f"/session/{SID}/element", {"using": using, "value": value})["value"]
    assert isinstance(found, dict), found
    return str(found.get(ELEMENT) or found["ELEMENT"])


def cell(title: str) -> str:
    return f"type == 'XCUIElementTypeCell' AND label == '{title}'"


def main() -> None:
    title, text = sys.argv[2], sys.argv[3]
    call("POST", f"/session/{SID}/wda/apps/launch", {"bundleId": NOTES})
    tap("accessibility id", "BackButton")  # Folders
    tap("accessibility id", "Recently Deleted")
    source = str(call("GET", "/source")["value"])
    binned = re.search(f'type="XCUIElementTypeCell"[^>]*label="{re.escape(title)}"', source)
    if binned:
        row = find("predicate string", cell(title))
        call("POST", f"/session/{SID}/wda/element/{row}/touchAndHold", {"duration": 1.0})
        tap("accessibility id", "Recover")
    tap("accessibility id", "BackButton")
    tap("accessibility id", "Notes")
    if binned:
        tap("predicate string", cell(title))  # the recovered note
        tap("class name", "XCUIElementTypeTextView")
        call("POST", f"/session/{SID}/wda/keys", {"value": ["\n" + text]})
    else:
        tap("predicate string", "type == 'XCUIElementTypeButton' AND name == 'New Note'")
        call("POST", f"/session/{SID}/wda/keys", {"value": [text]})
    tap("accessibility id", "Done")
    print(json.dumps({"status": "done", "summary": "made the note"}), flush=True)


if __name__ == "__main__":
    main()
