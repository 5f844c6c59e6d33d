"""The WDA settings the bridge offers are the ones the simulator applies as a phone does; the
ones it cannot model, and screenshotQuality (JPEG screenshots for the rest of the run: WDA's
settings are global), are refused before they reach WDA. Through facebook-wda."""

from __future__ import annotations

import pytest
import wda
from bridge_rig import Rig

from phoneshell.sim import SimServer
from phoneshell.xcui import SETTINGS


@pytest.mark.parametrize("setting", [{"screenshotQuality": 1}, {"useFirstMatch": True},
                                     {"boundElementsByIndex": True},
                                     {"limitXpathContextScope": False}])
def test_a_setting_not_modelled_is_refused(rig: Rig, sim: SimServer, setting) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    with pytest.raises(wda.WDARequestError, match="only these may be changed"):
        session.appium_settings(setting)
    (name,) = setting
    assert wda.Client(sim.url).session().appium_settings()[name] != setting[name]


def test_compact_responses_pass_and_take_effect(rig: Rig) -> None:
    session = wda.Client(rig.bridge.url).session(SETTINGS)
    session.appium_settings({"shouldUseCompactResponses": False,
                             "elementResponseAttributes": "label"})
    found = session.http.post(f"/session/{session.session_id}/element", data={
        "using": "id", "value": "com.apple.settings.general"}).value
    assert found["label"] == "General"
