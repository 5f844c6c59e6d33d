"""A scripted "model" for tests: it reads the observation table the way a model would and picks
the id whose text matches the next move of its script ("tap the row labelled General").

Used by the OpenAI-compatible stand-in (which answers chat requests with these moves) and by the
MCP test (which plays them as MCP tool calls), so both paths are driven by the same reading of
the same table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

HEADER = "id\ttype\ttext\tcentre\tsize\tflags"


@dataclass(frozen=True)
class TableRow:
    """One row of an observation as a model reads it."""

    id: str
    type: str
    text: str
    centre: tuple[int, int]
    flags: tuple[str, ...]


def parse_table(observation: str) -> list[TableRow]:
    """The rows of an observation's table (empty when the text has no table)."""
    if HEADER not in observation:
        return []
    rows = []
    for line in observation.split(HEADER, 1)[1].strip("\n").splitlines():
        parts = line.split("\t")
        if len(parts) != 6:
            continue
        x, y = parts[3].split(",")
        rows.append(TableRow(parts[0], parts[1], parts[2], (int(x), int(y)),
                             tuple(f for f in parts[5].split(",") if f)))
    return rows


def _name(text: str) -> str:
    """A row's text without its value (`Wi-Fi = HomeNet`, `Model Number, MQ163LL/A`)."""
    return text.split(" = ")[0].split(", ")[0]


def find_row(observation: str, label: str) -> TableRow:
    """The row a person would mean by `label`: its text (before any value) is the label, a
    control before static text."""
    rows = parse_table(observation)
    exact = [r for r in rows if _name(r.text) == label]
    controls = [r for r in exact if r.type != "StaticText"]
    found = controls or exact
    if not found:
        raise LookupError(f"no row labelled {label!r} in:\n{observation}")
    return found[0]


def value_of(observation: str, label: str) -> str:
    """The value a row labelled `label` shows (after ` = ` or `, `)."""
    text = find_row(observation, label).text
    return text[len(_name(text)):].lstrip(" =,")


@dataclass(frozen=True)
class Move:
    """One move of a script: a tool and its arguments, or a row to tap by its label."""

    tool: str
    args: dict[str, str] = field(default_factory=dict)
    tap: str = ""
    """For `tap`: the label of the row to tap (resolved against the latest observation)."""
    answer_from: str = ""
    """For `done`: read the answer from the value of the row with this label."""

    def arguments(self, observation: str) -> dict[str, str]:
        """The call's arguments, read off the latest observation where the move needs it."""
        if self.tap:
            return {"id": find_row(observation, self.tap).id}
        if self.answer_from:
            return {**self.args, "answer": value_of(observation, self.answer_from)}
        return dict(self.args)


def tap(label: str) -> Move:
    return Move("tap", tap=label)


def done(summary: str, answer_from: str = "") -> Move:
    return Move("done", {"status": "done", "summary": summary}, answer_from=answer_from)


SCRIPTS: dict[str, tuple[Move, ...]] = {
    "settings.about.reach": (
        Move("open_app", {"name": "Settings"}), tap("General"), tap("About"),
        done("opened Settings > General > About")),
    "settings.about.serial": (
        Move("open_app", {"name": "Settings"}), tap("General"), tap("About"),
        done("read the Model Number on the About page", answer_from="Model Number")),
    "calculator.arithmetic": (
        Move("open_app", {"name": "Calculator"}), tap("4"), tap("7"), tap("multiply"), tap("9"),
        tap("equals"), done("worked out 47 x 9 in Calculator")),
    "notes.create_titled": (
        Move("open_app", {"name": "Notes"}), tap("New Note"),
        Move("type", {"text": "phoneshell benchmark"}), tap("Done"),
        done("added the note")),
}
"""Scripts for suite tasks, found by the start of the task's instruction."""

INSTRUCTIONS: dict[str, str] = {
    "settings.about.reach": "In Settings, go to the About page",
    "settings.about.serial": "In Settings, find the About page and tell me",
    "calculator.arithmetic": "Use the Calculator app to work out 47",
    "notes.create_titled": "Add a new note in Notes",
}


def script_for(instruction: str) -> tuple[Move, ...]:
    """The script whose task's instruction this is."""
    for task_id, start in INSTRUCTIONS.items():
        if instruction.startswith(start):
            return SCRIPTS[task_id]
    raise LookupError(f"no script for the instruction {instruction[:80]!r}")
