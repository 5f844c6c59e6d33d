"""Text an agent controls, made safe for each place it goes: one way to escape it for each.

An agent chooses its tool calls' arguments, its claim, its program's stderr, the bundle ids and
routes it sends, and what it types (so some of the text on the screen too). None of it may
break the file it is kept in, act on the terminal it is printed to, or pass for the harness's
own words in a judge's prompt:

* `storable`: kept in a file (transcript, claim, results row). A lone surrogate (`"\\ud800"`
  in JSON), which UTF-8 cannot encode, becomes the six characters of its escape; nothing else
  changes.
* `visible`: printed to a terminal. Every character `repr` would escape (C0 and C1 controls
  with ESC and CR, bidi controls U+202A-U+202E and U+2066-U+2069, zero-width and other format
  characters, line and paragraph separators, surrogates, unassigned code points) is shown as
  its escape, `\\x1b`, `\\u202e`; newlines and tabs stay. A CI runner reads the same lines
  as commands of its own (GitHub Actions: `::name::` at a line's start after white space, and
  the older `##[name]` anywhere in a line; Azure Pipelines: `##vso[...]` anywhere, acted on and
  left out of the log), so the character that would make one is shown as its escape too:
  `##\\u005bgroup]`, `##vso\\u005btask.complete ...]`, `:\\u003aadd-mask::`. That is
  `\\u` as JSON writes it too, so `--format json` output stays JSON and reads back as sent.
* `tidy_lines`: printed under an indent (a failed attempt's reasons, an agent's stderr end):
  every run of white space one space, none at a line's ends, no blank lines, each line cut at
  `LINE_CHARS` (`...` marks the cut). A line of spaces ending in `[2/2] ... passed` can no
  longer wrap so that its text starts a terminal's row.
* `quoted`: named in words a judge reads (a prompt, item.json's actions, the markdown view): a
  Python string literal on one line, its quotes and backslashes escaped, the rest as `visible`
  shows it. Nothing inside can end the quotes or start a line.
* `named`: a name read from a folder (a file, a task folder, a run folder) or another record
  shown in a message: as it is when it holds only what the harness names things with (ASCII
  letters and digits, `_ . @ + = , / - ~`), else `quoted`. A file named
  `"x: ok\\n\\nsolution @ base1 ..."` shows as one quoted literal, never as lines of a report.

* `one_line`: a value read from a record (run.json's agent, grader, run.lock's command) shown as
  a field of a report or message: as it is when it is one printable line (spaces, quotes and
  all: an agent's command line reads as typed), else `quoted`.

Markup escapes on top of these (report/escape.py): an HTML page takes `visible`, then HTML's
escapes (`h`, for every page), so it shows what the terminal shows. Never touches anything: pure.
"""

from __future__ import annotations

import re

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_CI_COMMAND = re.compile(r"(##(?:vso)?)\[|^(\s*:):", re.IGNORECASE)
"""What a CI runner reads as a command: GitHub Actions' `##[` and Azure's `##vso[` anywhere
(Azure's prefix in any case, to be safe), GitHub's `::` where a line starts after white space
(.NET's TrimStart: every Unicode space, as `\\s` here)."""
_CI_ESCAPED = {"[": "\\u005b", ":": "\\u003a"}
LINE_CHARS = 300
"""The longest untrusted line printed under an indent (`tidy_lines`)."""


def _escape(char: str) -> str:
    """One character as `repr` escapes it: `\\r`, `\\x1b`, `\\u202e`, `\\U000e0001`."""
    return repr(char)[1:-1]


def storable(text: str) -> str:
    """`text` with each lone surrogate written as its escape, so UTF-8 can encode it."""
    return _LONE_SURROGATE.sub(lambda m: _escape(m.group()), text)


def _visible_line(line: str) -> str:
    if line.isprintable():  # the common case, checked at C speed
        return line
    return "".join(c if c.isprintable() or c == "\t" else _escape(c) for c in line)


def _no_ci_command(match: re.Match[str]) -> str:
    lead = match.group(1) or match.group(2)
    return lead + _CI_ESCAPED[match.group()[len(lead)]]


def visible(text: str, line_so_far: str = "") -> str:
    """`text` as a terminal and a CI log may show it: every invisible or controlling character
    escaped, newlines and tabs kept, and no CI runner's command left in it.

    Args:
        text: what is written.
        line_so_far: what was written of the line `text` continues (`carried`), so a command
            split over two writes is found too.
    """
    lines = [_visible_line(line) for line in text.split("\n")]
    lines[0] = _CI_COMMAND.sub(_no_ci_command, line_so_far + lines[0])[len(line_so_far):]
    lines[1:] = [_CI_COMMAND.sub(_no_ci_command, line) for line in lines[1:]]
    return "\n".join(lines)


def carried(line_so_far: str, shown: str) -> str:
    """What `visible` must know of the line being written once `shown` (its answer) is written
    after `line_so_far`: its start while it is blank and short, else its last five characters
    (enough for `##vso`), behind a mark that says it is not a line's start."""
    line = (line_so_far + shown) if "\n" not in shown else shown.rpartition("\n")[2]
    rest = line.lstrip()
    if len(rest) < 6:
        return (" " if len(rest) < len(line) else "") + rest
    return "x" + rest[-5:]


def tidy_lines(text: str) -> list[str]:
    """`text` as lines to print under an indent: white space made single spaces, blank lines
    left out, each line cut at `LINE_CHARS`."""
    lines = (" ".join(line.split()) for line in text.splitlines())
    return [line if len(line) <= LINE_CHARS else line[:LINE_CHARS - 3] + "..."
            for line in lines if line]


_PLAIN = re.compile(r"[\w.@+=,/~-]+", re.ASCII)


def named(value: object) -> str:
    """`value` (a name, a path) as a message may show it: unchanged when plain, else `quoted`."""
    text = str(value)
    return text if _PLAIN.fullmatch(text) else quoted(text)


def one_line(value: object) -> str:
    """`value` unchanged when it is one printable line, else `quoted`."""
    text = str(value)
    return text if text.isprintable() else quoted(text)


def quoted(value: object) -> str:
    """`value` as a one-line quoted literal (`'com.b'`, `'a\\nb'`), whatever it holds."""
    return repr(str(value))


__all__ = ["carried", "named", "one_line", "quoted", "storable", "tidy_lines", "visible"]
