"""A run leaves Safari's tabs as it found them: each URL an agent opens from outside takes a new
tab, and a phone that collects them run after run ends with a Safari that refuses new ones. The
run closes the tabs it opened, newest first, and never the phone's own. Alarms its agents saved
where no task counts them go too. Played through the runner on one simulated iPhone whose state
persists across attempts.

The run's end reads nothing the owner watch already knows: a collection it followed through
every attempt and knows as the run found it (the alarms, World Clock's cities) is not read
again, while what an agent left where it stays (notes buried under a count) is still counted
and deleted; an attempt the watch did not follow to its end (Ctrl-C during it) makes the run's
end read everything."""

from __future__ import annotations

import gc
import os
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cli_process import ended, reap
from runner.owners_tabs_phone import OWNERS, owners_phone, tab_urls

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.agents.reference import SolutionAgent
from phoneshell.audit import read_audit
from phoneshell.device import Phone, run_rows, run_steps
from phoneshell.device.probes import CLOCK
from phoneshell.replays import Swapper, halt_all, open_swappers, stopped
from phoneshell.runner import stop, tidy
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import SimServer
from phoneshell.sim.latency import Latency
from phoneshell.tasks import Step, Task

ROOT = Path(__file__).resolve().parents[2]
OPENING = ("probe.text.one", "probe.text.two", "probe.text.three", "safari.navigate.example",
           "calculator.arithmetic")
"""Three tasks whose finishes open a URL from outside (a new tab each), one whose setup opens
its start page from outside (a new tab) and whose finish types its URL into that tab (none),
and one without Safari."""


def copy_tasks(environments: Path, into: Path, ids: tuple[str, ...]) -> Path:
    into.mkdir()
    for n, task_id in enumerate(ids):  # file names keep the order
        shutil.copy(environments / f"{task_id}.yaml", into / f"{n}-{task_id}.yaml")
    return into


def run(tasks: Path, sim: SimServer, runs: Path, repeat: int = 1, failed: int = 0,
        ) -> list[str]:
    """Run the tasks; `failed` of the attempts fail (for what they did to the owner's alarms),
    the rest pass."""
    lines: list[str] = []
    summary = run_suite(RunOptions(paths=(str(tasks),), device=sim.url, runs_dir=runs,
                                   run_id="R", repeat=repeat), lines.append)
    assert sum(not row.passed for row in summary.rows) == failed, summary.rows
    return lines


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_tabs_a_run_opened_are_closed_and_the_phones_own_stay(
        tmp_path: Path, environments: Path) -> None:
    tasks = copy_tasks(environments, tmp_path / "tasks", OPENING)
    with SimServer() as sim:
        owners_phone(sim)
        lines = run(tasks, sim, tmp_path)
        assert tab_urls(sim) == list(OWNERS), "the newest are the run's; the first the owner's"
    assert "phone-1: closed the 4 Safari tab(s) this run opened; 3 open, as the run found " \
           "them" in lines


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_long_run_closes_its_tabs_as_it_goes(tmp_path: Path, environments: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tidy, "TIDY_EVERY", 4)  # as 100 is for the suite
    tasks = copy_tasks(environments, tmp_path / "tasks", ("probe.text.one",))
    with SimServer() as sim:
        owners_phone(sim)
        lines = run(tasks, sim, tmp_path, repeat=10)
        assert tab_urls(sim) == list(OWNERS)
    closed = [line for line in lines if "Safari tab(s) this run opened" in line]
    assert closed == [f"phone-1: closed the {n} Safari tab(s) this run opened; 3 open, as the "
                      "run found them" for n in (4, 4, 2)], lines


