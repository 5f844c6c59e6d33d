"""Every task's action budget lets an honest agent type what it asks key by key, as a person
does on the on-screen keyboard (a red team's key-by-key typist ran out of notes.type_long's flat
25 actions at 56)."""

from __future__ import annotations

from pathlib import Path

import pytest
from attempt_rig import run_one
from key_typists import NoteKeys

from phoneshell.sim import SimServer
from phoneshell.tasks import Task, parse_task
from phoneshell.tasks.budget import key_taps, typed_texts
from phoneshell.tasks.model import DEFAULT_MAX_STEPS

SENTENCE = "the quick brown fox jumps over the lazy dog nine times"


def test_key_taps_count_shift_and_each_layer_switch() -> None:
    assert key_taps("a b\n") == 4
    assert key_taps("Wi-Fi") == 2 + 1 + 2 + 3 + 1  # shift W, i, 123 -, ABC shift F, i
    assert key_taps("benchmark-test (v2)") == 24
    assert key_taps("x#") == 1 + 2 + 1  # #+= is reached through 123
    assert key_taps("café") == 3 + 3  # é: touch and hold its key


def test_every_typing_task_gives_a_key_by_key_typist_room(suite: dict[str, Task]) -> None:
    """Each task whose finish types gives at least the default budget plus the key taps of
    what it types, and what it types is what the instruction asks (so the budget follows the
    instruction, not a guess)."""
    typing = [t for t in suite.values() if typed_texts(t.solution)]
    assert len(typing) >= 15
    for task in typing:
        texts = typed_texts(task.solution)
        for text in texts:
            assert text.strip().lower() in task.instruction.lower(), (task.id, text)
        keys = sum(key_taps(text) for text in texts)
        assert task.max_steps >= DEFAULT_MAX_STEPS + keys - len(texts), (task.id, keys)
    untyped = [t for t in suite.values() if not typed_texts(t.solution)]
    assert all(t.max_steps == DEFAULT_MAX_STEPS for t in untyped)  # tight elsewhere


def test_a_budget_below_the_typing_is_warned(environments: Path) -> None:
    text = (environments / "notes.type_long.yaml").read_text()
    text = text.replace("difficulty: medium\n", "difficulty: medium\nmax_steps: 30\n", 1)
    task, problems = parse_task(text, "notes.type_long.yaml")
    assert task is not None and task.max_steps == 30
    assert any("max_steps 30 is less than an agent typing the solution's text key by key "
               "needs (78)" in p.message for p in problems), problems


@pytest.mark.slow  # 3.9 s measured: the README's command stays quick
def test_a_key_by_key_typist_finishes_the_long_note(sim: SimServer, tmp_path: Path,
                                                    suite: dict[str, Task]) -> None:
    row = run_one(sim, tmp_path, suite["notes.type_long"], NoteKeys(SENTENCE)).row
    assert row.outcome == "passed", [c.detail for c in row.checks if not c.passed]
    assert row.turns > DEFAULT_MAX_STEPS and not row.out_of_turns
