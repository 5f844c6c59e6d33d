"""The environment a program runs in as an agent, and the files it reports through.

`command:` agents (and anything they start: `phoneshell finish`, `phoneshell mcp`) learn about
the attempt only from these variables, and report back only through these files:

* the claim file (`PHONESHELL_CLAIM_FILE`): one JSON object `{"v": 1, "status", "answer",
  "summary"}`, written whole (temporary file, then rename) by `phoneshell finish` or by the MCP
  server's `done`;
* the turns file (`turns.json` in `PHONESHELL_ATTEMPT_DIR`): `{"v": 1, "turns", "out_of_turns",
  "refused"}`, kept up to date by `phoneshell mcp`, so a command that wraps an MCP client gets its
  budget use recorded, and what it did past the budget.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from phoneshell.agents.chat_api import storable_json
from phoneshell.errors import RunError
from phoneshell.records import (
    Claim,
    ClaimFile,
    RecordError,
    TurnUse,
    claim_json,
    claim_status,
    read_bytes,
    read_record,
    write_record,
    write_text_atomic,
)
from phoneshell.untrusted import storable

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
CONTRACT = "PHONESHELL_CONTRACT"

GRADED = ("The phone, not your summary, is checked, as you leave it: finish with the task's "
          "app in front, showing the result (do not go back to the home screen unless the task "
          "asks you to). Give the answer as the value alone (a number with its unit, a name, a "
          "code), not a sentence: an answer that also names other values counts as a guess and "
          "fails. Say how you found it in the summary.")
"""How every attempt is graded, in words a model is given with the instruction: the model
paths' guide (`tools.GUIDE`) ends with it, and a command agent gets it in `CONTRACT`."""
ACTIONS = ("This task allows {steps} actions on the phone: every request that acts on it is one "
           "(a tap, a swipe, a text typed, a launch, home, a button pressed, a URL opened), a "
           "failed one too; reading it (its page source, a screenshot) is none. Type a whole "
           "text in one request: typed a key at a time, each key is an action. An attempt "
           "that takes more than {steps} actions fails, whatever it did.")
"""The action budget in the words a command agent is given (`contract`): what the runner holds
it to, the actions its log shows (`audit.agent_steps`: reads are not logged)."""


def contract(max_steps: int) -> str:
    """`CONTRACT` for a task allowing `max_steps` actions: how the attempt is graded (`GRADED`),
    then its action budget, with the number, and what counts as one action (`ACTIONS`). Red team
    108's agent typed an address a key a request and ran out of a budget nothing it was handed
    named."""
    return f"{GRADED} {ACTIONS.format(steps=max_steps)}"


VARIABLES: dict[str, str] = {
    WDA_URL: "a bridge URL of the agent's own, for this attempt only: drive the phone here (any "
             "WDA client); there is no other way to it",
    INSTRUCTION: "the task's instruction: with `PHONESHELL_CONTRACT`, all a model should be "
                 "told",
    CONTRACT: "how every attempt is graded, in words to give a model with the instruction: "
              "leave the task's app in front showing the result; an answer is the value alone "
              "(the model paths' guide says the same); and the task's action budget, with its "
              "number and what one action is",
    TASK_ID: "the task's id, e.g. settings.about.reach",
    TASK_FILE: "the task file (its checks and reference finish: the answer key); set only when "
               "the harness runs with `PHONESHELL_EXPOSE_TASK_FILE=1`, for reference and replay "
               "programs, never for a model",
    MAX_STEPS: "the task's action budget: the most actions the log may show (each request "
               "that acts on the phone, a text typed in one is one; reads are none); "
               "`phoneshell mcp` enforces it as tool calls",
    TIMEOUT_S: "the wall-clock budget in seconds; the program is killed after it",
    ATTEMPT_DIR: "the agent's own scratch folder (`agent/` in the attempt folder), for "
                 "transcripts and logs; its HOME in the sandbox",
    CLAIM_FILE: "where `phoneshell finish` (or the MCP server's done) writes the claim (in the "
                "scratch folder)",
}
"""Every variable a `command:` agent gets, and what it means (docs/agents.md lists these)."""

TURNS_FILE = "turns.json"
MAX_CLAIM_BYTES = 1024 * 1024
"""The largest claim file read (an answer is a sentence, not a megabyte)."""


