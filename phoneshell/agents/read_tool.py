"""The `read` tool's words and text: one row of the latest observation whole (the table cuts a
text after 80 characters), in parts of `READ_CHARS`, as that observation read it. Asks the
phone nothing; `tools` registers it."""

from __future__ import annotations

from typing import cast

from phoneshell.agents.aiming import row_of
from phoneshell.agents.observation import Observation
from phoneshell.agents.tool_schema import Args, JsonSchema, ToolReply

READ_CHARS = 4000
"""The most of a text one `read` gives (a web page's paragraph may run to many thousands)."""
READ = ("Read one row of the latest observation whole: the element's full text (label, then = "
        "value, line breaks kept), which the table cuts after 80 characters (a row flagged "
        "`cut`). It gives the text as that observation read it, and asks the phone nothing. "
        f"{READ_CHARS:,} characters at most a call: `start` reads on from a character.")
"""The tool's description."""
READ_ARGS: dict[str, JsonSchema] = {
    "id": {"type": "string", "description": "an id from the latest observation, e.g. \"3.12\""},
    "start": {"type": "number", "minimum": 0,
              "description": "the character to start from (default 0)"}}
"""The tool's arguments (`id` required)."""


def read_row(latest: Observation | None, args: Args) -> ToolReply:
    """The text of the row `args["id"]` names in `latest`, from `args["start"]` on."""
    row = row_of(latest, args["id"])
    if isinstance(row, str):
        return ToolReply(f"read: {row}", error=True)
    assert latest is not None  # row_of found a row in it
    start = int(cast(float, args.get("start", 0)))
    if start and start >= len(row.whole):  # red team 112: "1e15 to 1e15 here", a success
        return ToolReply(f"read: start {start:,} is past the end: the text of "
                         f"{latest.row_id(row)} has {len(row.whole):,} characters; read from 0",
                         error=True)
    part = row.whole[start:start + READ_CHARS]
    end = start + len(part)
    head = f"{latest.row_id(row)}\t{row.type}\t{len(row.whole):,} characters"
    if start or end < len(row.whole):
        more = (f"; read on with start {end}" if end < len(row.whole) else "")
        head += f", {start:,} to {end:,} here{more}"
    return ToolReply(f"{head}:\n{part}")
