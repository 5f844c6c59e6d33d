"""Where the task suite is when a command is given no task paths.

The checkout's `environments/` is the suite's one source. A run started in a folder holding
`environments/` (the checkout) reads it; from anywhere else, the copy shipped inside the package
is read (`phoneshell/suite`, a link to `environments/` in the checkout, built into the wheel as
package data), so `phoneshell run` works after `pip install` from any folder.
"""

from __future__ import annotations

from pathlib import Path

SUITE_FOLDER = "environments"
SHIPPED = Path(__file__).resolve().parent.parent / "suite"
"""The suite inside the installed package (in a checkout, the link to environments/)."""
PATHS_HELP = (f"task files or folders (default: ./{SUITE_FOLDER} when there is one, else the "
              "suite shipped with phoneshell)")


def default_task_paths() -> list[str]:
    """`environments` when the current folder has one, else the shipped suite's folder."""
    if Path(SUITE_FOLDER).is_dir():
        return [SUITE_FOLDER]
    return [str(SHIPPED.resolve())]
