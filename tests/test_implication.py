"""The static swap test: rules per kind, the baseline pairs, and fast == naive."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from phoneshell.checks import Check
from phoneshell.implication import check_implied, implied_pairs, implied_pairs_naive
from phoneshell.tasks import Task, load_tasks


def ids(pairs: list) -> list[str]:  # type: ignore[type-arg]
    return sorted(f"{p.implied.id} <= {p.by.id}" for p in pairs)


def baseline(reference: Path) -> list[str]:
    lines = (reference / "implication-baseline.txt").read_text().splitlines()
    assert lines[0].split() == ["80", "46"]
    return sorted(line for line in lines[1:] if line.strip())


def test_reference_corpus_reproduces_the_baseline_exactly(reference: Path) -> None:
    tasks = load_tasks([reference / "phoneshell-environments"]).tasks
    pairs = implied_pairs(tasks)
    assert ids(pairs) == baseline(reference)
    assert ids(implied_pairs_naive(tasks)) == baseline(reference)
    assert not any(p.compatible for p in pairs)


def test_the_suite_leaves_only_compatible_pairs(environments: Path) -> None:
    pairs = implied_pairs(load_tasks([environments]).tasks)
    assert [(p.implied.id, p.by.id) for p in pairs if not p.compatible] == []
    assert ids(pairs) == sorted([
        "resilience.deep_start <= safari.navigate.example",
        "resilience.deep_start <= safari.read.heading",
        "settings.about.reach <= settings.about.serial",
        "settings.bluetooth.reach <= settings.search.bluetooth",
        "settings.wifi.switch_visible <= settings.search.wifi",
        "weather.open <= weather.read_temperature"])


E, A, F, R, ANS = ("element_exists", "element_exists_anywhere", "foreground_app",
                   "regex_on_screen", "answer_contains")
MODEL = "General > About > Model Number"


@pytest.mark.parametrize("a, b, implied", [
    (Check(F, "com.apple.Maps"), Check(F, "com.apple.Maps"), True),
    (Check(F, "com.apple.Maps"), Check(F, "com.apple.Maps2"), False),
    (Check(F, "com.apple.Maps", negate=True), Check(F, "com.apple.Maps"), False),
    (Check(E, "Storage"), Check(E, "iPhone storage"), True),
    (Check(E, "iPhone Storage"), Check(E, "Storage"), False),
    (Check(E, "Storage"), Check(A, "iPhone Storage"), False),  # anywhere never implies on-screen
    (Check(A, "Storage"), Check(E, "iPhone Storage"), True),
    (Check(A, "Storage"), Check(A, "iPhone Storage"), True),
    (Check(E, "Model Number", negate=True), Check(E, "Model", negate=True), True),
    (Check(E, "Model", negate=True), Check(E, "Model Number", negate=True), False),
    (Check(E, "Model", negate=True), Check(E, "Model"), False),
    (Check(A, "Model Number", negate=True), Check(E, "Model", negate=True), False),
    (Check(R, r"\b423\b"), Check(R, r"\b423\b"), True),
    (Check(R, r"423"), Check(R, r"\b423\b"), False),  # regexes compare by text only
    (Check(ANS, "meridian"), Check(ANS, "The MERIDIAN word"), True),
    (Check(ANS, "meridian"), Check(E, "meridian"), False),
    (Check(E, "Bluetooth"), Check(E, "Bluetooth", type="NavigationBar"), True),
    (Check(E, "Bluetooth", type="NavigationBar"), Check(E, "Bluetooth"), False),
    (Check(E, "Bluetooth", type="NavigationBar"), Check(E, "Bluetooth", type="Cell"), False),
    (Check(E, "Blue", negate=True, type="Cell"), Check(E, "Blue", negate=True), True),
    (Check(E, "Blue", negate=True), Check(E, "Blue", negate=True, type="Cell"), False),
    (Check(R, "^Stop$", type="Button"), Check(R, "^Stop$"), False),
    (Check("opened_in_order", apps=("a", "c")), Check("opened_in_order", apps=("a", "b", "c")),
     True),
    (Check("opened_in_order", apps=("c", "a")), Check("opened_in_order", apps=("a", "b", "c")),
     False),
    (Check("opened_in_order", apps=("a", "b", "c"), negate=True),
     Check("opened_in_order", apps=("a", "c"), negate=True), True),
    (Check("opened_in_order", apps=("a", "c"), negate=True),
     Check("opened_in_order", apps=("a", "b", "c"), negate=True), False),
    (Check("never_opened", app="x"), Check("never_opened", app="x"), True),
    (Check("never_opened", app="x"), Check("opened_in_order", apps=("y",), negate=True), False),
    (Check("typed_into", "wi", app="p", into="Search"),
     Check("typed_into", "Wi-Fi", app="p", into="Search"), True),
    (Check("typed_into", "wi", app="p", into="Search"),
     Check("typed_into", "Wi-Fi", app="p", into="Field"), False),
    (Check("tapped", "Gen"), Check("tapped", "General"), True),
    (Check("opened_via_spotlight", app="c"), Check("opened_via_spotlight", app="c"), True),
    (Check("count_unchanged", "n", probe="notes_titled"),
     Check("count_unchanged", "n", probe="notes_titled"), True),
    (Check("count_increased", "n", probe="notes_titled", by=1),
     Check("count_increased", "n", probe="notes_titled", by=2), False),
    (Check("answer_matches_device", MODEL, probe="settings_value"),
     Check("answer_matches_device", MODEL, probe="settings_value"), True),
    (Check("answer_contains", "MQ163"),
     Check("answer_matches_device", MODEL, probe="settings_value"), False),
])
def test_rules_per_kind(a: Check, b: Check, implied: bool) -> None:
    assert check_implied(a, b) is implied


def test_pair_reasons_and_compatibility() -> None:
    a = Task("a", "A", "open Settings", checks=(Check(F, "com.apple.Preferences"),),
             compatible_with=("b",))
    b = Task("b", "B", "open About", checks=(Check(F, "com.apple.Preferences"),
                                               Check(E, "Model Number")))
    pairs = implied_pairs([a, b])
    assert [(p.implied.id, p.by.id, p.compatible) for p in pairs] == [("a", "b", True)]
    assert pairs[0].reasons == ((a.checks[0], b.checks[0]),)


def random_suite(seed: int, size: int) -> list[Task]:
    rng = random.Random(seed)
    apps = [f"com.example.app{i}" for i in range(6)]
    words = ["wi-fi", "about", "model number", "storage", "iphone storage", "general", "mod"]
    tasks = []
    for n in range(size):
        checks = [Check(F, rng.choice(apps))] if rng.random() < 0.8 else []
        for _ in range(rng.randint(0 if checks else 1, 2)):
            kind = rng.choice([E, A, R, ANS, "opened_in_order", "typed_into"])
            text = rng.choice(words) + (rng.choice(words) if rng.random() < 0.3 else "")
            negate = kind != ANS and rng.random() < 0.15
            if kind == "opened_in_order":
                checks.append(Check(kind, apps=tuple(rng.sample(apps, rng.randint(1, 3))),
                                    negate=negate))
            else:
                checks.append(Check(kind, text, negate=negate,
                                    into="Search" if kind == "typed_into" else ""))
        tasks.append(Task(f"t{n}", "T", "do it", checks=tuple(checks)))
    return tasks


@pytest.mark.parametrize("seed", range(5))
def test_fast_equals_naive_on_random_suites(seed: int) -> None:
    tasks = random_suite(seed, 120)
    fast = [(p.implied.id, p.by.id) for p in implied_pairs(tasks)]
    naive = [(p.implied.id, p.by.id) for p in implied_pairs_naive(tasks)]
    assert fast == naive and fast  # identical, in the same order, and not vacuous
