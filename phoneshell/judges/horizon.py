"""A judgeset in AgentHorizon's layout, so their tools read it as it is.

    agenthorizon/manifest.jsonl                      labels (their label schema, plus ours)
    agenthorizon/data/jsons/<id>.json                trajectory (their STANDARD v1.1 shape)
    agenthorizon/data/markdowns/<id>.md              the markdown view their judges read
    agenthorizon/data/media/images/<id>/step_N.png   the screenshot before step N-1 (from 1)

Each step's screenshot is the screen before its action, as theirs are; a last `wait` step shows
the screen at capture and the agent's claim. Image folders are named by item id, never by the
task a trajectory was played as (their folders are named by the trajectory's owner, which tells
a swapped negative from its positive). Judge verdicts go to `results/<id>.json` in the judge's
own folder (`phoneshell judge`), which their analyzer reads with this manifest.

In the markdown, each step's words (the agent's values in them quoted on one line: words.py)
are one inline code span whose fence is longer than any run of backticks inside, so nothing the
agent chose can close it and add a step, a heading, an image or raw HTML.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from phoneshell.judges.words import claim_words
from phoneshell.presses import press_count
from phoneshell.records import ItemStep, JudgeItem, LabelRow, read_record, write_text_atomic
from phoneshell.untrusted import visible

STANDARD_VERSION = "1.1"
NEGATIVE_SOURCES = {"failed": "failed_attempt", "swapped": "swapped_instruction"}
"""What `negative_source` says of each negative type (attack: `attack:<family>`)."""


def action_of(step: ItemStep) -> dict[str, object]:
    """The step as AgentHorizon's `action` ({type, parameters}); kinds they have no type for
    (launch, open_url, ...) keep phoneshell's name and params."""
    p = step.params
    if step.kind == "tap" and "x" in p:
        clicks = press_count(step.kind, p) or 1  # None (several fingers) or 0: one click
        return {"type": "click", "parameters": {"x": p["x"], "y": p["y"], "button": "left",
                                                "num_clicks": clicks}}
    if step.kind == "type":
        return {"type": "type", "parameters": {"text": p.get("text", "")}}
    if step.kind in ("home", "press"):
        return {"type": "press", "parameters": {"keys": [str(p.get("button", "home"))]}}
    if step.kind == "swipe" and "from_x" in p and "to_x" in p:
        return {"type": "drag", "parameters": {"start_x": p["from_x"], "start_y": p["from_y"],
                                               "end_x": p["to_x"], "end_y": p["to_y"]}}
    if step.kind == "swipe":
        return {"type": "scroll", "parameters": {"direction": p.get("direction")}}
    return {"type": step.kind, "parameters": dict(p)}


def _ending(item: JudgeItem) -> str:
    said = claim_words(item.claim)
    return ("The agent's turn ended; it reported: " + said + "." if said
            else "The agent's turn ended; it reported nothing.")


def trajectory(item: JudgeItem, images: dict[int, str]) -> dict[str, object]:
    """The STANDARD v1.1 trajectory object; `images` maps step ids to screenshot paths."""
    steps: list[dict[str, object]] = [
        {"step_id": n, "screenshot": images.get(n), "action": action_of(step),
         "action_description": step.action} for n, step in enumerate(item.steps)]
    steps.append({"step_id": len(item.steps), "screenshot": images.get(len(item.steps)),
                  "action": {"type": "wait", "parameters": {"duration_s": 0}},
                  "action_description": _ending(item)})
    apps = sorted({s.app_after for s in item.steps if s.app_after})
    return {"version": STANDARD_VERSION, "trajectory_id": item.id,
            "source": {"name": "phoneshell", "original_file": None},
            "task": {"instruction": item.instruction, "applications": apps},
            "environment": {"os": "ios", "screen_resolution": None}, "steps": steps,
            "milestones": []}


def code_span(text: str) -> str:
    """`text` as one inline code span on one line that nothing inside can close: CommonMark
    ends a span only at a run of backticks as long as the one that opened it."""
    line = visible(text).replace("\n", "\\n")  # a blank line would end the paragraph
    fence = "`" * (1 + max((len(run) for run in re.findall("`+", line)), default=0))
    pad = " " if line.startswith("`") or line.endswith("`") else ""
    return f"{fence}{pad}{line}{pad}{fence}"


def markdown(item: JudgeItem, images: dict[int, str]) -> str:
    """Their markdown view: goal, then each step with its screenshot and action."""
    lines = ["# Trajectory Report", "", "## Goal", "", item.instruction, "", "## Steps", "",
             f"Total steps: **{len(item.steps) + 1}**", ""]
    words = [s.action for s in item.steps] + [_ending(item)]
    for n, text in enumerate(words):
        lines += [f"### Step {n}", ""]
        if n in images:
            lines += [f"![Step {n} screenshot](./{images[n]})", ""]
        lines += [f"**Action:** {code_span(text)}", ""]
    return "\n".join(lines)


def manifest_row(label: LabelRow) -> dict[str, object]:
    """One line of their label file (their fields first; ours after, which they ignore)."""
    row: dict[str, object] = {"trajectory_id": label.id, "label": label.label,
                              "original_id": label.trajectory_task}
    if label.label == "negative":
        row["paired_id"] = label.task_id
        row["negative_source"] = NEGATIVE_SOURCES.get(label.label_type,
                                                      f"attack:{label.family}")
        row["mistake_type"] = None
    row.update(instruction_id=label.task_id, label_type=label.label_type, family=label.family)
    return row


def write_horizon(folder: Path, items_dir: Path, labels: Sequence[LabelRow]) -> None:
    """Write the export of the items in `items_dir` with their labels into `folder`."""
    for sub in ("jsons", "markdowns", "media/images"):
        (folder / "data" / sub).mkdir(parents=True, exist_ok=True)
    for label in labels:
        source = items_dir / label.id
        item = read_record(source / "item.json", JudgeItem)
        images: dict[int, str] = {}
        (folder / "data/media/images" / item.id).mkdir(exist_ok=True)
        # a step's screenshot is the screen before it: the latest frame at or before it
        for frame in item.frames:
            name = f"data/media/images/{item.id}/step_{frame.after_step + 1}.png"
            write_text_atomic(folder / name, (source / frame.file).read_bytes())
            images[frame.after_step] = name
        write_text_atomic(folder / "data/jsons" / f"{item.id}.json",
                          json.dumps(trajectory(item, images), indent=2) + "\n")
        write_text_atomic(folder / "data/markdowns" / f"{item.id}.md", markdown(item, images))
    write_text_atomic(folder / "manifest.jsonl",
                      "".join(json.dumps(manifest_row(row)) + "\n" for row in labels))
