"""The names of a run folder's files and folders: one home, read by every room that writes or
reads a run (the runner, the seal, the replay agent, the judges' sources). Names only; never
touches a file.

    runs/RUN_ID/
      run.json  results.jsonl  audit.jsonl  run.lock
      attempts/TASK_ID/N/          (N.skipped-K: an earlier try, set aside)
        verdict.json  agent/ ...
      incomplete/                  (what a resume found written after the last seal)
"""

from __future__ import annotations

MANIFEST = "run.json"
"""The run's manifest, signed (`records.RunManifest`)."""
RESULTS = "results.jsonl"
"""One row per attempt recorded (`records.ResultRow`)."""
AUDIT = "audit.jsonl"
"""The bridge's log of every request, one line each (`records.AuditEvent`)."""
LOCK = "run.lock"
"""Who holds the run folder's writer lock (`runner.folder.writing`: the lock is a flock on the
folder itself); no seal covers it, nothing reads it but a lock."""
ATTEMPTS = "attempts"
"""The folder of attempt folders, `attempts/TASK_ID/N`."""
INCOMPLETE = "incomplete"
"""Where a resume moves what the run wrote after its last seal."""
VERDICT = "verdict.json"
"""An attempt's verdict, in its folder."""
SCRATCH = "agent"
"""An attempt's agent's own folder, the one part of it the agent may write."""

__all__ = ["ATTEMPTS", "AUDIT", "INCOMPLETE", "LOCK", "MANIFEST", "RESULTS", "SCRATCH",
           "VERDICT"]
