"""A command line imports the module of its command only (`cli.COMMANDS`), and what `phoneshell
finish` imports stays small: a command agent runs it at the end of every attempt."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from phoneshell.cli import COMMANDS, MODULES, build_parser

ROOT = Path(__file__).resolve().parents[2]


def names(parser: argparse.ArgumentParser) -> list[str]:
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(actions[0].choices)


def test_the_table_names_each_command_with_the_module_that_adds_it() -> None:
    every = names(build_parser())
    assert sorted(every) == sorted(COMMANDS), "a command the table lacks, or one no module adds"
    for module in MODULES:
        mine = sorted(c for c, home in COMMANDS.items() if home == module)
        for command in mine:
            assert sorted(names(build_parser(command))) == mine, (command, module)
    assert names(build_parser("no-such-command")) == every  # argparse then names them all


def imported_by(command: str, *argv: str) -> set[str]:
    """The modules a `phoneshell` process holds once it has built the parser for `command`
    (and parsed `argv` after it, when given) and run nothing."""
    parse = f".parse_args({[command, *argv]!r})" if argv else ""
    code = ("import json, sys\nfrom phoneshell.cli import build_parser\n"
            f"build_parser({command!r}){parse}\n"
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    return set(json.loads(done.stdout))


def test_finish_imports_no_agent_runner_checks_or_simulator() -> None:
    held = imported_by("finish", "--status", "done")
    assert "phoneshell.agents.environment" in held  # what it runs is there
    heavy = {m for m in held if m.startswith(("phoneshell.runner.", "phoneshell.checks",
                                              "phoneshell.sim", "phoneshell.device",
                                              "phoneshell.agents.command", "wda", "lxml"))}
    assert heavy == {"phoneshell.runner.stop"}  # how every command stops on a signal


@pytest.mark.parametrize("command", ["report", "grade", "check-tasks"])
def test_reading_commands_import_no_simulator_or_agent(command: str) -> None:
    held = imported_by(command)
    assert not {m for m in held if m.startswith(("phoneshell.sim", "phoneshell.agents.command",
                                                 "phoneshell.agents.openai_loop"))}


def test_the_package_names_its_api_when_used_and_grade_stays_the_function() -> None:
    code = ("import sys\nimport phoneshell.errors\nheld = 'phoneshell.checks' in sys.modules\n"
            "import phoneshell.grade, phoneshell\n"
            "print(held, callable(phoneshell.grade), phoneshell.grade.__module__,"
            " phoneshell.Task.__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.split() == ["False", "True", "phoneshell.grade", "Task"]


def test_the_built_in_agents_are_there_when_the_registry_is_first_read() -> None:
    code = ("from phoneshell.agents import AGENTS, BUILTIN\n"
            "print(set(BUILTIN) <= set(AGENTS.names()), 'wander' in AGENTS)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.split() == ["True", "True"]


@pytest.mark.slow  # 3.5 s measured: the README's command stays quick
def test_agents_made_at_once_by_many_threads_are_all_found() -> None:
    # the attack's phones each make the solution agent in a thread of their own, at once: a
    # thread that read the registry while another was importing the built-ins found none
    code = ("import threading\nfrom phoneshell.agents import make_agent\nfound = []\n"
            "def make():\n    found.append(type(make_agent('solution')).__name__)\n"
            "threads = [threading.Thread(target=make) for _ in range(8)]\n"
            "for t in threads: t.start()\nfor t in threads: t.join()\nprint(len(found))")
    for _ in range(3):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=ROOT)
        assert (done.stdout.strip(), done.returncode) == ("8", 0), done.stderr[-2000:]
