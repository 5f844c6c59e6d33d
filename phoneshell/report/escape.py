"""Text from run folders made safe for markup: agents' summaries, check details and page text
may hold `<script>`, quotes or control characters (a terminal colour code from a command agent),
and none of it may change the document it is shown in, nor read otherwise than it is.

`h` is the one way text goes into an HTML page (the report, the judge report): first as a
terminal shows it (`untrusted.visible`), then HTML-escaped. A page shows what the terminal shows:
a direction override (U+202E) is `\\u202e`, not "DESSAP" drawn as "PASSED", and a carriage
return or a line separator is `\\r` / `\\u2028`, not the start of a line that passes for the
harness's own (red team 134). JUnit's XML takes `xml_safe` after `untrusted.visible` too
(report/junit.py, red team 137): what XML cannot hold, escaped.
"""

from __future__ import annotations

import html
import re

from phoneshell.untrusted import visible

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 (and so JUnit readers and HTML parsers) cannot carry."""


def xml_safe(text: str) -> str:
    """`text` with characters XML cannot hold shown as `\\xNN` escapes, the rest unchanged."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def h(text: object) -> str:
    """Any value as HTML text or attribute content: every invisible or controlling character
    shown as its escape (`visible`, which leaves nothing XML cannot hold), then escaped for
    HTML, quotes included."""
    return html.escape(visible(str(text)), quote=True)
