"""Task files: the reference corpus loads cleanly; each malformed file gets a pinned error."""

from __future__ import annotations

import hashlib
import textwrap
from pathlib import Path

import pytest

from phoneshell.errors import TaskFileError
from phoneshell.tasks import Step, check_tasks, load_task, load_tasks, parse_task

GOOD = """\
id: demo.task
name: Demo
app: com.apple.calculator
instruction: Open the Calculator.
setup:
  - home
  - terminate: com.apple.calculator
checks:
  - kind: foreground_app
    text: com.apple.calculator
teardown:
  - terminate: com.apple.calculator
"""


def problems_of(text: str) -> list[str]:
    task, problems = parse_task(textwrap.dedent(text), "demo.yaml")
    if any(p.severity == "error" for p in problems):
        assert task is None
    return [str(p) for p in problems]


def test_reference_corpus_loads_with_no_error_and_only_the_hygiene_warnings(
        reference: Path) -> None:
    tasks, problems = check_tasks([reference / "phoneshell-environments"])
    # upstream's three resilience tasks open or look at apps their setup never stops: a
    # finish that only opens the app passes after an earlier attempt left it on the page; and
    # deep_start's setup taps General by its text alone. Three tasks read the screen with no
    # foreground_app check: their words can show on the App Switcher or elsewhere
    assert [(Path(p.file).name, p.line, p.severity) for p in problems] == [
        ("calculator_chain.yaml", 13, "warning"),
        ("resilience_deep_start.yaml", 10, "warning"), ("resilience_deep_start.yaml", 11,
                                                        "warning"),
        ("resilience_deep_start.yaml", 12, "warning"),
        ("resilience_deep_start.yaml", 16, "warning"),
        ("resilience_scrolled_list.yaml", 12, "warning"),
        ("resilience_wrong_app.yaml", 11, "warning"), ("resilience_wrong_app.yaml", 12,
                                                       "warning"),
        ("safari_read_heading.yaml", 15, "warning")]
    assert [Path(p.file).name for p in problems if "none names the app in front" in p.message
            ] == ["calculator_chain.yaml", "resilience_deep_start.yaml",
                  "safari_read_heading.yaml"]
    assert len(tasks) == 80
    assert len({t.id for t in tasks}) == 80


def test_environments_load_with_no_error_and_no_warning(environments: Path) -> None:
    tasks, problems = check_tasks([environments])
    assert [str(p) for p in problems] == []
    assert len(tasks) == 80


def test_good_file_loads_with_steps_and_checks() -> None:
    task, problems = parse_task(GOOD, "demo.yaml")
    assert problems == [] and task is not None
    assert [s.kind for s in task.setup] == ["home", "terminate"]
    assert task.setup[1].arg == "com.apple.calculator" and task.setup[1].line == 7
    assert task.checks[0].line == 9 and task.max_steps == 25 and task.solution is None


def test_foreground_app_text_defaults_to_the_task_app() -> None:
    task, _ = parse_task(GOOD.replace("    text: com.apple.calculator\n", ""), "demo.yaml")
    assert task is not None and task.checks[0].text == "com.apple.calculator"


def test_shorthand_check_and_step_forms() -> None:
    text = GOOD.replace("checks:\n", "checks:\n  - element_exists: Wi-Fi\n")
    text += "solution:\n  - wait: 1.5\n  - wait: {seconds: 2}\n  - swipe\n" \
            "  - swipe: {from: [10, 20], to: [10, 400]}\n  - answer: 42\n" \
            "  - tap: {text: Search, type: SearchField}\n"
    task, problems = parse_task(text, "demo.yaml")
    assert problems == [] and task is not None
    assert task.checks[0].kind == "element_exists" and task.checks[0].text == "Wi-Fi"
    assert task.solution is not None
    assert [s.seconds for s in task.solution[:2]] == [1.5, 2.0]
    assert task.solution[3].start == (10, 20) and task.solution[3].end == (10, 400)
    assert task.answer() == "42"
    # a tap aimed at one type of element, as the harness's own procedures write it
    tap = task.solution[5]
    assert (tap.kind, tap.arg, tap.option("type")) == ("tap", "Search", "SearchField")
    assert tap.options == Step.tap_on("Search", "SearchField").options


