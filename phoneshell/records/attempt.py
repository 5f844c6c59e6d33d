"""The records of one attempt: the evidence manifest, the verdict, the results row, the claim.

Formats in docs/evidence.md and docs/runs.md; each model's field docstrings are the field docs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import ClassVar, Literal

from pydantic import model_validator

from phoneshell.records.base import Part, Record

EVIDENCE_VERSION = 1
VERDICT_VERSION = 1
RESULT_VERSION = 1
CLAIM_VERSION = 1

Role = Literal["final", "scroll"]
ROLES: tuple[Role, ...] = ("final", "scroll")
ClaimStatus = Literal["done", "gave_up", "failed"]
CLAIM_STATUSES: tuple[ClaimStatus, ...] = ("done", "gave_up", "failed")
Flag = Literal["unsettled", "screen_unreadable", "source_truncated", "acted_outside_bridge",
               "audit_torn", "audit_forged", "clock_still", "unlocked"]
FLAGS: tuple[Flag, ...] = ("unsettled", "screen_unreadable", "source_truncated",
                           "acted_outside_bridge", "audit_torn", "audit_forged", "clock_still",
                           "unlocked")
"""`acted_outside_bridge`: the phone changed with no logged action to explain it (a custody line
in the attempt's log); `audit_forged`: the run's audit.jsonl held lines for this attempt that
the bridge never wrote (they are left out of the evidence). Either fails the attempt.
`clock_still`: the phone's clock did not run (phoneshell's simulated iPhone, whose clock moves
only when told): a running timer on it stands where it started. `unlocked`: the phone had locked
itself after the agent's turn (Auto-Lock ran out) and was unlocked to capture the screen the
agent left."""
Outcome = Literal["passed", "failed", "skipped"]
OUTCOMES: tuple[Outcome, ...] = ("passed", "failed", "skipped")


class Foreground(Part):
    """The app in front at capture (`/wda/activeAppInfo`)."""

    bundle_id: str
    """Its bundle id."""
    name: str = ""
    """Its name, when WDA gives one."""
    pid: int = 0
    """Its process id (0 when unknown)."""


class Claim(Part):
    """What the agent said it did. Recorded in full and never trusted."""

    status: ClaimStatus
    """done, gave_up or failed."""
    answer: str = ""
    """The information the task asked for, if any; what `answer_contains` reads."""
    summary: str = ""
    """Free text: what the agent says it did."""


CLAIM_TEXT_MAX = 4096
"""Characters of a claim's answer and of its summary that are kept: a task's answer is a word or
a number, and a claim of megabytes (a stdout line has no other limit) made every row after it
unreadable once `results.jsonl` passed its size limit."""


def bounded(claim: Claim) -> Claim:
    """`claim` with its answer and summary cut to `CLAIM_TEXT_MAX` characters, saying so."""
    def cut(text: str) -> str:
        if len(text) <= CLAIM_TEXT_MAX:
            return text
        return f"{text[:CLAIM_TEXT_MAX]} [cut: {len(text) - CLAIM_TEXT_MAX:,} more characters]"

    if len(claim.answer) <= CLAIM_TEXT_MAX and len(claim.summary) <= CLAIM_TEXT_MAX:
        return claim
    return claim.model_copy(update={"answer": cut(claim.answer), "summary": cut(claim.summary)})


class WrittenFloat(float):
    """A JSON number with a fraction or an exponent, holding its text as written ("87.50"): a
    number answer is read as that text, which the float alone has lost ("87.5")."""

    written: str

    def __new__(cls, text: str) -> WrittenFloat:
        number = super().__new__(cls, text)
        number.written = text
        return number


def claim_json(text: str | bytes) -> object:
    """JSON text as a claim's reader takes it: `json.loads`, each number with a fraction or an
    exponent a `WrittenFloat`, so that a number answer keeps the text it was sent as.

    Raises:
        ValueError: not JSON (RecursionError: nested too deep).
    """
    return json.loads(text, parse_float=WrittenFloat)


def claim_status(value: object) -> ClaimStatus | None:
    """The status `value` spells in any case, with white space around it ("DONE", " done\n"
    are done); None for anything else ("gave up", "ok", a number), which stays refused."""
    if not isinstance(value, str) or not value.strip().isascii():
        return None
    word = value.strip().lower()
    return next((status for status in CLAIM_STATUSES if status == word), None)


def claim_fields(data: Mapping[str, object]) -> dict[str, object]:
    """A claim's fields as every path reads them (a claim file, a stdout line, `done`): a null
    `answer` or `summary` is none, as leaving it out is (refusing it dropped the whole claim:
    "exited without a claim"); a status in any case or spacing is that status; a JSON number
    answer is its text as written (87 is "87", 87.50 "87.50"; where the JSON text did not
    reach the reader, an MCP client's call, a fraction's shortest text: "87.5"). Anything
    else is left as it is, for the record to refuse with its own error: a bool or NaN answer,
    a list, an unknown status."""
    fields: dict[str, object] = {}
    for key, value in data.items():
        if key in ("answer", "summary") and value is None:
            continue
        if key == "status":
            value = claim_status(value) or value
        elif key == "answer" and isinstance(value, int) and not isinstance(value, bool) \
                and value.bit_length() < 4000:  # str() refuses an int of 4,300 digits
            value = str(value)
        elif key == "answer" and isinstance(value, float) and math.isfinite(value):
            value = value.written if isinstance(value, WrittenFloat) else repr(value)
        fields[key] = value
    return fields


class ClaimFile(Record):
    """The claim file an agent writes with `phoneshell finish` (or a JSON line on stdout, or
    the `done` tool's arguments): the one reader of a claim, whatever wrote it
    (`claim_fields`)."""

    VERSION: ClassVar[int] = CLAIM_VERSION
    VERSION_KEY: ClassVar[str] = "v"
    v: int = CLAIM_VERSION
    """Format version (1)."""
    status: ClaimStatus
    """done, gave_up or failed (read in any case, with white space around it: "DONE")."""
    answer: str = ""
    """The information the task asked for, if any (a JSON number is read as its text)."""
    summary: str = ""
    """Free text: what the agent says it did."""

    @classmethod
    def parse(cls, text: str | bytes, where: str) -> ClaimFile:
        """Read a claim from JSON text, its number answer as written (`claim_fields`)."""
        try:
            data = claim_json(text)
        except (ValueError, RecursionError):
            data = None  # not JSON: the record reader says so, as it does of every record
        if isinstance(data, dict):
            text = json.dumps(claim_fields(data))
        return super().parse(text, where)

    @classmethod
    def of(cls, data: object, where: str) -> ClaimFile:
        """Read a claim from decoded JSON values (`claim_json`'s keep a number's text)."""
        return super().of(claim_fields(data) if isinstance(data, Mapping) else data, where)

    @property
    def claim(self) -> Claim:
        """The claim it holds."""
        return Claim(status=self.status, answer=self.answer, summary=self.summary)


class TurnUse(Record):
    """How much of its budget an MCP-driven agent used (the turns file)."""

    VERSION_KEY: ClassVar[str] = "v"
    v: int = 1
    """Format version (1)."""
    turns: int
    """Actions taken so far."""
    out_of_turns: bool
    """Whether the budget ran out."""
    refused: str = ""
    """What the agent did once the budget was spent, as the tool server refused it ("called
    'tap' instead of done"); "" while nothing was refused."""
    looked: bool = False
    """Whether the attempt's first observation, which is no turn, was given (a second server
    of the attempt does not give it again)."""


class ProbeReading(Part):
    """A count taken by a harness probe before the agent and after capture."""

    name: str
    """The probe, e.g. "notes_titled"."""
    arg: str = ""
    """What it counted, e.g. the note title."""
    before: int | None = None
    """The count after setup, before the agent acted; None when it could not be read."""
    after: int | None = None
    """The count after capture; None when it could not be read."""
    error: str = ""
    """Why a count is missing."""
    rows_before: tuple[str, ...] | None = None
    """What each item counted before the agent showed (a note's row: title, date, first
    words), for a probe that lists them; null when it does not. Fewer rows than the count: the
    top of a list kept most recently edited first (Notes), as far as one screen shows it."""
    rows_after: tuple[str, ...] | None = None
    """The same, after capture."""
    whole: str = ""
    """The probe that counted (with no text, its own reading among `probes`) the whole
    collection this count counts some of: `notes` for `notes_titled`. A filtered count that
    grows while its whole does not, or while an item of the whole is gone, grew by an existing
    item changed into it, not by one made. "" when there is none (or the evidence predates it)."""


class DeviceRead(Part):
    """A value a harness probe read off the device at capture, e.g. the "Model Number" row."""

    probe: str
    """The probe, e.g. "settings_value"."""
    arg: str = ""
    """What it read, e.g. "Model Number"."""
    value: str | None = None
    """The value shown; None when it could not be read."""
    error: str = ""
    """Why the value is missing."""


class SourceRef(Part):
    """One page source file of an evidence folder."""

    file: str
    """Its path inside the folder, e.g. sources/00-final.xml."""
    role: Role
    """`final`: the end state as left by the agent; `scroll`: taken while scrolling it."""
    taken_at: float = 0.0
    """Unix time of the read."""


class EvidenceManifest(Record):
    """evidence.json: what an attempt left to grade by, naming the files beside it."""

    VERSION: ClassVar[int] = EVIDENCE_VERSION
    version: int = EVIDENCE_VERSION
    """Format version (1)."""
    task_id: str
    """The task the attempt was run as (it may be graded as another)."""
    captured_at: float
    """Unix time the capture began."""
    foreground: Foreground | None = None
    """The app in front at capture; null when it could not be read."""
    sources: tuple[SourceRef, ...] = ()
    """Page sources in the order they were taken; the first `final` is the end state."""
    screenshot: str | None = None
    """The screenshot's file name (null: none was taken)."""
    claim: Claim | None = None
    """The agent's claim; null when it reported none."""
    probes: tuple[ProbeReading, ...] = ()
    """Counts taken before the agent and after capture."""
    reads: tuple[DeviceRead, ...] = ()
    """Values read off the device at capture."""
    audit: str | None = None
    """The attempt's slice of the audit log (null: no bridge logged the attempt)."""
    flags: tuple[Flag, ...] = ()
    """Conditions the capture noticed (unsettled screen, unreadable screen...)."""


class CheckResult(Part):
    """The outcome of one check, with a detail a person can act on."""

    kind: str
    """The check kind."""
    passed: bool
    """Whether the check passed (negation applied)."""
    detail: str
    """What was expected and what was seen."""
    negate: bool = False
    """Whether the check was negated."""
    label: str = ""
    """The check as written, shortened (see `Check.label`)."""


class Verdict(Record):
    """verdict.json: the grade of one attempt as one task."""

    VERSION: ClassVar[int] = VERDICT_VERSION
    version: int = VERDICT_VERSION
    """Format version (1)."""
    task_id: str
    """The task graded as."""
    evidence_task_id: str
    """The task the evidence was recorded for (differs in a swap)."""
    passed: bool
    """The attempt passes: at least one check, every check passed, and nothing overruled it."""
    results: tuple[CheckResult, ...]
    """One per check, in the task's order."""
    overruled: str = ""
    """Why the attempt fails although its checks passed (it ran out of time or turns, it acted
    outside the bridge); "" when nothing overruled the checks."""
    run_overruled: str = ""
    """The part of `overruled` only the run could know, which its evidence alone does not show
    (it ran out of time or turns, it harmed the owner's collections, its phone was found
    spoiled, the screen it left could not be read whole); "" when there is none. `phoneshell
    grade` reads it back to reach the run's verdict offline."""

    def failed(self) -> tuple[CheckResult, ...]:
        """The checks that did not pass."""
        return tuple(r for r in self.results if not r.passed)


class Teardown(Part):
    """How teardown went: it always runs, and its failure is kept, never swallowed."""

    ok: bool
    """Every teardown step ran."""
    error: str = ""
    """What failed."""
    stopped: tuple[str, ...] = ()
    """Apps the agent had in front that the task's teardown does not stop, stopped after it, so
    the next attempt does not find them where this agent left them (bundle ids)."""
    switched: tuple[str, ...] = ()
    """Settings values the agent changed (switches, options, sliders), and the phone's own
    state (orientation, appearance, location), and what came of them: "Wi-Fi: set back on",
    "Auto-Lock: set back to Never", "orientation: set back to PORTRAIT", one found as it was
    ("Bluetooth: found on as it was; nothing set back"), or why one stays as the agent left it
    (`runner.setback`)."""
    left: tuple[str, ...] = ()
    """What a `delete_created` step left on the phone on purpose, and why: a count that grew
    while items counted before the agent are gone or no longer shown as they were, so the
    "new" rows may be the owner's items, edited (`runner.counts.spared`)."""
    owner: tuple[str, ...] = ()
    """What the agent changed of the owner's collections (notes, reminders, alarms, World
    Clock's cities) since they were last known, and what came of it: put back, or why it
    stays; or why they could not be read after the teardown (`runner.owner`)."""
    as_was: tuple[tuple[str, str, str], ...] = ()
    """The Settings values the agent touched that the set-back read on the phone, after the
    attempt, at what they were before it, so set nothing back: each as [kind, label, page]
    (["switch", "Airplane Mode", "Settings"], ["control", "wifi-button", ""]); and the phone's
    own states it sent a change of that read as the run found them (["device", "appearance",
    ""]). The owner watch takes the phone's word for these: no other value the agent changed
    passes it (`runner.owner.settings_changed`)."""
    stays: tuple[str, ...] = ()
    """What the agent changed that the teardown could not set back, so it stays as the agent
    left it: a Settings value not found or not set ("Brightness (was 70%)"), a state of the
    phone ("the phone's appearance (was light)"), WDA's settings or the session the agent
    opened (`runner.wda_state`). The run's end says them ("still not as the run found
    them")."""


class ResultRow(Record):
    """One line of results.jsonl: one attempt of one task."""

    VERSION: ClassVar[int] = RESULT_VERSION
    VERSION_KEY: ClassVar[str] = "v"
    v: int = RESULT_VERSION
    """Format version (1)."""
    run_id: str
    """The run."""
    task_id: str
    """The task."""
    attempt: int
    """1-based attempt number of this task within the run."""
    agent: str
    """The agent spec, as given to --agent."""
    outcome: Outcome
    """passed, failed or skipped (not scored)."""
    passed: bool
    """outcome == passed."""
    skipped: bool
    """outcome == skipped."""
    skip_reason: str
    """Why the attempt was not scored (setup failed, phone locked, WDA unreachable...)."""
    checks: tuple[CheckResult, ...]
    """One result per check (empty when the attempt was not graded)."""
    claim: Claim | None
    """The agent's claim in full; never trusted, compared with the grade in reports."""
    started_at: float
    """Unix time the attempt began."""
    seconds: float
    """How long it took."""
    turns: int = 0
    """The agent's turns: the actions the log shows it took (reads not counted), or the tool
    calls a loop that counts its own (`openai:`, `phoneshell mcp`) counted, reads included,
    when that is more."""
    timed_out: bool = False
    """The agent ran out of time (the attempt cannot pass)."""
    out_of_turns: bool = False
    """The agent ran out of turns: its loop said so, or the log shows more actions than the
    task's `max_steps` (the attempt cannot pass)."""
    error: str = ""
    """What went wrong (agent error, or the exception behind a skip)."""
    error_type: str = ""
    """The exception type behind a skip or an error."""
    notes: tuple[str, ...] = ()
    """What the harness did after the agent's turn that is no error of the agent's and changes
    no grade: its folder given back ("its folder was given back to the harness after its turn:
    removed links leading out of its folder (venv/bin/python -> /usr/bin/python3)"). Every
    name in it that the agent chose is quoted when it is not plain."""
    teardown: Teardown = Teardown(ok=True)
    """How teardown went."""
    evidence: str = ""
    """The evidence folder, relative to the run folder ("" when none was captured)."""
    task_sha256: str = ""
    """The hash of the task file's bytes."""
    device: str = ""
    """The label of the phone that ran the attempt (see run.json's devices)."""

    @model_validator(mode="after")
    def _consistent(self) -> ResultRow:
        if self.passed != (self.outcome == "passed") or self.skipped != (self.outcome == "skipped"):
            raise ValueError(f"outcome {self.outcome!r} disagrees with passed={self.passed}, "
                             f"skipped={self.skipped}")
        return self
