"""The environment a program runs in as an agent, and the files it reports through.

`command:` agents (and anything they start: `phoneshell finish`, `phoneshell mcp`) learn about
the attempt only from these variables, and report back only through these files:

* the claim file (`PHONESHELL_CLAIM_FILE`): one JSON object `{"v": 1, "status", "answer",
  "summary"}`, written whole (temporary file, then rename) by `phoneshell finish` or by the MCP
  server's `done`;
* the turns file (`turns.json` in `PHONESHELL_ATTEMPT_DIR`): `{"v": 1, "turns", "out_of_turns"}`,
  kept up to date by `phoneshell mcp`, so a command that wraps an MCP client gets its budget use
  recorded.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from phoneshell.errors import RunError
from phoneshell.evidence import CLAIM_STATUSES, Claim, ClaimStatus
from phoneshell.records import Fields, RecordError

WDA_URL = "PHONESHELL_WDA_URL"
INSTRUCTION = "PHONESHELL_INSTRUCTION"
TASK_ID = "PHONESHELL_TASK_ID"
TASK_FILE = "PHONESHELL_TASK_FILE"
EXPOSE_TASK_FILE = "PHONESHELL_EXPOSE_TASK_FILE"
"""Set to 1 in the harness's environment to hand command agents the task file (reference and
replay programs only: it holds the checks and the reference finish)."""
MAX_STEPS = "PHONESHELL_MAX_STEPS"
TIMEOUT_S = "PHONESHELL_TIMEOUT_S"
ATTEMPT_DIR = "PHONESHELL_ATTEMPT_DIR"
CLAIM_FILE = "PHONESHELL_CLAIM_FILE"

VARIABLES: dict[str, str] = {
    WDA_URL: "the bridge's URL: drive the phone here (any WDA client), never elsewhere",
    INSTRUCTION: "the task's instruction, the only thing a model should be told",
    TASK_ID: "the task's id, e.g. settings.about.reach",
    TASK_FILE: "the task file (its checks and reference finish: the answer key); set only when "
               "the harness runs with `PHONESHELL_EXPOSE_TASK_FILE=1`, for reference and replay "
               "programs, never for a model",
    MAX_STEPS: "the task's action budget (tool calls); `phoneshell mcp` enforces it",
    TIMEOUT_S: "the wall-clock budget in seconds; the program is killed after it",
    ATTEMPT_DIR: "the attempt's folder, for transcripts and logs",
    CLAIM_FILE: "where `phoneshell finish` (or the MCP server's done) writes the claim",
}
"""Every variable a `command:` agent gets, and what it means (docs/agents.md lists these)."""

CLAIM_VERSION = 1
TURNS_FILE = "turns.json"


def write_claim(path: Path, claim: Claim) -> None:
    """Write the claim file whole (a reader never sees half of it)."""
    record = {"v": CLAIM_VERSION, "status": claim.status, "answer": claim.answer,
              "summary": claim.summary}
    _write_json(path, record)


def read_claim_file(path: Path) -> Claim | None:
    """The claim in the claim file; None when there is none.

    Raises:
        RecordError: the file is there but is not a claim.
    """
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: not a JSON claim ({exc})") from exc
    f = Fields(data, str(path))
    f.version("v", CLAIM_VERSION)
    claim = _claim(f)
    f.done()
    return claim


def parse_claim_line(line: str) -> Claim | None:
    """A claim from one line of a program's stdout: a JSON object with a valid `status`
    (`answer`, `summary` and `v` optional); None for any other line."""
    text = line.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or data.get("status") not in CLAIM_STATUSES:
        return None
    try:
        f = Fields(data, "stdout")
        if "v" in data:
            f.version("v", CLAIM_VERSION)
        claim = _claim(f)
        f.done()
    except RecordError:
        return None
    return claim


def _claim(f: Fields) -> Claim:
    return Claim(cast(ClaimStatus, f.choice("status", CLAIM_STATUSES)), f.text("answer", ""),
                 f.text("summary", ""))


@dataclass(frozen=True)
class TurnUse:
    """How much of its budget an MCP-driven agent used (the turns file)."""

    turns: int
    out_of_turns: bool


def write_turns(folder: Path, use: TurnUse) -> None:
    """Record the turns used so far in the attempt folder."""
    _write_json(folder / TURNS_FILE, {"v": 1, "turns": use.turns,
                                      "out_of_turns": use.out_of_turns})


def read_turns(folder: Path) -> TurnUse | None:
    """The turns file, when a tool server wrote one; None otherwise (or when unreadable)."""
    path = folder / TURNS_FILE
    try:
        f = Fields(json.loads(path.read_text(encoding="utf-8")), str(path))
        f.version("v", 1)
        use = TurnUse(f.integer("turns"), f.flag("out_of_turns"))
        f.done()
    except (OSError, ValueError):  # RecordError is a ValueError
        return None
    return use


def _write_json(path: Path, record: Mapping[str, object]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def claim_file_from_env() -> Path:
    """The claim file of the attempt this process runs in.

    Raises:
        RunError: not inside an attempt (the variable is unset).
    """
    value = os.environ.get(CLAIM_FILE, "")
    if not value:
        raise RunError(f"{CLAIM_FILE} is not set: `phoneshell finish` reports a claim only "
                       "from inside an attempt",
                       hint="run the program as an agent: phoneshell run --agent "
                            "'command:PROGRAM' (it sets the variable)")
    return Path(value)
