"""Every third-party package the code imports is declared in pyproject.toml."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11+")

ROOT = Path(__file__).resolve().parent.parent
# import name -> distribution name, where they differ
DISTRIBUTIONS = {"wda": "facebook-wda", "PIL": "Pillow", "yaml": "PyYAML", "mcp_types": "mcp",
                 "pydantic_core": "pydantic", "re2": "google-re2"}


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = [*project["dependencies"], *project["optional-dependencies"].get("mcp", [])]
    return {n.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower()
            for n in names}


@pytest.mark.slow  # 3.4 s measured: the README's command stays quick
def test_every_imported_package_is_declared() -> None:
    stdlib = set(sys.stdlib_module_names)
    ours = {"phoneshell", "bridge"}
    imported: dict[str, str] = {}
    for path in [*(ROOT / "phoneshell").rglob("*.py"), *(ROOT / "bridge").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module] if isinstance(node, ast.ImportFrom) and node.module
                     and node.level == 0 else [])
            for name in names:
                top = name.split(".")[0]
                if top not in stdlib and top not in ours:
                    imported.setdefault(top, str(path.relative_to(ROOT)))
    missing = {top: where for top, where in imported.items()
               if DISTRIBUTIONS.get(top, top).lower() not in declared()}
    assert missing == {}
