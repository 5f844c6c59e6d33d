"""Items a count gains that the agent did not make: brought back from a bin, moved in. Pure.

"Add a note" is graded by a count (notes titled X, before the agent and after it), and a count
cannot tell a note made from one that came back. A run's teardown deletes what its agents made
into Notes' Recently Deleted (the harness never deletes for good on an owner's phone, and iOS
keeps a note there 30 days), so from the second attempt on a note of the task's title waits in
the bin; its Recover puts it back in Notes, and the count grows by one the agent never made
(red team 72). A note moved in from a folder or an account the count does not search grows it
alike. So where the agent's logged actions include one that brings an item back into the
collection a count counts (`ROUTES`), the count's growth is not taken as items made
(`effects.count_increased` fails, saying which action). That costs no read of the phone: the
bridge already logs what each tap pressed. An honest agent making the item never presses them.

Which collections have such a way back, by the simulator and iOS (docs/checks.md): Notes
(Recently Deleted's Recover, its Move, an alert's Recover when a deleted note is opened, and a
note's Move to another folder); Safari's tabs (Recently Closed Tabs, not in the simulator).
Reminders, alarms, contacts, events and world clocks have none on the phone: what is deleted
is gone, and the counts of reminders take in completed ones and every list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from phoneshell.audit import Action
from phoneshell.checks.tapped_names import press_named
from phoneshell.evidence import Evidence, ProbeReading
from phoneshell.tree import shorten
from phoneshell.xcui import NOTES, SAFARI, pressed

__all__ = ["ROUTES", "Route", "brought_back"]


@dataclass(frozen=True)
class Route:
    """One way an item comes back into a counted collection without being made."""

    collection: str
    """The count probe of the whole collection (`collection_of`)."""
    app: str
    """The app in front when the action was taken."""
    words: re.Pattern[str]
    """What the tapped control says (its label or name, or the alert button pressed), whole,
    lower case."""
    page: str
    """A page (its navigation bar's title, lower case) where any tap brings one back ("":
    none)."""
    why: str
    """Why such a tap spoils the count, for the failure's detail."""


ROUTES = (
    Route("notes", NOTES, re.compile(r"recover(?: all| notes?| \d+ notes?)?"), "",
          "a note brought back from Recently Deleted counts as one made: the count cannot "
          "tell them apart"),
    Route("notes", NOTES, re.compile(r"move(?: all| notes?| \d+ notes?| to .+)?"), "",
          "a note moved in from another folder, from another account or out of Recently "
          "Deleted counts as one made: the count cannot tell them apart"),
    Route("safari_tabs", SAFARI, re.compile(r"recently closed tabs?|reopen (?:last )?closed "
                                            r"tabs?"), "recently closed tabs",
          "a tab reopened from Recently Closed Tabs counts as one opened: the count cannot "
          "tell them apart"),
)
"""The ways back, by collection. Where the simulator lacks a control its iOS label is inferred
(docs/checks.md): Recover is the simulator's (`sim/apps/notes_deleted.py`); Recover All, Move
and Move All are what iOS's Recently Deleted shows while editing; Recently Closed Tabs is
Safari's list, shown by a touch and hold on New Tab."""


def collection_of(reading: ProbeReading) -> str:
    """The whole collection `reading` counts items of: the whole the run recorded for it
    (`ProbeReading.whole`: notes, for notes titled X), else the probe's own."""
    return reading.whole or reading.name


def _took(action: Action, routes: tuple[Route, ...]) -> tuple[Route, str] | None:
    """The way back `action` took and what it pressed (None: none): a tap the phone may have
    taken (ones WDA failed before acting are not) in the route's app, on a control that says
    its words, or on its page."""
    target = action.target
    if action.kind != "tap" or action.acted is False or action.presses == 0:
        return None
    label, name = (target.label, target.name) if target is not None else ("", "")
    said = pressed(label, action.params)
    for route in routes:
        if action.app_before == route.app and (
                route.words.fullmatch(said) or route.words.fullmatch(name.strip().lower())
                or route.page and target is not None
                and target.page.strip().lower() == route.page):
            # named as the control shows it: the label, else the alert's button, else name
            return route, (label if label.strip().lower() == said else said) or name
    return None


def brought_back(reading: ProbeReading, evidence: Evidence, unwatched: str) -> str:
    """Why the growth of the count `reading` may be items the agent brought back or moved in
    rather than made ("" when its collection has no way back, or the agent took none). An
    absence, so it fails closed: `unwatched` (why the log may not show every action) is a
    reason, and so is an action in the route's app that may have pressed what the log cannot
    name (`Action.unnamed_press`: a tap the bridge could not name, a slide held until a context
    menu opened); not one the log says pressed nothing (a keyboard dismiss that found no key)."""
    routes = tuple(r for r in ROUTES if r.collection == collection_of(reading))
    if not routes:
        return ""
    if unwatched:
        return f"whether the agent brought one back cannot be told: {unwatched}"
    apps = {r.app for r in routes}
    for action in evidence.agent_actions():
        took = _took(action, routes)
        if took is not None:
            # a tap on the route's page may be on a control with no words: named as the
            # log holds it (a cell by its type and page)
            named = repr(shorten(took[1])) if took[1].strip() else press_named(action)
            return f"the agent tapped {named} (#{action.seq}): {took[0].why}"
        # an alert's button pressed by name is named (`_took` read it)
        unnamed = "" if action.params.get("button") else action.unnamed_press()
        if unnamed and action.app_before in apps:
            return (f"#{action.seq} {action.kind} in {action.app_before} {unnamed}, so "
                    "whether it brought one back (Recover, Move) cannot be told")
    return ""
