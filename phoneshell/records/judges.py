"""The judge benchmark's files: a judgeset (what a judge sees, and the labels kept apart from it),
a judge run's answers, and its score (docs/judges.md).

    JUDGESET/judgeset.json          JudgeSetManifest: sources, counts by label type, item ids
    JUDGESET/labels.jsonl           LabelRow per item: the phone's grade, never shown to a judge
    JUDGESET/items/<id>/item.json   JudgeItem: instruction, actions in words, frames, claim
    OUT/judge.json                  JudgeRun: which judge, with which options, on which set
    OUT/results/<id>.json           JudgeAnswer (AgentHorizon's result file, plus ours)
    OUT/score.json                  JudgeScore
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from phoneshell.records.attempt import Claim
from phoneshell.records.audit import Scalar
from phoneshell.records.base import Part, Record
from phoneshell.records.ranking import Ranking
from phoneshell.records.seal import TAMPER_PROOF, SandboxKind

JUDGESET_VERSION = 1
LABEL_VERSION = 1
ITEM_VERSION = 1
JUDGE_RUN_VERSION = 1
ANSWER_VERSION = 1
SCORE_VERSION = 2

Label = Literal["positive", "negative"]
LabelType = Literal["positive", "failed", "swapped", "attack"]
LABEL_TYPES: tuple[LabelType, ...] = ("positive", "failed", "swapped", "attack")
"""positive: the phone passed it; failed: an attempt that failed honestly; swapped: a sibling
task's finish shown with this task's instruction; attack: a cheap finish (by family)."""
Origin = Literal["run", "swap", "attack"]
AnswerStatus = Literal["ok", "invalid", "error"]
"""ok: a verdict; invalid: the judge answered, but not a JSON object with a boolean `success`
(counted wrong, kept); error: no answer at all (the endpoint or the command failed; counted
wrong, and asked again when the judge run is resumed)."""


class ItemStep(Part):
    """One agent action, as the audit log recorded it, in words."""

    n: int
    """1-based step number."""
    action: str
    """What was done, for a person: "Tapped Button '7'", "Typed 'milk' into SearchField..."."""
    kind: str
    """The audit kind (launch, tap, type, home, press, swipe, open_url, ...)."""
    params: dict[str, Scalar] = Field(default_factory=dict)
    """The audit log's params (bundle_id, x, y, text, url, ...), WDA element ids left out."""
    ok: bool | None = None
    """Whether the phone accepted it (null: no answer was logged)."""
    app_before: str = ""
    """The app in front before it."""
    app_after: str = ""
    """The app in front after it."""


class ItemFrame(Part):
    """One screenshot of the trajectory."""

    file: str
    """The PNG, relative to the item folder (`frames/NN.png`)."""
    after_step: int
    """The step it follows (0: before the first action)."""
    final: bool = False
    """The screen at capture, after the agent's turn ended."""
    width: int = 0
    """Pixels."""
    height: int = 0
    """Pixels."""
    foreground: str = ""
    """The app in front ("" when unknown)."""


class JudgeItem(Record):
    """items/<id>/item.json: everything a judge may see of one item, and nothing else."""

    VERSION: ClassVar[int] = ITEM_VERSION
    version: int = ITEM_VERSION
    """Format version (1)."""
    id: str
    """The item's opaque id (a random UUID; its verdict is results/<id>.json)."""
    instruction: str
    """The instruction the trajectory is to be judged against."""
    steps: tuple[ItemStep, ...]
    """The agent's actions in order (empty: it did nothing)."""
    frames: tuple[ItemFrame, ...]
    """Screenshots in order: the start, after each action (when captured), and the end."""
    claim: Claim | None = None
    """What the agent said it did (null: it said nothing); task ids in its summary are
    redacted, since harness agents name the task they played."""


class LabelRow(Record):
    """One line of labels.jsonl: the phone's grade of one item. Never shown to a judge."""

    VERSION: ClassVar[int] = LABEL_VERSION
    VERSION_KEY: ClassVar[str] = "v"
    v: int = LABEL_VERSION
    """Format version (1)."""
    id: str
    """The item."""
    label: Label
    """positive: the trajectory does what the instruction asks; negative: it does not."""
    label_type: LabelType
    """positive, failed (an honest failure), swapped (a sibling's finish) or attack."""
    family: str = ""
    """The attack family for attack negatives (null, open-app, echo, ...); "" otherwise."""
    origin: Origin
    """Where the item came from: a run folder, swap results or attack results."""
    source: str
    """The run folder or results file, as given."""
    task_id: str
    """The task whose instruction is shown."""
    trajectory_task: str
    """The task the trajectory was played as (differs for swapped items)."""
    agent: str = ""
    """For run items, the run as reports name it ("solution @ RUN_ID"); ranking fidelity is
    over the run's scored attempts (attempts.jsonl), not its items."""
    attempt: int = 0
    """The attempt number the trajectory was recorded as."""
    tags: tuple[str, ...] = ()
    """The shown task's tags."""
    detail: str = ""
    """The phone's grade for people: the checks that failed (negatives) or held."""
    evidence: str = ""
    """The evidence folder the label was graded from."""
    step_frames: bool = False
    """Whether screenshots after each action were captured (else only start and end)."""
    unverified: bool = False
    """Its run folder did not match its seal (built with `--unverified`): the label, and what
    the judge is shown, may have been changed after the run."""


