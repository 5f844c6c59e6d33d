"""Reads asked once: what each step, capture and probe sends to the phone, counted where the
phone (the simulator) receives it. Every read costs a real phone a round trip."""

from __future__ import annotations

from collections import Counter
from typing import Any

from phoneshell.device import Phone, capture_evidence, run_probe, run_step, run_steps
from phoneshell.device.input_probe import probe_input
from phoneshell.sim import SimServer
from phoneshell.tasks import Step

SETTINGS, CLOCK = "com.apple.Preferences", "com.apple.mobiletimer"


def asked(sim: SimServer) -> Counter[str]:
    """The requests since the last call, by route."""
    return Counter({route: row.count for phase in sim.latency.tally.take().values()
                    for route, row in phase.items()})


def in_settings(phone: Phone, sim: SimServer) -> None:
    run_steps(phone, [Step("launch", SETTINGS)])
    asked(sim)


def test_a_read_is_kept_until_an_action_and_only_inside_the_block(sim: SimServer,
                                                                  phone: Phone) -> None:
    in_settings(phone, sim)
    with phone.keeping_reads():
        phone.source(), phone.page(), phone.foreground(), phone.screen_size()
        assert asked(sim) == {"GET /source": 1}, "one source answers all four"
        phone.terminate(SETTINGS)
        phone.foreground()
        assert asked(sim) == {"POST /wda/apps/terminate": 1, "GET /wda/activeAppInfo": 1}
    phone.foreground(), phone.foreground()
    assert asked(sim) == {"GET /wda/activeAppInfo": 2}, "outside the block every read goes"


def test_polling_reads_afresh_after_the_first_try(sim: SimServer, phone: Phone) -> None:
    in_settings(phone, sim)
    with phone.keeping_reads():
        phone.foreground()
        assert not phone.poll(lambda: phone.foreground().bundle_id == CLOCK, 0.2, 0.05)
    assert asked(sim)["GET /wda/activeAppInfo"] >= 3


def test_a_tap_is_aimed_and_judged_by_two_sources(sim: SimServer, phone: Phone) -> None:
    in_settings(phone, sim)
    run_step(phone, Step("tap", "General"))
    assert asked(sim) == {"GET /source": 2, "POST /wda/tap": 1}


def test_terminating_an_app_that_is_not_running_sends_no_terminate(sim: SimServer,
                                                                   phone: Phone) -> None:
    run_step(phone, Step("terminate", CLOCK))
    # (the first request needing a session finds none, and makes one adopting the front app)
    assert asked(sim) == {"POST /wda/apps/state": 1, "GET /status": 1, "POST /session": 1,
                          "GET /wda/activeAppInfo": 1}
    in_settings(phone, sim)
    run_step(phone, Step("terminate", SETTINGS))
    # WDA's answer comes after the app exited: no state read after it
    assert asked(sim) == {"POST /wda/apps/state": 1, "POST /wda/apps/terminate": 1}
    assert sim.state()["foreground"] == "com.apple.springboard"


def test_a_terminated_app_is_known_not_running_until_an_action(sim: SimServer,
                                                               phone: Phone) -> None:
    """A teardown's terminate answers the next setup's question (the runner keeps reads from
    one teardown to the next setup, where only the harness acts)."""
    in_settings(phone, sim)
    with phone.keeping_reads():
        run_step(phone, Step("terminate", SETTINGS))
        asked(sim)
        run_step(phone, Step("terminate", SETTINGS))
        assert asked(sim) == {}, "the answer said it exited"
        run_step(phone, Step("launch", SETTINGS))
        asked(sim)
        run_step(phone, Step("terminate", SETTINGS))
        assert asked(sim)["POST /wda/apps/terminate"] == 1, "a launch since: asked and sent"
    assert sim.state()["foreground"] == "com.apple.springboard"


def test_home_on_the_home_screen_is_one_read(sim: SimServer, phone: Phone) -> None:
    run_step(phone, Step("home"))
    assert asked(sim) == {"GET /source": 1}
    in_settings(phone, sim)
    run_step(phone, Step("home"))
    assert asked(sim) == {"GET /source": 2, "POST /wda/homescreen": 1}


def test_a_swipe_asks_the_screen_size_not_a_source_for_it(sim: SimServer, phone: Phone) -> None:
    in_settings(phone, sim)
    run_step(phone, Step("swipe", "down"))
    sent = asked(sim)
    assert sent["GET /window/size"] == 1 and sent["POST /wda/dragfromtoforduration"] == 1
    assert sent["GET /source"] == 2, "before and after: the change is the proof"


def test_capture_settles_on_screenshots_and_reads_one_source(sim: SimServer,
                                                             phone: Phone) -> None:
    in_settings(phone, sim)
    evidence = capture_evidence(phone, "t")
    assert asked(sim) == {"GET /screenshot": 2, "GET /source": 1}
    assert evidence.foreground is not None and evidence.foreground.bundle_id == SETTINGS
    assert evidence.foreground.name == "Settings" and evidence.flags == frozenset()


def test_an_alarm_list_that_ends_on_screen_is_counted_without_a_drag(seeded: Any) -> None:
    alarm = {"id": 0, "hour": 7, "minute": 30, "label": "", "repeat": "", "enabled": False}
    with seeded([alarm, {**alarm, "hour": 8}]) as sim:
        phone = Phone(sim.url, effect_timeout_s=1.0)
        assert run_probe(phone, "alarms", "") == 2
        assert "POST /wda/dragfromtoforduration" not in asked(sim)


def test_the_input_probe_with_an_app_in_front_is_the_home_press(sim: SimServer,
                                                                phone: Phone) -> None:
    in_settings(phone, sim)
    seen = probe_input(phone, timeout_s=1.0)
    assert seen.reached and seen.detail == ("pressing home put the home screen in front of "
                                            "com.apple.Preferences")
    sent = asked(sim)
    assert "POST /wda/dragfromtoforduration" not in sent and "GET /screenshot" not in sent
    seen = probe_input(phone, timeout_s=1.0)  # on the home screen: the pages are the proof
    assert seen.reached and "a sideways swipe" in seen.detail
    assert asked(sim)["POST /wda/dragfromtoforduration"] == 2
