"""Parse one task file's text: whole-file validation with file:line:column problems.

The YAML is walked as a node tree (not plain dicts) so every problem points at the line and
column to fix, and every problem in the file is reported at once. Its nesting is bounded as it
is parsed (`yamlnodes.compose`). Task ids become folder names (`attempts/<task_id>/`), so they
are checked as such. Finding and reading the files is `load.py`'s.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from typing import cast

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from phoneshell.checks import CHECKS, Check, CheckKind
from phoneshell.errors import Problem, UnknownName
from phoneshell.params import Param, ParamValue
from phoneshell.records import ATTACK_FAMILIES
from phoneshell.registry import close_matches
from phoneshell.tasks.budget import typing_budget
from phoneshell.tasks.hygiene import (
    warn_idle,
    warn_remembered,
    warn_uncleaned,
    warn_unplaced,
    warn_unstopped,
    warn_untyped_taps,
)
from phoneshell.tasks.model import (
    DEFAULT_TIMEOUT_S,
    TASK_FIELDS,
    Difficulty,
    Task,
)
from phoneshell.tasks.probes import PROBES
from phoneshell.tasks.steps import ANSWER_STEPS, STEPS, Step, StepList
from phoneshell.tasks.tags import tag_problems
from phoneshell.tasks.yamlnodes import (
    NULL_TAG,
    Invalid,
    NodeFile,
    compose,
    pairs_of,
    read_value,
    unknown_key,
)

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
"""Task ids, matched whole (`fullmatch`: a `$` would let a trailing newline through)."""
MAX_ID_CHARS = 100
"""An id names folders (attempts/<id>/, swap folders of two ids): file systems cap a name at
255 bytes, and the suite's longest id is 37 characters."""
BASE_CHECK_KEYS = ("kind", "negate", "note")


def _check_probe(f: NodeFile, node: Node, name: str, kind: str, wanted: str) -> None:
    """The probe a check names must exist and read what the check compares."""
    try:
        probe = PROBES.lookup(name)
    except UnknownName as exc:
        raise f.error(node, f"{exc} (probes: {', '.join(PROBES.names())})") from exc
    if probe.kind != wanted:
        fitting = [n for n, p in PROBES.items() if p.kind == wanted]
        raise f.error(node, f"probe {name!r} reads a {probe.kind}, but {_a_check(kind)} needs a "
                            f"{wanted} probe ({', '.join(fitting)})")


def _a_check(kind: str) -> str:
    """ "an element_exists check", "a foreground_app check" (for messages)."""
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} check"


def _lookup_check(f: NodeFile, node: Node) -> CheckKind:
    if not isinstance(node, ScalarNode) or not str(node.value).strip():
        raise f.error(node, "a check's `kind` should be the name of a check kind")
    try:
        return CHECKS.lookup(str(node.value))
    except UnknownName as exc:
        raise f.error(node, f"{exc} (kinds: {', '.join(CHECKS.names())})") from exc


