"""A built-in agent that takes no argument refuses one (red team 123): `solution:calculator.chain`
would play every task's finish under a label naming one task, so it is refused by name, exit 2,
before any phone starts or any run folder is made."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import run_cli

from phoneshell.agents import make_agent


@pytest.mark.slow  # 2.1 s measured: the README's command stays quick
@pytest.mark.parametrize("name", ["null", "solution", "open-app"])
def test_an_argument_to_an_agent_that_takes_none_is_refused(tmp_path: Path, name: str) -> None:
    done = run_cli("run", "environments", "--task", "calculator.arithmetic", "--agent",
                   f"{name}:calculator.chain", "--runs", str(tmp_path / "runs"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"error: the {name} agent takes no argument, and was given 'calculator.chain'" \
        in done.stderr
    assert f"hint: --agent {name} " in done.stderr
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())
    assert make_agent(f"{name}:").name == name  # nothing after the colon is no argument