MALFORMED = [
    # (name, file text, expected "line:col: error: message" fragment)
    ("not yaml", "id: a\nname: [unclosed\n", "3:1: error: not valid YAML"),
    ("empty file", "", "1:1: error: the file is empty"),
    ("a NUL byte", "id: a\nname: b\ninstruction: c\x00d\n",
     "3:15: error: not valid YAML: unacceptable character #x0000"),
    ("a list", "- id: a\n", "1:1: error: a task file should be a mapping"),
    ("unknown key", GOOD.replace("instruction:", "instructions:"),
     "4:1: error: unknown key 'instructions' in a task file; did you mean 'instruction'?"),
    ("missing checks", GOOD.split("checks:")[0], "1:1: error: missing key `checks`"),
    ("missing id", GOOD.replace("id: demo.task\n", ""), "missing key `id`"),
    ("duplicate key", GOOD + "name: Again\n", "13:1: error: duplicate key 'name' in a task "
                                              "file (first at line 2)"),
    ("unknown check kind", GOOD.replace("kind: foreground_app", "kind: element_exist"),
     "9:11: error: unknown check kind 'element_exist'; did you mean 'element_exists'?"),
    ("unknown shorthand kind", GOOD.replace("  - kind: foreground_app\n    text: com.apple."
                                            "calculator\n", "  - element_exist: Wi-Fi\n"),
     "9:5: error: unknown check kind 'element_exist'; did you mean 'element_exists'?"),
    ("check without kind", GOOD.replace("kind: foreground_app", "knd: foreground_app"),
     "9:5: error: a check needs `kind`"),
    ("bad regex", GOOD.replace("kind: foreground_app\n    text: com.apple.calculator",
                               "kind: regex_on_screen\n    text: '(unclosed'"),
     "10:11: error: `text` of a regex_on_screen check is not a valid regular expression"),
    ("negate not bool", GOOD.replace("text: com.apple.calculator\n",
                                     "text: com.apple.calculator\n    negate: maybe\n", 1),
     "11:13: error: `negate` of a foreground_app check should be true or false, got 'maybe'"),
    ("unknown check field", GOOD.replace("kind: foreground_app\n    text:",
                                         "kind: element_exists\n    txt:"),
     "10:5: error: unknown key 'txt' in an element_exists check; did you mean 'text'?"),
    ("check missing text", GOOD.replace("kind: foreground_app\n    text: com.apple.calculator",
                                        "kind: element_exists"),
     "9:5: error: an element_exists check needs `text`"),
    ("empty checks", GOOD.replace("  - kind: foreground_app\n    text: com.apple.calculator\n",
                                  ""), "8:8: error: a task needs at least one check"),
    ("unknown step", GOOD.replace("  - home\n", "  - hom\n"),
     "6:5: error: unknown step 'hom'; did you mean 'home'?"),
    ("step needs a value", GOOD.replace("  - terminate: com.apple.calculator\ncheck",
                                        "  - terminate\ncheck"),
     "7:5: error: step 'terminate' needs a value, e.g. `- terminate: BUNDLE_ID`"),
    ("step takes no value", GOOD.replace("  - home\n", "  - home: now\n"),
     "6:11: error: step 'home' takes no value; write `- home`"),
    ("answer in setup", GOOD.replace("  - home\n", "  - answer: 42\n"),
     "6:5: error: step 'answer' cannot be used in setup (only in solution)"),
    ("bad swipe direction", GOOD.replace("  - home\n", "  - swipe: sideways\n"),
     "6:12: error: `direction` of step 'swipe' is 'sideways'; it should be one of 'up', "
     "'down', 'left', 'right'"),
    ("negative wait", GOOD.replace("  - home\n", "  - wait: -1\n"),
     "6:11: error: `seconds` of step 'wait' is -1; it should be a number >= 0"),
    ("max_steps too small", GOOD + "max_steps: 2\n",
     "13:12: error: `max_steps` of the task is 2; it should be a whole number >= 3, <= 1000"),
    ("timeout in milliseconds", GOOD + "timeout_seconds: 300000\n",
     "13:18: error: `timeout_seconds` of the task is 300000; it should be a number >= 1, "
     "<= 3600"),
    ("bad difficulty", GOOD + "difficulty: medum\n",
     "13:13: error: `difficulty` of the task is 'medum'; it should be one of 'easy', 'medium', "
     "'hard' (did you mean 'medium'?)"),
    ("bad id", GOOD.replace("id: demo.task", "id: demo task"),
     "1:5: error: task id 'demo task' should use letters"),
    ("compatible with itself", GOOD + "compatible_with: [demo.task]\n",
     "13:18: error: a task cannot list itself in compatible_with"),
    ("attack of no family", GOOD + "compatible_attacks:\n  guess:x: it is fine\n",
     "14:3: error: compatible_attacks names 'guess:x', which is not an attack id"),
    ("attack without a reason", GOOD + "compatible_attacks:\n  truncated:-1:\n",
     "14:16: error: `truncated:-1` of `compatible_attacks` is empty"),
    ("attacks as a list", GOOD + "compatible_attacks: [null]\n",
     "13:21: error: `compatible_attacks` of the task should be a mapping"),
    ("foreground_app without app", GOOD.replace("app: com.apple.calculator\n", "").replace(
        "    text: com.apple.calculator\n", ""),
     "8:5: error: foreground_app needs `text` (a bundle id) or the task's `app`"),
    ("tags not a list", GOOD + "tags: clock\n",
     "13:7: error: `tags` of the task should be a list of non-empty strings"),
    ("swipe half points", GOOD.replace("  - home\n", "  - swipe: {from: [1, 2]}\n"),
     "6:12: error: a swipe between points needs both `from` and `to`"),
    ("step as a list", GOOD.replace("  - home\n", "  - [home]\n"),
     "6:5: error: a step is a name"),
    ("empty instruction", GOOD.replace("instruction: Open the Calculator.", "instruction: ''"),
     "4:14: error: `instruction` of the task is empty"),
    ("unknown probe", GOOD.replace("kind: foreground_app\n    text: com.apple.calculator",
                                   "kind: count_unchanged\n    probe: note_titled"),
     "10:12: error: unknown probe 'note_titled'; did you mean 'notes_titled'?"),
    ("value probe for a count", GOOD.replace(
        "kind: foreground_app\n    text: com.apple.calculator",
        "kind: count_increased\n    probe: settings_value"),
     "10:12: error: probe 'settings_value' reads a value, but a count_increased check needs a "
     "count probe (notes_titled, notes_containing, notes, reminders_titled, open_reminders_titled, "
     "reminders, contacts, events, safari_tabs, alarms, clock_timers, timer_dialled, stopwatch, "
     "world_clocks)"),
    ("path check without apps", GOOD.replace("kind: foreground_app\n    text: com.apple."
                                             "calculator", "kind: opened_in_order"),
     "9:5: error: an opened_in_order check needs `apps` (a non-empty list of bundle ids"),
    ("step with an app's name", GOOD.replace("  - terminate: com.apple.calculator\ncheck",
                                             "  - terminate: Calculator\ncheck"),
     "7:16: error: `bundle_id` of step 'terminate': 'Calculator' is an app's name on the home "
     "screen; checks and steps compare bundle ids: did you mean 'com.apple.calculator'?"),
    ("task app by name", GOOD.replace("app: com.apple.calculator", "app: calculator"),
     "3:6: error: `app` of the task: 'calculator' is an app's name on the home screen"),
    ("unknown element type", GOOD.replace("  - home\n", "  - tap: {text: Go, type: Buton}\n"),
     "6:27: error: `type` of step 'tap': 'Buton' is not a WDA element type; did you mean "
     "'Button', 'MenuButton' or 'RadioButton'?"),
]