class SetSource(Part):
    """A run folder or results file a judgeset was built from."""

    origin: Origin
    """run, swap or attack."""
    path: str
    """Where it was, absolute (a set made before that holds it as given, relative to where it
    was made: looked for beside the set, in it and in the current folder)."""
    sha256: str
    """The hash of its results file (results.jsonl for a run, the JSON otherwise); "" for a
    run that could not be read (its reason is among `excluded`)."""
    items: int
    """Items taken from it (a run whose attempts showed what earlier items showed gives
    fewer items than attempts, or none)."""
    agent: str = ""
    """For a run, its agent as reports name it ("solution @ RUN_ID"; "" otherwise, and in sets
    built before runs' attempts were recorded)."""
    unverified: tuple[str, ...] = ()
    """What of the run folder did not match its seal, when the set was built with
    `--unverified` (empty: it matched, or the source is not a sealed run)."""


class Excluded(Part):
    """Something a source held that is not an item, and why."""

    origin: Origin
    """run, swap or attack."""
    what: str
    """Which attempt, pair or finish."""
    reason: str
    """Why it has no clean label or cannot be shown."""


class JudgeSetManifest(Record):
    """judgeset.json: what a judgeset was built from and what it holds (no labels per item)."""

    VERSION: ClassVar[int] = JUDGESET_VERSION
    version: int = JUDGESET_VERSION
    """Format version (1)."""
    set_id: str
    """A random id; a judge run records it, so it is never resumed against another set."""
    built_at: float
    """Unix time."""
    phoneshell_version: str
    """The phoneshell that built it."""
    git_commit: str
    """Its git commit ("" outside a checkout)."""
    frame_px: int
    """Long edge of the frames, in pixels."""
    items: tuple[str, ...]
    """Every item id, sorted."""
    counts: dict[str, int]
    """Items by label type (positive, failed, swapped, attack)."""
    families: dict[str, int]
    """Attack negatives by family."""
    sources: tuple[SetSource, ...]
    """What it was built from."""
    excluded: tuple[Excluded, ...] = ()
    """What was left out, and why."""
    duplicates: int = 0
    """Items left out because an earlier source gave the same instruction, actions, claim and
    label."""
    both_ways: int = 0
    """Trajectories (instruction, actions and claim) the phone graded both ways, each kept as
    two items, one per label: what decided it (time, turns, a draw) is not what a judge sees."""
    without_step_frames: int = 0
    """Items whose trajectory has only its start and end screens (captured without
    `--trajectory`)."""
    unverified: int = 0
    """Items from run folders that did not match their seal (built with `--unverified`)."""
    scored_attempts: int | None = None
    """Scored attempts of its runs, one line each in attempts.jsonl, duplicates included
    (null: a set built before they were recorded, which is scored without a ranking)."""
    labels_sha256: str = ""
    """The sha256 of labels.jsonl as it was built: a judge run scores only those labels ("" in
    a set built before it was recorded, whose labels are held to `counts` and the rest)."""


class JudgeRun(Record):
    """judge.json: which judge judged which set, with which options (a resume must match)."""

    VERSION: ClassVar[int] = JUDGE_RUN_VERSION
    version: int = JUDGE_RUN_VERSION
    """Format version (1)."""
    judge: str
    """The judge, as given to --judge (openai:MODEL, command:CMD)."""
    set_id: str
    """The judgeset's id."""
    judgeset: str
    """The judgeset folder, as given."""
    frames: int
    """Screenshots shown per item (uniformly sampled, first and last always)."""
    long_edge: int
    """Their long edge in pixels."""
    prompt_sha256: str = ""
    """The hash of the built-in judge's prompt ("" for a command judge)."""
    base_url: str = ""
    """The endpoint of an openai judge."""
    started_at: float
    """Unix time."""
    resumed_at: tuple[float, ...] = ()
    """When it was continued."""
    phoneshell_version: str
    """The phoneshell that ran it."""
    git_commit: str = ""
    """Its git commit."""
    sandbox: SandboxKind = "none"
    """How a command judge was confined (`bwrap`, `sandbox-exec`; `none` or `unavailable`:
    it could read the labels), the least confined of its invocations; `in-process` for the
    built-in judge, which runs no program. A run recorded before judges were confined says
    `none`: they ran unconfined."""
    sandbox_note: str = ""
    """Why it ran unconfined ("" when it did not)."""

    @property
    def tamper_proof(self) -> bool:
        """Whether the judge could reach neither the labels nor its own run's files."""
        return self.sandbox in TAMPER_PROOF


