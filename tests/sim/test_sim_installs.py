"""Deleted, removed and offloaded apps: what WDA, Spotlight, the state route and the state file
see of them afterwards, and how a reset puts them back."""

from __future__ import annotations

from typing import Any

import wda

from phoneshell.sim import SimServer

PROBE = "com.example.probe"
NEVER = "com.example.never-installed"
MAPS = "com.apple.Maps"


def delete(session: wda.Client, client: wda.Client, name: str) -> None:
    """Delete an app as an XCUITest suite does: hold its icon, Remove App, Delete App, Delete."""
    session.tap_hold(*session(className="Icon", label=name).get(timeout=1).bounds.center, 1.3)
    session(label="Remove App").tap()
    session(label="Delete App").tap()
    client.alert.click("Delete")


def answers(raw: Any, sid: str, bundle: str, scheme: str) -> list[tuple[int, Any]]:
    """What WDA answers to every way of starting `bundle` or opening a `scheme` URL (the
    last, a new session, ends the session `sid`), with the two written as BUNDLE and SCHEME."""
    replies = [raw("POST", f"/session/{sid}/wda/apps/launch", {"bundleId": bundle}),
               raw("POST", f"/session/{sid}/wda/apps/activate", {"bundleId": bundle}),
               raw("POST", "/wda/apps/launchUnattached", {"bundleId": bundle}),
               raw("POST", f"/session/{sid}/url", {"url": f"{scheme}://x"}),
               raw("POST", "/session", {"capabilities": {"alwaysMatch": {"bundleId": bundle}}})]
    return [(r.status, {k: str(v).replace(bundle, "BUNDLE").replace(scheme, "SCHEME")
                        for k, v in r.value.items() if k != "traceback"}) for r in replies]


def test_a_deleted_app_answers_as_one_never_installed(probe_sim, raw_at):
    client = wda.Client(probe_sim.url)
    session = client.session()
    session.swipe_left()  # an app the layout does not know goes on the last page
    delete(session, client, "Probe")

    def raw(method: str, path: str, body: Any = None) -> Any:
        return raw_at(probe_sim.url, method, path, body)

    deleted = answers(raw, client.session().session_id, PROBE, "probe")
    assert deleted == answers(raw, client.session().session_id, NEVER, "never")
    assert [status for status, _ in deleted] == [400, 400, 500, 500, 500]
    assert deleted[3][1]["message"].startswith("no installed app opens SCHEME: URLs")
    assert PROBE not in probe_sim.state()["installed"]


def test_a_deleted_app_is_gone_from_spotlight_and_its_process_ends(client, sim):
    session = client.session(MAPS)
    client.home()
    assert MAPS in sim.state()["running"]
    delete(session, client, "Maps")
    assert MAPS not in sim.state()["running"]
    session.swipe_down()
    session.send_keys("Map")
    assert session(label="No Results").exists
    assert session.app_state(MAPS).value == 1


def test_what_was_removed_stays_so_across_a_restart_and_a_reset_undoes_it(tmp_path):
    path = tmp_path / "phone.json"
    with SimServer(state_file=path) as sim:
        client = wda.Client(sim.url)
        session = client.session()
        delete(session, client, "Maps")
        session.tap_hold(*session(className="Icon", label="Weather").get(timeout=1)
                         .bounds.center, 1.3)
        session(label="Remove App").tap()
        client.alert.click("Remove from Home Screen")
    with SimServer(state_file=path) as sim:
        client = wda.Client(sim.url)
        session = client.session()
        labels = {e.label for e in session(className="Icon").find_elements()}
        assert "Maps" not in labels and "Weather" not in labels
        installed = sim.state()["installed"]
        assert MAPS not in installed and "com.apple.weather" in installed
        sim.reset()
        labels = {e.label for e in session(className="Icon").find_elements()}
        assert {"Maps", "Weather"} <= labels
        session.app_launch(MAPS)
        assert client.app_current()["bundleId"] == MAPS