@pytest.mark.parametrize("text, expected", [(t, e) for _, t, e in MALFORMED],
                         ids=[n for n, _, _ in MALFORMED])
def test_malformed_file_gives_the_documented_error(text: str, expected: str) -> None:
    found = problems_of(text)
    assert any(expected in p for p in found), found
    assert all(p.startswith("demo.yaml:") for p in found)


def test_element_types_are_kept_as_wda_spells_them() -> None:
    text = GOOD.replace("  - home\n", "  - tap: {text: Go, type: xcuielementtypebutton}\n") \
        .replace("    text: com.apple.calculator\n", "    text: com.apple.calculator\n"
                 "  - {kind: element_exists, text: Go, type: statictext, within: Navigationbar}\n")
    task, problems = parse_task(text, "demo.yaml")
    assert task is not None and problems == []
    assert task.setup[0].options == (("text", "Go"), ("type", "Button"))
    found = task.checks[1]
    assert (found.text_of("type"), found.text_of("within")) == ("StaticText", "NavigationBar")


def test_a_file_with_several_problems_reports_all() -> None:
    text = GOOD.replace("  - home\n", "  - hom\n").replace("kind: foreground_app",
                                                            "kind: element_exist")
    found = problems_of(text)
    assert len(found) == 2 and "hom" in found[0] and "element_exist" in found[1]


