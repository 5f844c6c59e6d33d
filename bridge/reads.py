"""The recorder's own reads of the phone, counted: page sources, an element's attributes, its frame.

Each is one WDA request the bridge sends for itself (`own_reads` counts them: their cost on a
real phone), to aim an action (`aiming.py`) or to see what it settled into (`recorder.py`). A
read WDA does not answer is None or an empty `Observation`, never an error: the action is then
aimed as well as what is known allows, and forwarded to get the phone's own answer.
"""

from __future__ import annotations

import logging

from bridge.classified import Classified
from bridge.context import RunContext
from bridge.custody import Break, Custody
from bridge.observe import JSON_ROUTE, XML_ROUTE, Observation, from_json_tree, from_xml
from bridge.targets import Rect, rect_of
from bridge.upstream import Upstream
from phoneshell.errors import BridgeError

log = logging.getLogger("bridge")

ELEMENT_ATTRIBUTES = ("type", "label", "name", "value")
"""What an element-aimed action reads of its element (`GET .../element/:id/attribute/NAME`)."""


class Reads:
    """The reads of the recorder (the base of its aiming): what they need of the recorder is
    the phone (`upstream`), what is known of it (`custody`), and `observe`, which notes what a
    read showed."""

    upstream: Upstream
    custody: Custody
    own_reads: int
    """Requests the bridge itself sent to read the phone (its cost on a real phone)."""

    def observe(self, context: RunContext, seen: Observation, via: str,
                token: int | None = None) -> Break | None:
        """Note what a read showed (the recorder's: it may log a custody break)."""
        raise NotImplementedError

    def own_read(self, route: str) -> object:
        """The bridge's own read of a WDA route, counted in `own_reads`.

        Raises:
            BridgeError: no answer, or WDA's error.
        """
        self.own_reads += 1
        return self.upstream.read(route)

    def read_screen(self) -> Observation:
        """One XML page source: the front app, the screen's digest and its tree."""
        try:
            value = self.own_read(XML_ROUTE)
        except BridgeError as exc:
            log.debug("no source: %s", exc)
            return Observation()
        return from_xml(value) if isinstance(value, str) else Observation()

    def _read_focus(self) -> Observation:
        """One JSON page source (the only one that says which field has focus)."""
        try:
            return from_json_tree(self.own_read(JSON_ROUTE))
        except BridgeError as exc:
            log.debug("no JSON source: %s", exc)
            return Observation()

    def known_tree(self, context: RunContext) -> object | None:
        """The tree known since the last action, or one XML source read now (observed)."""
        if self.custody.known.page is None:
            self.observe(context, self.read_screen(), "GET " + XML_ROUTE)
        return self.custody.known.tree

    def element_attributes(self, base: str) -> dict[str, object] | None:
        """What an element named by id (`base`: its attribute route) is: `ELEMENT_ATTRIBUTES`,
        one read each; None when they cannot be read (a gone element)."""
        try:
            attributes = {name: self.own_read(base + name) for name in ELEMENT_ATTRIBUTES}
            if not isinstance(attributes["type"], str) or not attributes["type"]:
                raise BridgeError(f"WDA gave no type for {base}type")
        except BridgeError as exc:
            log.debug("no attributes at %s: %s", base, exc)
            return None
        return attributes

    def element_frame(self, action: Classified, what: str) -> Rect | None:
        """The frame of the element an action names by id (one read); None when it cannot be
        read (`what` says what it was read for, in the debug log)."""
        return self.rect_of_element(action.attribute_route, what)

    def rect_of_element(self, base: str, what: str) -> Rect | None:
        """The frame of an element named by id (one read); None when it cannot be read."""
        try:
            return rect_of(self.own_read(base.removesuffix("/attribute/") + "/rect"))
        except BridgeError as exc:
            log.debug("no rect for %s: %s", what, exc)
            return None
