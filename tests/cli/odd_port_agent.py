"""Red team 86's agent: opens one Safari URL whose port is the Ethiopic digit one (`str.isdigit`
holds for it, `int` refuses it), never loads the page its task asks for, and answers wrongly."""

import json
import os
import urllib.request

BASE = os.environ["PHONESHELL_WDA_URL"].rstrip("/")


def call(method: str, path: str, body: object) -> dict[str, object]:
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        answer: dict[str, object] = json.loads(reply.read() or b"{}")
        return answer


session = call("POST", "/session", {"capabilities": {"alwaysMatch": {}, "firstMatch": [{}]}})
call("POST", f"/session/{session['sessionId']}/url", {"url": "https://example.com:\u1369"})
print(json.dumps({"status": "done", "answer": "WRONGWORD"}))
