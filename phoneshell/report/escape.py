"""Text from run folders made safe for markup: agents' summaries, check details and page text
may hold `<script>`, quotes or control characters (a terminal colour code from a command agent),
and none of it may change the document it is shown in.
"""

from __future__ import annotations

import html
import re

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 (and so JUnit readers and HTML parsers) cannot carry."""


def xml_safe(text: str) -> str:
    """`text` with characters XML cannot hold shown as `\\xNN` escapes, the rest unchanged."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def h(text: object) -> str:
    """Any value as HTML text or attribute content: escaped, quotes included."""
    return html.escape(xml_safe(str(text)), quote=True)
