"""An agent that does more than it was told (starts the timer it should only dial, saves the
alarm it should only open) fails, and leaves nothing on the phone: every later attempt finds the
phone as the first found it. A timer an agent started where nothing counts timers (in front of
the bridge or around it) fails its own attempt, and the owner watch cancels it: it hides the
wheels the run's timer tasks count (`runner.owner_timer`; before, the next timer attempt
failed for it); one the phone's owner left makes them not scored, and stays. A stopwatch left
going is treated alike. Played through the runner on one simulated iPhone whose state persists
across attempts."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.checks import Need
from phoneshell.device import Phone, run_probe, run_rows, run_step, run_steps
from phoneshell.device.world_clock import delete_cities
from phoneshell.records import ResultRow
from phoneshell.runner.counts import Count, uncountable
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from phoneshell.sim.apps import builtin_apps
from phoneshell.tasks import Step, load_task

CLOCK, NOTES = "com.apple.mobiletimer", "com.apple.mobilenotes"

OVERDONE = {"clock.timer.set_minutes": "Start", "clock.timer.set_hours_minutes": "Start",
            "clock.alarm.reach_picker": "Save", "clock.alarm.set_time": "Save"}
"""Each task told not to start or save, and the tap that does it anyway."""


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_an_agent_that_starts_or_saves_against_the_instruction_leaves_nothing_behind(
        tmp_path: Path, environments: Path) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for n, (task_id, tap) in enumerate(OVERDONE.items()):
        task = yaml.safe_load((environments / f"{task_id}.yaml").read_text())
        task["id"] = f"overdone.{n}"
        task["solution"].append({"tap": tap})
        task.pop("compatible_with", None)
        task.pop("compatible_attacks", None)
        (tasks / f"a{n}.yaml").write_text(yaml.safe_dump(task, sort_keys=False))
    for task_id in OVERDONE:  # then the tasks themselves, played as written
        (tasks / f"b-{task_id}.yaml").write_text((environments / f"{task_id}.yaml").read_text())
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        alarms = run_rows(phone, "alarms", "")
        summary = run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                                       run_id="R"), lambda line: None)
        rows = read_results(tmp_path / "R" / "results.jsonl")
        overdone = [r for r in rows if r.task_id.startswith("overdone.")]
        assert len(overdone) == 4 and not any(r.passed or r.skipped for r in overdone)
        for row in overdone:  # failed for doing it, whatever the screen shows
            failed = [c.label for c in row.checks if not c.passed]
            assert any(label.startswith("count_unchanged") for label in failed), failed
        assert all(r.teardown is None or r.teardown.ok for r in rows), \
            [r.teardown for r in rows if r.teardown is not None]
        assert sorted(r.task_id for r in rows if r.passed) == sorted(OVERDONE), summary
        assert run_probe(phone, "clock_timers", "") == 0
        assert run_rows(phone, "alarms", "") == alarms


TIMER_TASKS = ("clock.timer.set", "clock.timer.set_minutes", "clock.timer.set_hours_minutes")
LEFTOVER = "clock_timers counted 1 before the agent, where the task starts from none"
RUNNING = "a timer was left running, which the task did not ask for"


def timer_tasks(environments: Path, tasks: Path) -> None:
    for task_id in TIMER_TASKS:
        (tasks / f"b-{task_id}.yaml").write_text((environments / f"{task_id}.yaml").read_text())


def run_timers(tasks: Path, runs: Path, agent: str = "solution",
               device: str | None = None) -> dict[str, ResultRow]:
    """Run the tasks in `tasks` (file names set the order) and return the rows by task."""
    lines: list[str] = []
    run_suite(RunOptions(paths=(str(tasks),), agent=agent, device=device, runs_dir=runs,
                         run_id="R"), lines.append)
    assert not any("already has" in line for line in lines), lines
    return {r.task_id: r for r in read_results(runs / "R" / "results.jsonl")}


def assert_it_fails_and_every_timer_attempt_passes(left: ResultRow,
                                                   rows: dict[str, ResultRow]) -> None:
    """The attempt whose agent left the timer fails for it, and the watch cancels it; every
    timer attempt finds the phone as the run found it and passes."""
    assert left.outcome == "failed" and RUNNING in left.error, left
    assert left.teardown is not None and left.teardown.owner[0].startswith(RUNNING), left
    assert "cancelled it" in left.teardown.owner[0], left.teardown
    assert all(rows[task_id].passed for task_id in TIMER_TASKS), rows


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_a_timer_the_runs_agent_left_running_fails_its_attempt_and_is_cancelled(
        tmp_path: Path, environments: Path) -> None:
    # Asked only to open the Timers tab, the agent starts a timer. Nothing in that task counts
    # timers, so it stays running, and a timer task would find no wheels and no Start. The
    # wheels showed when the run began, so it is this agent's: the owner watch, which reads
    # the wheels after it, fails it and cancels the timer (before: the next timer attempt
    # failed for it, its agent never run), so the timer attempts after it start clean.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    wander = yaml.safe_load((environments / "clock.tab.timers.yaml").read_text())
    wander["solution"].append({"tap": "Start"})
    (tasks / "a.yaml").write_text(yaml.safe_dump(wander, sort_keys=False))
    timer_tasks(environments, tasks)
    with SimServer() as sim:
        rows = run_timers(tasks, tmp_path, device=sim.url)
        assert run_probe(Phone(sim.url), "clock_timers", "") == 0
    assert_it_fails_and_every_timer_attempt_passes(rows["clock.tab.timers"], rows)


class Around(SolutionAgent):
    """Plays the reference finish through the bridge; in a task outside Clock it also starts a
    timer on the phone's own WDA (as Siri would, or a shell that found the phone), so Clock
    never shows in front in the bridge's log."""

    name = "around"

    def __init__(self, phone_url: str) -> None:
        self.phone_url = phone_url

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        if context.task.app != CLOCK:
            phone = Phone(self.phone_url)
            run_steps(phone, (Step("launch", CLOCK), Step("select_tab", "Timers"),
                              Step("tap", "Start"), Step("home")))
        return result