@pytest.mark.slow  # 1.9 s measured: the README's command stays quick
def test_a_run_without_safari_leaves_its_tabs_uncounted(
        tmp_path: Path, environments: Path, suite: dict[str, Task]) -> None:
    assert not tidy.uses_safari(suite["calculator.arithmetic"])
    assert all(tidy.uses_safari(suite[t]) for t in OPENING[:4])
    assert tidy.uses_safari(suite["multi.app_switch"])  # Safari is one of its apps
    tasks = copy_tasks(environments, tmp_path / "tasks", ("calculator.arithmetic",))
    with SimServer() as sim:
        owners_phone(sim)
        lines = run(tasks, sim, tmp_path)
        assert tab_urls(sim) == list(OWNERS)
    assert not any("Safari" in line for line in lines)
    runs = [e for e in read_audit(tmp_path / "R" / "audit.jsonl").records
            if not e.task_id and e.stage == "intent"]
    opened = [e.phase for e in runs
              if e.kind == "launch" and e.params.get("bundle_id") == tidy.SAFARI]
    # once, before the first attempt, for the owner watch's read of the tabs' titles
    # (`runner.owner_tabs`: any agent can reach Safari); not to count them for closing, nor
    # after the attempt, whose agent stayed in Calculator
    assert runs and opened == ["probe"], opened


@pytest.mark.slow  # 2.0 s measured: the README's command stays quick
def test_the_swap_closes_the_tabs_its_finishes_opened(tmp_path: Path,
                                                      suite: dict[str, Task]) -> None:
    tasks = [suite["probe.text.one"], suite["probe.text.two"]]
    lines: list[str] = []
    with SimServer() as sim:
        owners_phone(sim)
        with open_swappers(sim.url, tmp_path, progress=lines.append, tasks=tasks) as swappers:
            for task in tasks:
                evidence, _, missing = swappers[0].play(task)
                assert evidence is not None, missing
            assert len(tab_urls(sim)) == len(OWNERS) + 2
        assert tab_urls(sim) == list(OWNERS)
    assert any(line.endswith("closed the 2 Safari tab(s) this run opened; 3 open, as the run "
                             "found them") for line in lines), lines


