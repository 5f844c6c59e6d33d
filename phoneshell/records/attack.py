"""The attack test's results (`phoneshell attack --format json`): cheap finishes graded as tasks.

Each result is one finish, generated from a task file without doing the task (nothing, only
opening the app, echoing a check's words, hedging the answer...), replayed on a phone through
the bridge and graded as that task. Its evidence folder stays, so the finish can be graded again
or shown to a judge: the task graded, the family, the evidence and whether it passed are the
contract a judge benchmark reads.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from phoneshell.records.base import Record, Scored

ATTACK_VERSION = 1

AttackFamily = Literal["null", "open-app", "echo", "shotgun", "result-only", "truncated", "near",
                       "residue", "leaver", "wrong-page", "swap"]
ATTACK_FAMILIES: tuple[AttackFamily, ...] = ("null", "open-app", "echo", "shotgun",
                                             "result-only", "truncated", "near", "residue",
                                             "leaver", "wrong-page", "swap")
"""Every family, in the order they are generated and reported (docs/attack.md)."""


class AttackResult(Scored):
    """One cheap finish, replayed once and graded as one task."""

    task: str
    """The task the finish was graded as."""
    instruction: str
    """That task's instruction: what the finish is judged against."""
    family: AttackFamily
    """How the finish was made: null, open-app, echo, shotgun, result-only, truncated, near,
    residue, leaver, wrong-page or swap."""
    attack: str
    """The finish's id, unique within its task and stable across runs (e.g.
    `echo:spotlight:Model Number`, `truncated:-1`, `residue:clock.timer.set`,
    `swap:settings.search.wifi`); the key a task file's `compatible_attacks` names."""
    # lax: `Scored` fills in `scored` before validation, which then reads Python lists, not JSON
    finish: tuple[str, ...] = Field(strict=False)
    """The finish's steps, as a task file would write them."""
    answer: str = ""
    """The answer the finish claimed ("" for none)."""
    passed: bool
    """Graded as `task`, the finish passed."""
    compatible: bool = False
    """The task file lists this attack in `compatible_attacks`: the finish does what the
    instruction asks, so passing is right."""
    reason: str = ""
    """The task file's one-line reason, when compatible."""
    detail: str = ""
    """The checks that failed, when it failed; the checks that held, when it passed."""
    evidence: str = ""
    """The evidence folder it was graded from, relative to the report's `evidence` folder."""
    unplayed: str = ""
    """Where the finish stopped, when it did not play every step it was made of ("" when it
    did): the step and its error ("step 2 of 4, tap 'Search': no on-screen SearchField ..."),
    or the earlier attempt it was to start after, stopped. Such a finish that failed is not
    scored ("not played"): the checks did not reject the finish the family describes. One that
    passed anyway did pass: what it did play passes the task."""
    absent: bool = False
    """It stopped at its last step, which picks one of what the phone lists (the Nth result of
    a search), because the phone lists fewer: there is no such page, so nothing there went
    unlooked at (not played all the same)."""

    @model_validator(mode="after")
    def _graded_to_pass(self) -> AttackResult:
        if self.passed and not self.scored:
            raise ValueError("a finish that was not graded cannot have passed")
        if self.unplayed and not self.passed and self.scored:
            raise ValueError("a finish that stopped short and failed was not rejected by the "
                             "checks: it is not scored")
        if self.absent and not self.unplayed:
            raise ValueError("an absent pick is a finish that stopped (unplayed)")
        return self

    @property
    def rejected(self) -> bool:
        """Played in full, graded, and failed: the task's checks rejected it."""
        return self.scored and not self.passed

    @property
    def breaks(self) -> bool:
        """The finish passed without doing what the task asks: a hole in the task's checks."""
        return self.passed and not self.compatible


class AttackReport(Record):
    """The attack JSON: every cheap finish tried on every task, and what it cost to try them."""

    VERSION: ClassVar[int] = ATTACK_VERSION
    version: int = ATTACK_VERSION
    """Format version (1)."""
    tasks: int
    """How many tasks were attacked."""
    families: tuple[AttackFamily, ...]
    """The families generated."""
    residue_after: Literal["app", "own"] = "app"
    """After which honest attempts `residue` played its finish: every task's on the task's app
    ("app", the whole family), or only the task's own ("own": `phoneshell attack --residue
    own`, CI's)."""
    attacks: tuple[AttackResult, ...]
    """Every (finish, task) graded, by task then family, but the `unlisted`."""
    unlisted: int = 0
    """(finish, task) gradings not listed: a `swap` sibling finish the other task rejected
    (`phoneshell swap --all` reports those); with `attacks`, every grading made."""
    finishes: int
    """Distinct finishes played (a finish several tasks generate under the same setup is
    played once and graded as each)."""
    replays: int
    """Attempts played on phones, including the second play of a finish whose cheap checks all
    held, to take the probe counts its remaining checks need."""
    seconds: float
    """Wall-clock time of the whole attack."""
    evidence: str
    """The run folder holding every replay's evidence."""

    @property
    def broken(self) -> tuple[AttackResult, ...]:
        """The attacks that passed a task without doing it."""
        return tuple(a for a in self.attacks if a.breaks)