AGENTS.register("around")(Around)


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_a_timer_started_where_the_log_never_shows_clock_is_still_the_agents(
        tmp_path: Path, environments: Path) -> None:
    # Nothing in the bridge's log shows Clock in front, but the custody lines show a change no
    # logged action explains: the watch reads everything after it, the wheels too, and finds
    # the timer in their place (none when the run began, and only agents acted between).
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "a.yaml").write_text((environments / "settings.about.reach.yaml").read_text())
    timer_tasks(environments, tasks)
    with SimServer() as sim:
        rows = run_timers(tasks, tmp_path, agent=f"around:{sim.url}", device=sim.url)
        assert run_probe(Phone(sim.url), "clock_timers", "") == 0
    around = rows["settings.about.reach"]
    assert around.outcome == "failed" and "outside the bridge" in around.error, around
    assert_it_fails_and_every_timer_attempt_passes(around, rows)


@pytest.mark.slow  # 4.7 s measured: the README's command stays quick
def test_a_timer_running_before_the_run_makes_timer_attempts_not_scored(
        tmp_path: Path, environments: Path) -> None:
    # The phone's owner left a timer running: no agent of this run did, so nothing is its
    # failure, and nothing the harness did not make is cancelled. The run says so at once.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    timer_tasks(environments, tasks)
    lines: list[str] = []
    with SimServer() as sim:
        owner = Phone(sim.url, effect_timeout_s=1.0)
        run_steps(owner, load_task(environments / "clock.timer.set.yaml").solution or ())
        assert run_probe(owner, "clock_timers", "") == 1
        summary = run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                                       run_id="R"), lines.append)
        assert run_probe(owner, "clock_timers", "") == 1, "the owner's timer is not cancelled"
    assert any("before the run the phone already has clock_timers 1" in line for line in lines)
    rows = read_results(tmp_path / "R" / "results.jsonl")
    assert [r.task_id for r in rows if r.skipped] == sorted(TIMER_TASKS), rows
    for row in rows:
        assert LEFTOVER in row.skip_reason and "so they are left alone" in row.skip_reason
        assert "agent left" not in row.skip_reason
    assert summary.planned == 3 and not summary.rows[0].passed


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_a_start_count_that_cannot_be_taken_is_said_at_once(tmp_path: Path,
                                                           environments: Path) -> None:
    # a phone without Clock: nothing to count timers with before the run
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    timer_tasks(environments, tasks)
    lines: list[str] = []
    with SimServer(apps=[a for a in builtin_apps() if a.bundle_id != CLOCK]) as sim:
        run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                             run_id="R"), lines.append)
    said = [line for line in lines if "before the run" in line]
    # the first count the timer tasks start from none of that could not be taken is named
    assert len(said) == 4 and said[0].startswith(
        "phone-1: could not count before the run timer_dialled('0:05:00') (probe "
        "timer_dialled"), lines
    assert said[0].endswith("what an agent leaves of it will not be told from what was there")
    assert said[1].startswith("phone-1: the alarms could not be listed before the run, so any "
                              "its agents save will stay: "), said
    assert said[2].startswith("phone-1: World Clock's cities could not be listed before the "
                              "run, so any its agents add will stay: "), said
    assert said[3].startswith("phone-1: the owner's alarms (probe alarms"), said
    assert said[3].endswith("could not be read before the run, so what its agents do to them is "
                            "not checked"), said


