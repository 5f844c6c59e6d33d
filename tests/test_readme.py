"""The README names every command and links every page of docs/, so the first page a newcomer
reads is a map of all there is; these tests keep it in step with the CLI and the docs folder."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from phoneshell.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def subcommands() -> set[str]:
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(actions[0].choices)


def test_the_command_table_lists_every_command_and_no_other() -> None:
    table = README.split("| command | what it does |", 1)[1].split("\n\n", 1)[0]
    first_cells = [row.split(" | ", 1)[0] for row in table.splitlines()[2:]]
    named = {name for cell in first_cells for name in re.findall(r"`phoneshell ([a-z-]+)", cell)}
    assert named == subcommands()


def test_every_docs_page_is_linked_and_every_link_resolves() -> None:
    linked = set(re.findall(r"\]\((docs/[^)#]+)", README))
    pages = {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")}
    assert linked == pages
