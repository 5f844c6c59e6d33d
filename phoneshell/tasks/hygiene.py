"""Warnings about what a task leaves to chance between attempts (an app someone else left
where it was, what an agent adds that nobody deletes), to where its screen checks are read (a
screen check with no app named in front) or to the agent doing nothing (checks that all pass
then). Pure: reads the parsed task only."""

from __future__ import annotations

from collections.abc import Sequence

from yaml.nodes import Node

from phoneshell.apps import bundle_for
from phoneshell.checks import Check, lookup, needs_of
from phoneshell.errors import Problem
from phoneshell.tasks.steps import DELETABLE, Step
from phoneshell.tasks.yamlnodes import NodeFile
from phoneshell.xcui import SPRINGBOARD


def warn_unstopped(f: NodeFile, setup_node: Node, app: str, checks: Sequence[Check],
                    setup: Sequence[Step]) -> None:
    """Warn where the agent, or the setup, could find an app where someone else left it.

    Launching an app that is already running brings it back where it was (WDA activates it):
    on the page an earlier attempt's agent left it on, or the phone's owner. So the setup must
    stop each app it opens before opening it, and each app the checks look at (the task's
    app, apps a `foreground_app` check names) somewhere; otherwise a finish that only opens the
    app passes after someone left it on the page asked for (how `phoneshell attack`'s `leaver`
    broke `resilience.wrong_app`). The runner stops what an agent leaves running, but not what
    the phone's owner left before the run.
    """
    stopped: set[str] = set()
    warned: set[str] = set()
    for step in setup:
        bundle = bundle_for(step.arg) if step.kind in ("launch", "open_app") else None
        if step.kind == "terminate":
            stopped.add(step.arg)
        elif bundle and bundle != SPRINGBOARD and bundle not in stopped | warned:
            warned.add(bundle)
            f.problems.append(Problem(
                f.path, step.line, 1,
                f"setup opens {step.arg} without stopping it first (`terminate: {bundle}` "
                "before this step): a running app comes back where it was left, by an earlier "
                "attempt's agent or the phone's owner, not where this setup starts it",
                "warning"))
    looked_at = [app, *(c.text for c in checks if c.kind == "foreground_app")]
    for bundle in dict.fromkeys(looked_at):
        if bundle and bundle != SPRINGBOARD and bundle not in stopped | warned:
            f.warn(setup_node, f"setup never stops {bundle} (`terminate: {bundle}`), which the "
                               "checks look at: when it is running, the agent's first launch "
                               "of it resumes wherever it was left, so only opening it can "
                               "pass after an earlier attempt left it on the page asked for")


def warn_uncleaned(f: NodeFile, teardown_node: Node, checks: Sequence[Check],
                   teardown: Sequence[Step]) -> None:
    """Warn where a check counts something teardown could delete and does not.

    A count check is taken before the agent and after capture anyway, so deleting what the count
    grew by costs nothing when it did not grow. Without it, what an agent adds, even against
    the instruction ("do not save it"), stays on the phone: an alarm rings, a running timer
    hides the wheels every later timer task needs, and later attempts fail for it.
    """
    deleted = {(s.option("probe"), s.option("text")) for s in teardown
               if s.kind == "delete_created"} | {
                   ("timer_dialled", s.arg) for s in teardown if s.kind == "restore_timer"}
    for need in needs_of(checks):
        if need.what != "probe" or need.name not in DELETABLE \
                or (need.name, need.arg) in deleted:
            continue
        text = f", text: {need.arg}" if need.arg else ""
        f.warn(teardown_node, f"the checks count {need.name} before and after the agent, but "
                              f"teardown never deletes what that count grew by "
                              f"(`delete_created: {{probe: {need.name}{text}}}`): what an agent "
                              "adds, even against the instruction, stays on the phone for every "
                              "later attempt")


