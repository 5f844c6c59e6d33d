"""Task files are read by libyaml where PyYAML has it, composed in Python under the depth bound
(`tasks.yamlnodes`), and a file libyaml refuses is read again in Python: these tests hold the two
readers to the same nodes, each starting at the same line and column, over every task file there
is, and a refusal to Python's wording and place."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

from phoneshell.tasks import parse_task, yamlnodes

pytestmark = pytest.mark.skipif(yamlnodes._BoundedLoader is yamlnodes._PythonLoader,
                                reason="this PyYAML has no libyaml: there is one reader only")


def shape(node: Node) -> list[tuple[object, ...]]:
    """Every node in document order: its kind, tag, where it starts, and a scalar's value and
    end. Not compared: the style PyYAML leaves None and libyaml gives as '' or False (the same
    style), and where a block list or mapping ends (libyaml's end takes in blank lines and
    comments after it; nothing reads it: problems point at where a node starts)."""
    rows: list[tuple[object, ...]] = []

    def walk(n: Node) -> None:
        scalar = isinstance(n, ScalarNode)
        rows.append((type(n).__name__, n.tag, n.start_mark.line, n.start_mark.column,
                     (n.value, n.end_mark.line, n.end_mark.column) if scalar else None))
        if isinstance(n, MappingNode):
            for key, value in n.value:
                walk(key)
                walk(value)
        elif not isinstance(n, ScalarNode):
            for item in n.value:
                walk(item)

    walk(node)
    return rows


def test_every_task_file_composes_alike_through_libyaml_and_python(
        environments: Path, reference: Path) -> None:
    files = sorted(environments.glob("*.yaml")) + sorted(
        (reference / "phoneshell-environments").rglob("*.yaml"))
    assert len(files) >= 160
    for path in files:
        text = path.read_text()
        fast = yaml.compose(text, Loader=yamlnodes._BoundedLoader)
        slow = yaml.compose(text, Loader=yamlnodes._PythonLoader)
        assert fast is not None and slow is not None
        assert shape(fast) == shape(slow), path


@pytest.mark.parametrize("text", [
    "id: a\nname: b\x01c\n",          # a control character
    "id: é\nname: bé\x01c\n",          # one after a two-byte character on its line
    "id: [\n",                        # unclosed
    "a: b: c\n",                      # a mapping value where none may start
    "a: \"é\\q\"\n",                  # an unknown escape
    "{a: 1",                          # a flow mapping left open
    "a: " + "[" * 2000 + "]" * 2000,  # past libyaml's own 1,000 levels
])
def test_a_file_libyaml_refuses_is_refused_in_pythons_words_and_place(text: str) -> None:
    problems = yamlnodes.compose(text, "f.yaml")[1]
    try:
        yaml.compose(text, Loader=yamlnodes._PythonLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        assert mark is not None
        where = (mark.line + 1, mark.column + 1)
        said = " ".join(filter(None, [exc.context, exc.problem]))
    except yaml.reader.ReaderError as exc:
        where = (text.count("\n", 0, exc.position) + 1,
                 exc.position - text.rfind("\n", 0, exc.position))
        said = str(exc)
    else:
        pytest.fail("PyYAML's Python reader took it")
    assert [(p.line, p.column, p.message) for p in problems] == [
        (*where, f"not valid YAML: {said}")]


TABBED = """\
id: demo.tab
name: Tab
app: com.apple.Preferences
instruction: Open Settings.
setup:
  - terminate: com.apple.Preferences
checks:
  - kind: foreground_app
    text: com.apple.Preferences\t
"""


def test_a_tab_after_a_value_is_taken_and_a_tag_in_a_flow_mapping_refused() -> None:
    """What libyaml takes that PyYAML's Python reader refused (docs/tasks.md)."""
    task, problems = parse_task(TABBED, "tab.yaml")
    assert task is not None and problems == []
    assert task.checks[0].values == (("text", "com.apple.Preferences"),)
    tagged = TABBED + "  - {kind: element_exists, text: !Done, type: Button}\n"
    task, problems = parse_task(tagged, "tag.yaml")
    assert task is None
    assert [str(p) for p in problems] == [
        "tag.yaml:10:34: error: `text` of an element_exists check has the YAML tag !Done, which "
        "phoneshell does not read (it would take the text as written and drop the tag); write "
        "the value itself, untagged"]


def test_nesting_past_the_bound_is_refused_where_it_starts_by_either_reader() -> None:
    text = "a: " + "[" * 60 + "]" * 60
    problems = yamlnodes.compose(text, "f.yaml")[1]
    assert [(p.line, p.column) for p in problems] == [(1, 4 + yamlnodes.MAX_DEPTH - 1)]
    assert "nested more than 50 levels deep" in problems[0].message
