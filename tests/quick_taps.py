"""A W3C finger that taps quickly several times at one point, as Selenium's and Appium's
`double_click` sends it: one move, then down, up, down, up (pauses between), in one request."""

from __future__ import annotations

TOUCH = {"pointerType": "touch"}


def quick_taps(x: float, y: float, count: int = 2, gap_ms: float = 80, held_ms: float = 50,
               back: tuple[float, float] | None = None) -> dict[str, object]:
    """One W3C pointer source tapping `count` times at (x, y), each held `held_ms`, `gap_ms`
    between; `back`: a move to that point before each tap after the first (as a client that
    moves before every tap sends)."""
    steps: list[dict[str, object]] = [{"type": "pointerMove", "duration": 0, "x": x, "y": y}]
    for n in range(count):
        if n:
            steps.append({"type": "pause", "duration": gap_ms})
            if back is not None:
                steps.append({"type": "pointerMove", "duration": 0, "x": back[0], "y": back[1]})
        steps += [{"type": "pointerDown", "button": 0}, {"type": "pause", "duration": held_ms},
                  {"type": "pointerUp", "button": 0}]
    return {"type": "pointer", "id": "finger1", "parameters": TOUCH, "actions": steps}
