"""Names that become folder names (run ids, task ids): checked before they can touch a path.

A run id names `runs/<run_id>/` and a task id `attempts/<task_id>/`; either may come from a
command line, a task file or a request to the bridge. One rule for both, so that no name can
climb out of its folder (`..`, `/`), hide (a leading dot), break a line of a log (a newline) or
overflow a file name.
"""

from __future__ import annotations

import re

from phoneshell.records.base import RecordError

NAME_MAX = 128
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def check_name(value: object, what: str) -> str:
    """Return `value` when it is a safe folder name; else raise naming `what` and the rule.

    Raises:
        RecordError: not a string, empty, longer than `NAME_MAX`, or holding anything but
            letters, digits, '.', '_' and '-' (or starting with one of the last three).
    """
    if not isinstance(value, str):
        raise RecordError(f"bad {what} {value!r}: want a string")
    if len(value) > NAME_MAX:
        raise RecordError(f"bad {what} {value[:40]!r}...: {len(value)} characters, at most "
                          f"{NAME_MAX}")
    if not _NAME.fullmatch(value):
        raise RecordError(f"bad {what} {value!r}: want letters, digits, '.', '_' and '-', "
                          "starting with a letter or digit")
    return value
