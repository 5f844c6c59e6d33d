"""Write docs/records.md from the record models: every on-disk format, field by field.

The field docs are the models' own docstrings, so the page cannot drift from the code; a test
compares the committed page with this script's output. Run after changing a record:

    .venv/bin/python scripts/record_docs.py > docs/records.md
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
import types
import typing

from phoneshell.records import (
    AgentRate,
    AttackReport,
    AttackResult,
    AuditEvent,
    CheckResult,
    Claim,
    ClaimFile,
    DeviceInfo,
    DeviceRead,
    EvidenceManifest,
    Excluded,
    FileSeal,
    Foreground,
    Group,
    HorizonItem,
    ItemFrame,
    ItemStep,
    JudgeAnswer,
    JudgeItem,
    JudgeRun,
    JudgeScore,
    JudgeSetManifest,
    LabelRow,
    LatestSeal,
    LeftOut,
    LogSeal,
    Part,
    PhoneStart,
    ProbeReading,
    Ranking,
    Rate,
    Record,
    ResultRow,
    RunManifest,
    ScoredAttempt,
    Seal,
    SetSource,
    SourceRef,
    StartCount,
    SwapReport,
    SwapResult,
    Target,
    TaskRef,
    Teardown,
    TrajectoryFrame,
    TurnUse,
    Verdict,
    WrongItem,
)

FILES: list[tuple[str, type[Record], list[type[Part]]]] = [
    ("`audit.jsonl` (one line per event)", AuditEvent, [Target]),
    ("`results.jsonl` (one line per attempt)", ResultRow, [CheckResult, Claim, Teardown]),
    ("`run.json`", RunManifest, [DeviceInfo, TaskRef, LeftOut, Seal, LogSeal, FileSeal]),
    ("`phone-start-<phone>.json` (what the run counted on a phone before its first attempt)",
     PhoneStart, [StartCount]),
    ("the latest seal of a run (`<key file>.latest/<run>.json`, beside the signing key)",
     LatestSeal, []),
    ("`evidence/evidence.json`", EvidenceManifest,
     [Foreground, SourceRef, ProbeReading, DeviceRead]),
    ("`verdict.json`", Verdict, []),
    ("the claim file (`phoneshell finish`)", ClaimFile, []),
    ("`turns.json` (`phoneshell mcp`)", TurnUse, []),
    ("the swap JSON (`phoneshell swap --format json`)", SwapReport, [SwapResult]),
    ("an AgentHorizon `manifest.jsonl` line", HorizonItem, []),
    ("the attack JSON (`phoneshell attack --format json`)", AttackReport, [AttackResult]),
    ("`trajectory.jsonl` (one line per frame, `--trajectory`)", TrajectoryFrame, []),
    ("a judgeset's `judgeset.json`", JudgeSetManifest, [SetSource, Excluded]),
    ("a judgeset's `labels.jsonl` (one line per item)", LabelRow, []),
    ("a judgeset's `attempts.jsonl` (one line per scored attempt of its runs)", ScoredAttempt,
     []),
    ("a judgeset's `items/<id>/item.json`", JudgeItem, [ItemStep, ItemFrame]),
    ("a judge run's `judge.json`", JudgeRun, []),
    ("a judge run's `results/<id>.json`", JudgeAnswer, []),
    ("a judge run's `score.json` (`phoneshell judge --format json`)", JudgeScore,
     [Rate, Group, WrongItem, Ranking, AgentRate]),
]

HEAD = """# Records: every file phoneshell writes or reads

Generated from the record models in `phoneshell/records/` by `scripts/record_docs.py`; a test
keeps this page equal to its output. Every record is read strictly: unknown fields, wrong types
and another version are refused with the file, the line and the field. A record's version key
(`v` or `version`) must be present in a file; a newer phoneshell bumps it when a format changes.

JSONL files (`audit.jsonl`, `results.jsonl`) follow one rule for a cut-off end: **a line is a
record only once its newline is written**. Writers write a whole line, newline included, in one
call, so a last line without its newline is a writer that died mid-line: readers report it as
torn and never read it as a record (even when it happens to parse), and the next append starts a
new line. Files are read only when they are regular files (never a FIFO or a device) under a
size limit (64 MiB), and JSON nesting is bounded, so no input hangs or crashes a reader. A run's
`audit.jsonl` grows with its attempts, so it is read a line at a time instead: no size of the
file is refused, a line over 1 MiB is reported and skipped, and each event is kept bounded
(`AuditEvent.bounded`: what the phone or a client chose, at most 2,000 characters in `params`
and `error`, 1,000 in `target` and the app ids). A record that cannot be read costs only its
own run or attempt: a report names the run and reports the others ([reports](reports.md)).
"""


def _type(annotation: object) -> str:
    """A field's type in words: `str`, `int or null`, `one of 'a', 'b'`, `list of Target`."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type(a) for a in args)
    if origin is tuple:
        return f"list of {_type(args[0])}"
    if origin is dict:
        return f"object of {_type(args[1])}"
    if annotation is type(None):
        return "null"
    return getattr(annotation, "__name__", str(annotation))


def field_docs(model: type[Record]) -> dict[str, str]:
    """Each field's docstring: the string right under its annotation, in the class that
    declares it (the records do not ask pydantic to read them: it parsed every model's source
    at every import)."""
    docs: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if not (isinstance(cls, type) and issubclass(cls, Record)) or cls is Record:
            continue
        body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
        assert isinstance(body, ast.ClassDef)
        for here, after in zip(body.body, body.body[1:], strict=False):
            if (isinstance(here, ast.AnnAssign) and isinstance(here.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[here.target.id] = inspect.cleandoc(after.value.value)
    return docs


def table(model: type[Record]) -> list[str]:
    """One row per field: name, type, default, doc."""
    hints = typing.get_type_hints(model)
    docs = field_docs(model)
    rows = ["| field | type | default | meaning |", "|---|---|---|---|"]
    for name, info in model.model_fields.items():
        default = ("required" if info.is_required()
                   else f"`{info.get_default(call_default_factory=True)!r}`")
        doc = " ".join(docs.get(name, "").split()).replace("|", "\\|")
        rows.append(f"| `{name}` | {_type(hints[name])} | {default} | {doc} |")
    return rows


def render() -> str:
    """The whole page."""
    lines = [HEAD]
    for title, model, parts in FILES:
        version = f", version {model.VERSION}" if model.VERSION_KEY else ""
        lines += [f"## {title}: `{model.__name__}`{version}", "",
                  " ".join((model.__doc__ or "").split()), "", *table(model), ""]
        for part in parts:
            lines += [f"### `{part.__name__}`", "", " ".join((part.__doc__ or "").split()), "",
                      *table(part), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(render())