class JudgeAnswer(Record):
    """results/<id>.json: one judge verdict. Its first fields are AgentHorizon's result file, so
    their analyzer reads the folder as it is."""

    VERSION: ClassVar[int] = ANSWER_VERSION
    VERSION_KEY: ClassVar[str] = "v"
    success: bool | None
    """The verdict (null when the answer was invalid or missing: counted wrong)."""
    reasoning: str = ""
    """The judge's reasons."""
    confidence: str | None = None
    """low, medium or high, when the judge said one of them."""
    mistake_type: str | None = None
    """AgentHorizon's mistake type, when the judge named one."""
    v: int = ANSWER_VERSION
    """Format version (1)."""
    trajectory_id: str
    """The item."""
    status: AnswerStatus
    """ok, invalid (counted wrong, kept) or error (counted wrong, asked again on resume)."""
    problem: str = ""
    """Why the answer is invalid, or what failed."""
    raw: str = ""
    """The judge's answer exactly as given (the model's text, the command's stdout)."""
    judge: str
    """The judge that answered."""
    seconds: float = 0.0
    """How long it took."""
    frames_shown: int = 0
    """Screenshots the judge was shown."""
    tokens_in: int = 0
    """Prompt tokens the endpoint reported (0: not reported)."""
    tokens_out: int = 0
    """Completion tokens the endpoint reported."""


class Rate(Part):
    """A share with its Wilson 95% interval."""

    correct: int
    """The numerator."""
    n: int
    """The denominator."""
    rate: float | None
    """correct / n (null when n is 0)."""
    ci95: tuple[float, float] | None
    """Wilson 95% interval (null when n is 0)."""


class Group(Part):
    """The score within one label type or one tag."""

    name: str
    """The label type (failed, swapped, attack:echo...) or the tag."""
    items: int
    """Items in the group."""
    positive: Rate
    """Positives judged successful."""
    negative: Rate
    """Negatives judged unsuccessful."""
    balanced: float | None
    """The mean of the two (null unless both have items)."""


class WrongItem(Part):
    """An item the judge got wrong (or did not answer validly)."""

    id: str
    """The item."""
    label: Label
    """The phone's label."""
    label_type: LabelType
    """positive, failed, swapped or attack."""
    family: str = ""
    """The attack family."""
    task_id: str
    """The shown instruction's task."""
    trajectory_task: str
    """The task the trajectory was played as."""
    success: bool | None
    """What the judge said (null: no valid verdict)."""
    status: AnswerStatus | Literal["missing"]
    """How the judge answered (missing: it never did)."""
    reasoning: str = ""
    """The judge's reasons, or the problem with its answer (shortened)."""


class JudgeScore(Record):
    """score.json: one judge on one judgeset, scored strictly against the phone's labels."""

    VERSION: ClassVar[int] = SCORE_VERSION
    version: int = SCORE_VERSION
    """Format version (2: ranking over every scored attempt of a run, not its items)."""
    judge: str
    """The judge."""
    set_id: str
    """The judgeset."""
    items: int
    """Items in the set: every one is in a denominator, answered or not."""
    positives: int
    """Items the phone passed."""
    negatives: int
    """Items the phone failed."""
    tp: int
    """Positives judged successful."""
    fn: int
    """Positives judged unsuccessful, or not validly answered."""
    tn: int
    """Negatives judged unsuccessful."""
    fp: int
    """Negatives judged successful, or not validly answered."""
    invalid: int
    """Answers that were not a JSON object with a boolean success (counted wrong)."""
    missing: int
    """Items with no answer (an error, or not judged yet; counted wrong)."""
    accuracy: Rate
    """(tp + tn) / items."""
    precision: Rate
    """tp / (tp + fp)."""
    recall: Rate
    """tp / positives: the positive accuracy."""
    f1: float | None
    """2 precision recall / (precision + recall)."""
    negative_accuracy: Rate
    """tn / negatives."""
    balanced_accuracy: float | None
    """(recall + negative accuracy) / 2 (null unless both classes have items)."""
    by_type: tuple[Group, ...]
    """By label type, attack negatives by family."""
    by_tag: tuple[Group, ...]
    """By the shown task's tags."""
    wrong: tuple[WrongItem, ...]
    """Every item it got wrong."""
    ranking: Ranking | None = None
    """Ranking fidelity over the runs given, each over all its scored attempts (null: no run
    was given, or `ranking_note`)."""
    ranking_note: str = ""
    """Why there is no ranking when runs were given ("" otherwise)."""
    sandbox: SandboxKind | None = None
    """How the judge was confined (judge.json's `sandbox`; null: not said)."""
    sandbox_note: str = ""
    """Why it ran unconfined ("" when it did not)."""

    @property
    def tamper_proof(self) -> bool:
        """False when the judge ran unconfined: it could have read the labels."""
        return self.sandbox is None or self.sandbox in TAMPER_PROOF
