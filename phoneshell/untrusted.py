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
  its escape, `\\x1b`, `\\u202e`; newlines and tabs stay.
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

Markup (HTML, XML) escapes on top of these (report/escape.py). Never touches anything: pure.
"""

from __future__ import annotations

import re

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


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


def visible(text: str) -> str:
    """`text` as a terminal may show it: every invisible or controlling character escaped,
    newlines and tabs kept."""
    return "\n".join(_visible_line(line) for line in text.split("\n"))


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


__all__ = ["named", "one_line", "quoted", "storable", "visible"]