def read_check(f: NodeFile, node: Node, task_app: str) -> Check:
    """Read one check: the full form `{kind: ..., text: ...}` or the shorthand `{kind: text}`."""
    pairs = pairs_of(f, node, "a check")
    keys = {key: (key_node, value) for key, key_node, value in pairs}
    if "kind" in keys:
        kind = _lookup_check(f, keys["kind"][1])
        values: dict[str, object] = {}
        base = BASE_CHECK_KEYS[1:] if kind.negatable else ("note",)
        accepted = [*base, *(x.name for x in kind.params)]
        specs = {x.name: x for x in kind.params}
        specs["negate"] = Param("negate", "bool", "")
        specs["note"] = Param("note", "str", "")
        ok = True
        for key, key_node, value_node in pairs:
            if key == "kind":
                continue
            if key not in accepted:
                if key == "negate":
                    f.error(key_node, f"check kind {kind.name!r} cannot be negated")
                else:
                    f.error(key_node, unknown_key(key, accepted, _a_check(kind.name)))
                ok = False
                continue
            try:
                values[key] = read_value(f, value_node, specs[key], _a_check(kind.name))
            except Invalid:
                ok = False
    elif len(pairs) == 1 and pairs[0][0] in CHECKS:
        key, key_node, value_node = pairs[0]
        kind = CHECKS.lookup(key)
        main = next((x for x in kind.params if x.name == "text"), None)
        if main is None:
            raise f.error(key_node, f"check kind {key!r} has no short form; write "
                                    f"`kind: {key}` and its fields")
        values = {"text": read_value(f, value_node, main, _a_check(key))}
        ok = True
    else:
        first = pairs[0][1] if pairs else node
        if len(pairs) == 1:
            close = close_matches(pairs[0][0], CHECKS.names())
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise f.error(first, f"unknown check kind {pairs[0][0]!r}{hint} "
                                 f"(kinds: {', '.join(CHECKS.names())})")
        raise f.error(node, "a check needs `kind` (e.g. `kind: foreground_app`)")
    if not ok:
        raise Invalid("bad check")
    if kind.name == "foreground_app" and not values.get("text"):
        if not task_app:
            raise f.error(node, "foreground_app needs `text` (a bundle id) or the task's `app`")
        values["text"] = task_app
    for spec in kind.params:
        if spec.required and spec.name not in values:
            raise f.error(node, f"{_a_check(kind.name)} needs `{spec.name}` ({spec.describe()})")
    wrong = kind.invalid(cast(dict[str, ParamValue], values))
    if wrong is not None:
        field, problem = wrong
        raise f.error(keys[field][1] if field in keys else node, f"{_a_check(kind.name)} {problem}")
    if kind.probe_kind:
        _check_probe(f, keys["probe"][1] if "probe" in keys else node, str(values["probe"]),
                     kind.name, kind.probe_kind)
    negate, note = bool(values.pop("negate", False)), str(values.pop("note", ""))
    text = values.pop("text", None)
    return Check.make(kind.name, None if text is None else str(text), negate=negate, note=note,
                      file=f.path, line=f.line(node), **cast(dict[str, ParamValue], values))


def read_step(f: NodeFile, node: Node, where: StepList) -> Step:
    """Read one step: `- name`, `- name: value` or `- name: {key: value}`."""
    if isinstance(node, ScalarNode):
        name, value_node, name_node = str(node.value), None, node
    elif isinstance(node, MappingNode) and len(node.value) == 1:
        name_node, value_node = node.value[0]
        name = str(name_node.value)
    else:
        raise f.error(node, "a step is a name (`- home`) or a one-key mapping "
                            "(`- terminate: com.apple.Maps`)")
    try:
        kind = STEPS.lookup(name)
    except UnknownName as exc:
        raise f.error(name_node, f"{exc} (steps: {', '.join(STEPS.names())})") from exc
    if where not in kind.lists:
        raise f.error(name_node, f"step {name!r} cannot be used in {where} "
                                 f"(only in {', '.join(kind.lists)})")
    line = f.line(node)
    if value_node is None or (isinstance(value_node, ScalarNode)
                              and value_node.tag == NULL_TAG):
        if not kind.bare:
            example = kind.scalar.name.upper() if kind.scalar else "..."
            raise f.error(node, f"step {name!r} needs a value, e.g. `- {name}: {example}`")
        return Step(name, seconds=1.0 if name == "wait" else 0.0, file=f.path, line=line)
    if isinstance(value_node, ScalarNode):
        if kind.scalar is None:
            raise f.error(value_node, f"step {name!r} takes no value; write `- {name}`")
        value = read_value(f, value_node, kind.scalar, f"step {name!r}")
        if kind.scalar.type == "number":
            return Step(name, seconds=float(cast(float, value)), file=f.path, line=line)
        return Step(name, arg=str(value), file=f.path, line=line)
    if not kind.params:
        raise f.error(value_node, f"step {name!r} takes a single value, not a mapping")
    specs = {x.name: x for x in kind.params}
    values: dict[str, object] = {}
    for key, key_node, sub in pairs_of(f, value_node, f"step {name!r}"):
        if key not in specs:
            raise f.error(key_node, unknown_key(key, list(specs), f"step {name!r}"))
        values[key] = read_value(f, sub, specs[key], f"step {name!r}")
    for spec in kind.params:
        if spec.required and spec.name not in values:
            raise f.error(value_node, f"step {name!r} needs `{spec.name}` ({spec.describe()})")
    if name == "swipe":
        has_points = "from" in values or "to" in values
        if has_points and not ("from" in values and "to" in values):
            raise f.error(value_node, "a swipe between points needs both `from` and `to`")
        if has_points == ("direction" in values):
            raise f.error(value_node, "a swipe takes either `direction` or `from` and `to`")
    default_s = 1.0 if name in ("wait", "long_press") else 0.0
    return Step(name, arg=str(values.get("text", values.get("direction", ""))),
                seconds=float(cast(float, values.get("seconds", default_s))),
                start=cast("tuple[float, float] | None", values.get("from")),
                end=cast("tuple[float, float] | None", values.get("to")),
                options=tuple((k, v) for k, v in values.items() if isinstance(v, str)),
                file=f.path, line=line)