def test_warning_when_the_solution_cannot_pass_an_answer_check() -> None:
    text = GOOD.replace("  - kind: foreground_app\n    text: com.apple.calculator\n",
                        "  - kind: answer_contains\n    text: '423'\n") + "solution:\n  - home\n"
    task, problems = parse_task(text, "demo.yaml")
    assert task is not None
    assert [p.severity for p in problems] == ["warning"]
    assert "no `answer` step" in problems[0].message


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def test_folder_reports_every_bad_file_and_duplicate_ids_name_both(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", GOOD)
    write(tmp_path, "b.yaml", GOOD)
    write(tmp_path, "c.yaml", GOOD.replace("demo.task", "other").replace("  - home\n", "  - hom\n"))
    write(tmp_path, "d.yaml", "id: [\n")
    with pytest.raises(TaskFileError) as caught:
        load_tasks([tmp_path])
    found = [str(p) for p in caught.value.problems]
    assert any(f"{tmp_path}/b.yaml:1:1: error: duplicate task id 'demo.task': also in "
               f"{tmp_path}/a.yaml" == p for p in found), found
    assert any(p.startswith(f"{tmp_path}/c.yaml:6:5: error: unknown step 'hom'") for p in found)
    assert any(p.startswith(f"{tmp_path}/d.yaml:") and "not valid YAML" in p for p in found)


def test_unknown_compatible_id_is_a_folder_warning(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", GOOD + "compatible_with: [nowhere.task]\n")
    loaded = load_tasks([tmp_path])
    assert len(loaded.tasks) == 1
    assert "compatible_with names 'nowhere.task'" in loaded.warnings[0].message


def test_missing_path_and_empty_folder_are_errors(tmp_path: Path) -> None:
    _, problems = check_tasks([tmp_path / "nope.yaml", tmp_path])
    assert [p.message for p in problems] == ["no such file or folder",
                                             "no task files (*.yaml) in this folder"]


def test_load_task_and_lookup_by_id(tmp_path: Path) -> None:
    path = write(tmp_path, "a.yaml", GOOD)
    assert load_task(path).id == "demo.task"
    assert load_task(path).sha256 == hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(KeyError, match="did you mean 'demo.task'"):
        load_tasks([tmp_path]).get("demo.tsk")


def test_the_hash_is_the_files_own_line_endings_and_all(tmp_path: Path) -> None:
    crlf = tmp_path / "a.yaml"
    crlf.write_bytes(GOOD.replace("\n", "\r\n").encode())
    assert load_task(crlf).sha256 == hashlib.sha256(crlf.read_bytes()).hexdigest()


def test_compatible_attacks_keep_their_reasons(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", GOOD + "compatible_attacks:\n  truncated:-1: Done only hides "
                                     "the keyboard\n  open-app: opening it is the task\n")
    task = load_tasks([tmp_path]).tasks[0]
    assert task.compatible_attacks == (("truncated:-1", "Done only hides the keyboard"),
                                       ("open-app", "opening it is the task"))


def test_warning_when_setup_opens_an_app_it_did_not_stop_first() -> None:
    opened = GOOD.replace("  - home\n  - terminate: com.apple.calculator\n",
                          "  - home\n  - open_app: Calculator\n"
                          "  - terminate: com.apple.calculator\n")
    assert problems_of(opened) == [
        "demo.yaml:7:1: warning: setup opens Calculator without stopping it first (`terminate: "
        "com.apple.calculator` before this step): a running app comes back where it was left, "
        "by an earlier attempt's agent or the phone's owner, not where this setup starts it"]
    stopped_first = GOOD.replace("  - terminate: com.apple.calculator\n",
                                 "  - terminate: com.apple.calculator\n  - launch: "
                                 "com.apple.calculator\n", 1)
    assert problems_of(stopped_first) == []


def test_warning_when_setup_never_stops_an_app_the_checks_look_at() -> None:
    unstopped = GOOD.replace("  - terminate: com.apple.calculator\n", "", 1)
    found = problems_of(unstopped)
    assert len(found) == 1 and found[0].startswith(
        "demo.yaml:6:3: warning: setup never stops com.apple.calculator"), found
    other = GOOD.replace("    text: com.apple.calculator\n", "    text: com.apple.Maps\n")
    assert [p.split(": warning: ")[1][:37] for p in problems_of(other)] == [
        "setup never stops com.apple.Maps (`te"], "a foreground_app check's app too"
    home = GOOD.replace("app: com.apple.calculator", "app: com.apple.springboard").replace(
        "  - terminate: com.apple.calculator\n", "", 1).replace(
        "    text: com.apple.calculator\n", "    text: com.apple.springboard\n")
    assert problems_of(home) == [], "SpringBoard is never stopped"


def test_warning_when_setup_taps_by_text_alone() -> None:
    """A setup that taps by text alone can hit content an earlier agent left showing that
    text (a page heading "Address"), and the attempt goes unscored: naming the type does not."""
    untyped = GOOD.replace("  - home\n", "  - home\n  - tap: Address\n", 1)
    found = problems_of(untyped)
    assert len(found) == 1 and "warning: setup taps 'Address' by its text alone" in found[0]
    assert "`tap: {text: Address, type: Button}`" in found[0]
    typed = GOOD.replace("  - home\n", "  - home\n  - tap: {text: Address, type: TextField}\n",
                         1)
    assert problems_of(typed) == []


COUNTED = GOOD.replace("teardown:\n",
                       "  - kind: count_unchanged\n    probe: clock_timers\nteardown:\n")


def test_a_count_teardown_never_deletes_from_is_a_warning_naming_the_step_to_add() -> None:
    found = problems_of(COUNTED)
    assert len(found) == 1 and found[0].startswith("demo.yaml:14:3: warning: the checks count "
                                                   "clock_timers before and after the agent"), found
    assert "`delete_created: {probe: clock_timers}`" in found[0]
    deleting = COUNTED.replace("teardown:\n",
                               "teardown:\n  - delete_created: {probe: clock_timers}\n")
    assert problems_of(deleting) == []


def test_a_count_nothing_can_delete_is_not_warned_of() -> None:
    # a value probe (nothing to delete) and a count of another argument than the teardown's
    valued = GOOD.replace("teardown:\n", "  - kind: answer_matches_device\n"
                                         "    probe: settings_value\n"
                                         "    text: Battery > Battery Level\nteardown:\n")
    assert problems_of(valued) == []
    other = COUNTED.replace("probe: clock_timers\n", "probe: notes_titled\n    text: a\n").replace(
        "teardown:\n", "teardown:\n  - delete_created: {probe: notes_titled, text: b}\n")
    found = problems_of(other)
    assert len(found) == 1 and "`delete_created: {probe: notes_titled, text: a}`" in found[0]


def test_a_file_named_twice_or_through_a_link_is_one_task(tmp_path: Path) -> None:
    """`phoneshell run environments environments/x.yaml` (or the suite's link to it) runs x
    once: the same file is no duplicate id, and no task file is left out for it."""
    good = write(tmp_path, "a.yaml", GOOD)
    (tmp_path / "link").symlink_to(tmp_path, target_is_directory=True)
    tasks = load_tasks([good, tmp_path, tmp_path / "link" / "a.yaml", str(good)])
    assert tasks.ids() == ["demo.task"]
