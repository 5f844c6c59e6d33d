"""An instruction-blind judge: success when the agent acted and the phone accepted its last
action, whatever it was asked.

A control: a judge that cannot beat it is not reading the instruction.
    phoneshell judge JUDGESET --judge 'command:python examples/judges/blind.py'
"""

import json
import sys

steps = json.load(sys.stdin)["item"]["steps"]
acted = bool(steps) and steps[-1].get("ok") is True
print(json.dumps({"success": acted, "reasoning": f"{len(steps)} action(s), the last "
                  + ("accepted" if acted else "not accepted or none"), "confidence": "low"}))
