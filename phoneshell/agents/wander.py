"""`wander`: an agent that acts at random, to show what a run leaves on a phone.

A model under training wanders: it taps what it sees, types into whatever has focus, flips
switches, chooses options, drags sliders, pulls Control Center down and flips its toggles,
starts the stopwatch, saves an alarm, and moves on to another app. Played over the suite before
the reference finishes on the same phone, `wander` shows what a run puts back and what it
cannot (see docs/runs.md), and whether an honest agent after it still passes every task. It
never passes a task on purpose and claims nothing.

`--agent wander[:SEED[:ACTIONS]]`: SEED (default 1) makes the walk repeatable: each attempt's
actions come from the seed, the task and the attempt, not from the order attempts run in.
ACTIONS (default 20) is how many it takes per attempt.
"""

from __future__ import annotations

import random

from phoneshell.agents.base import AGENTS, Agent, AgentContext, AgentResult
from phoneshell.device import Phone
from phoneshell.errors import PhoneshellError
from phoneshell.tree import Element
from phoneshell.xcui import SLIDER, SWITCH

TAPPABLE = frozenset(("Button", "Cell", "Switch", "Icon", "Link", "Key", "SearchField",
                      "TextField", "TextView", "StaticText", "Tab"))
WORDS = ("hello", "Meeting", "7", "zz top", "\n", "buy milk")
"""What it types: words, a digit, and Return."""


class WanderAgent:
    """Takes `actions` random actions per attempt through the bridge (see the module)."""

    name = "wander"

    def __init__(self, seed: str = "1", actions: int = 20) -> None:
        self.seed, self.actions = seed, actions

    def run(self, context: AgentContext) -> AgentResult:
        """Act at random; a refused or failed action is one of them, as for any agent."""
        rng = random.Random(f"{self.seed}:{context.task.id}:{context.workdir.name}")
        phone = Phone(context.wda_url)
        for _ in range(self.actions):
            try:
                self._act(phone, rng, context.task.app)
            except PhoneshellError:
                continue
        return AgentResult(ran=True, turns=self.actions)

    @staticmethod
    def _act(phone: Phone, rng: random.Random, app: str) -> None:
        roll = rng.random()
        if roll < 0.05 and app:
            phone.launch(app)
        elif roll < 0.12:
            phone.home()
        elif roll < 0.27:
            sliders = [e for e in phone.page().on_screen() if e.type == SLIDER]
            if sliders and rng.random() < 0.5:  # a slider's thumb, dragged along it
                slider = rng.choice(sliders)
                x, y = slider.centre
                phone.drag((x, y), (slider.x + rng.random() * slider.width, y))
                return
            width, height = phone.screen_size()
            ends = (height * 0.7, height * 0.3)
            start, end = ends if rng.random() < 0.7 else ends[::-1]
            phone.drag((width / 2, start), (width / 2, end))
        elif roll < 0.30:  # from the top edge: Notification Center, or Control Center
            width, height = phone.screen_size()
            x = width * rng.choice((0.3, 0.9))
            phone.drag((x, 2), (x, height * 0.4))
        elif roll < 0.37 and any(field.focused for field in phone.fields()):
            phone.type_keys(rng.choice(WORDS))
        else:
            shown = [e for e in phone.page().on_screen()
                     if e.short_type in TAPPABLE and e.width > 4 and e.height > 4]
            if shown:
                phone.tap(*_point(rng.choice(shown)))


def _point(element: Element) -> tuple[float, float]:
    """Where a finger goes: a switch row's knob, at its right end; anything else, its centre."""
    if element.type == SWITCH:
        return element.x + element.width - 30, element.y + element.height / 2
    return element.centre


def _wander(arg: str) -> Agent:
    """Act at random (SEED[:ACTIONS]): what a run leaves on a phone, and what it puts back."""
    seed, _, actions = arg.partition(":")
    try:
        count = int(actions) if actions else 20
    except ValueError:
        count = -1
    if count < 1:
        raise PhoneshellError(f"wander takes SEED[:ACTIONS], ACTIONS a whole number from 1; "
                              f"got {arg!r}")
    return WanderAgent(seed or "1", count)


AGENTS.register("wander")(_wander)
