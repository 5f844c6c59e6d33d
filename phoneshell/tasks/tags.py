"""What makes two tags of a task one tag: its text, without surrounding space, in any case.

A task carries a tag or it does not, so a task file lists each tag once (`tag_problems`, which
the loader reports at the tag's line), and reports count an attempt once under each distinct tag
(`distinct_tags`) whatever they are given (a task built in code, a run recorded before the
loader refused repeats). Across task files, one tag spelled two ways ("Notes" in one, "notes"
in another) is one tag too: reports group by `tag_key` and show it as `tag_names` says. Pure: no
I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

__all__ = ["CAPABILITY", "distinct_tags", "tag_key", "tag_names", "tag_problems"]

CAPABILITY = "capability:"
"""The prefix of the tags reports group by capability ("capability:tabbar")."""


def _tidy(tag: str) -> str:
    """The tag without white space around it, or around its capability's name."""
    tag = tag.strip()
    if tag.startswith(CAPABILITY):
        return CAPABILITY + tag.removeprefix(CAPABILITY).strip()
    return tag


def tag_key(tag: str) -> str:
    """What two tags are compared by: the text without white space around it (or around its
    capability's name), case folded ("Notes", "notes " and "capability: typing" are "notes",
    "notes" and "capability:typing")."""
    return _tidy(tag).casefold()


def _shape_problem(tag: str) -> str:
    """What is wrong with one tag as written, alone ("" when nothing)."""
    if tag.startswith(CAPABILITY) and not tag.removeprefix(CAPABILITY).strip():
        return f"tag {tag!r} names no capability"
    if tag != _tidy(tag):
        return (f"tag {tag!r} has white space around it (or around its capability's name), "
                f"so reports would show another tag beside {_tidy(tag)!r}: write "
                f"{_tidy(tag)!r}")
    return ""


def tag_problems(tags: Sequence[str], at: Callable[[int], str]) -> list[tuple[int, str]]:
    """Each problem of a task's tags, as (the tag's index, what is wrong): white space around a
    tag, or a tag listed again in any case or spacing (a task carries a tag once; a repeat would
    count its attempts twice under it). `at(index)` says where a tag is ("line 7")."""
    first: dict[str, int] = {}
    problems = []
    for index, tag in enumerate(tags):
        shape = _shape_problem(tag)
        if shape:
            problems.append((index, shape))
        key = tag_key(tag)
        if key in first:
            problems.append((index, f"tag {tag!r} is listed twice (first as {tags[first[key]]!r}"
                                    f" at {at(first[key])}): a task carries a tag once, "
                                    "whatever its case or surrounding space, and a repeat "
                                    "would count its attempts twice under it"))
        else:
            first[key] = index
    return problems


def distinct_tags(tags: Iterable[str]) -> tuple[str, ...]:
    """Each tag once, without white space around it, in the order given; of tags that are one
    (`tag_key`), the first spelling."""
    kept: dict[str, str] = {}
    for tag in tags:
        kept.setdefault(tag_key(tag), _tidy(tag))
    return tuple(kept.values())


def tag_names(tagged: Iterable[tuple[str, Iterable[str]]]) -> dict[str, str]:
    """The name reports show for each tag (keyed by `tag_key`) of the tasks given as (task id,
    its tags): of one tag's spellings across task files ("Notes" in one, "notes" in two), the
    one most of its tasks use (a task counted once, however many runs or items name it), a tie
    going to the first seen."""
    users: dict[str, dict[str, set[str]]] = {}
    for task_id, tags in tagged:
        for tag in tags:
            users.setdefault(tag_key(tag), {}).setdefault(_tidy(tag), set()).add(task_id)
    return {key: max(spellings, key=lambda spelling: len(spellings[spelling]))
            for key, spellings in users.items()}
