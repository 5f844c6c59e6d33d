"""Build a judgeset folder from run folders, swap results and attack results, and read it back.

    JUDGESET/
      judgeset.json              what it was built from, counts by label type, the item ids
      labels.jsonl               the phone's label of each item: never shown to a judge
      attempts.jsonl             every scored attempt of the runs and the item that judges it
                                 (population.py): never shown to a judge
      items/<id>/item.json       what a judge sees: instruction, actions in words, claim, frames
      items/<id>/frames/NN.png   the start, the screen after each action, the end
      agenthorizon/              the same items in AgentHorizon's layout (horizon.py)

Item ids are random UUIDs and frame names are numbers, so nothing a judge is shown names the
task a trajectory was played as, its source or its label. Run folders are read once they match
their seal (`--unverified`: anyway, their items marked), and of a sealed run's trajectory.jsonl
only the lines its seal vouches for (whose frames it verified). Reads files only.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from phoneshell import __version__
from phoneshell.errors import EvidenceError
from phoneshell.evidence import Evidence, load_evidence
from phoneshell.frames import DEFAULT_LONG_EDGE, FrameError, scale_png
from phoneshell.grader import git_commit
from phoneshell.judges.horizon import write_horizon
from phoneshell.judges.population import ATTEMPTS, Made, scored_rows, write_attempts
from phoneshell.judges.sameness import content_key
from phoneshell.judges.sources import Draft, Gathered, JudgeError, from_attack, from_run, from_swap
from phoneshell.judges.words import sentence
from phoneshell.records import (
    TRAJECTORY_FILE,
    Claim,
    Excluded,
    ItemFrame,
    ItemStep,
    JudgeItem,
    JudgeSetManifest,
    LabelRow,
    Origin,
    RecordError,
    SetSource,
    TrajectoryFrame,
    parse_lines,
    read_bytes,
    read_lines,
    read_record,
    write_record,
    write_text_atomic,
)
from phoneshell.runner.run import Progress
from phoneshell.seal import sealed_log
from phoneshell.tasks import Task, default_task_paths, load_tasks

MANIFEST = "judgeset.json"
LABELS = "labels.jsonl"
ITEMS = "items"
ITEM = "item.json"
HORIZON = "agenthorizon"
REDACTED = "[task]"


@dataclass(frozen=True)
class Sources:
    """What to build from."""

    runs: tuple[Path, ...] = ()
    swaps: tuple[Path, ...] = ()
    attacks: tuple[Path, ...] = ()
    tasks: tuple[str, ...] = field(default_factory=lambda: tuple(default_task_paths()))
    """Task files for swap and attack results (their instructions and tags); by default the
    suite, found as `run` finds it (./environments, else the copy shipped with phoneshell)."""
    run_tasks: bool = False
    """Read run folders' tasks from `tasks` too, instead of the files run.json names."""
    unverified: bool = False
    """Build from run folders that do not match their seal too, their items marked."""


@dataclass(frozen=True)
class Built:
    """One item ready to write."""

    item: JudgeItem
    label: LabelRow
    pngs: tuple[bytes, ...]
    """The frames' bytes, in the item's frame order."""
    key: str
    """What makes it the same trajectory as another item (`content_key`)."""


def gather(sources: Sources) -> tuple[Gathered, list[Task]]:
    """Every draft of every source, in the order given (runs, swaps, attacks)."""
    if not (sources.runs or sources.swaps or sources.attacks):
        raise JudgeError("nothing to build from",
                         hint="give --run RUN_DIR, --swap SWAP_JSON or --attack ATTACK_JSON")
    given = Counter(p.resolve() for p in (*sources.runs, *sources.swaps, *sources.attacks))
    twice = next((str(p) for p, n in given.items() if n > 1), None)
    if twice is not None:  # its attempts would count twice in its agent's rate
        raise JudgeError(f"{twice} is given twice", hint="give each run or results file once")
    tasks = list(load_tasks(sources.tasks).tasks) if (
        sources.swaps or sources.attacks or sources.run_tasks) else []
    by_id = {t.id: t for t in tasks}
    found = Gathered([], [], {})
    for run_dir in sources.runs:
        from_run(run_dir, tasks if sources.run_tasks else None, found, sources.unverified)
    for path in sources.swaps:
        from_swap(path, by_id, found)
    for path in sources.attacks:
        from_attack(path, by_id, found)
    return found, tasks


