"""The tests hold to what their names say (red team 82): the reference data is reached one way,
through conftest's `reference` fixture, which honours PHONESHELL_REFERENCE and fails under CI's
PHONESHELL_REQUIRE_REFERENCE; a loop over reference files says how many it must see, so a
folder that is not there fails it rather than passing it with nothing asserted; and no test
skips where CI could not turn the skip into a failure, but those listed here, each with why.

Four bridge files once found the dumps at `parents[3] / "shared"` and skipped by themselves:
with the data given by PHONESHELL_REFERENCE, 25 tests skipped under the REQUIRE switch, and
one, looping over the missing folder, passed."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
GATE = "tests/conftest.py"
"""The one file that knows where the reference data lies."""
SELF = "tests/test_tests.py"
"""This file, which names what it looks for."""
SKIPPING = {"skip", "skipif", "importorskip", "xfail"}
"""What `pytest` and `pytest.mark` skip with."""
LINUX = "Linux only: cgroups, /proc, bubblewrap and seccomp are Linux's"
PIDS = "a pids cgroup is made only by root on Linux (CI's harness runs as root)"
ROOT_ONLY = "only root can own a folder as another user or mount a tmpfs (CI runs as root)"
UNGUARDED_SKIPS: dict[str, tuple[int, str]] = {
    "tests/judges/test_judges_turn.py": (3, f"{LINUX}; {PIDS}"),
    "tests/agents/test_agents_disk_unseen.py": (1, LINUX),
    "tests/agents/test_agents_walks.py": (2, "the agent gets its folder only from a root "
                                             "harness; as a user it is the user's own"),
    "tests/agents/test_agents_given_back_notes.py": (1, ROOT_ONLY),
    "tests/agents/test_agents_bounds.py": (1, PIDS),
    "tests/agents/test_agents_strays.py": (4, f"{LINUX}; {PIDS}; the comet is C, built here "
                                              "by the machine's compiler"),
    "tests/agents/test_agents_side_by_side.py": (1, LINUX),
    "tests/agents/test_agents_pids_looks.py": (3, f"{LINUX}; {PIDS}"),
    "tests/agents/test_agents_sandbox_user.py": (1, "only a root harness runs the agent as "
                                                    "another user"),
    "tests/agents/test_agents_disk_machine.py": (1, LINUX),
    "tests/agents/test_agents_disk_files.py": (1, LINUX),
    "tests/agents/test_agents_disk_held.py": (1, LINUX),
    "tests/runner/test_runner_folder_grader.py": (1, ROOT_ONLY),
    "tests/agents/test_agents_own_folder_locked.py": (1, "only root runs the harness as another "
                                                         "user, who must be able to run the "
                                                         "system's Python on the checkout"),
    "tests/agents/test_agents_folder_given_back.py": (2, "only root runs the harness as "
                                                         "another user, who must be able to "
                                                         "run the system's Python on the "
                                                         "checkout; the other test is root's"),
    "tests/test_grader.py": (1, ROOT_ONLY),
    "tests/runner/test_runner_results_unwritable.py": (1, "chattr +i needs CAP_LINUX_IMMUTABLE "
                                                          "and a file system that keeps the flag"),
    "tests/small_disk.py": (2, ROOT_ONLY + "; a container may lack CAP_SYS_ADMIN"),
    "tests/bridge_tests/test_bridge_audit_log.py": (1, "reads /proc/self/fd (Linux)"),
    "tests/phones/test_phones_sim_children.py": (1, "reads /proc (Linux)"),
    "tests/test_packaging.py": (1, "tomllib is Python 3.11's; the package runs on 3.10"),
    "tests/tasks/test_yaml_readers.py": (1, "a PyYAML built here with no wheel for this Python "
                                            "may lack libyaml: one reader, none to compare"),
}
"""Files whose skips no PHONESHELL_REQUIRE_* switch turns into failures, how many, and why:
what the machine is (its system, its user), never what the project's data or tools are."""


@cache
def _sources() -> tuple[tuple[str, str], ...]:
    """Every test file and helper but this one, by its path from the project, with its text."""
    return tuple((name, path.read_text()) for path in sorted(TESTS.rglob("*.py"))
                 if (name := str(path.relative_to(ROOT))) != SELF)


@cache
def _parsed(name: str, text: str) -> ast.Module:
    return ast.parse(text)


def _files(*words: str) -> Iterator[tuple[str, ast.Module]]:
    """The test files holding any of `words` (one without can break no rule of them), parsed."""
    for name, text in _sources():
        if any(word in text for word in words):
            yield name, _parsed(name, text)


def _docstrings(tree: ast.Module) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef,
                                 ast.ClassDef))
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)}


def _strings(tree: ast.Module) -> Iterator[ast.Constant]:
    """The string constants of `tree` that are not docstrings (prose may name the folder)."""
    prose = _docstrings(tree)
    yield from (node for node in ast.walk(tree) if isinstance(node, ast.Constant)
                and isinstance(node.value, str) and id(node) not in prose)


def _functions(tree: ast.Module) -> Iterator[tuple[ast.AST, list[ast.AST]]]:
    """Each node of `tree` with the functions it lies in, innermost last."""
    def down(node: ast.AST, around: list[ast.AST]) -> Iterator[tuple[ast.AST, list[ast.AST]]]:
        yield node, around
        inner = [*around, node] if isinstance(node, (ast.FunctionDef,
                                                     ast.AsyncFunctionDef)) else around
        for child in ast.iter_child_nodes(node):
            yield from down(child, inner)
    yield from down(tree, [])