def warn_untyped_taps(f: NodeFile, setup: Sequence[Step]) -> None:
    """Warn where setup taps by text alone: whatever an earlier attempt's agent left showing
    that text (a page heading "Address", a note titled "Search") can be what gets tapped, and
    the setup fails, not scored; a skip an agent can make at will. Naming the control's type
    keeps content out of the way."""
    for step in setup:
        if step.kind in ("tap", "long_press") and not step.option("type"):
            f.problems.append(Problem(
                f.path, step.line, 1,
                f"setup taps {step.arg!r} by its text alone: content an earlier agent left that "
                f"shows it (a page, a note) could be tapped instead, and the attempt not scored; "
                f"name the control's type (`{step.kind}: {{text: {step.arg}, type: Button}}`)",
                "warning"))


def warn_remembered(f: NodeFile, checks: Sequence[Check], solution: Sequence[Step]) -> None:
    """Warn where a reference finish answers a text for an `answer_matches_device` check: the
    value is the phone's own (its model number, battery, heading), another on every phone, the
    simulated ones included, so a remembered answer passes only on the phone it was read from;
    the finish reads it, as an agent must (`answer_read`)."""
    if not any(c.kind == "answer_matches_device" for c in checks):
        return
    for step in solution:
        if step.kind == "answer":
            f.problems.append(Problem(
                f.path, step.line, 1,
                f"the solution answers {step.arg!r}, but answer_matches_device wants the "
                f"phone's own value, which differs from phone to phone (a simulated iPhone's "
                f"too: docs/simulator.md#which-phone); read it off the screen with "
                f"`answer_read: PATTERN`", "warning"))


def screen_check(check: Check) -> bool:
    """Whether a check reads what the final screen shows, whatever app shows it: an end-state
    kind (`element_exists`, `regex_on_screen`, `page_shown`...) other than `foreground_app`,
    and not one whose probe reads the device its own way (`device_value`)."""
    kind = lookup(check.kind)
    return kind.family == "state" and check.kind != "foreground_app" and not kind.probe_kind


def warn_unplaced(f: NodeFile, app: str, checks: Sequence[Check]) -> None:
    """Warn where screen checks (`screen_check`) have no `foreground_app` check beside them:
    the home screen, the App Switcher (a card labelled with each app's name in the background)
    and the App Library (every app's name) all show app names, Spotlight and Notification
    Center what was typed or posted, so a screen check alone can pass on SpringBoard, or in
    another app showing the same words, without the task's app showing them. A negated
    `foreground_app` names no app in front. Not for a task on SpringBoard itself, whose screens
    all report it."""
    screen = [c for c in checks if screen_check(c)]
    placed = any(c.kind == "foreground_app" and not c.negate for c in checks)
    if not screen or placed or app == SPRINGBOARD:
        return
    kinds = ", ".join(dict.fromkeys(c.kind for c in screen))
    f.problems.append(Problem(
        f.path, screen[0].line or 1, 1,
        f"the checks read the screen ({kinds}) but none names the app in front: the home "
        "screen, the App Switcher and the App Library show app names, so a screen check can "
        "pass there, or in another app showing the same words; add `- kind: foreground_app` "
        f"(text: {app}, the default)", "warning"))


def passes_idle(check: Check) -> bool:
    """Whether an agent that does nothing passes `check`: it is negated, or its kind asserts an
    absence (`CheckKind.absence`: `never_opened`, `count_unchanged`, `settings_unchanged`)."""
    return check.negate or lookup(check.kind).absence


def warn_idle(f: NodeFile, checks_node: Node, checks: Sequence[Check]) -> None:
    """Warn where every check passes when the agent does nothing (`passes_idle`): bans and
    absences only, so the null agent passes the task (red team 123: "Work out 2+2 in
    Calculator" checked only `never_opened` Safari). The mirror of a task with no checks,
    which can never pass; a task needs one check a do-nothing attempt fails."""
    if not checks or not all(passes_idle(c) for c in checks):
        return
    kinds = ", ".join(dict.fromkeys(f"{'not ' if c.negate else ''}{c.kind}" for c in checks))
    f.warn(checks_node, f"this task passes when the agent does nothing: every check ({kinds}) "
                        "is negated or asserts an absence; add one that only doing the task "
                        "passes (the app in front, what the screen shows, an answer, a count "
                        "that grew); `phoneshell baseline` finds what setup alone passes")
