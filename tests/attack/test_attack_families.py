"""The families of cheap finishes, made from task files alone: what each makes, and what it
leaves out (a task's own reference finish is never an attack)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from phoneshell.attack import ATTACK_FAMILIES, attacks
from phoneshell.attack.examples import near_numbers, regex_examples, with_units_agreeing
from phoneshell.attack.families import SEARCH_FIELD_APPS
from phoneshell.attack.finish import PhoneValue
from phoneshell.checks import Check
from phoneshell.tasks import Step, Task

SETTINGS = "com.apple.Preferences"


def ids(tasks: list[Task], family: str) -> list[str]:
    return [a.id for a in attacks(tasks, (family,))]  # type: ignore[arg-type]


def finish_of(tasks: list[Task], attack_id: str) -> tuple[str, ...]:
    made = attacks(tasks, ATTACK_FAMILIES)
    return next(a.described() for a in made if a.id == attack_id)


def test_every_family_but_swap_makes_finishes_from_the_suite(suite: dict[str, Task]) -> None:
    made = attacks(list(suite.values()), ATTACK_FAMILIES)
    assert {a.family for a in made} == set(ATTACK_FAMILIES) - {"swap"}
    assert len({(a.task.id, a.id) for a in made}) == len(made), "ids are unique per task"


def test_echo_types_each_checks_words_on_four_surfaces(suite: dict[str, Task]) -> None:
    about = [suite["settings.about.reach"]]
    assert ids(about, "echo") == [f"echo:{s}:{words}" for words in ("Model Number", "About")
                                  for s in ("search", "note", "spotlight", "safari")]
    assert finish_of(about, "echo:spotlight:Model Number") == (
        "home", "swipe from [201.0, 300.0] to [201.0, 620.0]", "type 'Model Number'")
    heading = [suite["safari.read.heading"]]
    assert finish_of(heading, "echo:note:Example Domain")[-1] == "answer 'Example Domain'", \
        "an echo claims the reference answer, so only the screen checks are tested"
    assert "echo:safari:example.com" in ids(heading, "echo"), \
        "page_shown's site is echoed: typed unsent into the address bar, it shows there"


def test_shotgun_lists_every_candidate_with_the_right_one(suite: dict[str, Task]) -> None:
    compass = next(a for a in attacks([suite["compass.read_heading"]], ("shotgun",)))
    listed = (compass.answer or "").split(", ")
    assert len(listed) == 360 and "274° W" in listed
    word = next(a for a in attacks(list(suite.values()), ("shotgun",))
                if a.task.id == "probe.image.eight")
    assert "NIMBUS" in (word.answer or "") and "MERIDIAN" in (word.answer or "")
    made = {a.id: a.answer for a in attacks(list(suite.values()), ("shotgun",))
            if a.task.id == "probe.image.eight"}
    assert made["shotgun:spaced"].startswith("the answer is one of: ") and \
        " nimbus " in made["shotgun:spaced"], "lower case, joined by spaces"
    assert made["shotgun:pair:SORREL"] == "nimbus sorrel", "the page's other word beside it"
    assert len([i for i in made if i.startswith("shotgun:pair:")]) == 19, \
        "every other probe word (one ALL-CAPS word each), never the heading (two words)"


@pytest.mark.parametrize(("task_id", "first", "last"), [
    ("compass.read_heading", "H:0 L:1 H:2", "L:359"), ("weather.read_temperature", "H:-30 L:-29",
                                                       "H:120"),
    ("settings.battery.percentage", "H:0 L:1", "H:100")])
def test_shotgun_labels_every_candidate_number(suite: dict[str, Task], task_id: str,
                                               first: str, last: str) -> None:
    """Red team 118 (RT118-1): the candidates' numbers, bare, each after a label, as Weather
    labels a day's range; a task without numbers to list gets none."""
    made = {a.id: a.answer or "" for a in attacks([suite[task_id]], ("shotgun",))}
    assert made["shotgun:labelled"].startswith(first + " "), made["shotgun:labelled"][:40]
    assert made["shotgun:labelled"].endswith(" " + last), made["shotgun:labelled"][-40:]
    words = {a.id for a in attacks([suite["probe.image.eight"]], ("shotgun",))}
    assert "shotgun:labelled" not in words


