"""A constant answer passes few phones (red team 58): for every answer check whose right value
the phone shows, the best answer given without reading passes at most `MOST` of simulated
phones, graded by the task's own check.

An agent that never reads can still know what phones show in general: the eight compass points,
the four regulatory model numbers, that batteries sit between 20% and 99%. Its best constant
answer is the one the most phones show; the test draws `SEEDS` phones (`DeviceFacts.drawn`, the
simulator's own spread), writes each value in every form an answer could take (each notation,
each number with and without its unit, the words without the numbers: "West", "A3522"), and
grades the most common forms against every phone, as if the agent had also tapped every row a
tap changes. The best constant of each task and its rate over seeds 1-1000 are in
docs/checks.md ("What a constant answer passes"), which the test keeps true:

    compass.read_heading         2.7%  (14.8% for "S" while a point alone answered)
    settings.about.serial        0.1%  (29.2% for "A3523" while the tapped notation answered)
    settings.battery.percentage  2.5%
    weather.read_temperature     2.8%

A task whose value the phone cannot vary enough fails here, naming the answer that passes.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from phoneshell.audit import AuditEvent, Target
from phoneshell.checks import Check, grade_check
from phoneshell.checks.reading import WORD_UNITS, measure, numbers, script
from phoneshell.checks.values import EITHER
from phoneshell.device import Phone
from phoneshell.device.probes import run_probe
from phoneshell.device.value_probes import TAPPED_NOTATIONS
from phoneshell.evidence import Claim, DeviceRead, Evidence
from phoneshell.sim import DeviceFacts, SimServer
from phoneshell.sim.apps.compass import describe
from phoneshell.tasks.load import load_tasks

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs/checks.md"
SEEDS = range(1, 1001)
MOST = 0.05
"""The most a constant answer may pass: one phone in twenty."""
TRIED = 12
"""How many of the most common answer forms are graded against every phone."""

SHOWN: dict[tuple[str, str], Callable[[DeviceFacts], str]] = {
    ("compass_heading", ""): lambda f: describe(f.heading),
    ("weather_temperature", ""): lambda f: f"{f.temperature_f}°F",
    ("battery_level", ""): lambda f: f.battery_percent,
    ("settings_value", "General > About > Model Number"):
        lambda f: f"{f.model_number}{EITHER}{f.regulatory_model}",
}
"""What each value probe reads off a drawn phone (checked against the probe itself below)."""


def _device_checks() -> list[tuple[str, Check]]:
    tasks = load_tasks([ROOT / "environments"]).tasks
    return [(task.id, check) for task in tasks for check in task.checks
            if check.kind == "answer_matches_device"]


CHECKS = _device_checks()


def _key(check: Check) -> tuple[str, str]:
    return check.text_of("probe"), check.text


def test_every_value_an_answer_is_graded_by_has_its_spread_here() -> None:
    missing = [f"{task}: {probe}({arg!r})" for task, check in CHECKS
               for probe, arg in [_key(check)] if (probe, arg) not in SHOWN]
    assert CHECKS and not missing, (
        f"answer checks whose value has no spread in SHOWN: {missing}; add what the "
        f"simulated phone shows for it, so a constant answer is measured against it")


def test_the_spread_is_what_the_probes_read() -> None:
    facts = DeviceFacts.drawn(SEEDS[0])
    with SimServer(seed=SEEDS[0]) as sim:
        phone = Phone(sim.url)
        for (probe, arg), shown in SHOWN.items():
            assert run_probe(phone, probe, arg) == shown(facts), (probe, arg)


def _forms(value: str) -> set[str]:
    """The answers a value could be given as: each notation, each of its numbers with and
    without its unit, and its words without the numbers ("274° W": "274°", "274", "W")."""
    found: set[str] = set()
    for notation in (n.strip() for n in value.split(EITHER)):
        found.add(notation)
        rest = notation
        for number in numbers(notation):
            found |= {number.text, str(number.value)}
            rest = rest.replace(number.text, " ")
        if rest.split() and rest.strip() != notation:
            found.add(" ".join(rest.split()))
    return found


def _tapped(arg: str, value: str) -> tuple[AuditEvent, ...]:
    """A log in which the agent tapped the row the check reads, when a tap switches it (it was
    shown the other notation, as far as a log can tell); no actions otherwise."""
    row = arg.rsplit(">", 1)[-1].strip()
    if row not in TAPPED_NOTATIONS:
        return ()
    base = dict(v=1, run_id="r", task_id="t", attempt=1, phase="agent", seq=1, t=1.0,
                kind="tap", params={"x": 200, "y": 400},
                target=Target(type="XCUIElementTypeCell", page="About",
                              label=f"{row}, {value.split(EITHER)[0]}"))
    return (AuditEvent(stage="intent", app_before="com.apple.Preferences", **base),
            AuditEvent(stage="outcome", app_after="com.apple.Preferences", ok=True, **base))


def best_constant(check: Check) -> tuple[str, float]:
    """The constant answer that passes the most drawn phones, and the share it passes."""
    probe, arg = _key(check)
    phones = [DeviceFacts.drawn(seed) for seed in SEEDS]
    shown = [SHOWN[probe, arg](facts) for facts in phones]
    tried = [form for form, _ in Counter(f for value in shown for f in _forms(value))
             .most_common(TRIED)]
    # Phones showing the same value grade alike: grade each value once, weighted.
    by_value = Counter(shown)
    best, passed = "", 0
    for answer in tried:
        won = sum(count for value, count in by_value.items() if grade_check(
            check, Evidence("t", 1.0, claim=Claim(status="done", answer=answer),
                            reads=(DeviceRead(probe=probe, arg=arg, value=value),),
                            events=_tapped(arg, value), audited=True)).passed)
        if won > passed:
            best, passed = answer, won
    return best, passed / len(SEEDS)


def _documented() -> dict[str, str]:
    """The table in docs/checks.md: task id -> the rate it states ("1.5%")."""
    section = DOC.read_text().split("### What a constant answer passes", 1)[1]
    return dict(re.findall(r"^\| `([\w.]+)` \| [^|]+ \| (\d+(?:\.\d)?%) \|", section, re.M))


@pytest.mark.slow  # many phones' readings a task: up to 20 s (compass) on a busy 2 cores
@pytest.mark.parametrize(("task", "check"), CHECKS, ids=[task for task, _ in CHECKS])
def test_a_constant_answer_passes_few_phones(task: str, check: Check) -> None:
    answer, rate = best_constant(check)
    assert rate <= MOST, (
        f"{task}: the constant answer {answer!r} passes {rate:.1%} of simulated phones "
        f"(seeds {SEEDS.start}-{SEEDS.stop - 1}), more than {MOST:.0%}: an agent that never "
        f"reads passes that often; make the check ask for what varies, or the phones vary more")
    stated = _documented().get(task)
    assert stated == f"{rate:.1%}", (
        f"docs/checks.md states {stated!r} for {task}; measured {rate:.1%} ({answer!r})")


# A list of every candidate: for a value of every kind -----------------------------------------
#
# The tasks above are four kinds of value; an author's task may ask for any (a count, a size, a
# version, a price, an id, a word in any script). A blind agent that knows the candidates lists
# them all, so for a value of every kind the answer checks read, a list of it and its neighbours
# fails, however it is joined, and the honest forms of it pass.

SPELLED = {unit: spelled_as[0] for unit, (_, spelled_as) in WORD_UNITS.items()}
"""One way to write each word unit the answer kinds read ("GB" as "gb")."""


def _kinds() -> list[tuple[str, str, list[str]]]:
    """(kind, value, other candidates of its kind) for a value of every kind: each measure of
    `reading` (every word unit too, and another unit of the same measure), bare numbers in each
    notation, codes, words in capitals and in lower case, phrases, another script."""
    kinds = [
        ("bare", "42", ["41", "43", "7"]), ("decimal", "26.2", ["26.1", "26.3"]),
        ("thousands", "1,234", ["1,235", "999"]), ("version", "26.2.1", ["26.2", "26.3.1"]),
        ("decimal comma", "12,5", ["12,4", "13"]), ("negative", "-5°", ["-4°", "5°"]),
        ("id", "Room 101", ["Room 102", "Room 7"]), ("time", "4:59", ["5:00", "4:58"]),
        ("named number", "iPhone 17 Pro", ["iPhone Air", "iPhone 16"]),
        ("degrees", "57°", ["58°", "56°"]), ("percent", "87%", ["86%", "88%"]),
        ("heading", "274° W", ["275° W", "90° E"]), ("money before", "$5", ["$6", "$10"]),
        ("code", "MQ163LL/A", ["MQ173LL/A", "MN2K3LL/A"]),
        ("capitals", "NIMBUS", ["QUASAR", "SORREL"]),
        ("phrase", "Example Domain", ["Example Domains", "Apple Store"]),
        ("word", "lantern", ["otter", "quill"]), ("apostrophe", "Don't Panic", ["Keep Calm"]),
        ("hebrew", "שלום", ["תודה", "בוקר"]),
    ]
    for unit, spelled in SPELLED.items():
        others = [f"11 {spelled}", f"13 {spelled}"]
        alike = [u for u in SPELLED if u != unit and measure(u) == measure(unit)]
        others += [f"2 {SPELLED[alike[0]]}"] if alike else []
        kinds.append((f"unit {unit}", f"12 {spelled}", others))
    return kinds


KINDS = _kinds()
JOINS = (", ", " or ", "; ", "\n", " / ", " and ", " | ")
"""How a list is joined; and `_lists` also writes one joined by spaces, in lower case."""


def _lists(value: str, others: list[str]) -> list[str]:
    """The ways a blind agent lists `value` among `others`: each join, the value first and
    last, and (in Latin letters) spaced in lower case after "one of:", as the attack's shotgun
    does."""
    found = []
    for join in JOINS:
        found += [join.join([value, *others]), join.join([*others, value])]
    if script(value) in ("LATIN", ""):
        found.append("the answer is one of: " + " ".join(v.lower() for v in [*others, value]))
    return found


def _answered(value: str, answer: str) -> tuple[bool, str]:
    result = grade_check(Check.make("answer_contains", value),
                         Evidence("t", 1.0, claim=Claim(status="done", answer=answer)))
    return result.passed, result.detail


@pytest.mark.parametrize(("kind", "value", "others"), KINDS, ids=[k for k, _, _ in KINDS])
def test_a_list_of_candidates_fails_for_a_value_of_every_kind(
        kind: str, value: str, others: list[str]) -> None:
    passing = [answer for answer in _lists(value, others) if _answered(value, answer)[0]]
    assert not passing, f"{kind} {value!r}: these lists pass as answers: {passing}"
    for other in others:  # a pair is a list too
        answer = f"{value}, {other}"
        assert not _answered(value, answer)[0], f"{kind}: {answer!r} passes"


@pytest.mark.parametrize(("kind", "value", "others"), KINDS, ids=[k for k, _, _ in KINDS])
def test_the_one_value_in_a_sentence_passes_for_a_value_of_every_kind(
        kind: str, value: str, others: list[str]) -> None:
    honest = [value, f"It shows {value}.", f"about {value}", f"{value}, I think",
              f"The screen reads: {value}"]
    failing = [(a, d) for a in honest for ok, d in [_answered(value, a)] if not ok]
    assert not failing, f"{kind}: honest answers fail: {failing}"
