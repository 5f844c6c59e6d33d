"""A command agent that asks a model over the network, as a real one does (stdlib only).

It sends the instruction to the OpenAI-compatible endpoint at $OPENAI_BASE_URL with
$OPENAI_API_KEY, opens the task's app through the bridge, and claims with the model's words.
"""

from __future__ import annotations

import json
import os
import urllib.request

BASE, KEY = os.environ["OPENAI_BASE_URL"], os.environ["OPENAI_API_KEY"]
BRIDGE = os.environ["PHONESHELL_WDA_URL"]


def post(url: str, body: object, headers: dict[str, str]) -> object:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.load(reply)


said = post(f"{BASE}/chat/completions", {"model": "stand-in-talk", "messages": [
    {"role": "user", "content": os.environ["PHONESHELL_INSTRUCTION"]}]},
    {"Authorization": f"Bearer {KEY}"})
text = said["choices"][0]["message"]["content"]  # type: ignore[index]
post(f"{BRIDGE}/session", {"capabilities": {"alwaysMatch": {
    "bundleId": "com.apple.Preferences"}}}, {})
print(json.dumps({"status": "done", "summary": text}))