def claim_text(claim: Claim) -> bytes:
    """The claim file's bytes for `claim` (a record file, indented), its text `storable`: a
    lone surrogate (from a model, or a byte of the command line that is not UTF-8, which
    Python reads as one) is written as its escape, never the reason the claim is lost."""
    record = ClaimFile(status=claim.status, answer=storable(claim.answer),
                       summary=storable(claim.summary))
    return (json.dumps(record.to_plain(), indent=2, ensure_ascii=False) + "\n").encode()


def oversized_claim(claim: Claim) -> str:
    """Why the runner would not read `claim` from the claim file ("" when it would): its file
    is over `MAX_CLAIM_BYTES`. The MCP server's `done` said "claim recorded" for a 1 MiB
    summary the runner then refused, and the answer was lost (red team 145)."""
    size = len(claim_text(claim))
    if size <= MAX_CLAIM_BYTES:
        return ""
    return (f"the claim is {size:,} bytes as the claim file holds it, over the limit of "
            f"{MAX_CLAIM_BYTES:,} the harness reads; call done again with a shorter summary "
            "(and answer)")


def write_claim(path: Path, claim: Claim) -> None:
    """Write the claim file whole (a reader never sees half of it): `claim_text`."""
    write_text_atomic(path, claim_text(claim))


def read_claim_file(path: Path) -> Claim | None:
    """The claim in the claim file; None when there is none. A byte that is not UTF-8 is read
    as U+FFFD, as a stdout line is.

    Raises:
        RecordError: the file is there but is not a claim.
    """
    if not path.exists():
        return None
    raw = read_bytes(path, MAX_CLAIM_BYTES)
    return claim_of(raw.decode("utf-8-sig", "replace"), str(path), {})


def claim_of(text: str, where: str, defaults: dict[str, object]) -> Claim:
    """The claim in JSON `text` (`defaults` under its fields), every string in it `storable`
    first: `"\\ud800"` is valid JSON that UTF-8 cannot hold, and the record reader refused
    the whole claim for it (red team 134), so it is kept as its six-character escape.

    Raises:
        RefusedClaim: not JSON, or not a claim (the record reader's words).
    """
    try:
        data = claim_json(text)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        try:
            return ClaimFile.parse(text, where).claim
        except RecordError as exc:  # refused, saying why
            raise RefusedClaim(str(exc), None) from exc
    stored = cast(dict[str, object], storable_json(data))  # a dict stays one, its strings storable
    try:
        return ClaimFile.of({**defaults, **stored}, where).claim
    except RecordError as exc:
        status = claim_status(data.get("status"))
        said = Claim(status=status, summary=f"its claim was refused: {exc}") if status else None
        raise RefusedClaim(str(exc), said) from exc


class RefusedClaim(RecordError):
    """A claim the reader refused (an unknown key, an answer that is a list, a status not in
    the list...), with what it still says: `claim` is a claim of its status when the status
    reads (no answer, the refusal as its summary), None when it does not. A refused `done`
    counted as no claim lowered the false-claim rate (docs/claims.md)."""

    def __init__(self, words: str, claim: Claim | None) -> None:
        super().__init__(words)
        self.claim = claim


OVERSIZED = (f"stdout: a line over {MAX_CLAIM_BYTES:,} bytes (MAX_CLAIM_BYTES, the claim "
             "file's own limit) is not read")
"""Why a claim-shaped line too long to read is refused."""


@dataclass(frozen=True)
class ClaimLine:
    """What one claim-shaped line of stdout says: its claim (a refused line's is a claim of its
    status when that reads: `RefusedClaim`), and the record reader's words when refused."""

    claim: Claim | None
    refused: str = ""


def read_claim_line(line: str) -> ClaimLine | None:
    """The claim one line of a program's stdout makes, when it is claim-shaped: a JSON object
    with a `status` key (or a `{...}` line naming `"status"` that is no JSON, a Python dict
    printed as it is); None for any other line, which is ignored."""
    text = line.strip()
    if not (text.startswith("{") and text.endswith("}")):
        return None
    try:
        data = claim_json(text)
    except (ValueError, RecursionError):
        data = None
    if not (isinstance(data, dict) and "status" in data or data is None and _names_status(text)):
        return None
    try:
        return ClaimLine(claim_of(text, "stdout", {"v": ClaimFile.VERSION}))  # v optional
    except RefusedClaim as exc:
        return ClaimLine(exc.claim, str(exc))


def parse_claim_line(line: str) -> Claim | None:
    """A claim from one line of a program's stdout that is read whole: a JSON object with a
    valid `status` (`answer`, `summary` and `v` optional); None for any other line."""
    said = read_claim_line(line)
    return said.claim if said and not said.refused else None


