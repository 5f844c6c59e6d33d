"""What `phoneshell run` is asked (`RunOptions`) and what a run did (`RunSummary`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bridge.shares import AGENT_LOG_BYTES
from phoneshell.records import LeftOut, ResultRow
from phoneshell.tasks import default_task_paths

if TYPE_CHECKING:  # phoneshell.report reads run folders with phoneshell.runner.folder
    from phoneshell.report.runs import RunRecord
    from phoneshell.report.tally import AgentNumbers

__all__ = ["RunOptions", "RunSummary"]


@dataclass(frozen=True)
class RunOptions:
    """What `phoneshell run` was asked to do."""

    paths: tuple[str, ...] = field(default_factory=lambda: tuple(default_task_paths()))
    agent: str = "solution"
    device: str | None = None
    """`sim`, `sim:N`, a WDA URL, a udid or `all`; None: one in-process simulated iPhone."""
    latency: str = "none"
    """The simulated iPhones' latency profile: "iphone" answers as slowly as a real one."""
    task_globs: tuple[str, ...] = ()
    runs_dir: Path = Path("runs")
    run_id: str | None = None
    repeat: int = 1
    resume: bool = False
    """Continue the run `run_id` (its agent, tasks, repeat count and latency come from its
    run.json)."""
    sandbox: str = "auto"
    """How `command:` agents are confined: auto, bwrap, sandbox-exec or none."""
    trajectory: bool = False
    """Capture a screenshot at the start of each agent turn and after each agent action, for
    judges (docs/judges.md); a resumed run that captured them goes on capturing. Off by
    default: it costs a WDA screenshot per action, about a quarter of a second on the simulated
    iPhone (which renders a full-size PNG) and more on a real phone."""
    agent_log_bytes: int = AGENT_LOG_BYTES
    """How much of the audit log each agent's turn may write; past it its turn ends and its
    attempt fails (`bridge.shares.AGENT_LOG_BYTES`: no agent can make the log too big to
    read)."""


@dataclass
class RunSummary:
    """What a run did, for the closing lines and `--format json`: `numbers` counts the run's
    whole record; `rows` are only this session's."""

    run_id: str
    run_dir: Path
    rows: list[ResultRow] = field(default_factory=list)
    """The rows this session wrote (a resumed run's earlier ones are in `numbers`)."""
    stopped: str = ""
    """Why the run stopped early ("" when it ran every attempt)."""
    left_out: tuple[LeftOut, ...] = ()
    """Task files left out because of errors, as run.json records them (for a resumed run, those
    left out when it began)."""
    already_scored: int = 0
    """Attempts a resumed run found scored and did not run again."""
    planned: int = 0
    """Attempts this session set out to run."""
    record: RunRecord | None = None
    """The run's whole record once it has ended: run.json's plan, the row that counts for each
    attempt of results.jsonl."""
    numbers: AgentNumbers | None = None
    """The run's numbers over `record` (as `phoneshell report` counts them)."""

    @property
    def all_passed(self) -> bool:
        """Every attempt the run plans (not just this session's) is recorded and passed, and no
        task file was left out: what exit 0 means (`report.tally.all_passed`)."""
        from phoneshell.report.tally import all_passed  # here: see TYPE_CHECKING above

        return self.numbers is not None and all_passed(self.numbers)
