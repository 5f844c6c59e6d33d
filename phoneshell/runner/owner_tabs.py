"""The owner's Safari tabs, watched as the owner's collections are (`runner.owner`): a tab that
was open before the run and shows another page after an attempt is blamed on that attempt.

Safari reopens on the tab in front, and typing in its address bar, following a link or going
Back or Forward loads the page in that tab: the owner's open page is replaced, with what the
agent opened in its history (red team 92: an agent typed apple.com into the owner's Wikipedia
tab, and the attempt passed). The run closes only the tabs beyond the count it found
(`runner.tidy`), and no agent closes a tab (`lasting.closes_tabs`), so the tabs open before the
run stay the first ones of the overview, in order (Safari adds a tab at the end). So before its
first attempt the run reads every tab's title as its card shows it (`device.safari_tabs.
tab_titles`), and after every attempt whose agent had Safari in front (its log, as for the
collections: `owner.visited`) reads them again and compares the first ones, one by one. A blank
tab (the start page) holds nothing, and a URL opened from outside loads into it, so it is not
compared. Tabs beyond them are the run's agents' (closed when the run ends), never compared.

A tab found showing another title fails the attempt ("the owner's Safari tabs changed: tab 2
showed 'Wikipedia', now 'Apple'"), and is said in the row (`Teardown.owner`) and at the run's
end. Nothing puts it back: the harness cannot read what the tab showed (its address, its
history), only its title; later attempts are compared with it as left. Titles that cannot be read
after an attempt fail it, once, and leave later attempts not scored while they stay so, as the
timer's wheels do (`owner_timer`). A page whose title is the owner's one (the same page reloaded,
a page left and gone Back to) is not seen: the card shows only a title.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from phoneshell.device.probes import ProbeError
from phoneshell.device.safari_tabs import BLANK, tab_titles
from phoneshell.runner.owner_timer import Judged, unreadable
from phoneshell.runner.rig import Rig

TABS = "safari_tabs"
"""The tabs' name among what the watch may read after an attempt (`owner.visited`)."""


@dataclass
class OwnerTabs:
    """The owner's Safari tabs for a run: their titles as the run found them, and as last
    known."""

    start: tuple[str, ...]
    """Each tab's title before the run's first attempt, in the overview's order."""
    known: tuple[str, ...] = ()
    """The same tabs' titles as last known: what an attempt is compared with."""
    doubt: str = ""
    """The attempt after which they were first found unreadable, failed for it ("" when they
    read since)."""
    stays: list[str] = field(default_factory=list)
    """Each owner's tab an agent left showing another page, for the run's end."""

    def __post_init__(self) -> None:
        self.known = self.known or self.start

    def judge(self, rig: Rig, who: str) -> Judged:
        """Read the tabs after attempt `who` and compare the owner's with what is known."""
        try:
            found = tab_titles(rig.phone, len(self.known))
        except ProbeError as exc:
            judged = unreadable("the owner's Safari tabs", "them", exc.message, self.doubt)
            self.doubt = self.doubt or who
            return judged
        self.doubt = ""
        changed = [f"tab {n} showed {was!r}, now "
                   + (repr(found[n - 1]) if n <= len(found) else "gone")
                   for n, was in enumerate(self.known, 1)
                   if was != BLANK and (n > len(found) or found[n - 1] != was)]
        if not changed:
            return Judged()
        self.stays.extend(f"Safari's {what}, as {who}'s agent left it" for what in changed)
        self.known = tuple(found[n] if n < len(found) else was
                           for n, was in enumerate(self.known))
        blame = f"the owner's Safari tabs changed: {', '.join(changed)}"
        return Judged(blame, f"{blame}; nothing puts a tab's page or history back, and later "
                             "attempts are compared with it as left")


def watch_tabs(rig: Rig) -> tuple[OwnerTabs | None, str]:
    """Before the first attempt (under the rig's context): the owner's Safari tabs, and a line
    for the user when they cannot be read (then not watched)."""
    try:
        return OwnerTabs(tab_titles(rig.phone)), ""
    except ProbeError as exc:
        return None, (f"the owner's Safari tabs could not be read before the run ({exc.message}), "
                      "so a tab whose page an agent replaces is not seen")


__all__ = ["TABS", "OwnerTabs", "watch_tabs"]
