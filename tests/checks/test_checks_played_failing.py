"""Every check kind, and the negated form of every negatable one, fails through the real grader:
a small task of that one check, played by the solution agent (its `solution:` the finish that
must fail it) through the runner, the bridge and a simulated iPhone, in one run; each attempt
failed, and failed by its check (red team 82: `never_opened` and `count_decreased` had only
unit calls on hand-made evidence, and negated `typed_into`, `opened_in_order` and `visited`
failed end to end nowhere). The cases are read off the registry: a kind added without a case
here fails `test_every_kind_has_a_failing_case`."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from phoneshell.checks import CHECKS
from phoneshell.records import ResultRow
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer

CALC, PREFS, SAFARI, CLOCK = ("com.apple.calculator", "com.apple.Preferences",
                              "com.apple.mobilesafari", "com.apple.mobiletimer")
SETTINGS = "- open_app: Settings"
SPOTLIGHT = """\
- swipe: {from: [201, 300], to: [201, 620]}
- type: Calculator
- tap: Calculator"""
SEARCHED = """\
- open_app: Settings
- tap: {text: Search, type: SearchField}
- type: Wi-Fi"""


@dataclass(frozen=True)
class Case:
    """One task: its check (YAML lines of a mapping, `negate` added when negated), the finish
    that must fail it, and words of the check's detail that say it failed for what the finish
    did (not for evidence it could not read, which fails every check closed)."""

    check: str
    finish: str
    why: str
    app: str = PREFS
    """The app setup stops first, so the finish starts from its first page."""
    teardown: str = ""
    """Teardown steps (YAML lines) besides stopping `app`."""


MODEL = "probe: settings_value\ntext: General > About > Model Number"
CASES: dict[tuple[str, bool], Case] = {
    ("foreground_app", False): Case(f"text: {CALC}", SETTINGS, "in front: 'com.apple.Pref"),
    ("foreground_app", True): Case(f"text: {PREFS}", SETTINGS, "in front: 'com.apple.Pref"),
    ("element_exists", False): Case("text: Model Number", SETTINGS, "not found"),
    ("element_exists", True): Case("text: General", SETTINGS, "'General' found"),
    ("element_exists_anywhere", False): Case("text: Model Number", SETTINGS, "not found"),
    ("element_exists_anywhere", True): Case("text: General", SETTINGS, "'General' found"),
    ("regex_on_screen", False): Case("text: '^Model Number$'", SETTINGS, "matched nothing"),
    ("regex_on_screen", True): Case("text: '^General$'", SETTINGS, "matched 'General'"),
    ("device_value", False): Case("probe: battery_level\ntext: '101%'", SETTINGS,
                                  "battery_level is '"),
    ("device_value", True): Case("probe: battery_level\ntext: '\\d+%'", SETTINGS,
                                 "battery_level is '"),
    ("answer_contains", False): Case("text: CARDAMOM", "- home\n- answer: MERIDIAN",
                                     "answer 'MERIDIAN'"),
    ("answer_contains", True): Case("text: CARDAMOM", "- home\n- answer: CARDAMOM",
                                    "names 'CARDAMOM'"),
    ("answer_matches_device", False): Case(
        MODEL, f"{SETTINGS}\n- answer_read: '^General$'", "answer 'General'"),
    ("answer_matches_device", True): Case(
        MODEL, f"{SETTINGS}\n- tap: General\n- tap: About\n"
        "- answer_read: '(?<=^Model Number, )\\S+'", "names '"),
    ("opened_in_order", False): Case(f"apps: [{CALC}, {PREFS}]", SETTINGS,
                                     "springboard > Preferences; wanted calculator"),
    ("opened_in_order", True): Case(f"apps: [{PREFS}]", SETTINGS, "springboard > Preferences"),
    ("never_opened", False): Case(f"app: {PREFS}", SETTINGS, "the agent launched it"),
    ("typed_into", False): Case(f"text: Wi-Fi\napp: {PREFS}", SETTINGS, "no keystrokes"),
    ("typed_into", True): Case(f"text: Wi-Fi\napp: {PREFS}", SEARCHED, "typed 'Wi-Fi'"),
    ("tapped", False): Case(f"text: General\napp: {PREFS}", SETTINGS, "no tap on 'General'"),
    ("tapped", True): Case(f"text: General\napp: {PREFS}", f"{SETTINGS}\n- tap: General",
                           "tapped XCUIElementTypeButton 'General'"),
    ("visited", False): Case("url: example.com", "- open_app: Safari", "never loaded", SAFARI),
    ("visited", True): Case("url: example.com", "- open_url: https://example.com",
                            "opened https://example.com", SAFARI),
    ("page_shown", False): Case("url: example.com", "- open_url: https://example.net",
                                "shows 'example.net'; wanted a page of example.com", SAFARI),
    ("page_shown", True): Case("url: example.com", "- open_url: https://example.com",
                               "shows 'example.com': a page of example.com", SAFARI),
    ("opened_via_spotlight", False): Case(f"app: {CALC}", "- open_app: Calculator",
                                          "launched com.apple.calculator directly", CALC),
    ("opened_via_spotlight", True): Case(f"app: {CALC}", SPOTLIGHT,
                                         "opened from a Spotlight result", CALC),
    ("opened_from_search", False): Case(
        f"text: Wi-Fi\nresult: Wi-Fi\napp: {PREFS}\ninto: Search",
        f"{SETTINGS}\n- tap: Wi-Fi", "no search for 'Wi-Fi'"),
    ("tapped_keys", False): Case(
        f"result: '423'\nnumbers: ['47', '9']\nexpression: '47 × 9'\napp: {CALC}",
        "- open_app: Calculator\n- tap: '4'\n- tap: '2'\n- tap: '3'\n- tap: equals",
        "wanted each of 47 and 9", CALC),
    ("countdown", False): Case(f"text: '5:00'\napp: {CLOCK}\npage: Timers", "- open_app: Clock",
                               "never tapped 'Start'", CLOCK),
    ("count_unchanged", False): Case(
        "probe: stopwatch", "- open_app: Clock\n- select_tab: Stopwatch\n"
        "- tap: {text: Start, type: Button}", "(change +1, wanted +0)", CLOCK,
        "- delete_created: {probe: stopwatch}"),
    ("count_increased", False): Case("probe: alarms", "- open_app: Clock",
                                     "(change +0, wanted +1)", CLOCK),
    ("count_decreased", False): Case("probe: alarms", "- open_app: Clock",
                                     "(change +0, wanted -1)", CLOCK),
    ("settings_unchanged", False): Case(
        "note: left as found", f"{SETTINGS}\n- swipe: down\n- tap: Display & Brightness\n"
        "- tap: {text: Dark, type: Button}", "the agent changed Appearance"),
}


def _registered() -> set[tuple[str, bool]]:
    return {(name, negate) for name in CHECKS.names()
            for negate in ((False, True) if CHECKS.lookup(name).negatable else (False,))}


def _task_id(kind: str, negate: bool) -> str:
    return f"fails.{'not.' if negate else ''}{kind}"


def _task(kind: str, negate: bool, case: Case) -> str:
    """The task file of one case."""
    check = [f"kind: {kind}", *(["negate: true"] if negate else []), *case.check.splitlines()]
    return "\n".join([
        f"id: {_task_id(kind, negate)}", f"name: fails {kind}", "instruction: fail it",
        "setup:", f"- terminate: {case.app}", "- home",
        "checks:", f"- {check[0]}", *(f"  {line}" for line in check[1:]),
        "teardown:", *case.teardown.splitlines(), f"- terminate: {case.app}",
        "solution:", case.finish, ""])


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ResultRow]:
    """One run of every case's task on one simulated iPhone: its rows by task id."""
    base = tmp_path_factory.mktemp("every-kind")
    folder = base / "tasks"
    folder.mkdir()
    for (kind, negate), case in CASES.items():
        (folder / f"{_task_id(kind, negate)}.yaml").write_text(_task(kind, negate, case))
    said: list[str] = []
    with SimServer() as sim:
        summary = run_suite(RunOptions(paths=(str(folder),), device=sim.url,
                                       runs_dir=base, run_id="R"), said.append)
    assert len(summary.rows) == len(CASES), said
    return {row.task_id: row for row in summary.rows}


def test_every_kind_has_a_failing_case() -> None:
    assert set(CASES) == _registered()


@pytest.mark.slow  # 32 attempts and their probes: 11 s idle, 30 s on a busy 2-core machine
@pytest.mark.parametrize(("kind", "negate"), sorted(_registered()),
                         ids=lambda v: v if isinstance(v, str) else ("negated" if v else "plain"))
def test_the_kind_fails_through_the_runner(rows: dict[str, ResultRow], kind: str,
                                           negate: bool) -> None:
    row = rows[_task_id(kind, negate)]
    assert (row.outcome, row.error) == ("failed", ""), row.skip_reason  # played to its end
    (result,) = row.checks
    assert (result.kind, result.negate, result.passed) == (kind, negate, False), result.detail
    assert CASES[kind, negate].why in result.detail, result.detail
    assert result.detail.startswith("unexpectedly present: ") == negate, result.detail
