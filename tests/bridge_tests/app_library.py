"""The App Library's search list: the one list on the simulated iPhone that still cuts its rows.

Every app's list now spans its screen under its bars (`lists.under_bars`): a bar covers its top
row, the list does not cut it, so a row's middle on the screen and its hit point (the middle of
its part inside every list around it) are one point there. The App Library's search list is
framed by its own part of the screen, starting 10 pt above its first row, below the search
field, while a row it cuts still lies on the screen above it: the tests of the rule by which a
touch by id lands inside the list (`phoneshell.hit_point`, red team 68) need such a row.
"""

from __future__ import annotations

import wda
from bridge_rig import Rig

from phoneshell.hit_point import hit_point
from phoneshell.sim import SimServer, in_view
from phoneshell.sim.ui import Node, Scroll

SPRINGBOARD = "com.apple.springboard"


def library_search(sim: SimServer) -> Scroll:
    """Show the App Library's search with every app listed (the owner's swipes past the last
    home page and a tap on its search field, straight to the phone); the scroll of its list."""
    owner = wda.Client(sim.url).session()
    size = owner.window_size()
    for _ in range(3):
        owner.swipe(size.width - 20, size.height // 2, 20, size.height // 2)
    owner(className="SearchField", name="App Library").click()
    with sim.lock:
        return sim.phone.running_state(SPRINGBOARD).library.listed


def scrolled_to(rig: Rig, s: wda.Session, scroll: Scroll, offset: int) -> list[Node]:
    """The list `scroll` moves scrolled `offset` points (the owner's hand, not the agent's),
    read through the bridge so that it knows the screen; its rows with a part on screen, top
    first."""
    with rig.sim.lock:
        scroll.offset = offset
        rig.sim.phone.changed()
        rows = [n for n in rig.sim.phone.screen().nodes
                if n.type == "Cell" and in_view.hit_point(rig.sim.phone, n) is not None]
    s.source()
    return sorted(rows, key=lambda n: n.frame.y)


def screen_middle(rig: Rig, row: Node) -> tuple[float, float] | None:
    """The middle of the part of `row` on the SCREEN, no list cutting it: where a bridge that
    forgot the list would place a touch by id."""
    return hit_point((row.frame.x, row.frame.y, row.frame.width, row.frame.height),
                     [(0, 0, rig.sim.phone.facts.width, rig.sim.phone.facts.height)])