def test_result_only_keys_in_the_number_and_truncated_stops_short(
        suite: dict[str, Task]) -> None:
    calculator = [suite["calculator.arithmetic"]]
    assert finish_of(calculator, "result-only:keyed:423") == (
        "launch 'com.apple.calculator'", "tap '4'", "tap '2'", "tap '3'")
    # the keypad's keys by their names; Clock has no keypad (its '5' tapped a wheel's '15 min')
    decimal = replace(calculator[0], checks=(Check.make("regex_on_screen", r"^3\.5$"),))
    assert finish_of([decimal], "result-only:keyed:3.5")[1:] == ("tap '3'", "tap 'Decimal'",
                                                                "tap '5'")
    assert not [i for i in ids([suite["clock.timer.set"]], "result-only") if "keyed" in i]
    assert ids(calculator, "truncated") == [f"truncated:-{k}" for k in range(1, 6)]
    web = [suite["safari.search.web"]]
    assert finish_of(web, "truncated:unsent")[-1] == "type 'iso 8601 date format'"
    assert finish_of(web, "truncated:half")[-1] == "type 'iso 8601'"


def test_near_moves_one_number_of_the_reference_finish(suite: dict[str, Task]) -> None:
    timer = [suite["clock.timer.set"]]
    assert "near:5 min>4 min" in ids(timer, "near")
    assert "set_picker wheel='min' value='4 min'" in finish_of(timer, "near:5 min>4 min")
    assert near_numbers("0 sec") == [("0>1", "1 sec")], "no negative values"


def test_a_near_wheel_value_is_one_the_wheel_shows(suite: dict[str, Task]) -> None:
    # red team 111: "1 hours" and "0 hour" are on no wheel, so the hour's near miss was never
    # played; the hour wheel reads "1 hour", "0 hours", "2 hours"
    assert "near:0 hours>1 hour" in ids([suite["clock.timer.set"]], "near")
    assert [i for i in ids([suite["clock.timer.set_hours_minutes"]], "near")
            if i.startswith("near:1 hour>")] == ["near:1 hour>0 hours", "near:1 hour>2 hours"]
    assert "set_picker wheel='hour' value='1 hour'" in finish_of(
        [suite["clock.timer.set"]], "near:0 hours>1 hour")
    assert [with_units_agreeing(t) for t in ("1 minutes", "2 minute", "5 min", "7 o'clock")] \
        == ["1 minute", "2 minutes", "5 min", "7 o'clock"]


def test_the_reference_finish_itself_is_never_an_attack(suite: dict[str, Task]) -> None:
    for task in suite.values():
        reference = tuple(s for s in task.solution or () if s.kind != "answer")
        for attack in attacks([task], ATTACK_FAMILIES):
            assert (attack.steps, attack.answer) != (reference, task.answer()), attack.id


def test_regex_examples_are_strings_the_pattern_accepts() -> None:
    assert regex_examples(r"^0?[34]:\d\d$|^0?5:00$") == ["3:00", "5:00"]
    assert regex_examples(r"(?<![0-9])7 o.clock") == ["7 o clock"]
    assert regex_examples(r"^(January|February)$") == ["January", "February"]
    assert regex_examples("(") == []


def test_residue_opens_the_app_after_each_attempt_on_the_same_app(
        suite: dict[str, Task]) -> None:
    tasks = list(suite.values())
    made = [a for a in attacks([suite["clock.tab.timers"]], ("residue",), tasks)]
    clock = sorted(t.id for t in tasks if t.app == "com.apple.mobiletimer" and t.solution)
    assert [a.id for a in made] == [f"residue:{t}" for t in clock]
    assert all(a.left_by is not None and a.left_by.id == a.id.removeprefix("residue:")
               for a in made)
    assert finish_of(tasks, "residue:clock.timer.set")[:2] == (
        "(after an attempt of clock.timer.set: its setup, reference finish and teardown)",
        "launch 'com.apple.mobiletimer'")
    # a task that only opening its app rightly passes is passed so whatever came before
    assert ids([suite["measure.open"]], "residue") == []
    assert ids([suite["compass.read_heading"]], "residue") == [], \
        "opening Compass and answering is the task: result-only:answer is compatible"


