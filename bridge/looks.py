"""What a client last looked at since the last action, for capture to compare its own reads with.

A look that the phone still shows when capture reads it proves the screen held still from that
look to capture's, so capture needs no second read to prove it settled (`device/capture.py`).
Two kinds count: a whole XML source (its front app and screen digest, what custody knows once
the last action's after is read: `mark`), and a screenshot a client took after the last action
that no action raced (`picture`).
"""

from __future__ import annotations

import base64
import binascii
import threading
from typing import NamedTuple

from bridge.custody import Custody
from bridge.observe import from_xml
from bridge.upstream import Reply


class ScreenMark(NamedTuple):
    """What the bridge last saw on screen (`Looks.mark`)."""

    app: str
    screen: str


class Looks:
    """The looks since the last action, read off custody and the screenshots passing through."""

    def __init__(self, custody: Custody) -> None:
        self.custody = custody
        self._picture: tuple[int, bytes] | None = None
        self._lock = threading.Lock()

    def mark(self) -> ScreenMark | None:
        """The front app and screen digest a whole read made since the last action showed;
        None while that action's after is still pending (no read came after it) or when none
        showed the screen. The caller holds the action lock."""
        known = self.custody.known
        if self.custody.pending or not (known.app and known.screen):
            return None
        return ScreenMark(known.app, known.screen)

    @staticmethod
    def shows(mark: ScreenMark, xml: str) -> bool:
        """Whether an XML page source shows the screen `mark` was taken of."""
        seen = from_xml(xml)
        return ScreenMark(seen.app, seen.screen) == mark

    def keep(self, token: int, reply: Reply) -> None:
        """Keep a client's screenshot (`token`: custody's `read_token` from before it was
        forwarded) when no action started or was answered since."""
        value = reply.json_value() if reply.status == 200 else None
        if not isinstance(value, str) or not self.custody.unchanged_since(token):
            return
        try:
            png = base64.b64decode(value)  # as facebook-wda reads it: line breaks allowed
        except binascii.Error:
            return
        with self._lock:
            self._picture = (token, png)

    def picture(self) -> bytes | None:
        """The last screenshot a client took after the last action, as PNG; None when none
        was taken since."""
        with self._lock:
            kept = self._picture
        if kept is None or not self.custody.unchanged_since(kept[0]):
            return None
        return kept[1]
