"""The `drag-hiccups=N` fault: a real phone's WDA fails a gesture now and then, as it does a
read (`hiccups`): the next N drags answer WDA's error and move nothing, then it is off."""

from __future__ import annotations

import pytest
import wda

from phoneshell.errors import PhoneshellError
from phoneshell.sim import SimServer

SETTINGS = "com.apple.Preferences"


def test_drag_hiccups_fail_the_next_drags_then_switch_themselves_off(sim, client, raw):
    session = client.session()
    session.app_activate(SETTINGS)
    before = client.source()
    sim.fault_on("drag-hiccups=2")
    assert sim.faults.specs() == ["drag-hiccups=2"]
    client.source()  # reads are not drags: none spent
    for _ in range(2):
        with pytest.raises(wda.WDAError) as refused:
            session.swipe(201, 700, 201, 300, 0.2)
        assert refused.value.value["error"] == "unknown error"
        assert refused.value.value["message"].startswith("Failed to synthesize event")
    assert client.source() == before  # nothing moved
    assert sim.faults.specs() == [] and not sim.faults.on("drag-hiccups")
    session.swipe(201, 700, 201, 300, 0.2)
    assert client.source() != before


@pytest.mark.parametrize("spec", ["drag-hiccups", "drag-hiccups=0", "drag-hiccups=1001"])
def test_a_bad_count_is_a_user_error(spec):
    with pytest.raises(PhoneshellError):
        SimServer(faults=[spec])
