"""Touches the log could not name, refused before anything is aimed or logged: inside a panel
another process draws. (Three or more fingers together are refused from the request alone,
before any read: `chains.check_fingers`.)

* **A panel whose contents cannot be placed** (`touched.unplaced_panels`). iOS 26's share sheet
  is drawn by another process in a remote view: WDA reports what it holds in that view's own
  coordinates (the real dump puts the popover at (9, 477) and its Copy cell at (18, 249)), so
  the hit test names nothing inside it (`touched.untrusted`), and every refusal keyed on the
  label of what was touched (the pasteboard's Copy, the Messages and Mail that send in the
  owner's name) would pass it by. Translating by the remote container's origin fits the one
  real dump there is (the remote root has the container's size), but nothing on the phone
  proves it (no screenshot, no second dump; a remote view may be inset or scrolled), so it is
  not guessed: a touch inside such a panel fails closed. Refused: a touch whose finger goes
  down, moves or lifts in it (a tap, a drag, each finger of a W3C or legacy touch chain); an
  action on an element by id that lies in it (its reported frame is one of the remote
  contents': the phone touches either the cell or, at the frame WDA reports, the dismiss
  region, and the log could not say which) or whose hit point lies in it (a tap on the panel
  itself), or, for a swipe, pinch or scroll, whose frame meets it; and a swipe or scroll of the
  whole app while it shows (XCTest slides across the middle of the screen). A tap outside it,
  on the dismiss region, closes it. No task needs the share sheet (none of environments/
  shares anything).
"""

from __future__ import annotations

from collections.abc import Mapping

from bridge.aiming import Aiming
from bridge.classified import Classified
from bridge.context import RunContext
from bridge.gate import Refused
from bridge.hits import middle_of
from bridge.touched import Rect, ancestry, rect_of, unplaced_panels, untrusted
from phoneshell.pasteboard import OWNERS
from phoneshell.xcui import short_type, walk

Node = Mapping[str, object]
TOUCHES = frozenset({"tap", "swipe"})
"""Action kinds that put a finger on the screen."""
LEAVE = ("close it with a tap outside it (its dismiss region) and act on what lies under it; "
         "no task needs the share sheet")


def check_unplaced(aiming: Aiming, context: RunContext, action: Classified) -> None:
    """Refuse a touch inside a panel whose contents cannot be placed on screen
    (`unplaced_touch`). Free unless such a panel shows: then one read, the frame of an element
    named by id.

    Raises:
        Refused: 403, naming the point or element, the panel, and why.
    """
    if not _touches(action):
        return
    tree = aiming.known_tree(context)
    panels = unplaced_panels(tree) if tree is not None else []
    if not panels:
        return
    rect = None
    if action.aim == "element":
        rect = aiming.element_frame(action, "an element beside a share sheet")
    why = unplaced_touch(tree, action, rect, panels)
    if why:
        raise Refused(why, 403, "unsupported operation")


def _touches(action: Classified) -> bool:
    """Whether an action puts a finger on the screen (WDA's alert and keyboard routes, and
    typing, press what they name)."""
    return (action.kind in TOUCHES and action.aim not in ("alert", "focus")
            and not (action.aim == "none" and action.kind == "tap"))


def unplaced_touch(tree: object, action: Classified, rect: Rect | None = None,
                   panels: list[Node] | None = None) -> str:
    """Why an action touches a panel of `tree` whose contents cannot be placed on screen (""
    when it does not; see the module): a finger's point in one; a swipe or scroll of the whole
    app while one shows; an action by id on one of its contents (`rect`: the element's frame,
    None when it could not be read: refused too, it may be one), a tap by id whose hit point
    lies in one, any other gesture on an element whose frame reaches over one. `panels`: the
    tree's `unplaced_panels`, when the caller has them already (each is a walk of the tree)."""
    if not _touches(action):
        return ""
    panels = unplaced_panels(tree) if panels is None else panels
    if not panels:
        return ""
    for x, y in action.points:
        panel = _holding(panels, x, y)
        if panel is not None:
            return _refusal(tree, panel, f"a finger at ({x:g}, {y:g})")
    if action.aim == "none":
        return _refusal(tree, panels[0], f"a {action.params.get('gesture') or action.kind} of "
                                         "the whole app (XCTest slides across the middle of "
                                         "the screen, over it)")
    if action.aim != "element":
        return ""
    if rect is None:
        return _refusal(tree, panels[0], "an action on an element by id whose frame could "
                                         "not be read (so it may be one of its contents)")
    remote = _remote_at(tree, rect)
    if remote is not None:
        return _refusal(tree, panels[0], f"an action on {_named(remote)} by id, one of its "
                                         f"contents (WDA reports it at ({rect.x:g}, "
                                         f"{rect.y:g}): the phone may touch it or what lies "
                                         "there)")
    screen = rect_of(tree.get("rect")) if isinstance(tree, Mapping) else None
    if action.kind == "tap":
        point = middle_of(rect, [screen] if screen is not None else [])
        panel = _holding(panels, *point) if point is not None else None
        what = f"a tap by id at its hit point ({point[0]:g}, {point[1]:g})" \
            if point is not None else ""
    else:
        panel = next((p for p in panels if (frame := rect_of(p.get("rect"))) is not None
                      and rect.intersects(frame)), None)
        what = (f"a {action.params.get('gesture') or action.kind} of an element by id "
                "whose frame reaches over it")
    return _refusal(tree, panel, what) if panel is not None else ""


def _refusal(tree: object, panel: Node, what: str) -> str:
    frame = rect_of(panel.get("rect")) or Rect(0, 0, 0, 0)
    return (f"{what} touches {_panel_name(tree, panel)}, a panel another process draws, whose "
            f"contents WDA reports in their own coordinates (from 0, 0, while the panel lies "
            f"at ({frame.x:g}, {frame.y:g})): what a finger there presses cannot be told, so "
            f"the log could not name it (the share sheet's Copy would replace {OWNERS} (the "
            f"pasteboard), its Messages and Mail send in the owner's name); {LEAVE}")


def _holding(panels: list[Node], x: float, y: float) -> Node | None:
    return next((p for p in panels if (r := rect_of(p.get("rect"))) is not None
                 and r.contains(x, y)), None)


def _remote_at(tree: object, rect: Rect) -> Node | None:
    """A node of a panel's unplaced contents with this frame (an accessible one first): the
    element an action by id names, when its frame is one of theirs."""
    skip = untrusted(tree)
    found = [n for _, n in walk(tree) if id(n) in skip and rect_of(n.get("rect")) == rect]
    return next((n for n in found if n.get("isAccessible") == "1"), found[0] if found else None)


def _named(node: Node) -> str:
    kind = short_type(str(node.get("type") or ""))
    return f"{kind} {str(node.get('label') or node.get('name') or '')!r}"


def _panel_name(tree: object, panel: Node) -> str:
    """The panel as a refusal names it: its type, and the name of the view in it nearest its
    unplaced contents ("ShareSheet.RemoteContainerView")."""
    skip = untrusted(tree)
    first = next((n for _, n in walk(panel) if id(n) in skip and n.get("isVisible") != "0"),
                 None)
    line = ancestry(tree, first) if first is not None else []
    name = next((str(n.get("name")) for n in reversed(line)
                 if n.get("name") and id(n) not in skip), "")
    kind = short_type(str(panel.get("type") or ""))
    return f"the {kind} {name!r}" if name else f"the {kind}"

