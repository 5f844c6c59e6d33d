"""Every record that crosses a file or process boundary: versioned models, strictly read.

    base      Record (frozen, strict, versioned), reading and writing files, the JSONL reader
    audit     AuditEvent, Target: the bridge's log (docs/audit-log.md)
    attempt   EvidenceManifest, Verdict, ResultRow, Claim, ClaimFile, TurnUse (docs/evidence.md,
              docs/runs.md)
    run       RunManifest, DeviceInfo, TaskRef, LeftOut (docs/runs.md)
    names     check_name: run and task ids that become folder names
    seal      Seal, LogSeal, FileSeal: a run's files as signed in run.json (LatestSeal: the
              latest seal made of a run, kept beside the key); the hash chain
    swap      SwapReport, SwapResult (docs/reports.md)
    attack    AttackReport, AttackResult (docs/attack.md)
    trajectory  TrajectoryFrame: the bridge's per-step screenshots (docs/judges.md)
    judges    JudgeSetManifest, LabelRow, JudgeItem, JudgeRun, JudgeAnswer, JudgeScore
              (docs/judges.md)
    ranking   ScoredAttempt (a judgeset's run attempts), Ranking, AgentRate

pydantic v2, because a record is a contract read by other programs: strict types, unknown keys
refused, field docstrings kept as the format's documentation, JSON parsed in Rust with bounded
nesting, and one model per record instead of a hand-written reader repeating its fields.
Never imports the rest of phoneshell.
"""

from phoneshell.records.attack import (
    ATTACK_FAMILIES,
    ATTACK_VERSION,
    AttackFamily,
    AttackReport,
    AttackResult,
)
from phoneshell.records.attempt import (
    CLAIM_STATUSES,
    CLAIM_TEXT_MAX,
    FLAGS,
    OUTCOMES,
    ROLES,
    CheckResult,
    Claim,
    ClaimFile,
    ClaimStatus,
    DeviceRead,
    EvidenceManifest,
    Flag,
    Foreground,
    Outcome,
    ProbeReading,
    ResultRow,
    Role,
    SourceRef,
    Teardown,
    TurnUse,
    Verdict,
    WrittenFloat,
    bounded,
    claim_fields,
    claim_json,
    claim_status,
)
from phoneshell.records.audit import (
    ACTION_KINDS,
    AUDIT_VERSION,
    ELEMENT_MAX,
    LOG_SHARE,
    PHASES,
    STAGES,
    TEXT_MAX,
    UNSCOPED_RUN,
    ActionKind,
    AuditEvent,
    Phase,
    Scalar,
    Stage,
    Target,
    shortened,
)
from phoneshell.records.base import (
    MAX_LINE_BYTES,
    MAX_RECORD_BYTES,
    Lines,
    LineScan,
    Part,
    Record,
    RecordError,
    RecordTooBig,
    Scored,
    append_line,
    append_whole,
    file_size,
    open_regular,
    parse_lines,
    plain,
    read_bytes,
    read_lines,
    read_record,
    scan_lines,
    write_record,
    write_text_atomic,
)
from phoneshell.records.judges import (
    LABEL_TYPES,
    AnswerStatus,
    Excluded,
    Group,
    ItemFrame,
    ItemStep,
    JudgeAnswer,
    JudgeItem,
    JudgeRun,
    JudgeScore,
    JudgeSetManifest,
    Label,
    LabelRow,
    LabelType,
    Origin,
    Rate,
    SetSource,
    WrongItem,
)
from phoneshell.records.names import NAME_MAX, check_name
from phoneshell.records.phone_start import PhoneStart, StartCount, phone_start_name
from phoneshell.records.ranking import AgentRate, Ranking, ScoredAttempt
from phoneshell.records.run import DeviceInfo, DeviceKind, LeftOut, RunManifest, TaskRef
from phoneshell.records.seal import (
    CHAIN_START,
    TAMPER_PROOF,
    FileSeal,
    LatestSeal,
    LogSeal,
    SandboxKind,
    Seal,
    chain_of,
    chain_of_chunks,
    chain_step,
)
from phoneshell.records.swap import HorizonItem, SwapReport, SwapResult
from phoneshell.records.trajectory import (
    FRAMES_DIR,
    TRAJECTORY_FILE,
    FrameKind,
    TrajectoryFrame,
)

__all__ = [
    "ACTION_KINDS", "ATTACK_FAMILIES", "ATTACK_VERSION", "AUDIT_VERSION", "CHAIN_START",
    "CLAIM_STATUSES", "CLAIM_TEXT_MAX", "ELEMENT_MAX", "FLAGS", "LOG_SHARE", "MAX_LINE_BYTES",
    "MAX_RECORD_BYTES", "NAME_MAX", "OUTCOMES", "PHASES", "ROLES", "STAGES", "TAMPER_PROOF",
    "TEXT_MAX", "UNSCOPED_RUN", "ActionKind", "AttackFamily",
    "AttackReport", "AttackResult", "AuditEvent", "CheckResult", "Claim", "ClaimFile",
    "ClaimStatus", "DeviceInfo", "DeviceKind", "DeviceRead", "EvidenceManifest", "FileSeal",
    "Flag", "Foreground", "HorizonItem", "LatestSeal", "LeftOut", "LineScan", "Lines",
    "LogSeal", "Outcome", "Part", "Phase", "PhoneStart", "StartCount", "phone_start_name",
    "ProbeReading", "Record", "RecordError", "RecordTooBig", "ResultRow", "Role", "RunManifest",
    "SandboxKind", "Scalar", "Scored", "Seal", "SourceRef", "Stage", "SwapReport", "SwapResult",
    "Target", "TaskRef", "Teardown", "TurnUse", "Verdict", "WrittenFloat", "append_line",
    "append_whole",
    "bounded", "chain_of", "chain_of_chunks", "chain_step", "check_name", "claim_fields",
    "claim_json", "claim_status", "file_size", "open_regular", "parse_lines",
    "plain", "read_bytes", "read_lines", "read_record", "scan_lines", "shortened",
    "write_record", "write_text_atomic",
    # the judge benchmark
    "FRAMES_DIR", "LABEL_TYPES", "TRAJECTORY_FILE", "AgentRate", "AnswerStatus", "Excluded",
    "FrameKind", "Group", "ItemFrame", "ItemStep", "JudgeAnswer", "JudgeItem", "JudgeRun",
    "JudgeScore", "JudgeSetManifest", "Label", "LabelRow", "LabelType", "Origin", "Ranking",
    "Rate", "ScoredAttempt", "SetSource", "TrajectoryFrame", "WrongItem",
]