@pytest.mark.slow  # seconds of a phone as slow as an iPhone: the README's command stays quick
def test_a_stop_during_the_swaps_closing_tidy_up_waits_for_it_and_keeps_what_was_played(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    """The stop is held until the tabs are closed, then the phones stop: the `with` ends with
    no exception, so the swap or attack still prints the finishes it played (it ended with a
    bare "stopped by SIGTERM" and no summary, every finish played and graded)."""
    lines: list[str] = []
    with SimServer() as sim, stop.stop_signals():
        swappers = stopped_in_the_tidy_up(sim, tmp_path, suite, lines, stopped_before=False)
        assert tab_urls(sim) == list(OWNERS)  # the tidy-up ran whole
    why = stopped(swappers)
    assert why.kinds == {"interrupted"}
    assert why.why == ("interrupted (SIGTERM) during the closing tidy-up, after the last "
                       "finish"), why.why
    assert any(line.endswith("closed the 2 Safari tab(s) this run opened; 3 open, as the run "
                             "found them") for line in lines), lines


def stopped_here(swappers: list[Swapper]) -> None:
    """A stop signal during the finishes, taken as `share_out` takes it: every phone stops."""
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises within a bytecode or two
    except KeyboardInterrupt as exc:
        halt_all(swappers, exc)
    assert all(s.stop_kind == "interrupted" for s in swappers)


@pytest.mark.slow  # 2 s measured: the README's command stays quick
def test_a_swap_stopped_during_its_finishes_still_closes_the_tabs_they_opened(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    """A phone a stop signal stopped still answers: its closing tidy-up runs (it was skipped,
    and the finishes' tabs stayed on the phone)."""
    tasks = [suite["probe.text.one"], suite["probe.text.two"]]
    lines: list[str] = []
    with SimServer() as sim, stop.stop_signals():
        owners_phone(sim)
        with open_swappers(sim.url, tmp_path, progress=lines.append, tasks=tasks) as swappers:
            for task in tasks:
                assert swappers[0].play(task)[0] is not None
            stopped_here(swappers)
        assert tab_urls(sim) == list(OWNERS)
    assert stopped(swappers).why == "interrupted (SIGTERM)"
    assert any(line.endswith("closed the 2 Safari tab(s) this run opened; 3 open, as the run "
                             "found them") for line in lines), lines


@pytest.mark.slow  # seconds of a phone as slow as an iPhone: the README's command stays quick
# the stop leaves the WDA request it cut short for the collector to close: collected below
@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_another_stop_cuts_the_swaps_closing_tidy_up_short_and_says_so(
        tmp_path: Path, suite: dict[str, Task]) -> None:
    lines: list[str] = []
    with SimServer() as sim, stop.stop_signals():
        stopped_in_the_tidy_up(sim, tmp_path, suite, lines, stopped_before=True)
        assert len(tab_urls(sim)) == len(OWNERS) + 1  # cut short after the first
    gc.collect()  # here, not in the next test of this worker
    assert ("the tidy-up was cut short (SIGTERM again): what the finishes left (Safari tabs, "
            "notes, reminders) may still be on the phones") in lines, lines


def stopped_in_the_tidy_up(sim: SimServer, runs: Path, suite: dict[str, Task], lines: list[str],
                           stopped_before: bool) -> list[Swapper]:
    """The phones of a swap on `sim` whose two finishes each opened a tab, with a SIGTERM sent
    once its closing tidy-up closed the first (as slow as an iPhone, the second is still open);
    after a stop during the finishes, when `stopped_before`. A stop that escapes the `with`
    fails the test: as pytest's own Ctrl-C it would end the session."""
    owners_phone(sim)

    def stop_once_a_tab_is_closed() -> None:
        deadline = time.monotonic() + 60
        while len(tab_urls(sim)) == len(OWNERS) + 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(os.getpid(), signal.SIGTERM)

    tasks = [suite["probe.text.one"], suite["probe.text.two"]]
    try:
        with open_swappers(sim.url, runs, progress=lines.append, tasks=tasks) as swappers:
            for task in tasks:
                assert swappers[0].play(task)[0] is not None
            if stopped_before:
                stopped_here(swappers)
            sim.latency = Latency("iphone")  # as slow as a phone: the stop lands in the tidy-up
            threading.Thread(target=stop_once_a_tab_is_closed, daemon=True).start()
    except KeyboardInterrupt as exc:
        pytest.fail(f"the stop left the swap with no summary: {exc!r}")
    return swappers


def interrupted(tasks: tuple[str, ...], agent: str, device: str, marker: Path, runs: Path,
                ) -> str:
    """`phoneshell run` of `tasks` by `agent`, stopped by Ctrl-C once `marker` exists (the
    agent made it, and waits); what it printed, having stopped as an interrupted run does."""
    process = subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "run", "environments",
         *(arg for task in tasks for arg in ("--task", task)), "--agent", agent, "--device",
         device, "--runs", str(runs), "--sandbox", "none"], cwd=ROOT,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = ended(process, 60)
    finally:
        reap(process)
    assert process.returncode == 2, out + err
    return out


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_ctrl_c_closes_the_tabs_before_the_run_stops(tmp_path: Path) -> None:
    marker = tmp_path / "started"
    opener = (f"{shlex.quote(sys.executable)} -c \"import os, wda; wda.Client(os.environ["
              "'PHONESHELL_WDA_URL']).session().open_url('https://blolabel.ai/probe/one/')\"")
    # the first task's agent opens a tab; the second's waits to be interrupted
    agent = (f"command:case $PHONESHELL_TASK_ID in probe.text.one) {opener};; "
             f"*) touch {marker}; sleep 60;; esac")
    with SimServer() as sim:
        owners_phone(sim)
        out = interrupted(("probe.text.one", "settings.about.reach"), agent, sim.url, marker,
                          tmp_path / "runs")
        assert tab_urls(sim) == list(OWNERS)
    assert "before it stops, the run closes the Safari tabs this run opened" in out
    assert "closed the 1 Safari tab(s) this run opened; 3 open, as the run found them" in out


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_alarms_agents_saved_where_no_task_counts_them_are_deleted_and_the_phones_stay(
        tmp_path: Path, environments: Path) -> None:
    # Asked only to open the Alarms tab, the agent saves a new alarm: nothing in that task
    # counts alarms, and on a phone it would ring over a later attempt. The run listed the
    # alarms before its first attempt, and deletes the ones it did not list, every N attempts
    # and at its end; the owner's alarm stays.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    wander = (environments / "clock.tab.alarms.yaml").read_text().replace(
        "- tap: Alarms", "- tap: Alarms\n- tap: Add\n- tap: Save")
    for n in range(3):
        (tasks / f"{n}.yaml").write_text(wander.replace("id: clock.tab.alarms",
                                                        f"id: clock.tab.alarms.{n}"))
    with SimServer() as sim:
        owner = Phone(sim.url, effect_timeout_s=1.0)
        run_steps(owner, [Step("launch", CLOCK), Step("select_tab", "Alarms"),
                          Step("tap", "Add"), Step("tap", "Save"), Step("terminate", CLOCK)])
        mine = run_rows(owner, tidy.ALARMS, "")
        assert len(mine) == 1
        lines = run(tasks, sim, tmp_path, failed=3)
        assert run_rows(owner, tidy.ALARMS, "") == mine
    # each attempt fails for it, and its alarm goes after it (`runner.owner`): none is left for
    # the run's own tidying
    rows = read_results(tmp_path / "R" / "results.jsonl")
    assert all("the owner's alarms changed: the alarms went from 1 to 2" in row.error
               for row in rows), rows
    assert all(row.teardown is not None and "deleted '9:41 AM, Alarm'" in row.teardown.owner[0]
               for row in rows), rows
    assert not [line for line in lines if "alarm(s)" in line], lines


