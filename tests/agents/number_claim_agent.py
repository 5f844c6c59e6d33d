"""A command agent that reads the battery level off Settings > Battery through the bridge and
claims it as a model's JSON would: the answer a JSON number, the status spelled its own way.

    python tests/agents/number_claim_agent.py stdout|file STATUS [fraction]

`stdout` prints the claim as one line, `file` writes the claim file itself (as any program may
instead of `phoneshell finish`); `fraction` sends the level as 87.50 rather than 87.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from phoneshell.device import Phone, read_answer, run_step
from phoneshell.tasks import Step


def main() -> int:
    where, status = sys.argv[1], sys.argv[2]
    phone = Phone(os.environ["PHONESHELL_WDA_URL"])
    for step in (Step("open_app", "Settings"), Step("tap", "Battery")):
        run_step(phone, step)
    shown = read_answer(phone, Step("answer_read", r"^\d{1,3}\s?%"))
    level = int(re.match(r"\d+", shown).group())  # type: ignore[union-attr]
    number = f"{level}.50" if sys.argv[3:] == ["fraction"] else str(level)
    claim = f'{{"v": 1, "status": "{status}", "answer": {number}}}'
    if where == "file":
        Path(os.environ["PHONESHELL_CLAIM_FILE"]).write_text(claim)
    else:
        print(claim)
    return 0


if __name__ == "__main__":
    sys.exit(main())
