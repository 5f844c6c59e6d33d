"""run.json: what a run was, so its numbers can be traced, continued and reproduced."""

from __future__ import annotations

from typing import ClassVar, Literal

from phoneshell.records.base import Part, Record
from phoneshell.records.seal import TAMPER_PROOF, SandboxKind, Seal

RUN_VERSION = 2
DeviceKind = Literal["sim", "url", "usb"]
"""sim (a simulated iPhone phoneshell started), url (a WDA URL), usb (a phone found by udid)."""


class TaskRef(Part):
    """A task as the run saw it: which file, the hash of its bytes, and its tags."""

    id: str
    """The task id."""
    file: str
    """The task file, as given."""
    sha256: str
    """The hash of its bytes."""
    tags: tuple[str, ...] | None = None
    """Its tags as the run ran it: reports count its attempts under them even when its file has
    changed or gone since (null in runs recorded before run.json kept them: there the file,
    while unchanged, says them)."""


class DeviceInfo(Part):
    """A phone the run used."""

    kind: DeviceKind
    """sim, url or usb."""
    label: str
    """How results rows name it: "sim-1", or the first characters of the udid hash."""
    url: str
    """Its WDA URL (for a simulated iPhone, its address during the run, without the secret path
    only the harness knew)."""
    model: str = ""
    """The model WDA reports."""
    ios: str = ""
    """The iOS version WDA reports."""
    udid_sha256: str = ""
    """A hash of the udid: enough to tell phones apart, without publishing the udid."""
    seed: int = 0
    """A simulated iPhone's seed (`phoneshell sim --seed`), which drew its model and serial
    numbers, battery, heading and temperature: `PHONESHELL_SIM_SEED=N` starts that phone again
    (0: the reference phone, or a real one)."""
    latency: str = ""
    """A simulated iPhone's latency profile (`phoneshell run --latency`): "none" (it answers at
    once) or "iphone" (each WDA route as slowly as a real iPhone answers it). Timeouts are wall
    clock, so the two are two kinds of phone: a resume goes on at the run's, reports print it
    and comparisons pair only attempts on the same ("": a real phone, which has its own pace,
    or a run recorded before latency was)."""

    @property
    def phone_kind(self) -> str:
        """Its kind as runs are compared and resumes checked: "sim", "url", "usb", or "sim at
        latency iphone" for a simulated iPhone slowed to a real one's pace."""
        return self.kind if self.latency in ("", "none") else \
            f"{self.kind} at latency {self.latency}"


class LeftOut(Part):
    """A task file the run left out because it has errors: none of its tasks ran, so the run
    cannot pass, and every report of it says so."""

    file: str
    """The file, as found under the run's paths."""
    errors: tuple[str, ...]
    """Each error, with its file:line."""


class RunManifest(Record):
    """run.json."""

    VERSION: ClassVar[int] = RUN_VERSION
    version: int = RUN_VERSION
    """Format version (2)."""
    run_id: str
    """The run's id (its folder name)."""
    started_at: float
    """Unix time the run began."""
    phoneshell_version: str
    """The phoneshell that ran it."""
    git_commit: str
    """Its git commit, for people ("" outside a checkout; "+dirty" after it when its files were
    not the commit's; "+dirty.<digest>" in runs recorded before `code_sha256`)."""
    code_sha256: str = ""
    """The sha256 of its own files as on disk (phoneshell/ and bridge/: `phoneshell.grader`),
    what `--resume` and reports compare ("" in runs recorded before it was)."""
    agent: str
    """The agent spec."""
    paths: tuple[str, ...]
    """Task files and folders the run was given."""
    task_globs: tuple[str, ...]
    """The --task globs ("" for all)."""
    repeat: int
    """Attempts per task."""
    devices: tuple[DeviceInfo, ...]
    """The phones it ran on."""
    tasks: tuple[TaskRef, ...]
    """The tasks it planned."""
    resumed_at: tuple[float, ...] = ()
    """When `--resume` continued the run."""
    sandbox: SandboxKind = "in-process"
    """How the agent was confined (`phoneshell run --sandbox`): bwrap, sandbox-exec, none,
    unavailable or in-process (see docs/security.md)."""
    sandbox_note: str = ""
    """Why the agent ran unconfined ("" when it was confined)."""
    reached_around: tuple[str, ...] = ()
    """What the run said at its start of each phone its program agents could reach around the
    bridge (a --device URL that is not private: a standalone simulator, a phone behind
    iproxy), one line each: there an attempt not scored for a rig fault may be an agent's
    doing, and the results are not tamper-proof; every report says it (`runner.around`)."""
    agent_setup: tuple[str, ...] = ()
    """What changed what the agent got beyond its spec and the sandbox, one line each: the
    harness settings it was handed (`PHONESHELL_EXPOSE_TASK_FILE=1`: the task file, the answer
    key) and the sha256 of the program file a `command:` agent names; every report says them,
    and a `--resume` whose agent would get something else is refused."""
    set_aside: tuple[str, ...] = ()
    """What a `--resume` found written after the run's last seal and moved to `incomplete/`
    (the end of a log, the folder of an attempt with no row): what a run stopped in the middle
    (a full disk, a crash) left unsealed, or what someone else wrote; never graded."""
    left_out: tuple[LeftOut, ...] = ()
    """Task files under the run's paths left out when it began, for errors: their tasks are in
    no plan, so no rate counts them, and the run cannot pass (`--resume` keeps them left out)."""
    seal: Seal | None = None
    """The digests of the run's files, signed (null until the first attempt is sealed)."""

    @property
    def tamper_proof(self) -> bool:
        """Whether the agent could neither reach the run folder nor the signing key."""
        return self.sandbox in TAMPER_PROOF