@pytest.mark.slow  # 2.2 s measured: the README's command stays quick
def test_a_run_without_clock_reads_the_alarms_only_before_its_first_attempt(
        tmp_path: Path, environments: Path) -> None:
    # once, as the owner's (`runner.owner`: an agent may wander into Clock from any task);
    # never again after an attempt whose agent stayed out of Clock
    tasks = copy_tasks(environments, tmp_path / "tasks", ("calculator.arithmetic",))
    with SimServer() as sim:
        run(tasks, sim, tmp_path)
        launched = [(e.task_id, e.phase, e.params.get("bundle_id"))
                    for e in read_audit(tmp_path / "R" / "audit.jsonl").records
                    if e.kind == "launch" and e.stage == "intent"]
    assert [t for t in launched if t[2] == CLOCK] == [("", "probe", CLOCK)], launched


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_an_owners_alarm_an_agent_switched_off_is_kept_and_turned_back_on(
        tmp_path: Path, environments: Path) -> None:
    # The agent switches the owner's one-off alarm off (it then reads as a run's artifact:
    # unnamed, one-off, off) and saves one of its own; a later honest attempt's teardown
    # cleans artifact alarms. The owner's alarm must stay, and ring again: the run turns its
    # switch back when it ends, after deleting the agent's.
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    owners = "6:41 AM, Alarm"
    switcher = (environments / "clock.tab.alarms.yaml").read_text().replace(
        "id: clock.tab.alarms", "id: clock.a.switcher").replace(
        "- tap: Alarms", f"- tap: Alarms\n- tap: {{text: '{owners}', type: Switch}}\n"
                         "- tap: {text: Add, type: Button}\n- tap: {text: Save, type: Button}")
    (tasks / "a.switcher.yaml").write_text(switcher)  # runs first: files go in name order
    shutil.copy(environments / "clock.alarm.set_time.yaml", tasks)
    with SimServer() as sim:
        owner = Phone(sim.url, effect_timeout_s=1.0)
        run_steps(owner, [Step("launch", CLOCK), Step("select_tab", "Alarms"),
                          Step.tap_on("Add", "Button"),
                          Step("set_picker", options=(("wheel", "o'clock"),
                                                      ("value", "6 o'clock"))),
                          Step.tap_on("Save", "Button"), Step("terminate", CLOCK)])
        assert run_rows(owner, tidy.ALARMS, "") == (f"{owners} | on",)
        lines = run(tasks, sim, tmp_path, failed=1)
        assert run_rows(owner, tidy.ALARMS, "") == (f"{owners} | on",), lines
    # the switcher's attempt fails for it, and the owner's alarm is turned back after it, the
    # agent's deleted (`runner.owner`), before the next attempt
    switcher_row = read_results(tmp_path / "R" / "results.jsonl")[0]
    assert switcher_row.teardown is not None
    assert switcher_row.teardown.owner == (
        f"the owner's alarms changed: the alarms went from 1 to 2, the alarm '{owners} | on' is "
        f"gone or changed, '{owners} | off' is new, '9:41 AM, Alarm | on' is new; deleted "
        f"'9:41 AM, Alarm'; turned '{owners}' back on; the owner's alarms are as they were",)
    assert not [line for line in lines if "alarm(s)" in line], lines


NOTES = "com.apple.mobilenotes"
SAVE_ALARM = (Step("launch", CLOCK), Step("select_tab", "Alarms"), Step("tap", "Add"),
              Step("tap", "Save"), Step("terminate", CLOCK))