class _Frames:
    """The trajectory files of the run folders drafts were played in, each read once."""

    def __init__(self) -> None:
        self._read: dict[Path, tuple[TrajectoryFrame, ...]] = {}

    def of(self, run_dir: Path, evidence: Evidence, started_at: float = 0.0,
           attempt: tuple[str, int] | None = None) -> list[TrajectoryFrame]:
        """The frames of the attempt `evidence` was captured from, in order (start first).

        Args:
            started_at: when the try began; a start frame before it is an earlier try's (a run
                retries a skipped attempt under the same number). 0: the attempt had one try.
            attempt: its run id and number (None: read off its first logged line; an attempt
                that logged nothing then has no frames).
        """
        if run_dir not in self._read:
            self._read[run_dir] = self._lines(run_dir)
        if attempt is None and not evidence.events:
            return []
        run_id, number = attempt or (evidence.events[0].run_id, evidence.events[0].attempt)
        acts = evidence.agent_actions()
        seqs = {a.seq for a in acts}
        # A start frame between the try's start and its first agent action (or the capture)
        # is this try's. (Not the first logged event: a setup with nothing to do logs none.)
        until = acts[0].t if acts else evidence.captured_at
        mine = [f for f in self._read[run_dir] if f.file and f.run_id == run_id
                and f.task_id == evidence.task_id and f.attempt == number]
        starts = [f for f in mine if f.kind == "start" and started_at <= f.t <= until]
        after = {f.seq: f for f in mine if f.kind == "action" and f.seq in seqs}
        return starts[-1:] + [after[a.seq] for a in acts if a.seq in after]

    @staticmethod
    def _lines(run_dir: Path) -> tuple[TrajectoryFrame, ...]:
        """A folder's frame lines: of a sealed run, those its seal vouches for (none when it
        sealed no trajectory, whatever file is there); of a swap or attack folder, all."""
        path = run_dir / TRAJECTORY_FILE
        try:
            sealed = sealed_log(run_dir, TRAJECTORY_FILE)
            if sealed is None:
                return read_lines(path, TrajectoryFrame).records
        except RecordError as exc:
            raise JudgeError(str(exc)) from exc
        return parse_lines(sealed, TrajectoryFrame, str(path)).records


def redactor(task_ids: Sequence[str]) -> Callable[[str], str]:
    """Replace task ids in free text: harness agents name the task they played, and the attack
    plays a finish as `<task>.<family>`, which would tell a judge it is a cheap finish."""
    names = sorted({t for t in task_ids if t}, key=len, reverse=True)
    if not names:
        return lambda text: text
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names) + r")(?:\.[\w-]+)*\b")
    return lambda text: pattern.sub(REDACTED, text)


def _png(data: bytes, frame_px: int, where: str) -> tuple[bytes, int, int]:
    try:
        scaled = scale_png(data, frame_px)
    except FrameError as exc:
        raise JudgeError(f"{where}: {exc}") from exc
    return scaled.png, scaled.width, scaled.height


