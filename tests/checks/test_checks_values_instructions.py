"""Texts a task wants typed exactly, as its instruction gives them: never run into the sentence's
own punctuation, which an agent cannot tell from the text ("enter this text exactly:
benchmark-test (v2)." -- is the full stop typed?), unless the check accepts both readings."""

from __future__ import annotations

import re
from pathlib import Path

from phoneshell.tasks import Task, load_tasks

SENTENCE_PUNCTUATION = ".!?,;:"
QUOTES = "'\"\u2018\u2019\u201c\u201d`"


def exact_texts(task: Task) -> list[tuple[str, re.Pattern[str]]]:
    """The texts `task` checks exactly, as patterns matched whole: a device value's pattern
    (`device_value`), a note's or reminder's title (`*_titled` probes, compared whole)."""
    found = []
    for check in task.checks:
        if check.kind == "device_value":
            found.append((check.text, check.pattern))
        elif str(dict(check.values).get("probe", "")).endswith("_titled"):
            found.append((check.text, re.compile(re.escape(check.text), re.IGNORECASE)))
    return found


def ambiguous_ends(instruction: str, pattern: re.Pattern[str]) -> tuple[list[str], int]:
    """The places the instruction gives the text followed by a sentence's punctuation, not
    inside quotes, where the check would refuse the text typed with it; and how many places it
    gives the text at all."""
    spans = [(i, j) for i in range(len(instruction)) for j in range(i + 1, len(instruction) + 1)
             if pattern.fullmatch(instruction[i:j])]
    wrong = []
    for i, j in spans:
        after = instruction[j:j + 1]
        quoted = instruction[i - 1:i] in QUOTES and i > 0
        if (after and after in SENTENCE_PUNCTUATION and not quoted
                and not pattern.fullmatch(instruction[i:j + 1])):
            wrong.append(f"{instruction[i:j + 1]!r}")
    return wrong, len(spans)


def test_no_instruction_runs_an_exact_text_into_its_punctuation(environments: Path) -> None:
    problems = []
    for task in load_tasks([environments]).tasks:
        for text, pattern in exact_texts(task):
            wrong, given = ambiguous_ends(task.instruction, pattern)
            if not given:
                problems.append(f"{task.id}: the instruction never gives the text {text!r}")
            problems += [f"{task.id}: {w} could be the text with or without its last character"
                         for w in wrong]
    assert not problems, "\n".join(problems)


def test_the_audit_finds_the_ambiguity_it_is_for() -> None:
    pattern = re.compile(r"[Bb]enchmark-test \(v2\)")
    wrong, _ = ambiguous_ends("Enter this text exactly: benchmark-test (v2).", pattern)
    assert wrong == ["'benchmark-test (v2).'"]
    assert ambiguous_ends("Enter this text exactly: benchmark-test (v2)", pattern)[0] == []
    assert ambiguous_ends("Enter 'benchmark-test (v2)'.", pattern)[0] == []
    both = re.compile(r"[Bb]enchmark-test \(v2\)\.?")
    assert ambiguous_ends("Enter this text exactly: benchmark-test (v2).", both)[0] == []