def _shared_paths() -> set[tuple[str, str]]:
    """(module, name) of each module-level name a test helper or script binds to a path
    through `shared/`: importing one is a way round the fixture (`fidelity.SOURCES` was)."""
    found = set()
    scripts = [(str(p.relative_to(ROOT)), p.read_text()) for p in (ROOT / "scripts").glob("*.py")]
    for name, text in [*_sources(), *scripts]:
        if '"shared"' not in text:
            continue
        for node in _parsed(name, text).body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(c, ast.Constant) and c.value == "shared"
                    for c in ast.walk(node.value)):
                found |= {(Path(name).stem, t.id) for t in node.targets
                          if isinstance(t, ast.Name)}
    return found


def _ways_round(files: Iterable[tuple[str, ast.Module]], bound: set[tuple[str, str]],
                ) -> list[str]:
    """Where a file names the `shared/` folder or PHONESHELL_REFERENCE, or takes a name bound
    to a path through it."""
    ways: list[str] = []
    for name, tree in files:
        if name == GATE:
            continue
        for node in _strings(tree):
            if re.search(r"(^|/)shared(/|$)", node.value) or "PHONESHELL_REFERENCE" \
                    in node.value:
                ways.append(f"{name}:{node.lineno} names {node.value!r}")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                ways += [f"{name}:{node.lineno} imports {node.module}.{a.name}"
                         for a in node.names if (node.module, a.name) in bound]
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and (node.value.id, node.attr) in bound:
                ways.append(f"{name}:{node.lineno} reads {node.value.id}.{node.attr}")
    return ways


def _uncounted(files: Iterable[tuple[str, ast.Module]]) -> list[str]:
    """Globs over reference files in a function that asserts no `len(...)`."""
    found: list[str] = []
    for name, tree in files:
        for node, around in _functions(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("glob", "rglob", "iterdir")):
                continue
            receiver = ast.unparse(node.func.value)
            if not any(word in receiver for word in ("reference", "ios_sources", "ios-sources",
                                                    "SOURCES")):
                continue
            counted = around and any(
                isinstance(check, ast.Assert) and any(
                    isinstance(call, ast.Call) and ast.unparse(call.func) == "len"
                    for call in ast.walk(check.test))
                for check in ast.walk(around[-1]))
            if not counted:
                found.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    return found


def _skips(tree: ast.Module) -> Iterator[tuple[ast.AST, list[ast.AST]]]:
    """pytest's skips and xfails in `tree`, each with the functions it lies in."""
    for node, around in _functions(tree):
        if isinstance(node, ast.Attribute) and node.attr in SKIPPING \
                and ast.unparse(node.value) in ("pytest", "pytest.mark"):
            yield node, around
        elif isinstance(node, ast.ImportFrom) and node.module in ("pytest", "pytest.mark") \
                and any(a.name in SKIPPING for a in node.names):
            yield node, []  # a bare skip() cannot be told apart: as if at module level


def _guarded(function: ast.AST) -> bool:
    """Whether the function reads a PHONESHELL_REQUIRE_* switch (and so fails where it is
    set: conftest's `reference` and `bwrap`, the report's Chromium)."""
    return any(isinstance(n, ast.Constant) and isinstance(n.value, str)
               and n.value.startswith("PHONESHELL_REQUIRE_") for n in ast.walk(function))


def _unguarded(files: Iterable[tuple[str, ast.Module]]) -> dict[str, int]:
    """How many skips each file has that no REQUIRE switch guards."""
    found: dict[str, int] = {}
    for name, tree in files:
        for _, around in _skips(tree):
            if not (around and _guarded(around[-1])):
                found[name] = found.get(name, 0) + 1
    return found


def test_the_reference_data_is_reached_only_through_the_fixture() -> None:
    bound = _shared_paths()
    ways = _ways_round(_files("shared", "PHONESHELL_REFERENCE", *(n for _, n in bound)), bound)
    assert ways == [], "\n".join(["use the reference, ios_sources or ios_dumps fixture:", *ways])


def test_a_loop_over_reference_files_says_how_many_it_must_see() -> None:
    found = _uncounted(_files("glob(", "iterdir("))
    assert found == [], "\n".join(["loop over ios_dumps, or assert how many the glob finds:",
                                    *found])


def test_every_skip_is_one_ci_can_refuse_or_is_listed_with_why() -> None:
    assert _unguarded(_files(*SKIPPING)) == {name: n for name, (n, _) in UNGUARDED_SKIPS.items()}


BROKEN = """\
from fidelity import SOURCES
from pytest import skip
HERE = Path(__file__).parents[3] / "shared" / "reference"

def _dump(name):
    if not (HERE / name).is_file():
        pytest.skip("not here")

def test_loop(reference):
    for path in (reference / "ios-sources").glob("*.xml"):
        assert path

def test_counted(reference):
    dumps = list((reference / "ios-sources").glob("*.xml"))
    assert len(dumps) == 8

def test_required():
    if os.environ.get("PHONESHELL_REQUIRE_REFERENCE"):
        pytest.fail("not here")
    pytest.skip("not here")
"""


def test_each_rule_finds_what_the_bridge_files_did() -> None:
    files = [("tests/broken.py", ast.parse(BROKEN))]
    assert sorted(_ways_round(files, {("fidelity", "SOURCES")})) == [
        "tests/broken.py:1 imports fidelity.SOURCES", "tests/broken.py:3 names 'shared'"]
    assert _uncounted(files) == [
        "tests/broken.py:10 (reference / 'ios-sources').glob('*.xml')"]
    assert _unguarded(files) == {"tests/broken.py": 2}  # the import and _dump's, not the gate's
    assert ("fidelity", "SOURCES") in _shared_paths()  # scripts/fidelity.py has one
