"""The swap test's results (`phoneshell swap --format json`), read by `report --agenthorizon`."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ConfigDict

from phoneshell.records.base import Part, Record, Scored

SWAP_VERSION = 1


class SwapResult(Scored):
    """One ordered pair: B's finish graded as A; scored only when B's finish ran and passed
    as B."""

    implied: str
    """A: the task graded."""
    by: str
    """B: the task whose finish was replayed."""
    compatible: bool
    """A lists B in compatible_with: B's finish legitimately does what A asks."""
    accepted: bool
    """Graded as A, the finish passed."""
    by_passed: bool
    """Graded as B, the finish passed (otherwise the pair proves nothing and is not scored)."""
    detail: str = ""
    """A's failing checks when rejected, or B's when its own finish failed."""
    evidence: str = ""
    """The evidence folder the pair was graded from."""

    @property
    def correct(self) -> bool:
        """Accepted if compatible, rejected if not; an unscored pair is never correct."""
        return self.scored and self.accepted == self.compatible


class SwapReport(Record):
    """The swap JSON: every pair played, and AgentHorizon's class accuracies over them."""

    VERSION: ClassVar[int] = SWAP_VERSION
    version: int = SWAP_VERSION
    """Format version (1)."""
    pairs: tuple[SwapResult, ...]
    """Every pair played, each scored (for --all: every finish as every other task)."""
    pos_accuracy: float | None
    """Share of compatible pairs accepted (null: none)."""
    neg_accuracy: float | None
    """Share of incompatible pairs rejected (null: none)."""
    balanced_accuracy: float | None
    """Their mean (null when either is)."""
    evidence: str
    """The run folder holding the attempts' evidence."""
    unexpected: tuple[SwapResult, ...] = ()
    """With --all: the acceptances the implication test did not predict (each in `pairs` too)."""


class HorizonItem(Part):
    """One line of an AgentHorizon label manifest (`manifest.jsonl`); keys beyond these are
    AgentHorizon's own and are passed over."""

    model_config = ConfigDict(extra="ignore")
    trajectory_id: str
    """The item's stable id; its verdict is `results/<id>.json`."""
    label: Literal["positive", "negative"]
    """positive: the trajectory does what the instruction asks; negative: it does not."""
    original_id: str = ""
    """The task whose trajectory (finish) it is."""
    paired_id: str = ""
    """The task whose instruction it is shown with."""
    instruction_id: str = ""
    """The instruction's task id (the paired task's)."""