STOPWATCH = "clock.stopwatch.start"


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_a_stopwatch_left_going_fails_one_attempt_and_the_owners_is_not_scored(
        tmp_path: Path, environments: Path) -> None:
    # A phone keeps a stopwatch going after Clock closes. An agent asked only to open the
    # Alarms tab starts it: an honest agent after it would find Stop where Start should be
    # and fail for it. The run saw it at zero before any agent, so the owner watch, which reads
    # it after an attempt whose agent pressed a Stopwatch button, fails that attempt and resets
    # it (before: the next stopwatch attempt failed for it, its agent never run), and both
    # stopwatch attempts pass.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    wander = yaml.safe_load((environments / "clock.tab.alarms.yaml").read_text())
    wander["solution"] += [{"select_tab": "Stopwatch"}, {"tap": "Start"}]
    (tasks / "a.yaml").write_text(yaml.safe_dump(wander, sort_keys=False))
    for n in (1, 2):
        (tasks / f"b{n}.yaml").write_text((environments / f"{STOPWATCH}.yaml").read_text()
                                          .replace(f"id: {STOPWATCH}", f"id: {STOPWATCH}.{n}"))
    with SimServer() as sim:
        rows = run_timers(tasks, tmp_path, device=sim.url)
        phone = Phone(sim.url, effect_timeout_s=1.0)
        assert run_probe(phone, "stopwatch", "") == 0
        wandered = rows["clock.tab.alarms"]
        assert wandered.outcome == "failed" and wandered.teardown is not None, wandered
        assert wandered.error.startswith("the stopwatch was left going, which the task did "
                                         "not ask for"), wandered.error
        assert wandered.teardown.owner[0].endswith("; reset it"), wandered.teardown
        assert rows[f"{STOPWATCH}.1"].passed and rows[f"{STOPWATCH}.2"].passed, rows
        # run again, the phone's owner having left it going: not scored, and left going
        run_steps(phone, (Step("launch", CLOCK), Step("select_tab", "Stopwatch"),
                          Step("tap", "Start"), Step("home")))
        (tmp_path / "R").rename(tmp_path / "R0")
        (tasks / "a.yaml").unlink()
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                             run_id="R"), lines.append)
        assert run_probe(phone, "stopwatch", "") == 1, "the owner's stopwatch is not reset"
    assert any("before the run the phone already has stopwatch 1" in line for line in lines)
    again = read_results(tmp_path / "R" / "results.jsonl")
    assert [r.skipped for r in again] == [True, True], again


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_what_the_runs_agents_left_going_at_its_end_is_stopped_so_the_next_run_scores(
        tmp_path: Path, environments: Path) -> None:
    # The last attempt's agent starts the stopwatch and a timer, and no attempt comes after to
    # fail for them. Left, the next run would take them for the owner's and not score its
    # stopwatch and timer tasks, run after run. The run saw none at its start, so they are
    # its agents': the owner watch fails that attempt and stops both after it (before: the
    # stopwatch was stopped only when the run ended, and the attempt passed for it).
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "a.yaml").write_text((environments / f"{STOPWATCH}.yaml").read_text())
    (tasks / "b.yaml").write_text((environments / "clock.timer.set_minutes.yaml").read_text())
    wander = yaml.safe_load((environments / "clock.tab.timers.yaml").read_text())
    wander["solution"] += [{"tap": "Start"}, {"select_tab": "Stopwatch"}, {"tap": "Start"}]
    (tasks / "z.yaml").write_text(yaml.safe_dump(wander, sort_keys=False))
    with SimServer() as sim:
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                             run_id="R0"), lines.append)
        # and the run leaves the phone on its home screen, as it found it, not in Clock
        assert sim.state()["foreground"] == "com.apple.springboard", sim.state()["foreground"]
        phone = Phone(sim.url, effect_timeout_s=1.0)
        assert (run_probe(phone, "stopwatch", ""), run_probe(phone, "clock_timers", "")) == (0, 0)
        end = next(line for line in lines if "the run's agents changed" in line)
        assert f"clock.tab.timers attempt 1: {RUNNING}" in end, end
        assert "clock.tab.timers attempt 1: the stopwatch was left going" in end, end
        assert end.endswith("all were put back as the run found them"), end
        assert "deleted" not in end, end  # nothing was left for the run's end
        rows = run_timers(tasks, tmp_path, device=sim.url)  # the next run, all three again
    assert rows[STOPWATCH].passed and rows["clock.timer.set_minutes"].passed, rows


