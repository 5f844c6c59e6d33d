"""Device values an agent must read, not remember: each simulated iPhone is the phone of a seed,
whose model and serial numbers, udid, battery level, heading and temperature are its own, shown
alike on every screen that shows them; the reference finishes read them off the screen
(`answer_read`), and an agent answering the reference phone's values without reading fails on
any other phone (red team 54: a blind agent answering '274° W' and '57°F' passed 4/4)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
import wda

from phoneshell.agents import AgentContext, AgentResult
from phoneshell.agents.base import AGENTS
from phoneshell.attack import attacks
from phoneshell.attack.finish import ANSWER_KINDS
from phoneshell.device import Phone, run_step
from phoneshell.device.probes import run_probe
from phoneshell.errors import PhoneshellError, StepError
from phoneshell.evidence import Claim
from phoneshell.phones.open import open_phones
from phoneshell.records import CheckResult, ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.runner.run import RunOptions, run_suite
from phoneshell.sim import DeviceFacts, SimServer
from phoneshell.sim.apps.compass import describe
from phoneshell.sim.facts import REGIONS, SEED_VARIABLE, pick_seed
from phoneshell.tasks import Step
from phoneshell.tasks.load import load_task, load_tasks

ROOT = Path(__file__).resolve().parents[2]
REMEMBERED = {  # the reference phone's values, as a policy trained on it would answer them
    "compass.read_heading": ("com.apple.compass", "274° W"),
    "weather.read_temperature": ("com.apple.weather", "57°F"),
    "settings.battery.percentage": ("com.apple.Preferences", "87%"),
    "settings.about.serial": ("com.apple.Preferences", "MQ163LL/A"),
}
SEEDS = (11, 23, 40)
"""Phones other than the reference one (seeded: the test is the same every time)."""


def test_seed_0_is_the_reference_phone_and_others_draw_their_own() -> None:
    assert DeviceFacts.drawn(0) == DeviceFacts()
    assert DeviceFacts.drawn(17) == DeviceFacts.drawn(17)  # a seed is a phone, again
    phones = [DeviceFacts.drawn(seed) for seed in range(1, 41)]
    for field, least in (("heading", 30), ("temperature_f", 20), ("battery_level", 20),
                         ("model_number", 40), ("serial", 40), ("udid", 40),
                         ("regulatory_model", 3)):
        seen = {getattr(p, field) for p in phones}
        assert len(seen) >= least, (field, sorted(seen))
    regions = dict((suffix, number) for suffix, number in REGIONS)
    for p in phones:  # plausible, and consistent with itself
        suffix = re.fullmatch(r"M[A-Z][A-Z0-9]\d[A-Z0-9]([A-Z]{1,2}/A)", p.model_number)
        assert suffix is not None and regions[suffix.group(1)] == p.regulatory_model, p
        assert re.fullmatch(r"[B-DF-HJ-NP-TV-Z0-9]{10}", p.serial), p.serial
        assert 0.2 <= p.battery_level <= 0.99 and 38 <= p.temperature_f <= 92, p
        assert 0 <= p.heading < 360 and p.model == "iPhone 17 Pro", p


def test_a_seed_comes_from_the_caller_the_variable_or_chance(monkeypatch) -> None:
    monkeypatch.delenv(SEED_VARIABLE, raising=False)
    assert pick_seed(5) == 5 and pick_seed(0) == 0
    assert len({pick_seed() for _ in range(5)}) == 5  # each phone started another phone
    monkeypatch.setenv(SEED_VARIABLE, "9")
    assert pick_seed() == 9 and pick_seed(3) == 3
    monkeypatch.setenv(SEED_VARIABLE, "nine")
    with pytest.raises(PhoneshellError, match="PHONESHELL_SIM_SEED='nine' is not a seed"):
        pick_seed()


def _shown(client: wda.Client, facts: DeviceFacts) -> None:
    """Every screen that shows one of the phone's values shows the phone's own."""
    percent = f"{round(facts.battery_level * 100)}%"
    assert f"{percent} battery power" in client.source()  # the status bar
    assert client.battery_info()["level"] == facts.battery_level
    settings = client.session("com.apple.Preferences")
    settings(name="com.apple.settings.battery").click()
    assert settings(className="Cell", labelContains=f"{percent}, Last Charged").wait(timeout=2)
    settings.app_terminate("com.apple.Preferences")
    settings = client.session("com.apple.Preferences")
    settings(name="com.apple.settings.general").click()
    settings(className="Cell", name="About").click()
    model = settings(className="Cell", name="ProductModel")
    assert model.get(timeout=2).label == f"Model Number, {facts.model_number}"
    assert settings(className="Cell", name="SerialNumber").get(timeout=1).label == \
        f"Serial Number, {facts.serial}"
    model.click()
    assert model.get(timeout=1).label == f"Model Number, {facts.regulatory_model}"
    compass = client.session("com.apple.compass")
    assert compass(label=describe(facts.heading)).exists
    weather = client.session("com.apple.weather")
    now = facts.temperature_f
    assert weather(label=f"{now}°").exists
    assert weather(label=f"H:{now + 4}°  L:{now - 13}°").exists  # the day follows the hour
    weather(label="List").click()
    assert weather(className="Cell", labelContains="My Location").get(timeout=2).label \
        .endswith(f"{now}°")


@pytest.mark.slow  # 2.0 s measured: the README's command stays quick
@pytest.mark.parametrize("seed", (0, *SEEDS))
def test_every_screen_and_probe_reads_the_phones_own_values(seed: int) -> None:
    facts = DeviceFacts.drawn(seed)
    with SimServer(seed=seed) as sim:
        assert sim.state()["seed"] == seed
        _shown(wda.Client(sim.url), facts)
        phone = Phone(sim.url)
        assert run_probe(phone, "compass_heading", "") == describe(facts.heading)
        assert run_probe(phone, "weather_temperature", "") == f"{facts.temperature_f}°F"
        assert run_probe(phone, "battery_level", "") == \
            f"{round(facts.battery_level * 100)}%"
        assert run_probe(phone, "settings_value", "General > About > Model Number") == \
            f"{facts.model_number} | {facts.regulatory_model}"


class _Remembered:
    """The red team's blind agent: opens the task's app, answers the reference phone's value
    without reading a thing."""

    name = "remembered"

    def run(self, context: AgentContext) -> AgentResult:
        bundle, answer = REMEMBERED[context.task.id]
        run_step(Phone(context.wda_url), Step("launch", bundle))
        return AgentResult(ran=True, turns=1, claim=Claim(status="done", answer=answer))


AGENTS.register(_Remembered.name)(lambda arg: _Remembered())


def _rows(tmp_path: Path, agent: str, seed: int, repeat: int) -> list[ResultRow]:
    tasks = tmp_path / f"{agent}-{seed}" / "tasks"
    tasks.mkdir(parents=True)
    for task in REMEMBERED:
        shutil.copy(ROOT / "environments" / f"{task}.yaml", tasks)
    with SimServer(seed=seed) as sim:
        run_suite(RunOptions(paths=(str(tasks),), agent=agent, device=sim.url, repeat=repeat,
                             runs_dir=tmp_path / f"{agent}-{seed}", run_id="R"),
                  lambda line: None)
    return read_results(tmp_path / f"{agent}-{seed}" / "R" / "results.jsonl")


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_the_reference_finishes_read_every_phone_and_a_remembered_answer_fails(tmp_path):
    for seed in (0, *SEEDS):
        rows = _rows(tmp_path, "solution", seed, 1)
        assert {r.task_id for r in rows} == set(REMEMBERED)
        assert all(r.passed for r in rows), [(r.task_id, r.checks) for r in rows
                                             if not r.passed]
    # its answers name what the phone it remembers shows (it never opens Battery or About,
    # which other checks want), so what fails them elsewhere is the phone alone
    assert all(_answer(r).passed for r in _rows(tmp_path, "remembered", 0, 1))
    for seed in SEEDS[:2]:
        rows = _rows(tmp_path, "remembered", seed, 2)
        for task in REMEMBERED:
            mine = [r for r in rows if r.task_id == task]
            assert len(mine) == 2 and not any(r.passed for r in mine), (seed, task, mine)
            assert not any(_answer(r).passed for r in mine), (seed, task, mine)
            assert "the device shows" in _answer(mine[0]).detail, mine[0]


def _answer(row: ResultRow) -> CheckResult:
    (check,) = [c for c in row.checks if c.kind == "answer_matches_device"]
    return check


def test_a_reading_fails_where_nothing_on_screen_matches(sim: SimServer) -> None:
    with pytest.raises(StepError, match=r"nothing on screen matches '\^\\\\d\+°\$'"):
        run_step(Phone(sim.url), Step("answer_read", r"^\d+°$"))


@pytest.mark.slow  # 1.5 s measured: the README's command stays quick
def test_the_loader_warns_at_a_remembered_answer_for_a_device_value(tmp_path: Path) -> None:
    text = (ROOT / "environments" / "settings.battery.percentage.yaml").read_text()
    assert "answer_read:" in text
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "t.yaml").write_text(re.sub(r"- answer_read: .*", "- answer: 87%", text))
    warned = [p.message for p in load_tasks([tmp_path / "a"]).warnings]
    assert any("the solution answers '87%', but answer_matches_device wants the phone's own"
               in m for m in warned), warned
    assert not load_tasks([ROOT / "environments"]).warnings


def test_cheap_finishes_claim_no_remembered_value() -> None:
    # the phone's own value: a cheap finish claims none (read where it stands it would claim
    # nothing or another text), and is graded on the screen and path checks alone (0d94b9e)
    for task_id, (_, remembered) in REMEMBERED.items():
        task = load_task(ROOT / "environments" / f"{task_id}.yaml")
        made = attacks([task], ("result-only", "echo", "truncated", "wrong-page"))
        assert made, task_id
        for attack in made:
            assert not [s for s in attack.finish() if s.kind in ("answer", "answer_read")], \
                attack.id
            assert attack.said is None and remembered not in " ".join(attack.described())
            graded = attack.graded()
            assert graded.checks and not [c for c in graded.checks if c.kind in ANSWER_KINDS]
            # a finish cut short is shorter than the reference: the reading is no step of it
            assert attack.finish() != task.solution, attack.id


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_run_records_each_phones_seed_and_a_resume_starts_them_again(monkeypatch) -> None:
    monkeypatch.delenv(SEED_VARIABLE, raising=False)
    with open_phones("sim:2", "R") as (handles, _):  # two processes, each drawing its own
        seeds = [h.info.seed for h in handles]
        states = [json.load(urllib.request.urlopen(f"{h.url}/phoneshell/sim/state"))
                  for h in handles]
    assert seeds[0] != seeds[1] and all(seeds), seeds
    assert [s["seed"] for s in states] == seeds
    assert states[0]["facts"]["serial"] == DeviceFacts.drawn(seeds[0]).serial
    with open_phones("sim:2", "R", seeds=seeds) as (again, _):
        assert [h.info.seed for h in again] == seeds
    with open_phones("sim", "R", seeds=[seeds[1]]) as (one, _):
        assert one[0].info.seed == seeds[1]
    shown = subprocess.run([sys.executable, "-m", "phoneshell", "sim", "--port", "0",
                            "--seed", "-1"], capture_output=True, text=True, timeout=30)
    assert shown.returncode == 2 and "seed -1 is negative" in shown.stderr, shown


def test_state_files_keep_a_drawn_phone(tmp_path: Path) -> None:
    with SimServer(seed=23) as sim:
        saved = sim.save(tmp_path / "state.json")
    with SimServer(state_file=saved) as again:
        assert again.phone.facts == replace(DeviceFacts.drawn(23))
