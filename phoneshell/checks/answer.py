"""Answer checks: the agent's words, graded only where the deliverable is information. Pure.

Both kinds compare as `values` says: numbers as numbers with their units, the rest as whole
words, and an answer that also names other candidates of the value's kind (hedging) fails.
"""

from __future__ import annotations

from phoneshell.checks.implied import Contains, Same
from phoneshell.checks.kind import Check, Finding, Need, check_kind
from phoneshell.checks.reading import numbers
from phoneshell.checks.values import EITHER, candidates, compass_point, misnamed, names
from phoneshell.evidence import Evidence
from phoneshell.params import Param
from phoneshell.tree import shorten

ANSWER_TEXT = Param("text", "str", "The value the agent's answer must name: numbers as numbers, "
                            "words as whole words, case-insensitive, and no other candidate.",
                    required=True)


ANSWER_OTHERS = Param("others", "str_list", "Values of the same kind that are wrong here (the "
                                           "answers of the task's siblings): an answer that "
                                           "names one besides `text` hedges.")


def _judge(answer: str, want: str, shown: str, wrong: tuple[str, ...] = (),
           same: tuple[str, ...] = (), label: str = "") -> Finding:
    """Whether `answer` names `want` and only it; `shown` says what was wanted, for details;
    `wrong` are values known to be wrong here, `same` other notations of `want` (no hedge),
    `label` what the check reads, whose words are no candidates (`values.candidates`)."""
    said = shorten(answer)
    if not names(answer, want):
        why = misnamed(answer, want)
        return Finding(False, f"answer {said!r}; wanted it to name {shown}"
                              + (f": {why}" if why else ""))
    others = [c for c in candidates(answer, want, wrong, label)
              if not any(names(c, s) for s in same)]
    if others:
        listed = ", ".join(repr(shorten(o, 20)) for o in others[:4])
        more = f" and {len(others) - 4} more" if len(others) > 4 else ""
        return Finding(False, f"answer {said!r} names {want!r} but hedges: it also names "
                              f"{listed}{more}")
    return Finding(True, f"answer {said!r} names {shown}")


@check_kind("answer_contains", family="answer", params=(ANSWER_TEXT, ANSWER_OTHERS),
            implied_by=Contains(("answer_contains",), whole=True))
def answer_contains(check: Check, evidence: Evidence) -> Finding:
    """Passes when the answer the agent reported names `text`: its numbers as numbers with
    their units, the rest as whole words, ignoring case. Reads the claim's `answer` field in
    full (never the summary); fails when the agent reported no answer, and when the answer also
    names other candidates of the same kind, or one of `others` (it hedges)."""
    claim = evidence.claim
    want = check.text.strip()
    if claim is None:
        return Finding(False, f"the agent reported no claim; wanted an answer with {want!r}",
                       unproven="the agent reported no claim")
    if not claim.answer.strip():
        said = f"; its summary says {shorten(claim.summary)!r}" if claim.summary else ""
        return Finding(False, f"the agent's answer is empty{said}; wanted {want!r}")
    return _judge(claim.answer, want, repr(want), check.list_of("others"))


VALUE_PROBE = Param("probe", "str", "The probe that reads the value off the device at capture, "
                                    "e.g. settings_value.", required=True)
VALUE_ARG = Param("text", "str", "What the probe reads, when it needs to be told, e.g. "
                              "General > About > Model Number.")


def _read_need(check: Check) -> tuple[Need, ...]:
    return (Need("read", check.text_of("probe"), check.text),)


@check_kind("answer_matches_device", family="answer", params=(VALUE_PROBE, VALUE_ARG),
            implied_by=Same(), needs=_read_need, probe_kind="value")
def answer_matches_device(check: Check, evidence: Evidence) -> Finding:
    """Passes when the agent's answer names the value the device itself shows, read by a
    harness probe at capture (e.g. `probe: settings_value`, `text: General > About > Model
    Number` reads that row of Settings > General > About), compared as `answer_contains`
    compares, hedging included. The expected answer is never written in the task, so the check
    holds on any phone. A value read in two notations a tap apart is answered by the one shown
    without a tap; a compass heading by its number. Fails when the value could not be read."""
    read = evidence.read(check.text_of("probe"), check.text)
    what = check.text or check.text_of("probe")
    if read is None or read.value is None or not read.value.strip():
        why = read.error if read is not None and read.error else "it was not read at capture"
        return Finding(False, f"the device's {what!r} is unknown: {why}",
                       unproven=f"the device's {what!r} is unknown: {why}")
    want = read.value.strip()
    claim = evidence.claim
    if claim is None or not claim.answer.strip():
        return Finding(False, f"the agent gave no answer; the device shows {what} = {want!r}",
                       unproven="" if claim else "the agent made no claim")
    finding = _notations(claim.answer, want, check.text)
    for near in () if finding.holds else _drifted(check.text_of("probe"), want):
        nearby = _judge(claim.answer, near, f"{near!r}", label=check.text)
        if nearby.holds:  # the agent read it a moment before the capture did
            detail = f"{nearby.detail}, within {DRIFT_DEGREES}° of it"
            return Finding(True, f"the device shows {what} = {want!r}; {detail}")
    return Finding(finding.holds, f"the device shows {what} = {want!r}; {finding.detail}")


def _notations(answer: str, want: str, label: str = "") -> Finding:
    """`_judge` for a device value read in one notation or several (`EITHER`): the answer must
    name the first, the notation the screen shows without a tap. The others are this phone's
    too, so naming them besides it is no hedge, but alone they answer nothing: a tap on About's
    Model Number shows the regulatory model number (A3256), which every iPhone 17 Pro of a
    region shares (four values in the simulator, one on a rig of one model), so a constant
    guess after a blind tap would name it on a quarter of phones or all of them. The words of
    `label`, the row the value is read from ("Model Number"), may go beside it."""
    first, *others = [n.strip() for n in want.split(EITHER) if n.strip()]
    finding = _judge(answer, first, repr(first), same=tuple(others), label=label)
    alone = next((o for o in others if names(answer, o)), None)
    if finding.holds or alone is None or names(answer, first):
        return finding
    return Finding(False, f"answer {shorten(answer)!r} names {alone!r}, the notation a tap "
                          f"shows, which many phones share, so it shows no reading; wanted "
                          f"{first!r}, the notation the row shows (the other may go beside it)")


DRIFT_DEGREES = 2
"""How far a compass heading may move by itself between the agent's reading and the capture's
(a real magnetometer wanders a degree or two in a hand or on a desk)."""


def _drifted(probe: str, want: str) -> list[str]:
    """The readings a value that moves by itself may have shown the agent: for a compass
    heading, those within `DRIFT_DEGREES`, each with its own point ("272° W"); none else."""
    found = numbers(want)
    if probe != "compass_heading" or len(found) != 1 or found[0].unit != "°":
        return []
    heading = int(found[0].value)
    near = [(heading + step) % 360 for n in range(1, DRIFT_DEGREES + 1) for step in (-n, n)]
    return [f"{d}° {compass_point(d)}" for d in near]