def _items(f: NodeFile, node: Node, what: str) -> list[Node]:
    """The items of a list-valued key (an empty value is an empty list)."""
    if isinstance(node, ScalarNode) and node.tag == NULL_TAG:
        return []
    if not isinstance(node, SequenceNode):
        raise f.error(node, f"`{what}` should be a list")
    return list(node.value)


def _steps(f: NodeFile, node: Node, where: StepList) -> tuple[Step, ...]:
    steps = []
    for item in _items(f, node, where):
        try:
            steps.append(read_step(f, item, where))
        except Invalid:
            continue
    return tuple(steps)


def _top_level(f: NodeFile, root: Node) -> dict[str, Node]:
    """The task file's keys and value nodes; unknown and missing keys are recorded."""
    specs = {x.name: x for x in TASK_FIELDS}
    nodes: dict[str, Node] = {}
    for key, key_node, value_node in pairs_of(f, root, "a task file"):
        if key not in specs:
            f.error(key_node, unknown_key(key, list(specs), "a task file"))
        else:
            nodes[key] = value_node
    for spec in TASK_FIELDS:
        if spec.required and spec.name not in nodes:
            f.error(root, f"missing key `{spec.name}` ({spec.doc})")
    return nodes


def _checks(f: NodeFile, node: Node, app: str) -> tuple[Check, ...]:
    items = _items(f, node, "checks")
    if not items:
        f.error(node, "a task needs at least one check; one with none can never pass")
    checks = []
    for item in items:
        with contextlib.suppress(Invalid):
            checks.append(read_check(f, item, app))
    return tuple(checks)


def _check_tags(f: NodeFile, node: Node, tags: tuple[str, ...]) -> None:
    """Each tag once and without white space around it, each problem at the tag's line."""
    items = list(node.value) if isinstance(node, SequenceNode) else []
    if len(items) != len(tags):  # not read as a list of tags: read_value said why
        return
    for index, problem in tag_problems(tags, lambda i: f"line {f.line(items[i])}"):
        f.error(items[index], problem)


