"""The JUnit file shows an agent's text as the terminal does (red team 137, RT137-1): a CI step
that prints the file (common when a publish step fails) ran an agent's stderr line
`##vso[task.complete result=Succeeded;]`, and its carriage returns, U+202E, U+2028, NEL and BOM
were written raw. Now every agent-written string goes through `untrusted.visible` before
`xml_safe`, and no line of agent text starts a line of the file (`| `, as the progress lines)."""

from __future__ import annotations

import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from cli_process import run_cli

ODD = "\r\u202e\u2028\u0085\ufeff\x1b"
"""What a terminal or a viewer acts on, or draws otherwise than it is."""
AGENT = """import json, sys
odd = "DESSAP\\u202c\\rpassed \\u2028\\u0085\\ufeff\\x1b[1A"
if sys.argv[1] == "claims":  # its claim's summary; else no claim, its stderr in the failure
    said = "x" + odd + "\\npassed 80/80\\n::add-mask::y"
    print(json.dumps({"status": "failed", "summary": said}))
    sys.exit(0)
sys.stderr.write("x\\n##vso[task.complete result=Succeeded;]done\\n::add-mask::x\\n\\u202eDESSAP"
                 "\\u202c\\rpassed\\n1 attempt(s): 1 passed, 0 failed, 0 skipped\\n")
sys.exit(3)
"""


def ci_commands(line: str) -> list[str]:
    """What a CI runner acts on in a line of a log it prints (GitHub's `::` at a line's start,
    `##[` anywhere; Azure's `##vso[` anywhere)."""
    found = ["::"] if line.lstrip().startswith("::") else []
    return found + [c for c in ("##[", "##vso[") if c in line.lower()]


@pytest.mark.slow  # a run and a report, for seconds
def test_agent_text_in_junit_is_shown_as_the_terminal_shows_it(tmp_path: Path) -> None:
    script = tmp_path / "odd.py"
    script.write_text(AGENT)
    for mode in ("claims", "crashes"):
        agent = f"command:{shlex.quote(sys.executable)} {script} {mode}"
        ran = run_cli("run", "environments", "--task", "calculator.arithmetic", "--agent",
                      agent, "--runs", str(tmp_path / "runs"), "--run-id", mode)
        assert ran.returncode == 1, ran.stdout + ran.stderr
    path = tmp_path / "junit.xml"
    done = run_cli("report", str(tmp_path / "runs" / "claims"), str(tmp_path / "runs" / "crashes"),
                   "--junit", str(path))
    assert done.returncode == 1, done.stderr
    text = path.read_text(encoding="utf-8")
    assert not [c for c in ODD if c in text], text  # as escapes, never raw
    lines = text.split("\n")
    assert [line for line in lines if ci_commands(line)] == [], text
    # every line of the file is the harness's: agent text after its first line is quoted
    assert not [line for line in lines if line.startswith(("passed", "1 attempt(s)", "x"))], text
    assert r"| ##vso\u005btask.complete result=Succeeded;]done" in lines, text
    assert r"| \u202eDESSAP\u202c" in lines and "| passed" in lines, text
    claims, crashes = ET.parse(path).getroot().findall("testsuite/testcase")
    out, failure = claims.find("system-out"), crashes.find("failure")
    assert out is not None and out.text is not None and failure is not None
    assert "\n| passed 80/80\n" in out.text and r"| :\u003aadd-mask::y" in out.text, out.text
    assert "agent error: the command exited with status 3" in str(failure.text)
