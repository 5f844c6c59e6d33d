"""What the log makes of an admitted request that acts: a `Classified` action.

Its kind and params (the audit line), what its target is to be resolved from (`aim`), the
session it runs under, and, for several fingers down together, each other finger's own action.
Shared by the classifier (`actions.py`, `chains.py`) and the recorder that aims and logs it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from phoneshell.records import ActionKind, Scalar

Aim = Literal["none", "point", "from", "element", "origin", "focus", "alert"]
"""What the action's target is: nothing, the element under (x, y), the element under where a
drag starts (from_x, from_y: a slider it moves), the element with id `element`, the element
under the point a touch chain's finger placed from the element `element` lands on (`origin`:
the recorder first makes it a "point" action, `origins.py`), the focused text field, or the
button of the alert on screen that WDA's alert routes press (`xcui.alert_press`, by the
params' `gesture` and `button`)."""

SessionChange = Literal["none", "open", "close"]
"""What an action does to the WDA session: nothing, create (or replace) it, or delete it."""


@dataclass(frozen=True)
class Classified:
    """An action request: what to log and what to resolve as its target."""

    kind: ActionKind
    params: Mapping[str, Scalar] = field(default_factory=dict)
    aim: Aim = "none"
    session_id: str = ""
    """The session in the path ("" for sessionless routes): elements are read under it."""
    session: SessionChange = "none"
    """Whether the request creates or deletes the WDA session (which app it names is known
    only to the bridge, from the request that created it)."""
    points: tuple[tuple[float, float], ...] = ()
    """Every point on screen (absolute, in points) the action names for a finger, its own and
    its other fingers': a tap's, a drag's ends, each point a touch chain's finger goes down at or
    moves through. The recorder refuses one off the screen (`Aiming.off_screen`)."""
    others: tuple[Classified, ...] = ()
    """For several fingers down together, every finger but the one logged, each as its own
    one-finger action: each must be aimed at what the logged one is (the log names one target
    an action), and none may touch what the bridge refuses."""
    key_names: tuple[str, ...] = ()
    """For WDA's keyboard dismiss, the `keyNames` it presses keys by: never logged (a letter may
    be one of a password's); the recorder logs the key they press instead (`Aiming.placed`)."""

    @property
    def attribute_route(self) -> str:
        """The route of the element the action names by id (`element`), under its session, up
        to its attributes: `/session/<id>/element/<id>/attribute/`."""
        scope = f"/session/{self.session_id}" if self.session_id else ""
        return f"{scope}/element/{self.params.get('element')}/attribute/"


def pt(value: float) -> int | float:
    """A coordinate as a client writes it and the log keeps it: 100, not 100.0."""
    return int(value) if float(value).is_integer() else value


def params(**values: Scalar) -> dict[str, Scalar]:
    """Keyword params without the ones the request did not carry."""
    return {k: v for k, v in values.items() if v is not None}