def parse_task(text: str, path: str) -> tuple[Task | None, list[Problem]]:
    """Validate one task file's text; return the task (None on any error) and every problem."""
    root, problems = compose(text, path)
    if root is None:
        return None, problems
    f = NodeFile(path)
    try:
        nodes = _top_level(f, root)
    except Invalid:
        return None, f.problems
    specs = {x.name: x for x in TASK_FIELDS}
    values: dict[str, object] = {}
    for key in ("id", "name", "app", "difficulty", "tags", "instruction", "notes", "max_steps",
                "timeout_seconds", "compatible_with", "compatible_attacks"):
        if key in nodes:
            with contextlib.suppress(Invalid):
                values[key] = read_value(f, nodes[key], specs[key], "the task")
    task_id, app = str(values.get("id", "")), str(values.get("app", ""))
    if task_id and not ID_PATTERN.fullmatch(task_id):
        f.error(nodes["id"], f"task id {task_id!r} should use letters, digits, '.', '_' and '-' "
                             "and start with a letter or digit")
    elif len(task_id) > MAX_ID_CHARS:
        f.error(nodes["id"], f"task id is {len(task_id)} characters long; the limit is "
                             f"{MAX_ID_CHARS} (ids name folders)")
    if "tags" in values:
        _check_tags(f, nodes["tags"], cast(tuple[str, ...], values["tags"]))
    compatible = cast(tuple[str, ...], values.get("compatible_with", ()))
    if task_id in compatible:
        f.error(nodes["compatible_with"], "a task cannot list itself in compatible_with")
    attacks = cast(tuple[tuple[str, str], ...], values.get("compatible_attacks", ()))
    for attack, _ in attacks:
        if attack.split(":", 1)[0] not in ATTACK_FAMILIES:
            f.error(nodes["compatible_attacks"], f"compatible_attacks names {attack!r}, which is "
                    f"not an attack id (it starts with a family: {', '.join(ATTACK_FAMILIES)})")
    checks: tuple[Check, ...] = ()
    if "checks" in nodes:
        with contextlib.suppress(Invalid):
            checks = _checks(f, nodes["checks"], app)
    lists: dict[str, tuple[Step, ...]] = {}
    for where in ("setup", "teardown", "solution"):
        if where in nodes:
            with contextlib.suppress(Invalid):
                lists[where] = _steps(f, nodes[where], where)
    solution = lists.get("solution") if "solution" in nodes else None
    if solution is not None and any(c.kind == "answer_contains" for c in checks) and not any(
            s.kind in ANSWER_STEPS for s in solution):
        f.warn(nodes["solution"], "the task checks the answer (answer_contains) but its "
                                  "solution has no `answer` step, so it cannot pass")
    warn_unstopped(f, nodes.get("setup") or root, app, checks, lists.get("setup", ()))
    warn_uncleaned(f, nodes.get("teardown") or root, checks, lists.get("teardown", ()))
    warn_untyped_taps(f, lists.get("setup", ()))
    warn_remembered(f, checks, solution or ())
    warn_unplaced(f, app, checks)
    warn_idle(f, nodes.get("checks") or root, checks)
    least = typing_budget(solution)
    if cast(int, values.get("max_steps", least)) < least:
        f.warn(nodes.get("max_steps"), f"max_steps {values['max_steps']} is less than an agent "
                                       f"typing the solution's text key by key needs ({least}): "
                                       "leave it out, or raise it (phoneshell.tasks.budget)")
    f.problems.sort(key=lambda p: (p.line, p.column))
    if any(p.severity == "error" for p in f.problems):
        return None, f.problems
    task = Task(
        id=task_id, name=str(values["name"]), instruction=str(values["instruction"]), app=app,
        difficulty=cast(Difficulty, values.get("difficulty", "medium")),
        tags=cast(tuple[str, ...], values.get("tags", ())),
        setup=lists.get("setup", ()), checks=checks, teardown=lists.get("teardown", ()),
        notes=str(values.get("notes", "")),
        max_steps=cast(int, values.get("max_steps", typing_budget(solution))),
        timeout_seconds=float(cast(float, values.get("timeout_seconds", DEFAULT_TIMEOUT_S))),
        solution=solution, compatible_with=compatible, compatible_attacks=attacks, file=path,
        line=1,
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())
    return task, f.problems