def _names_status(text: str | bytes) -> bool:
    if isinstance(text, bytes):
        return b'"status"' in text or b"'status'" in text
    return '"status"' in text or "'status'" in text


class ClaimLines:
    """The last claim line (`read_claim_line`) of a program's stdout, followed as it is read,
    in pieces of any size (`feed`), before anything of it is left out of the kept copy
    (`capped_output.CappedOutput` keeps its first and last 4 MiB: a claim printed between them
    was lost, and an earlier one recorded in its place). Memory stays bounded: a line longer than
    a claim file may be (`MAX_CLAIM_BYTES`) is passed over unread, so gigabytes printed on one
    line cost a chunk, not gigabytes; and only lines holding a `{` are looked at, from the
    last one of each piece back (the first claim found there is the piece's last).

    The last claim-shaped line decides: read, its claim; refused, its words are kept in
    `refused` (an agent's `done` with an extra key was dropped without a word, "exited without
    a claim") and its status, when that reads, is the claim; a refused line whose status does
    not read (or one over the limit) leaves an earlier claim standing."""

    def __init__(self) -> None:
        self.claim: Claim | None = None
        self.refused = ""
        """The record reader's words on the last claim-shaped line, when it was refused."""
        self._line = bytearray()
        """The line being read, while it can still be a claim."""
        self._oversized = False
        self._shaped = False
        """The line passed over for its size opens as a claim does."""

    def feed(self, chunk: bytes) -> None:
        """Read the next piece of stdout."""
        first = chunk.find(b"\n")
        if first < 0:
            self._extend(chunk)
            return
        self._extend(chunk[:first])
        self._close()
        last = chunk.rfind(b"\n")
        self._latest(chunk, first + 1, last)
        self._extend(chunk[last + 1:])

    def end(self) -> Claim | None:
        """The last claim line once the output has ended (its last line may have no newline)."""
        self._close()
        return self.claim

    def _extend(self, piece: bytes) -> None:
        if self._oversized or not piece:
            return
        if len(self._line) + len(piece) > MAX_CLAIM_BYTES:
            self._shaped = _opens_claim(bytes(self._line) + piece[:MAX_CLAIM_BYTES])
            self._oversized = True
            self._line.clear()
        else:
            self._line += piece

    def _close(self) -> None:
        if self._oversized:
            self._take(ClaimLine(None, OVERSIZED) if self._shaped else None)
        elif self._line:
            self._take(read_claim_line(self._line.decode("utf-8", "replace")))
        self._line.clear()
        self._oversized = self._shaped = False

    def _take(self, said: ClaimLine | None) -> None:
        if said is not None:
            self.refused = said.refused
            self.claim = said.claim or self.claim

    def _latest(self, chunk: bytes, start: int, stop: int) -> None:
        """The last claim-shaped line among the whole lines of `chunk[start:stop]`, if any,
        and the last claim there (`_take`)."""
        before, seen = stop, False
        while (brace := chunk.rfind(b"{", start, before)) >= 0:
            begin = max(chunk.rfind(b"\n", start, brace) + 1, start)
            end = chunk.find(b"\n", brace, stop)
            end = stop if end < 0 else end
            if end - begin <= MAX_CLAIM_BYTES:
                said = read_claim_line(chunk[begin:end].decode("utf-8", "replace"))
            else:
                shaped = _opens_claim(chunk[begin:begin + MAX_CLAIM_BYTES])
                said = ClaimLine(None, OVERSIZED) if shaped else None
            if said is not None and not seen:  # the piece's last claim-shaped line
                seen, self.refused = True, said.refused
            if said is not None and said.claim is not None:
                self.claim = said.claim
                return
            before = begin


def _opens_claim(head: bytes) -> bool:
    """Whether the first bytes of a line too long to read open as a claim line does."""
    return head.lstrip().startswith(b"{") and _names_status(head)


def write_turns(folder: Path, use: TurnUse) -> None:
    """Record the turns used so far in the attempt folder."""
    write_record(folder / TURNS_FILE, use)


def read_turns(folder: Path) -> TurnUse | None:
    """The turns file, when a tool server wrote one; None otherwise (or when unreadable)."""
    path = folder / TURNS_FILE
    if not path.exists():
        return None
    try:
        return read_record(path, TurnUse)
    except RecordError:
        return None


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