NOTE = "phoneshell benchmark"


def settings_then_twice(tmp_path: Path, environments: Path, task_id: str) -> Path:
    """A folder of tasks: a Settings task (where an agent may wander off), then `task_id`
    twice (as `task_id.1` and `task_id.2`)."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "a.yaml").write_text((environments / "settings.about.reach.yaml").read_text())
    for n in (1, 2):
        (tasks / f"b{n}.yaml").write_text((environments / f"{task_id}.yaml").read_text()
                                          .replace(f"id: {task_id}", f"id: {task_id}.{n}"))
    return tasks


class Deleter(SolutionAgent):
    """Plays the reference finish; in a Settings task it also deletes the note that
    notes.search looks for (an agent that wanders into Notes and tidies up)."""

    name = "deleter"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        if context.task.app != "com.apple.mobilenotes":
            run_step(Phone(context.wda_url), Step("delete_created", options=(
                ("probe", "notes_titled"), ("text", NOTE), ("before", "0"), ("after", "1"))))
        return result


AGENTS.register("deleter")(lambda arg: Deleter())


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_a_note_the_task_starts_from_deleted_by_the_runs_agent_fails_it_and_none_is_not_scored(
        tmp_path: Path, environments: Path) -> None:
    # notes.search needs its note there to find. An agent of this run deleted it: the search
    # attempt fails for it (not the next honest agent's failure, nor a skip it could want).
    # The next run finds no such note before its first attempt: not scored, and said.
    tasks = settings_then_twice(tmp_path, environments, "notes.search")  # both fail for it
    with SimServer() as sim:
        rows = run_timers(tasks, tmp_path, agent="deleter", device=sim.url)
        for n in (1, 2):
            search = rows[f"notes.search.{n}"]
            assert search.outcome == "failed" and search.turns == 0, search
            assert (f"notes_titled('{NOTE}') counted 0 before the agent, where the task starts "
                    "from some") in search.error and "agent deleted them" in search.error, search
        (tasks / "b2.yaml").unlink()
        (tasks / "b1.yaml").write_text((environments / "notes.search.yaml").read_text())
        # the next run creates and deletes a note of that title before the search (its
        # teardown's doing, not an agent's loss)
        (tasks / "a0.yaml").write_text((environments / "notes.create_titled.yaml").read_text())
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                             run_id="R2"), lines.append)
    assert f"phone-1: before the run the phone has no notes_titled('{NOTE}'): the tasks that " \
           "start from some will not be scored until it has (make it on the phone first)" in lines
    again = {r.task_id: r for r in read_results(tmp_path / "R2" / "results.jsonl")}
    assert again["notes.search"].skipped and "the phone lacks what the task starts from" in \
        again["notes.search"].skip_reason, again["notes.search"]
    assert again["settings.about.reach"].passed and again["notes.create_titled"].passed


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_a_note_an_agent_left_without_a_title_does_not_steer_the_notes_finishes(
        tmp_path: Path, environments: Path) -> None:
    # An agent that left a note with nothing on its first line (a random one typed Return
    # into a new note) leaves a row Notes lists as "New Note", above the toolbar's New Note
    # button: a finish that tapped "New Note" opened that note, and typed into no field.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    notes = ("notes.create_titled", "notes.type_long", "notes.type_punctuation",
             "notes.text_select")
    for task_id in notes:
        (tasks / f"{task_id}.yaml").write_text((environments / f"{task_id}.yaml").read_text())
    with SimServer() as sim:
        run_steps(Phone(sim.url, effect_timeout_s=1.0), [
            Step("launch", "com.apple.mobilenotes"), Step.tap_on("New Note", "Button"),
            Step("type", "\n"), Step("terminate", "com.apple.mobilenotes")])
        run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                             run_id="R"), lambda line: None)
    rows = read_results(tmp_path / "R" / "results.jsonl")
    assert [(r.task_id, r.outcome) for r in rows] == [(t, "passed") for t in sorted(notes)], \
        [(r.task_id, r.error) for r in rows if not r.passed]


class Detour(SolutionAgent):
    """Takes a detour first (steps of its own, in any task whose app is not `spared`), then
    plays the reference finish: an agent that wanders off and leaves something behind."""

    def __init__(self, name: str, detour: tuple[Step, ...], spared: str) -> None:
        super().__init__()
        self.name, self.detour, self.spared = name, detour, spared

    def run(self, context: AgentContext) -> AgentResult:
        if context.task.app != self.spared:
            run_steps(Phone(context.wda_url, effect_timeout_s=1.0), self.detour)
        return super().run(context)


def new_note(text: str) -> tuple[Step, ...]:
    return (Step("launch", NOTES), Step.tap_on("New Note", "Button"), Step("type", text),
            Step("terminate", NOTES))


# notes titled as notes.text_select counts them, more than one screen of search results: an
# agent burying what a later attempt it would fail counts, to make that attempt a skip
AGENTS.register("burier")(lambda arg: Detour(
    "burier", tuple(step for n in range(6) for step in new_note("anchor")), NOTES))


@pytest.mark.slow  # 9 s of whole programs: the README's command stays quick
def test_a_count_the_runs_agent_made_uncountable_fails_its_task_once_and_is_dug_out(
        tmp_path: Path, environments: Path) -> None:
    # The run counted notes with "anchor" before its first attempt. An agent of the run then
    # made so many that they cannot be counted: the next text_select attempt fails for it, not
    # a skip (which would take the attempt out of the agent's score), and its teardown digs the
    # notes out down to what the run counted first. The attempt after it is scored as usual, and
    # the next run finds the phone as this one did.
    tasks = settings_then_twice(tmp_path, environments, "notes.text_select")
    with SimServer() as sim:
        rows = run_timers(tasks, tmp_path, agent="burier", device=sim.url)
        buried = rows["settings.about.reach"]  # its task done, the owner's notes not left alone
        assert buried.outcome == "failed" and "the owner's notes changed: the notes went from 4 " \
            "to 10" in buried.error, buried
        first, second = rows["notes.text_select.1"], rows["notes.text_select.2"]
        assert first.outcome == "failed" and first.turns == 0, first
        assert "notes_titled('anchor') could not be counted before the agent" in \
            first.error and "an earlier attempt's agent made it uncountable" in first.error
        assert first.teardown is not None and first.teardown.ok, first.teardown
        assert second.passed, second
        phone = Phone(sim.url, effect_timeout_s=1.0)
        assert run_rows(phone, "notes_titled", "anchor") == ()
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=tmp_path,
                             run_id="R2"), lines.append)
    assert not any("could not count before the run" in line for line in lines), lines
    again = read_results(tmp_path / "R2" / "results.jsonl")
    assert [r.outcome for r in again] == ["passed"] * 3, again


@pytest.mark.slow  # whole runs: 5-7 s on a busy 2-core machine
def test_notes_an_agent_buried_a_count_under_are_dug_out_when_the_run_ends(
        tmp_path: Path, environments: Path) -> None:
    # Buried after the last attempt that counts them, nothing in the run would delete them; the
    # run's end counts them again and digs them out, so the next run can count them.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "a.yaml").write_text((environments / "notes.text_select.yaml").read_text())
    (tasks / "b.yaml").write_text((environments / "settings.about.reach.yaml").read_text())
    with SimServer() as sim:
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(tasks),), agent="burier", device=sim.url,
                             runs_dir=tmp_path, run_id="R"), lines.append)
        assert run_rows(Phone(sim.url, effect_timeout_s=1.0), "notes_titled", "anchor") == ()
    said = "deleted notes_titled('anchor') 6 this run's agents left; 0 left, as the run " \
           "found them"
    assert any(line.startswith(f"phone-1: {said}") for line in lines), lines
    # what the Settings attempt's agent left of the owner's notes is gone by then, and said so
    assert any(line.endswith("all were put back as the run found them") for line in lines), lines


# London added to World Clock, in a Clock task
AGENTS.register("traveller")(lambda arg: Detour("traveller", (
    Step("launch", CLOCK), Step("select_tab", "World Clock"), Step.tap_on("Add", "Button"),
    Step("type", "Lond"), Step("tap", "London"), Step("terminate", CLOCK)), ""))


def owners_paris(tmp_path: Path, environments: Path, agent: str) -> tuple[ResultRow, list[str]]:
    """The Alarms task played by `agent` on a phone whose owner keeps Paris in World Clock;
    the attempt's row (failed, by `runner.owner`) and the run's lines. The run leaves the
    owner's cities as they were."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "a.yaml").write_text((environments / "clock.tab.alarms.yaml").read_text())
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        run_steps(phone, [Step("launch", CLOCK), Step("select_tab", "World Clock"),
                          Step.tap_on("Add", "Button"), Step("type", "Paris"),
                          Step("tap", "Paris"), Step("terminate", CLOCK)])  # the owner's
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(tasks),), agent=agent, device=sim.url,
                             runs_dir=tmp_path, run_id="R"), lines.append)
        assert run_rows(phone, "world_clocks", "") == ("Cupertino", "Paris")
    (row,) = read_results(tmp_path / "R" / "results.jsonl")
    assert row.outcome == "failed" and row.teardown is not None, row  # by `runner.owner`
    return row, lines


