"""The judge report's page shows a judge's words as the terminal does (red team 134): it goes
through the report's one escape (`report.escape.h`: `untrusted.visible`, then HTML), so a
reasoning with a right-to-left override or a carriage return reads as its escapes."""

from __future__ import annotations

import sys
from pathlib import Path

import lxml.html
import pytest
from cli_process import run_cli
from judges.judges_rig import Made

from phoneshell.untrusted import visible

JUDGE = r"""
import json, sys
json.load(sys.stdin)
print(json.dumps({"success": True, "reasoning": "x\r  right  \u202eGNORW\u202c\u2028\u200b"}))
"""


@pytest.mark.slow  # seconds of whole programs: CI runs it, the README's command stays quick
def test_a_judges_reasoning_shows_its_controls_escaped(made: Made, tmp_path: Path) -> None:
    judge = tmp_path / "judge.py"
    judge.write_text(JUDGE)
    page = tmp_path / "judge.html"
    done = run_cli("judge", str(made.judgeset.folder), "--judge",
                   f"command:{sys.executable} {judge}", "--out", str(tmp_path / "out"),
                   "--sandbox", "none", "--html", str(page))
    assert done.returncode in (0, 1), done.stderr
    text = page.read_text(encoding="utf-8")
    assert sorted({c for c in text if visible(c) != c}) == []
    said = {p.text_content() for p in lxml.html.fromstring(text).xpath("//div[@class='side']//p")}
    assert "x\\r  right  \\u202eGNORW\\u202c\\u2028\\u200b" in said, said
