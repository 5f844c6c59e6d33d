"""The rules of the house that code review alone would let slip: import direction, public API."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import phoneshell

ROOT = Path(__file__).resolve().parent.parent
PURE = ("phoneshell/checks", "phoneshell/grade.py", "phoneshell/tree.py",
        "phoneshell/evidence.py", "phoneshell/audit.py", "phoneshell/implication.py",
        "phoneshell/tasks", "phoneshell/attack/families.py", "phoneshell/attack/examples.py",
        "phoneshell/runner/aftermath.py", "phoneshell/changes.py")
FORBIDDEN_FOR_PURE = ("phoneshell.device", "phoneshell.runner", "phoneshell.sim", "bridge",
                      "phoneshell.agents", "wda", "tidevice")


def imports_of(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def files_under(*parts: str) -> list[Path]:
    out: list[Path] = []
    for part in parts:
        path = ROOT / part
        out.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return out


def test_grading_never_imports_the_device_side() -> None:
    offenders = []
    for path in files_under(*PURE):
        for name in imports_of(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN_FOR_PURE):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_public_api_is_honest() -> None:
    assert sorted(phoneshell.__all__) == sorted(set(phoneshell.__all__))
    for name in phoneshell.__all__:
        assert hasattr(phoneshell, name), name


def test_every_module_says_what_it_owns() -> None:
    missing = [str(p.relative_to(ROOT)) for p in files_under("phoneshell")
               if p.stat().st_size and not ast.get_docstring(ast.parse(p.read_text()))]
    assert missing == []


def _phoneshell_imports(*parts: str) -> dict[str, set[str]]:
    """Which phoneshell modules (outside the parts themselves) each file of `parts` imports."""
    found: dict[str, set[str]] = {}
    for path in files_under(*parts):
        names = {n for n in imports_of(path) if n == "phoneshell" or n.startswith("phoneshell.")}
        found[str(path.relative_to(ROOT))] = {
            n for n in names if not any(n.startswith(p.replace("/", ".").removesuffix(".py"))
                                        for p in parts)}
    return found


def test_the_simulator_is_a_device_reached_only_over_http() -> None:
    # It may know WDA's vocabulary (which keys its keyboard dismiss presses, where a touch by
    # id lands, as the bridge logs them), raise phoneshell's errors and do Calculator's
    # arithmetic (the one the tapped_keys check replays), and wait as `phoneshell sim`'s main
    # thread must for a stop signal (`phoneshell.awake`), nothing of the harness.
    allowed = {"phoneshell.errors", "phoneshell.awake", "phoneshell.xcui", "phoneshell.wda_routes",
               "phoneshell.guarded_http", "phoneshell.http_request", "phoneshell.keypad",
               "phoneshell.presses", "phoneshell.keyboard_dismiss", "phoneshell.hit_point",
               "phoneshell.typed_keys", "phoneshell.holds", "phoneshell.scroll_drags",
               "phoneshell.address_bar", "phoneshell.chain_points"}
    offenders = {f: names - allowed for f, names in _phoneshell_imports("phoneshell/sim").items()
                 if names - allowed}
    assert offenders == {}


def test_records_and_the_vocabulary_are_leaves() -> None:
    used = _phoneshell_imports("phoneshell/records", "phoneshell/xcui.py",
                               "phoneshell/wda_routes.py", "phoneshell/guarded_http.py",
                               "phoneshell/http_request.py",
                               "phoneshell/keypad.py", "phoneshell/presses.py",
                               "phoneshell/holds.py",
                               "phoneshell/hit_point.py", "phoneshell/typed_keys.py",
                               "phoneshell/pasteboard.py", "phoneshell/rig_down.py",
                               "phoneshell/outreach.py", "phoneshell/address_bar.py",
                               "phoneshell/chain_points.py")
    assert {f: n for f, n in used.items() if n} == {}


@pytest.mark.slow  # 3.1 s measured: the README's command stays quick
def test_the_error_tree_names_every_error() -> None:
    drawn = ast.get_docstring(ast.parse((ROOT / "phoneshell" / "errors.py").read_text())) or ""
    bases = {"PhoneshellError", "DeviceError", "BridgeError", "RunError", "StepError",
             "EvidenceError", "TaskFileError", "ForwardError", "UnknownName", "ReportError"}
    defined: list[str] = []
    for path in files_under("phoneshell", "bridge"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(b, ast.Name) and b.id in bases for b in node.bases):
                defined.append(node.name)
    assert defined and [name for name in defined if f" {name} " not in drawn] == []