"""A new alarm saved, as a person saves one (9:41 AM, the simulator's time)."""


class Burier(SolutionAgent):
    """In a task outside Notes, first makes six notes titled 'anchor' (more than a screen of
    Notes' search results: `notes.text_select` cannot count them), then plays the reference
    finish."""

    name = "tidy-burier"

    def run(self, context: AgentContext) -> AgentResult:
        if context.task.app != NOTES:
            run_steps(Phone(context.wda_url, effect_timeout_s=1.0), [
                step for _ in range(6) for step in (
                    Step("launch", NOTES), Step.tap_on("New Note", "Button"),
                    Step("type", "anchor"), Step("terminate", NOTES))])
        return super().run(context)


AGENTS.register("tidy-burier")(lambda arg: Burier())


def run_end(runs: Path) -> list[tuple[str, str]]:
    """The apps the run's end launched, and the kind of each action it logged under them."""
    return [(e.kind, str(e.params.get("bundle_id", ""))) for e in
            read_audit(runs / "R" / "audit.jsonl").records
            if e.stage == "intent" and not e.task_id and e.phase == "teardown"]


@pytest.mark.slow  # 4 s of whole programs: the README's command stays quick
def test_the_run_end_skips_what_the_watch_knows_clean_and_deletes_what_an_agent_left(
        tmp_path: Path, environments: Path) -> None:
    tasks = tmp_path / "tasks"
    tasks.mkdir()  # file names keep the order: the notes count first, the burying after it
    (tasks / "a.yaml").write_text((environments / "notes.text_select.yaml").read_text())
    (tasks / "b.yaml").write_text((environments / "clock.tab.alarms.yaml").read_text())
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        run_steps(phone, SAVE_ALARM)  # the owner's alarm
        owners = run_rows(phone, tidy.ALARMS, "")
        lines: list[str] = []
        run_suite(RunOptions(paths=(str(tasks),), agent="tidy-burier", device=sim.url,
                             runs_dir=tmp_path, run_id="R"), lines.append)
        assert run_rows(phone, "notes_titled", "anchor") == ()
        assert run_rows(phone, tidy.ALARMS, "") == owners
    # the notes the Clock attempt's agent buried the count under are dug out at the run's end
    said = "deleted notes_titled('anchor') 6 this run's agents left; 0 left, as the run found"
    assert any(line.startswith(f"phone-1: {said}") for line in lines), lines
    # the watch read the alarms and cities before the first attempt, and the Clock agent only
    # tapped the Alarms tab: known as found, neither is read again, and Clock is never opened
    launched = run_end(tmp_path)
    assert ("launch", NOTES) in launched, launched
    assert not [action for action in launched if action[1] == CLOCK], launched


@pytest.mark.slow  # 5 s of whole programs: the README's command stays quick
def test_ctrl_c_during_an_attempt_reads_the_alarms_its_agent_may_have_saved(
        tmp_path: Path) -> None:
    # The first attempt's agent does nothing (the watch follows it to its end and knows the
    # alarms as found); the second saves an alarm in Settings' task and waits: Ctrl-C stops
    # the run before the watch compares after it, so the run's end must read the alarms.
    marker = tmp_path / "started"
    saver = tmp_path / "saver.py"
    saver.write_text(
        "import os\nfrom phoneshell.device import Phone, run_steps\n"
        "from phoneshell.tasks import Step\n"
        f"run_steps(Phone(os.environ['PHONESHELL_WDA_URL'], effect_timeout_s=1.0), "
        f"{SAVE_ALARM!r})\n")
    agent = (f"command:case $PHONESHELL_TASK_ID in clock.tab.alarms) true;; "
             f"*) {shlex.quote(sys.executable)} {shlex.quote(str(saver))} && touch {marker} && "
             "sleep 60;; esac")
    with SimServer() as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        assert run_rows(phone, tidy.ALARMS, "") == ()
        out = interrupted(("clock.tab.alarms", "settings.about.reach"), agent, sim.url, marker,
                          tmp_path / "runs")
        assert run_rows(phone, tidy.ALARMS, "") == (), out
    assert "deleted the 1 alarm(s) this run's agents saved; 0 left, as the run found them" \
        in out, out
