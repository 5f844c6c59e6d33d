"""Real run folders for the report tests, made by the real runner on the simulated iPhone.

The task files are copied out of environments/ first, so the runs (and the reports' "task file
changed" logic) do not move when the suite is edited while the tests run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from phoneshell.agents import AGENTS, Agent, AgentContext, AgentResult
from phoneshell.evidence import Claim
from phoneshell.runner import RunOptions, run_suite
from phoneshell.sim import SimServer

ROOT = Path(__file__).resolve().parents[2]
TASKS = ("calculator.chain", "clock.tab.alarms", "clock.tab.timers", "settings.about.reach")
"""Two capability:tabbar tasks, one capability:precise-taps, one with no capability tag."""
TIGHT = "calculator.chain.tight"
"""calculator.chain with a 3-action budget: its 9-step solution runs out of turns."""
LIAR_COMMAND = "command:sh examples/agents/liar.sh"
"""The example command agent that claims done through `phoneshell finish` and does nothing."""
LIE = 'all done <script>alert("pwned")</script> & <b>bold</b> \x1b[31mred\x1b[0m'
"""What the lying agent says it did: markup, an ampersand and a terminal colour code."""


def chromium() -> str:
    """Chromium's path; the test is skipped when it is not installed (failed instead when
    `PHONESHELL_REQUIRE_CHROMIUM` is set, as CI sets it)."""
    found = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists(
        "/usr/bin/chromium") else None)
    if found is None:
        reason = "Chromium is not installed (apt-get install chromium), so the page is not rendered"
        if os.environ.get("PHONESHELL_REQUIRE_CHROMIUM"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def phoneshell(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run the CLI as a user does, in a subprocess."""
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    return subprocess.run([sys.executable, "-m", "phoneshell", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def copy_tasks(folder: Path) -> Path:
    """Copy the test tasks into `folder`, plus a tight-budget variant; return `folder`."""
    folder.mkdir(parents=True)
    for task_id in TASKS:
        shutil.copy(ROOT / "environments" / f"{task_id}.yaml", folder)
    data = yaml.safe_load((folder / "calculator.chain.yaml").read_text())
    data.update(id=TIGHT, max_steps=3)
    (folder / f"{TIGHT}.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    return folder


class LyingAgent:
    """Claims done, with markup in its summary, and does nothing."""

    name = "liar"

    def run(self, context: AgentContext) -> AgentResult:
        """Return at once, claiming success."""
        return AgentResult(ran=True, turns=1, claim=Claim(status="done", answer="<i>42</i>",
                                                          summary=LIE))


def _liar(arg: str) -> Agent:
    return LyingAgent()


def register_liar() -> None:
    """Make `--agent liar` known in this process (the runner finds agents by name)."""
    if "liar" not in AGENTS:
        AGENTS.register("liar")(_liar)


def cli_runs(runs: Path, tasks: Path, plans: dict[str, list[str]]) -> dict[str, Path]:
    """`phoneshell run` in subprocesses, all at once (each on its own simulated iPhone); wait
    for them and return the run folders by run id. `phoneshell` is on the PATH, as in an
    activated virtualenv, for command agents that call `phoneshell finish`."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "PYTHONWARNINGS": "error", "PATH": path}
    started = {run_id: subprocess.Popen(
        [sys.executable, "-m", "phoneshell", "run", str(tasks), "--runs", str(runs),
         "--run-id", run_id, *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, cwd=ROOT, env=env) for run_id, args in plans.items()}
    for run_id, process in started.items():
        out, _ = process.communicate(timeout=300)
        assert process.returncode in (0, 1), f"{run_id}: {out}"
    return {run_id: runs / run_id for run_id in plans}


def lying_run(runs: Path, tasks: Path) -> Path:
    """The lying agent on the four tasks, through the real runner (in this process)."""
    register_liar()
    run_suite(RunOptions((str(tasks),), agent="liar", task_globs=TASKS, runs_dir=runs,
                         run_id="LIAR"), lambda line: None)
    return runs / "LIAR"


def faulted_run(runs: Path, tasks: Path) -> Path:
    """The solution on the four tasks on a simulator that goes bad after two attempts: its
    sessions go stale, the rig is down, the third attempt is skipped (in its setup, which opens
    Clock) and the fourth never runs."""
    done = 0
    with SimServer() as sim:
        def progress(line: str) -> None:
            nonlocal done
            if line.startswith("["):
                done += 1
                if done == 2:
                    sim.set_faults(["stale-session"])

        summary = run_suite(RunOptions((str(tasks),), agent="solution", device=sim.url,
                                       task_globs=TASKS, runs_dir=runs, run_id="FLT"), progress)
    assert summary.stopped and [r.outcome for r in summary.rows] == ["passed", "passed",
                                                                     "skipped"]
    return runs / "FLT"


def resumed_run(runs: Path, tasks: Path) -> Path:
    """A faulted run of its own, continued with `--resume` on a healthy simulator (not a copy
    of another: the copy left behind would hold an earlier seal than the run's latest, as a
    run rolled back does)."""
    faulted = faulted_run(runs, tasks)
    with SimServer() as sim:
        done = phoneshell("run", "--resume", faulted.name, "--runs", str(runs), "--device",
                          sim.url)
    assert done.returncode == 0, done.stdout + done.stderr
    return runs / faulted.name
