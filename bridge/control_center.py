"""What lies under a touch in Control Center, for the refusal of every control there the harness
cannot set back (`lasting.control_center_lasting`).

Control Center's controls are SpringBoard's, drawn over the app the agent had in front; a touch
the hit test cannot name (an element with neither name nor label) is let through only where
nothing but Control Center's own views lies under it, so this reads the innermost of its
elements at the touch's point, by the hit test's containment (`touched.Rect.contains`).
"""

from __future__ import annotations

from bridge.touched import rect_of
from phoneshell.xcui import CONTROL_CENTER, Node, walk


def control_center_at(tree: object, point: tuple[float, float] | None) -> str | None:
    """What lies at `point` in Control Center, when a JSON-shaped source shows it (a node named
    `CONTROL_CENTER`): the name of the innermost element of its view there ("" when that has
    none, or no point is known); None when the source does not show Control Center."""
    view = next((node for _, node in walk(tree) if node.get("name") == CONTROL_CENTER), None)
    if view is None:
        return None
    if point is None:
        return ""
    inner: Node = view
    for _, node in walk(view):
        rect = rect_of(node.get("rect"))
        if rect is not None and rect.contains(*point):
            inner = node  # document order: a later (deeper or drawn-over) one wins
    name = inner.get("name")
    return name if isinstance(name, str) else ""