@pytest.mark.slow  # 3.6 s measured: the README's command stays quick
def test_a_city_the_runs_agent_added_to_world_clock_fails_its_attempt_and_is_deleted(
        tmp_path: Path, environments: Path) -> None:
    row, lines = owners_paris(tmp_path, environments, "traveller")
    assert row.teardown.owner == ("the owner's world_clocks changed: the cities went from 2 to "
                                  "3, 'London' is new; deleted 'London'; the owner's "
                                  "world_clocks are as they were",), row.teardown
    assert not any("World Clock cit" in line for line in lines), lines  # none left for the end


class Unpacker(SolutionAgent):
    """Plays the reference finish, then deletes the owner's Paris from World Clock."""

    name = "unpacker"

    def run(self, context: AgentContext) -> AgentResult:
        result = super().run(context)
        delete_cities(Phone(context.wda_url, effect_timeout_s=1.0), Step("swipe"), ["Paris"])
        return result


AGENTS.register("unpacker")(lambda arg: Unpacker())


@pytest.mark.slow  # 3.4 s measured: the README's command stays quick
def test_a_city_the_runs_agent_deleted_from_world_clock_fails_its_attempt_and_comes_back(
        tmp_path: Path, environments: Path) -> None:
    row, lines = owners_paris(tmp_path, environments, "unpacker")
    assert row.teardown.owner == ("the owner's world_clocks changed: the cities went from 2 to "
                                  "1, the city 'Paris' is gone or changed; added back 'Paris'; "
                                  "the owner's world_clocks are as they were",), row.teardown
    assert not any("World Clock cit" in line for line in lines), lines  # none left for the end


