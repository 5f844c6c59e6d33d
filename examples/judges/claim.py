"""A judge that believes the agent: success when its claim says done.

It reads nothing but the claim, so its score is how far an agent's word can be trusted:
    phoneshell judge JUDGESET --judge 'command:python examples/judges/claim.py'
"""

import json
import sys

item = json.load(sys.stdin)["item"]
claim = item.get("claim") or {}
done = claim.get("status") == "done"
print(json.dumps({"success": done, "reasoning": f"the agent's claim says {claim.get('status')}",
                  "confidence": "low"}))
