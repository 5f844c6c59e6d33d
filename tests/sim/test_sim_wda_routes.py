"""The simulator serves WDA 16.x's routes, answers the rest as WDA's catch-all does, and the
route table in docs/simulator.md says which is which."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from phoneshell.sim import SimServer
from phoneshell.wda_routes import WDA_ROUTES, forms

DOC = Path(__file__).resolve().parents[2] / "docs" / "simulator.md"
UNKNOWN_MESSAGE = re.compile(r"^Unhandled endpoint: (/\S*) -- http://127\.0\.0\.1:8100/ "
                             r"with parameters \{\n    wildcards =     \(\n"
                             r"        \"(\S*)\"\n    \);\n\}$")


def _implemented() -> set[tuple[str, str, str]]:
    return SimServer().endpoints.implemented()


def test_every_route_the_simulator_serves_is_a_wda_route():
    assert _implemented() <= set(WDA_ROUTES)


UNSERVED = [r for r in WDA_ROUTES if r not in _implemented()]


@pytest.mark.parametrize(("method", "path", "scope"), UNSERVED,
                         ids=[f"{m} {p}" for m, p, _ in UNSERVED])
def test_a_wda_route_not_served_answers_as_wda_answers_an_unknown_command(
        raw, client, method, path, scope):
    sid = client.session().session_id
    for form in forms(method, path, scope):
        line = form.split(" ", 1)[1].replace(":sid", sid).replace(":uuid", "E1")
        body = {"x": 1, "y": 1} if method == "POST" else None
        reply = raw(method, line, body)
        assert (reply.status, reply.value["error"]) == (404, "unknown command"), form
        found = UNKNOWN_MESSAGE.match(reply.value["message"])
        assert found is not None, reply.value["message"]
        assert found.groups() == (line, line.lstrip("/"))
        assert reply.json["sessionId"] == sid


def test_paths_wda_never_had_are_unknown_commands_with_or_without_a_session(raw, client):
    sid = client.session().session_id
    for method, path in (("GET", "/no/such/route"), ("POST", f"/session/{sid}/wda/tap/0"),
                         ("POST", f"/session/{sid}/wda/drag"), ("PUT", "/status"),
                         ("GET", f"/session/{sid}/status"), ("GET", "/session/nope/nothing")):
        reply = raw(method, path, {"x": 1, "y": 1} if method != "GET" else None)
        assert (reply.status, reply.value["error"]) == (404, "unknown command"), path


def test_a_known_route_under_an_old_session_is_an_invalid_session_id(raw, client):
    client.session()
    reply = raw("GET", "/session/DEAD-BEEF/window/size")
    assert (reply.status, reply.value["error"]) == (404, "invalid session id")


def test_options_is_wdas_cors_ping(raw):
    reply = raw("OPTIONS", "/anything/at/all")
    assert (reply.status, reply.value) == (200, None)


def test_the_doc_lists_every_wda_route_with_what_the_simulator_does():
    text = DOC.read_text(encoding="utf-8")
    table = text.split("<!-- wda-routes:begin -->")[1].split("<!-- wda-routes:end -->")[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    documented = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        documented[tuple(re.findall(r"`([^`]+)`", cells[0]))] = cells[1]
    served = _implemented()
    expected = {tuple(forms(*route)): "yes" if route in served else "no: unknown command"
                for route in WDA_ROUTES}
    assert documented == expected