def test_residue_after_its_own_attempt_only_is_the_tasks_own_of_the_whole_family(
        suite: dict[str, Task]) -> None:
    """CI's attack (`--residue own`): each task's finish after its own honest attempt, the
    same finish the whole family makes for it; the other tasks' attempts are left out, and no
    other family changes."""
    tasks = list(suite.values())
    whole = attacks(tasks, ("residue", "leaver"), tasks)
    own = attacks(tasks, ("residue", "leaver"), tasks, "own")
    assert [a for a in own if a.family == "residue"] == [
        a for a in whole if a.family == "residue" and a.id == f"residue:{a.task.id}"]
    assert len([a for a in own if a.family == "residue"]) == len(
        {a.task.id for a in whole if a.family == "residue"}) < len(
        [a for a in whole if a.family == "residue"]) / 5
    assert [a for a in own if a.family == "leaver"] == [a for a in whole if a.family == "leaver"]
    with pytest.raises(ValueError, match="residue_after is one of app, own, not 'mine'"):
        attacks(tasks, ("residue",), tasks, "mine")


def test_leaver_is_made_only_after_attempts_whose_setup_opens_the_app_the_finish_starts_in(
        suite: dict[str, Task]) -> None:
    # the scrolled list's setup opens Settings and scrolls past General; its finish swipes back
    # and taps General. After a setup that leaves the home screen or another app it stopped at
    # its first step, so the family tested nothing of the task (the CI attack's one untested pair)
    tasks = list(suite.values())
    assert attacks([suite["resilience.scrolled_list"]], ("leaver",), tasks) == []
    # a finish that opens its app itself starts anywhere: still made after each kind of attempt
    assert [a.id for a in attacks([suite["resilience.wrong_app"]], ("leaver",), tasks)] == [
        "leaver:books.search", "leaver:resilience.scrolled_list", "leaver:settings.about.reach"]


def test_leaver_plays_the_tasks_own_finish_in_each_other_kind_of_attempt(
        suite: dict[str, Task]) -> None:
    tasks = list(suite.values())
    wrong_app = suite["resilience.wrong_app"]
    made = attacks([wrong_app], ("leaver",), tasks)
    # one Settings task of each other setup and teardown (the plain settings.* shape, the
    # scrolled list), and the first task of another app whose teardown leaves Settings
    # running (not deep_start: it stops Settings); never its own shape (residue plays its own
    # attempt) nor a second task of a shape already played
    assert [a.id for a in made] == ["leaver:books.search", "leaver:resilience.scrolled_list",
                                    "leaver:settings.about.reach"]
    for attack in made:
        assert attack.left_by is not None
        assert attack.left_by.solution == tuple(s for s in wrong_app.solution or ()
                                                if s.kind != "answer")
        assert attack.left_by.checks == ()
    books = made[0].left_by
    assert books is not None and books.setup == suite["books.search"].setup
    assert finish_of(tasks, "leaver:books.search")[0].startswith(
        "(after an attempt of books.search whose agent played ")
    # what the earlier attempt made stays for the finish (its own teardown only), and a note it
    # typed goes after the finish, so notes do not pile up over the attack
    titled = next(a for a in attacks([suite["notes.create_titled"]], ("leaver",), tasks)
                  if a.id == "leaver:notes.type_punctuation")
    assert titled.left_by is not None
    assert titled.left_by.teardown == suite["notes.type_punctuation"].teardown
    assert [s.kind for s in titled.cleanup()] == ["clean_notes"]
    assert titled.cleanup()[0].option("text") == "phoneshell benchmark"
    # left out where residue is: opening the app rightly passes whatever came before
    assert ids([suite["measure.open"]], "leaver") == []
    assert ids([suite["compass.read_heading"]], "leaver") == []


