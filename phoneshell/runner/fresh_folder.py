"""An attempt's folder, made new and empty for it: never one that exists, whatever it holds.

Nothing of the harness's own is in an attempt's folder before the attempt runs: a skipped try's
folder is moved aside first (`workers`), and a resumed run's incomplete ones to `incomplete/`
(`aside`). So whatever is there was put there by an agent of an earlier attempt that could
write the run folder (`--sandbox none`: red team 143 planted a file in the next attempt's
`agent/` folder, which its agent then found as its own, and a kept folder held a file its agent
never wrote). It is removed (by `walk`, never following a link), the folder made anew, and what
was found is said in the attempt's row.
"""

from __future__ import annotations

import os
from pathlib import Path

from phoneshell.agents import walk
from phoneshell.errors import RunError

SHOWN = 5
"""How many of the entries found a note names."""


class _Listed(walk.Visitor):
    """The places of the entries below a folder (the first `SHOWN`) and how many there are."""

    def start(self) -> None:
        super().start()
        self.places: list[str] = []
        self.count = 0

    def visit(self, folder: int, entry: os.DirEntry[str], place: str) -> bool:
        self.count += 1
        if len(self.places) < SHOWN:
            self.places.append(place)
        try:
            return entry.is_dir(follow_symlinks=False)
        except OSError:
            return False


def fresh_folder(folder: Path) -> str:
    """Make `folder` (and its parents as needed) as a new, empty folder; what was in its place
    before, removed, as a row's note ("" when nothing was there).

    Raises:
        RunError: what was there could not be removed (the attempt cannot be kept apart).
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    found: list[str] = []
    for _ in range(walk.TRIES):
        try:
            folder.mkdir()
        except FileExistsError:
            found.append(_found(folder))
            _remove(folder)
            continue
        found = [f for f in found if f]
        return (f"its folder held {'; then '.join(found)} before the attempt began, which "
                "only an agent of an earlier attempt that could write the run folder (an "
                "unconfined one) could have put there: removed, and the folder made anew"
                if found else "")
    raise RunError(f"the attempt folder {folder} is made again each time it is removed",
                   hint="run the agents confined (drop --sandbox none)")


def _found(folder: Path) -> str:
    """What is in the place of `folder`, named for a note ("" for an empty folder)."""
    if folder.is_symlink() or not folder.is_dir():
        return "a link or a file in its place"
    listed = _Listed()
    try:
        walk.walk(folder, listed)
    except OSError as exc:
        return f"something it could not look at ({exc.strerror or exc})"
    if not listed.count:
        return ""  # an empty folder: nothing to say, made anew all the same
    more = f" and {listed.count - len(listed.places):,} more" if listed.count > SHOWN else ""
    return f"{listed.count:,} entr{'y' if listed.count == 1 else 'ies'} (" + \
        ", ".join(listed.places) + more + ")"


def _remove(folder: Path) -> None:
    """Remove what is in the place of `folder`, a link, a file or a whole tree.

    Raises:
        RunError: some of it could not be removed.
    """
    parent = os.open(folder.parent, walk.FOLDER)
    try:
        troubles = walk.delete_at(parent, folder.name, walk.shown(str(folder)))
    finally:
        os.close(parent)
    if troubles:
        raise RunError(f"the attempt folder {folder} held what an earlier agent left, and it "
                       f"could not all be removed: {walk.said(troubles)}",
                       hint="remove it by hand, then run again")


__all__ = ["fresh_folder"]
