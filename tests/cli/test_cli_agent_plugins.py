"""Agents from other packages (the `phoneshell.agents` entry-point group): one that cannot be
loaded is named (its package, its entry point, why) where it is asked for, and in the hint of a
name no agent answers to, and every other plugin still loads (red team 119, RT119-3: one broken
plugin made every plugin name and every typo crash as "a bug in phoneshell")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_process import ROOT, run_cli

PLUGIN = '''
from phoneshell.agents import AgentResult
from phoneshell.evidence import Claim


class Mine:
    name = "plugin-mine"

    def run(self, context):
        return AgentResult(ran=True, claim=Claim(status="done", summary="from the plugin"))


def mine(arg):
    return Mine()
'''

BROKEN_SAID = ("the package akplug 0.1's entry point broken = akplug_missing:factory could not "
               "be loaded (ModuleNotFoundError: No module named 'akplug_missing')")


def installed(folder: Path) -> dict[str, str]:
    """A package `akplug` installed in `folder` (a dist-info and its module, put on
    PYTHONPATH: nothing lands in the venv), whose first entry point's module is missing and
    whose second works; the environment that finds it."""
    info = folder / "akplug-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: akplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[phoneshell.agents]\nbroken = akplug_missing:factory\nmine = akplug:mine\n")
    (folder / "akplug.py").write_text(PLUGIN)
    return {"PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}


def said(done: subprocess.CompletedProcess[str]) -> str:
    out = done.stdout + done.stderr
    assert "Traceback" not in out and "this is a bug" not in out, out
    return done.stderr


@pytest.mark.slow  # three whole programs, one of them a run (10 s)
def test_a_broken_plugin_is_named_and_the_others_still_load(tmp_path: Path) -> None:
    env = installed(tmp_path / "site")
    task = ("environments", "--task", "calculator.arithmetic")
    typo = run_cli("run", *task, "--runs", str(tmp_path / "runs"), "--agent", "nosuch", env=env)
    assert typo.returncode == 2
    assert said(typo).startswith("error: unknown agent 'nosuch'\n"), typo.stderr
    assert f"agent plugins that could not be loaded: {BROKEN_SAID}" in typo.stderr
    asked = run_cli("run", *task, "--runs", str(tmp_path / "runs"), "--agent", "broken", env=env)
    assert asked.returncode == 2
    assert said(asked).startswith(f"error: agent 'broken' could not be made: {BROKEN_SAID}\n")
    assert "pip uninstall akplug" in asked.stderr
    # listed after the broken one, and loaded all the same: its attempt is played
    played = run_cli("run", *task, "--runs", str(tmp_path / "runs"), "--run-id", "mine",
                     "--agent", "mine", env=env)
    assert played.returncode == 1, said(played)
    row = json.loads((tmp_path / "runs" / "mine" / "results.jsonl").read_text())
    assert row["agent"] == "plugin-mine" and row["outcome"] == "failed", row


def test_threads_asking_at_once_each_get_their_answer(tmp_path: Path) -> None:
    # the registry loads the entry points once, under its lock (b23a9db), the broken one too:
    # a thread that missed while another loaded them waits, and sees every failure
    env = {**os.environ, **installed(tmp_path / "site")}
    code = ("import threading\nfrom phoneshell.agents import make_agent\nfrom phoneshell.errors "
            "import PhoneshellError\nfound = []\ndef make(name):\n    try:\n"
            "        found.append(make_agent(name).name)\n    except PhoneshellError as exc:\n"
            "        found.append(f'{exc} | {exc.hint}')\n"
            "threads = [threading.Thread(target=make, args=(n,)) for n in "
            "['nosuch', 'mine', 'broken', 'solution'] * 3]\n"
            "for t in threads: t.start()\nfor t in threads: t.join()\n"
            "print('\\n'.join(sorted(found)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120, check=True)
    lines = done.stdout.splitlines()
    assert lines.count("plugin-mine") == 3 and lines.count("solution") == 3, lines
    assert sum(line.startswith("agent 'broken' could not be made: " + BROKEN_SAID)
               for line in lines) == 3, lines
    assert sum(line.startswith("unknown agent 'nosuch' | ") and BROKEN_SAID in line
               for line in lines) == 3, lines


FAILING = '''
import sys

VALUE = 3


def raises(arg):
    raise RuntimeError("no API key for " + repr(arg))


def exits(arg):
    sys.exit(0)


def nothing(arg):
    return None
'''


def failing(folder: Path) -> dict[str, str]:
    """Two packages installed in `folder`: `alplug`, whose factories raise, exit, are no
    callable or make no agent, and `alexit`, whose module exits at import (a script turned
    plugin); the environment that finds them."""
    plugins = {"alplug": ("alplug", "raiser = alplug:raises\nexiter = alplug:exits\n"
                                    "notcallable = alplug:VALUE\nnothing = alplug:nothing\n"),
               "alexit": ("alexit_mod", "aaexits = alexit_mod:make\n")}
    for package, (_module, entries) in plugins.items():
        info = folder / f"{package}-0.2.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\n"
                                       "Version: 0.2\n")
        (info / "entry_points.txt").write_text(f"[phoneshell.agents]\n{entries}")
    (folder / "alplug.py").write_text(FAILING)
    (folder / "alexit_mod.py").write_text("import sys\nsys.exit(0)\n")
    return {"PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}


@pytest.mark.slow  # six whole programs that stop before any attempt (2 s each)
def test_a_plugin_that_raises_or_exits_making_its_agent_is_named_never_a_silent_exit(
        tmp_path: Path) -> None:
    # red team 120 (RT120-1/2): a factory that raised crashed the run as a bug in phoneshell
    # (exit 3); one that exited, or a module exiting at import, made `phoneshell run` exit 0
    # with nothing said and nothing run, even for a mistyped name
    env = failing(tmp_path / "site")
    task = ("environments", "--task", "calculator.arithmetic", "--runs", str(tmp_path / "runs"))
    entry = "the package alplug 0.2's entry point"
    expected = {
        "raiser": f"{entry} raiser = alplug:raises failed making the agent (RuntimeError: no "
                  "API key for 'k')",
        "exiter": f"{entry} exiter = alplug:exits failed making the agent (SystemExit: 0)",
        "notcallable": f"{entry} notcallable = alplug:VALUE is not callable (a int), so it "
                       "makes no agent",
        "nothing": f"{entry} nothing = alplug:nothing made a NoneType, which has no run "
                   "method: not an agent",
        "aaexits": "the package alexit 0.2's entry point aaexits = alexit_mod:make could not "
                   "be loaded (SystemExit: 0)"}
    for name, why in expected.items():
        done = run_cli("run", *task, "--agent", f"{name}:k", env=env)
        assert done.returncode == 2, (name, done.returncode, done.stderr)
        assert said(done).startswith(f"error: agent {name!r} could not be made: {why}\n"), \
            done.stderr
        assert "pip uninstall al" in done.stderr
    typo = run_cli("run", *task, "--agent", "nosuch", env=env)
    assert typo.returncode == 2, typo.stderr
    assert said(typo).startswith("error: unknown agent 'nosuch'\n"), typo.stderr
    assert expected["aaexits"] in typo.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