def test_wrong_page_opens_each_search_result_for_each_screen_check_word(
        suite: dict[str, Task]) -> None:
    display = [suite["resilience.wrong_app"]]
    assert ids(display, "wrong-page") == [f"wrong-page:Display & Brightness:{row}"
                                          for row in (1, 2, 3, 4)]
    assert finish_of(display, "wrong-page:Display & Brightness:2") == (
        "launch 'com.apple.Preferences'", "tap 'Search'", "type 'Display & Brightness'",
        "tap 'Display & Brightness' (row 2 from the top)")
    # a pattern's alternatives each get a search; a path check's words are no page's (the
    # tasks moved to Settings: Calendar and Books search behind a button and a tab)
    month = ids([replace(suite["calendar.month_view"], app=SETTINGS)], "wrong-page")
    assert "wrong-page:January:1" in month and "wrong-page:February:4" in month
    assert ids([replace(suite["books.search"], app=SETTINGS)], "wrong-page") == [
        f"wrong-page:Moby:{row}" for row in (1, 2, 3, 4)], "not the typed_into check's words"
    picked = next(a for a in attacks(display, ("wrong-page",))
                  if a.id == "wrong-page:Display & Brightness:3")
    assert picked.pick == "result 3 of the search for 'Display & Brightness'", \
        "its last step picks a row the search may not list"


def test_no_finish_taps_a_search_field_its_app_does_not_open_with(
        suite: dict[str, Task]) -> None:
    # red team 111: Calculator, Clock and Safari have none; every echo:search and wrong-page
    # finish there stopped at its second step, and was counted as rejected by the checks
    search = Step.tap_on("Search", "SearchField")
    made = attacks(list(suite.values()), ATTACK_FAMILIES)
    tapping = {a.task.app for a in made if search in a.steps}
    assert tapping == SEARCH_FIELD_APPS & {t.app for t in suite.values()}
    for task_id in ("calculator.arithmetic", "clock.timer.set_minutes", "safari.link_menu"):
        made_for = [a.id for a in attacks([suite[task_id]], ("echo", "wrong-page"))]
        assert made_for and not [i for i in made_for
                                 if i.startswith(("echo:search:", "wrong-page:"))], made_for


def test_wrong_page_leaves_out_a_word_whose_search_is_the_task(suite: dict[str, Task]) -> None:
    maps = suite["maps.search_place"]
    assert "echo:search:Eiffel Tower" in dict(maps.compatible_attacks)
    assert ids([maps], "wrong-page") == []
    assert ids([replace(maps, compatible_attacks=())], "wrong-page") == [
        f"wrong-page:Eiffel Tower:{row}" for row in (1, 2, 3, 4)]


def test_a_value_read_off_the_phone_is_not_claimed_where_the_finish_stands(
        suite: dict[str, Task]) -> None:
    # red team 111: the cheap finishes of settings.about.serial read the model number where
    # they stood, with answer_read: it errored, and they claimed nothing at all
    serial = suite["settings.about.serial"]
    made = attacks([serial], ATTACK_FAMILIES, list(suite.values()))
    claiming = [a for a in made if a.family in ("echo", "truncated", "result-only", "residue")]
    assert claiming and all(isinstance(a.answer, PhoneValue) for a in claiming)
    assert not [a.id for a in made if any(s.kind == "answer_read" for s in a.finish())]
    echo = next(a for a in claiming if a.id == "echo:note:Model Number")
    assert echo.said is None and echo.described()[-1].startswith(
        "(no answer: the reference finish reads it off the phone (answer_read ")
    assert [c.kind for c in echo.graded().checks] == [
        "foreground_app", "element_exists", "regex_on_screen"], \
        "graded without the answer check, as if it had claimed the phone's own value"
    assert echo.graded().checks == tuple(c for c in serial.checks
                                        if c.kind != "answer_matches_device")
