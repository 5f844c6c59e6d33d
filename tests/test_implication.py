"""The static swap test: rules per kind, the baseline pairs, and fast == naive."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from phoneshell.checks import Check
from phoneshell.implication import check_implied, implied_pairs, implied_pairs_naive
from phoneshell.tasks import Task, load_tasks

C = Check.make


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
        "safari.navigate.example <= resilience.deep_start",
        "safari.navigate.example <= safari.read.heading",
        "settings.about.reach <= settings.about.serial",
        "settings.bluetooth.reach <= settings.search.bluetooth",
        # both read the page's whole title, iPhone Storage, as the search opens it
        "settings.storage.reach <= settings.search.storage",
        "settings.wifi.switch_visible <= settings.search.wifi",
        "weather.open <= weather.read_temperature"])


E, A, F, R, ANS = ("element_exists", "element_exists_anywhere", "foreground_app",
                   "regex_on_screen", "answer_contains")
MODEL = "General > About > Model Number"


@pytest.mark.parametrize("a, b, implied", [
    (C(F, "com.apple.Maps"), C(F, "com.apple.Maps"), True),
    (C(F, "com.apple.Maps"), C(F, "com.apple.Maps2"), False),
    (C(F, "com.apple.Maps", negate=True), C(F, "com.apple.Maps"), False),
    (C(E, "Storage"), C(E, "iPhone storage"), True),
    (C(E, "iPhone Storage"), C(E, "Storage"), False),
    (C(E, "Storage"), C(A, "iPhone Storage"), False),  # anywhere never implies on-screen
    (C(A, "Storage"), C(E, "iPhone Storage"), True),
    (C(A, "Storage"), C(A, "iPhone Storage"), True),
    (C(E, "Model Number", negate=True), C(E, "Model", negate=True), True),
    (C(E, "Model", negate=True), C(E, "Model Number", negate=True), False),
    (C(E, "Model", negate=True), C(E, "Model"), False),
    (C(A, "Model Number", negate=True), C(E, "Model", negate=True), False),
    (C(R, r"\b423\b"), C(R, r"\b423\b"), True),
    (C(R, r"423"), C(R, r"\b423\b"), False),  # regexes compare by text only
    (C(ANS, "meridian"), C(ANS, "The MERIDIAN word"), False),  # answers compare whole values
    (C(ANS, "meridian"), C(E, "meridian"), False),
    (C(E, "Bluetooth"), C(E, "Bluetooth", type="NavigationBar"), True),
    (C(E, "Bluetooth", type="NavigationBar"), C(E, "Bluetooth"), False),
    (C(E, "Bluetooth", type="NavigationBar"), C(E, "Bluetooth", type="Cell"), False),
    (C(E, "Blue", negate=True, type="Cell"), C(E, "Blue", negate=True), True),
    (C(E, "Blue", negate=True), C(E, "Blue", negate=True, type="Cell"), False),
    (C(R, "^Stop$", type="Button"), C(R, "^Stop$"), False),
    (C("opened_in_order", apps=("a", "c")), C("opened_in_order", apps=("a", "b", "c")),
     True),
    (C("opened_in_order", apps=("c", "a")), C("opened_in_order", apps=("a", "b", "c")),
     False),
    (C("opened_in_order", apps=("a", "b", "c"), negate=True),
     C("opened_in_order", apps=("a", "c"), negate=True), True),
    (C("opened_in_order", apps=("a", "c"), negate=True),
     C("opened_in_order", apps=("a", "b", "c"), negate=True), False),
    (C("never_opened", app="x"), C("never_opened", app="x"), True),
    (C("never_opened", app="x"), C("opened_in_order", apps=("y",), negate=True), False),
    (C("typed_into", "wi", app="p", into="Search"),
     C("typed_into", "Wi-Fi", app="p", into="Search"), True),
    (C("typed_into", "wi", app="p", into="Search"),
     C("typed_into", "Wi-Fi", app="p", into="Field"), False),
    # "Gen" typed, then General tapped: `tapped General` passes, `tapped Gen` (echoed) does not
    (C("tapped", "Gen"), C("tapped", "General"), False),
    (C("tapped", "general"), C("tapped", "General"), True),
    (C("opened_via_spotlight", app="c"), C("opened_via_spotlight", app="c"), True),
    (C("count_unchanged", "n", probe="notes_titled"),
     C("count_unchanged", "n", probe="notes_titled"), True),
    (C("count_increased", "n", probe="notes_titled", by=1),
     C("count_increased", "n", probe="notes_titled", by=2), False),
    (C("answer_matches_device", MODEL, probe="settings_value"),
     C("answer_matches_device", MODEL, probe="settings_value"), True),
    (C("answer_contains", "MQ163"),
     C("answer_matches_device", MODEL, probe="settings_value"), False),
    (C("answer_contains", "nimbus"), C("answer_contains", "NIMBUS"), True),
    (C("answer_contains", "NIMBUS"), C("answer_contains", "NIMBUS QUASAR"), False),
    (C("element_exists", "Example", within="WebView"), C("element_exists", "Example Domain"),
     False),
    (C("element_exists", "Example"), C("element_exists", "Example Domain", within="WebView"),
     True),
    (C("typed_into", "iso", submitted=True), C("typed_into", "iso 8601"), False),
    (C("typed_into", "iso"), C("typed_into", "iso 8601", submitted=True), True),
    # the last taps are b's run, so they end with a's run when b's ends with it
    (C("tapped_keys", keys=("9", "equals")), C("tapped_keys", keys=("4", "7", "multiply", "9",
                                                                    "equals")), True),
    (C("tapped_keys", keys=("4", "7")), C("tapped_keys", keys=("7", "4", "9")), False),
    (C("tapped_keys", keys=("4", "7", "9")), C("tapped_keys", keys=("7", "4")), False),
    (C("tapped_keys", keys=("4", "7", "multiply", "9", "equals")),
     C("tapped_keys", keys=("9", "multiply", "4", "7", "equals")), False),
    (C("tapped_keys", keys=("4", "7", "multiply", "9", "equals"),
       also=("9 multiply 4 7 equals",)),
     C("tapped_keys", keys=("9", "multiply", "4", "7", "equals")), True),
    (C("tapped_keys", keys=("9", "multiply", "4", "7", "equals")),
     C("tapped_keys", keys=("9", "multiply", "4", "7", "equals"),
       also=("4 7 multiply 9 equals",)), False),
    (C("opened_from_search", "Battery", result="Battery", app="p"),
     C("opened_from_search", "Battery", result="Battery", app="p"), True),
    (C("opened_from_search", "Battery", result="Battery"),
     C("opened_from_search", "Battery", result="Battery Health"), False),
    # equal once read as the kinds read text (`spelling.folded`): one check, however written
    (C("tapped", "Don't"), C("tapped", "DON\u2019T"), True),
    (C("tapped", "Writer's", negate=True), C("tapped", "Writer\u2019s", negate=True), True),
    (C("tapped", "Wi-Fi", page="Settings"), C("tapped", "wi\u2011fi", page="SETTINGS"), True),
    (C("tapped", "Wi-Fi", page="Settings"), C("tapped", "Wi-Fi", page="General"), False),
    (C(E, "7 o'clock"), C(E, "7 o\u2019clock"), True),
    (C("typed_into", "caf\u00e9", into="Search"),
     C("typed_into", "Cafe\u0301\u00a0au lait", into="\uff33\uff45\uff41\uff52\uff43\uff48"),
     True),
    (C("typed_into", "caf\u00e9", whole=True), C("typed_into", "CAFE\u0301", whole=True), True),
    (C(ANS, "Don't Panic"), C(ANS, "don\u2019t panic"), True),
    (C("opened_from_search", "Writer's", result="Oxford American Writer's Thesaurus"),
     C("opened_from_search", "writer\u2019s", result="oxford american writer\u2019s thesaurus"),
     True),
    (C("opened_from_search", "Writer's", result="Thesaurus", app="p"),
     C("opened_from_search", "Writer's", result="Thesaurus", app="P"), False),
    (C(R, "^7 o'clock$"), C(R, "^7 o\u2019clock$"), False),  # a pattern is never folded
])
def test_rules_per_kind(a: Check, b: Check, implied: bool) -> None:
    assert check_implied(a, b) is implied


def test_pair_reasons_and_compatibility() -> None:
    a = Task("a", "A", "open Settings", checks=(C(F, "com.apple.Preferences"),),
             compatible_with=("b",))
    b = Task("b", "B", "open About", checks=(C(F, "com.apple.Preferences"),
                                               C(E, "Model Number")))
    pairs = implied_pairs([a, b])
    assert [(p.implied.id, p.by.id, p.compatible) for p in pairs] == [("a", "b", True)]
    assert pairs[0].reasons == ((a.checks[0], b.checks[0]),)


def test_a_pair_equal_only_once_read_alike_is_found() -> None:
    """Task a bans a tap on "Don't Allow", task b bans the same tap written as iOS writes it:
    any finish b passes, a passes too, and the test says so (fast and naive alike)."""
    a = Task("a", "A", "don't", checks=(C("tapped", "Don't Allow", negate=True),
                                       C("typed_into", "caf\u00e9", into="Search")))
    b = Task("b", "B", "do not", checks=(C("tapped", "DON\u2019T ALLOW", negate=True),
                                         C("typed_into", "Cafe\u0301 au lait",
                                           into="SEARCH")))
    assert [(p.implied.id, p.by.id) for p in implied_pairs([a, b])] == [("a", "b")]
    assert [(p.implied.id, p.by.id) for p in implied_pairs_naive([a, b])] == [("a", "b")]


def random_suite(seed: int, size: int) -> list[Task]:
    rng = random.Random(seed)
    apps = [f"com.example.app{i}" for i in range(6)]
    words = ["wi-fi", "about", "model number", "storage", "iphone storage", "general", "mod",
             "Wi\u2011Fi", "don't", "DON\u2019T", "caf\u00e9", "cafe\u0301"]
    tasks = []
    for n in range(size):
        checks = [C(F, rng.choice(apps))] if rng.random() < 0.8 else []
        for _ in range(rng.randint(0 if checks else 1, 2)):
            kind = rng.choice([E, A, R, ANS, "opened_in_order", "typed_into"])
            text = rng.choice(words) + (rng.choice(words) if rng.random() < 0.3 else "")
            negate = kind != ANS and rng.random() < 0.15
            if kind == "opened_in_order":
                checks.append(C(kind, apps=tuple(rng.sample(apps, rng.randint(1, 3))),
                                    negate=negate))
            elif kind == "typed_into":
                checks.append(C(kind, text, negate=negate, into="Search"))
            elif kind in (E, A, R):  # element types narrow what is found (and what is absent)
                checks.append(C(kind, text, negate=negate,
                                         type=rng.choice(["", "", "Cell", "Button"])))
            else:
                checks.append(C(kind, text, negate=negate))
        tasks.append(Task(f"t{n}", "T", "do it", checks=tuple(checks)))
    return tasks


@pytest.mark.parametrize("seed", range(5))
def test_fast_equals_naive_on_random_suites(seed: int) -> None:
    tasks = random_suite(seed, 120)
    fast = [(p.implied.id, p.by.id) for p in implied_pairs(tasks)]
    naive = [(p.implied.id, p.by.id) for p in implied_pairs_naive(tasks)]
    assert fast == naive and fast  # identical, in the same order, and not vacuous
