"""Answer checks: the agent's words, graded only where the deliverable is information. Pure."""

from __future__ import annotations

from phoneshell.checks.kind import Check, Contains, Finding, check_kind
from phoneshell.evidence import Evidence
from phoneshell.fields import Field
from phoneshell.tree import shorten

ANSWER_TEXT = Field("text", "str", "Text the agent's answer must contain (case-insensitive).",
                    required=True)


@check_kind("answer_contains", family="answer", fields=(ANSWER_TEXT,),
            implied_by=Contains(("answer_contains",)))
def answer_contains(check: Check, evidence: Evidence) -> Finding:
    """Passes when the answer the agent reported contains `text`, ignoring case and surrounding
    space. Reads the claim's `answer` field in full (never the summary); fails when the agent
    reported no answer."""
    claim = evidence.claim
    want = check.text.strip()
    if claim is None:
        return Finding(False, f"the agent reported no claim; wanted an answer with {want!r}",
                       unproven="the agent reported no claim")
    if not claim.answer.strip():
        said = f"; its summary says {shorten(claim.summary)!r}" if claim.summary else ""
        return Finding(False, f"the agent's answer is empty{said}; wanted {want!r}")
    holds = want.lower() in claim.answer.lower()
    return Finding(holds, f"answer {shorten(claim.answer)!r}; wanted it to contain {want!r}")