def build_item(draft: Draft, frames: _Frames, frame_px: int,
               redact: Callable[[str], str]) -> Built:
    """The item and label of one draft (its id random).

    Raises:
        EvidenceError: its evidence folder cannot be read.
    """
    evidence = load_evidence(draft.evidence)
    acts = evidence.agent_actions()
    steps = tuple(ItemStep(n=n, action=sentence(a), kind=a.kind, ok=a.ok,
                           params={k: v for k, v in a.params.items() if k != "element"},
                           app_before=a.app_before, app_after=a.app_after)
                  for n, a in enumerate(acts, start=1))
    step_of = {a.seq: n for n, a in enumerate(acts, start=1)}
    taken = frames.of(draft.run_dir, evidence, draft.started_at, draft.attempt)
    shown: list[ItemFrame] = []
    pngs: list[bytes] = []
    for frame in taken:
        after = 0 if frame.kind == "start" else step_of[frame.seq]
        png, width, height = _png(read_bytes(draft.run_dir / frame.file),
                                  frame_px, str(draft.run_dir / frame.file))
        foreground = frame.foreground or (acts[0].app_before if acts and not after else "")
        shown.append(ItemFrame(file=f"frames/{len(shown):02d}.png", after_step=after,
                               width=width, height=height, foreground=foreground))
        pngs.append(png)
    if evidence.screenshot_png is not None:
        png, width, height = _png(evidence.screenshot_png, frame_px, str(draft.evidence))
        shown.append(ItemFrame(file=f"frames/{len(shown):02d}.png", after_step=len(steps),
                               final=True, width=width, height=height,
                               foreground=evidence.foreground.bundle_id
                               if evidence.foreground else ""))
        pngs.append(png)
    claim = evidence.claim
    if claim is not None:
        claim = Claim(status=claim.status, answer=claim.answer, summary=redact(claim.summary))
    item_id = str(uuid.uuid4())
    item = JudgeItem(id=item_id, instruction=draft.instruction, steps=steps,
                     frames=tuple(shown), claim=claim)
    first = evidence.events[0] if evidence.events else None
    label = LabelRow(
        id=item_id, label="positive" if draft.positive else "negative",
        label_type=draft.label_type, family=draft.family, origin=draft.origin,
        source=draft.source, task_id=draft.task_id, trajectory_task=draft.trajectory_task,
        agent=draft.agent, attempt=first.attempt if first else 0, tags=draft.tags,
        detail=draft.detail, evidence=str(draft.evidence), step_frames=bool(taken),
        unverified=draft.unverified)
    final = evidence.final
    screen = (final.source.width, final.source.height) if final else None
    return Built(item, label, tuple(pngs), content_key(item, acts, pngs, screen))


def _prepare(folder: Path) -> None:
    """An empty folder, or one holding an earlier judgeset (replaced); refuse anything else."""
    if folder.exists() and any(folder.iterdir()):
        if not (folder / MANIFEST).is_file():
            raise JudgeError(f"{folder} is not empty and holds no judgeset",
                             hint="choose a new folder for --out")
        for name in (ITEMS, HORIZON):
            shutil.rmtree(folder / name, ignore_errors=True)
        for name in (LABELS, ATTEMPTS, MANIFEST):
            (folder / name).unlink(missing_ok=True)
    folder.mkdir(parents=True, exist_ok=True)


def _write(out: Path, one: Built) -> None:
    folder = out / ITEMS / one.item.id
    (folder / "frames").mkdir(parents=True)
    write_record(folder / ITEM, one.item)
    for frame, png in zip(one.item.frames, one.pngs, strict=True):
        write_text_atomic(folder / frame.file, png)


