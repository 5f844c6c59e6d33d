"""A reference command agent: play the task's reference finish through the bridge, then claim.

Run it as `phoneshell run --agent 'command:python examples/agents/play_solution.py'`. It reads
the task file from $PHONESHELL_TASK_FILE (a variable meant for reference and replay agents like
this one, never for a model), plays each `solution` step on the phone at $PHONESHELL_WDA_URL
with phoneshell's own device layer (so the bridge logs every action under the agent phase),
answers what the finish says or reads off the screen (`answer_read`: a value of the phone's),
and claims with a JSON line on stdout (as `phoneshell finish` would, without starting a second
program each attempt). It keeps to $PHONESHELL_MAX_STEPS actions.
"""

from __future__ import annotations

import json
import os
import sys

from phoneshell.device import Phone, read_answer, run_step
from phoneshell.errors import DeviceError, StepError
from phoneshell.tasks import load_task


def finish(status: str, answer: str = "", summary: str = "") -> int:
    """Claim as any command agent may: the claim's JSON object, one line on stdout."""
    print(json.dumps({"status": status, "answer": answer, "summary": summary}), flush=True)
    return 0


def main() -> int:
    if "PHONESHELL_TASK_FILE" not in os.environ:
        print("error: no task file: run the harness with PHONESHELL_EXPOSE_TASK_FILE=1 to hand "
              "it to reference programs like this one", file=sys.stderr)
        return 2
    task = load_task(os.environ["PHONESHELL_TASK_FILE"])
    phone = Phone(os.environ["PHONESHELL_WDA_URL"])
    budget = int(os.environ.get("PHONESHELL_MAX_STEPS", "25"))
    answer, actions = "", 0
    for step in task.solution or ():
        if step.kind == "answer":
            answer = step.arg
            continue
        if step.kind == "answer_read":  # a value of the phone's, read where it is shown
            try:
                answer = read_answer(phone, step)
            except (StepError, DeviceError) as exc:
                return finish("failed", summary=f"{step.describe()} did not take: {exc}")
            continue
        if actions == budget:
            return finish("gave_up", summary=f"the reference finish needs more than {budget} "
                                             "actions")
        try:
            run_step(phone, step)
        except (StepError, DeviceError) as exc:
            # A swipe at the end of a list changes nothing; a person just goes on.
            if step.kind != "swipe":
                return finish("failed", summary=f"{step.describe()} did not take: {exc}")
        actions += 1
    if task.solution is None:
        return finish("gave_up", summary=f"{task.id} has no reference finish")
    return finish("done", answer, f"played the reference finish of {task.id} "
                                  f"({actions} actions)")


if __name__ == "__main__":
    sys.exit(main())