# a note titled as the one notes.search looks for, made in a Settings task
AGENTS.register("maker")(lambda arg: Detour("maker", new_note(NOTE), NOTES))


@pytest.mark.slow  # 2.6 s measured: the README's command stays quick
def test_what_a_task_starts_from_some_of_that_the_phone_lacked_is_deleted_by_the_run(
        tmp_path: Path, environments: Path) -> None:
    # The phone had no such note before the run; an agent of the run made one. The owner watch
    # deletes it after that agent's attempt (red team 141: nothing an agent adds is taken for
    # the owner's), so the run ends with the phone as it found it.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "a.yaml").write_text((environments / "settings.about.reach.yaml").read_text())
    (tasks / "b.yaml").write_text((environments / "notes.search.yaml").read_text())
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        run_step(phone, Step("delete_created", options=(
            ("probe", "notes_titled"), ("text", NOTE), ("before", "0"), ("after", "1"))))
        assert run_probe(phone, "notes_titled", NOTE) == 0
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(tasks),), agent="maker", device=sim.url,
                             runs_dir=tmp_path, run_id="R"), lines.append)
        assert run_probe(phone, "notes_titled", NOTE) == 0
    assert any(f"'{NOTE} | " in line and line.endswith("all were put back as the run found them")
               for line in lines), lines


def test_a_count_the_run_read_before_blames_an_earlier_agent_whatever_stopped_it() -> None:
    # Only "too many to read" was blamed, so an agent that left the app unreadable another way
    # had the next attempt not scored (red team 88): between two attempts only agents act.
    need = Need("probe", "notes_containing", "anchor")
    buried = {need: Count(None, "more notes with 'anchor' than one screen shows", overflow=True)}
    unserved = {need: Count(None, "Notes would not open")}
    for count in (buried, unserved):
        assert "an earlier attempt's agent made it uncountable" in uncountable(
            count, frozenset({need}))
        assert uncountable(count, frozenset()) == ""  # never counted here: maybe the owner's
    assert uncountable({need: Count(3)}, frozenset({need})) == ""