def build_judgeset(out: Path, sources: Sources, frame_px: int = DEFAULT_LONG_EDGE,
                   progress: Progress = lambda line: None) -> JudgeSetManifest:
    """Build the judgeset in `out` (an empty folder, or an earlier judgeset, replaced).

    An item whose instruction, actions (whole, as logged), frames, claim and label an earlier
    one already has is left out (a null run and the attack's null finish are the same
    trajectory), and counted; a run's attempt it stood for is judged through the earlier item
    (attempts.jsonl). The same trajectory with the other label is an item of its own, counted
    in `both_ways`.
    """
    found, tasks = gather(sources)
    for line in found.warnings:
        progress(line)
    redact = redactor([t.id for t in tasks] + [d.task_id for d in found.drafts]
                      + [d.trajectory_task for d in found.drafts])
    _prepare(out)
    # (content key, label) -> the item showing it: a trajectory the phone graded both ways
    # (one attempt out of time, one not) is two items, or one label would vanish into the other
    frames, seen = _Frames(), dict[tuple[str, str], str]()
    labels: list[LabelRow] = []
    made: dict[int, Made] = {}  # draft index -> its item (or the one standing for it), or why none
    duplicates = 0
    taken_from: Counter[str] = Counter()
    for n, draft in enumerate(found.drafts):
        if (n + 1) % 25 == 0:
            progress(f"[{n + 1}/{len(found.drafts)}] {len(labels)} item(s) so far")
        try:
            one = build_item(draft, frames, frame_px, redact)
        except (EvidenceError, RecordError) as exc:
            why = made[n] = f"its evidence cannot be read: {exc}"
            found.excluded.append(Excluded(origin=draft.origin, what=str(draft.evidence),
                                           reason=why))
            continue
        key = (one.key, one.label.label)
        if key in seen:
            duplicates += 1
            made[n] = (seen[key], True)
            continue
        seen[key] = one.item.id
        made[n] = (one.item.id, False)
        _write(out, one)
        labels.append(one.label)
        taken_from[draft.source] += 1
    labels.sort(key=lambda row: row.id)
    labels_text = "".join(row.to_json() + "\n" for row in labels)
    write_text_atomic(out / LABELS, labels_text)
    attempts = scored_rows(found.attempts, made)
    write_attempts(out, attempts)
    write_horizon(out / HORIZON, out / ITEMS, labels)
    kinds: tuple[tuple[Origin, tuple[Path, ...]], ...] = (
        ("run", sources.runs), ("swap", sources.swaps), ("attack", sources.attacks))
    origins = {str(p): o for o, paths in kinds for p in paths}
    manifest = JudgeSetManifest(
        set_id=str(uuid.uuid4()), built_at=time.time(), phoneshell_version=__version__,
        git_commit=git_commit(), frame_px=frame_px, items=tuple(r.id for r in labels),
        counts=dict(Counter(r.label_type for r in labels)),
        families=dict(Counter(r.family for r in labels if r.family)),
        sources=tuple(SetSource(origin=o, path=str(Path(p).resolve()),  # judged from anywhere
                                sha256=found.hashes[p], items=taken_from[p],
                                agent=found.agents.get(p, ""),
                                unverified=found.unverified.get(p, ()))
                      for p, o in origins.items()),
        excluded=tuple(found.excluded), duplicates=duplicates,
        both_ways=len(seen) - len({content for content, _ in seen}),
        without_step_frames=sum(not r.step_frames for r in labels),
        unverified=sum(r.unverified for r in labels), scored_attempts=len(attempts),
        labels_sha256=hashlib.sha256(labels_text.encode()).hexdigest())
    write_record(out / MANIFEST, manifest)
    return manifest


@dataclass(frozen=True)
class JudgeSet:
    """A judgeset folder as a judge run reads it: the manifest and the items, never labels."""

    folder: Path
    manifest: JudgeSetManifest

    def item(self, item_id: str) -> JudgeItem:
        """One item (raises `JudgeError` naming the file)."""
        try:
            return read_record(self.item_dir(item_id) / ITEM, JudgeItem)
        except RecordError as exc:
            raise JudgeError(str(exc), hint="rebuild it with `phoneshell judgeset`") from exc

    def item_dir(self, item_id: str) -> Path:
        """The item's folder (item.json, frames/)."""
        return self.folder / ITEMS / item_id


def open_judgeset(folder: Path) -> JudgeSet:
    """Read a judgeset's manifest (raises `JudgeError` when it is not one)."""
    path = folder / MANIFEST
    if not path.is_file():
        raise JudgeError(f"{folder} is not a judgeset: {path} is missing",
                         hint="build one with `phoneshell judgeset --run RUN_DIR ... --out DIR`")
    try:
        return JudgeSet(folder, read_record(path, JudgeSetManifest))
    except RecordError as exc:
        raise JudgeError(str(exc), hint="docs/judges.md describes the folder") from exc
