"""Every record that crosses a file or process boundary: versioned models, strictly read.

    base      Record (frozen, strict, versioned), reading and writing files, the JSONL reader
    audit     AuditEvent, Target: the bridge's log (docs/audit-log.md)
    attempt   EvidenceManifest, Verdict, ResultRow, Claim, ClaimFile, TurnUse (docs/evidence.md,
              docs/runs.md)
    run       RunManifest, DeviceInfo, TaskRef (docs/runs.md)
    swap      SwapReport, SwapResult (docs/reports.md)
    attack    AttackReport, AttackResult (docs/attack.md)
    trajectory  TrajectoryFrame: the bridge's per-step screenshots (docs/judges.md)
    judges    JudgeSetManifest, LabelRow, JudgeItem, JudgeRun, JudgeAnswer, JudgeScore
              (docs/judges.md)

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
)
from phoneshell.records.audit import (
    ACTION_KINDS,
    AUDIT_VERSION,
    PHASES,
    UNSCOPED_RUN,
    ActionKind,
    AuditEvent,
    Phase,
    Scalar,
    Stage,
    Target,
)
from phoneshell.records.base import (
    MAX_RECORD_BYTES,
    Lines,
    Part,
    Record,
    RecordError,
    Scored,
    append_line,
    file_size,
    parse_lines,
    plain,
    read_bytes,
    read_lines,
    read_record,
    write_record,
    write_text_atomic,
)
from phoneshell.records.judges import (
    LABEL_TYPES,
    AgentRate,
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
    Ranking,
    Rate,
    SetSource,
    WrongItem,
)
from phoneshell.records.run import DeviceInfo, DeviceKind, RunManifest, TaskRef
from phoneshell.records.swap import HorizonItem, SwapReport, SwapResult
from phoneshell.records.trajectory import FrameKind, TrajectoryFrame

__all__ = [
    "ACTION_KINDS", "ATTACK_FAMILIES", "ATTACK_VERSION", "AUDIT_VERSION", "AttackFamily",
    "AttackReport", "AttackResult", "CLAIM_STATUSES", "FLAGS", "MAX_RECORD_BYTES", "OUTCOMES",
    "PHASES", "ROLES", "UNSCOPED_RUN", "ActionKind", "AuditEvent", "CheckResult", "Claim",
    "ClaimFile", "ClaimStatus", "DeviceInfo", "DeviceKind", "DeviceRead", "EvidenceManifest",
    "Flag", "Foreground", "HorizonItem", "Lines", "Outcome", "Part", "Phase", "ProbeReading",
    "Record", "RecordError", "ResultRow", "Role", "RunManifest", "Scalar", "Scored", "SourceRef",
    "Stage", "SwapReport", "SwapResult", "Target", "TaskRef", "Teardown", "TurnUse", "Verdict",
    "append_line", "file_size", "parse_lines", "plain", "read_bytes", "read_lines", "read_record",
    "write_record", "write_text_atomic",
    # the judge benchmark
    "LABEL_TYPES", "AgentRate", "AnswerStatus", "Excluded", "FrameKind", "Group", "ItemFrame",
    "ItemStep", "JudgeAnswer", "JudgeItem", "JudgeRun", "JudgeScore", "JudgeSetManifest",
    "Label", "LabelRow", "LabelType", "Origin", "Ranking", "Rate", "SetSource",
    "TrajectoryFrame", "WrongItem",
]
