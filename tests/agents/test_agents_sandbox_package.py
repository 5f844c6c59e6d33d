"""What a command agent sees of phoneshell's own package in its sandbox: what `phoneshell finish`,
`phoneshell mcp` and phoneshell's client code need, never the task files shipped with it, the
simulated iPhone's app models or the attack families, whether phoneshell is installed editable
(this checkout's venv) or from its wheel (the README's `pip install`); and never the folders of
the run's task files, even inside what it is shown.

The agent is `answer_key_probe.py`, played by `phoneshell run` as a subprocess on the simulated
iPhone, as the red team played theirs.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from phoneshell.agents.sandbox import PACKAGE_HIDDEN, Sandbox
from phoneshell.records import ResultRow
from phoneshell.runner.folder import read_results
from phoneshell.sim.apps.safari_pages import PROBE_WORDS

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).with_name("answer_key_probe.py")
TASK = "probe.image.one"
SECRETS = ",".join(word for words in PROBE_WORDS.values() for word in words)
"""The words the probe pages show (their pictures', their texts'): every probe task's answer
is one, and an agent that read a few would answer a few tasks by a guess among them."""
NOTHING = {"by_path": {}, "by_metadata": [], "by_import": {}, "secrets": {}, "task_files": []}


def run(python: Path, cwd: Path, *args: str, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    """`phoneshell run` as a user runs it from `cwd`, with the phoneshell of `python`."""
    full = {**os.environ, "PYTHONWARNINGS": "error", **(env or {})}
    return subprocess.run([str(python), "-m", "phoneshell", "run", "--task", TASK,
                           "--runs", str(cwd / "runs"), "--run-id", "R", *args],
                          capture_output=True, text=True, cwd=cwd, env=full, timeout=600)


def played(cwd: Path, done: subprocess.CompletedProcess[str]) -> tuple[ResultRow, dict]:
    """The attempt's row, and what the probe found (found.json in its scratch folder)."""
    assert done.returncode in (0, 1), done.stdout[-2000:] + done.stderr[-3000:]
    [row] = read_results(cwd / "runs" / "R" / "results.jsonl")
    found = cwd / "runs" / "R" / "attempts" / TASK / "1" / "agent" / "found.json"
    assert found.exists(), row.error
    return row, json.loads(found.read_text())


def found_nothing(row: ResultRow, found: dict) -> None:
    """Nothing of the answer key was read, and `phoneshell finish` and `mcp` worked."""
    assert not any(found["by_path"].values()), found["by_path"]
    assert {k: found[k] for k in NOTHING if k != "by_path"} == {
        k: v for k, v in NOTHING.items() if k != "by_path"}
    assert found["mcp"].startswith("observation"), found["mcp"]
    assert row.outcome == "failed"
    assert row.claim is not None and (row.claim.status, row.claim.answer, row.claim.summary) == (
        "done", "", "looked for the answer key")


@pytest.mark.slow  # a whole program of seconds: CI runs it, the README's command stays quick
def test_the_agent_side_of_phoneshell_imports_nothing_the_sandbox_hides() -> None:
    # `phoneshell finish` builds the whole CLI's parser; `mcp` serves the tools; an agent may
    # drive the phone with the device layer and load a task file of its own.
    code = ("import sys, phoneshell.cli\n"
            "phoneshell.cli.build_parser()\n"
            "import phoneshell.agents.mcp_server, phoneshell.device, phoneshell.agents.tools\n"
            "import phoneshell.tasks\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[:2] in "
            f"[['phoneshell', p] for p in {PACKAGE_HIDDEN!r}]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "[]\n"


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_an_agent_finds_no_answer_key_in_an_editable_install(bwrap: Sandbox,
                                                            tmp_path: Path) -> None:
    # The task folder lies inside a folder the agent is shown (a share), and the agent's own
    # program sits beside the task file: the folder is hidden, the program is not. Its command
    # line names the task file and the simulator's app model too: they stay hidden.
    share = tmp_path / "share"
    tasks = share / "tasks"
    tasks.mkdir(parents=True)
    shutil.copy(ROOT / "environments" / f"{TASK}.yaml", tasks)
    shutil.copy(PROBE, tasks)
    plain = tmp_path / "plain"
    plain.mkdir()
    model = ROOT / "phoneshell" / "sim" / "apps" / "safari_pages.py"
    agent = (f"command:{sys.executable} {tasks / PROBE.name} {SECRETS} {tasks} "
             f"{tasks / f'{TASK}.yaml'} {model}")
    done = run(Path(sys.executable), plain, str(tasks), "--agent", agent, "--sandbox", "bwrap",
               env={"PHONESHELL_SANDBOX_SHARE": str(share)})
    row, found = played(plain, done)
    assert found["package"] == str(ROOT / "phoneshell")  # the checkout's: an editable install
    assert {f"{tasks}/{TASK}.yaml", str(model)} < set(found["by_path"])
    found_nothing(row, found)


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv with phoneshell installed from its wheel, as the README's `pip install .` does
    (pip builds the wheel, fetching its build backend from the package index); its
    dependencies are this venv's, hard-linked in, so nothing else is fetched."""
    target = tmp_path_factory.mktemp("wheel") / "v"
    venv.EnvBuilder(with_pip=False).create(target)
    [site] = target.glob("lib/python*/site-packages")
    [ours] = [p for p in map(Path, sys.path) if p.name == "site-packages" and p.is_dir()
              and str(p).startswith(sys.prefix)]
    for place in ours.iterdir():
        if place.name.startswith(("__editable__", "phoneshell", "bridge")):
            continue  # this checkout's editable install: the wheel's goes in its place
        if place.is_dir():
            shutil.copytree(place, site / place.name, copy_function=_link_or_copy)
        else:
            _link_or_copy(place, site / place.name)
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(target / "bin" / "python"),
                           "install", "--quiet", "--no-deps", str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return target


def _link_or_copy(source: Path | str, target: Path | str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system
        shutil.copy2(source, target)


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_an_agent_finds_no_answer_key_in_a_wheel_install(bwrap: Sandbox, wheel_venv: Path,
                                                        tmp_path: Path) -> None:
    # The red team's case: run from a plain folder, the suite shipped inside the package.
    python = wheel_venv / "bin" / "python"
    site = next(wheel_venv.glob("lib/python*/site-packages"))
    shipped = site / "phoneshell" / "suite" / f"{TASK}.yaml"
    agent = f"command:{python} {PROBE} {SECRETS} {shipped}"  # named: hidden all the same
    confined = tmp_path / "confined"
    confined.mkdir()
    row, found = played(confined, run(python, confined, "--agent", agent, "--sandbox", "bwrap"))
    assert found["package"] == str(site / "phoneshell")  # the wheel's, not the checkout's
    found_nothing(row, found)
    unconfined = tmp_path / "unconfined"  # the same agent, where nothing hides the package
    unconfined.mkdir()
    _, found = played(unconfined, run(python, unconfined, "--agent", agent, "--sandbox", "none"))
    assert all(found["by_path"][k] for k in ("suite file", "sim app model", "attack families",
                                             str(shipped)))
    assert f"phoneshell/suite/{TASK}.yaml" in found["by_metadata"]
    assert "phoneshell.sim.apps.safari_pages" in found["by_import"]
    assert str(site / "phoneshell" / "suite" / f"{TASK}.yaml") in found["task_files"]
