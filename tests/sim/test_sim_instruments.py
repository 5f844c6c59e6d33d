"""Compass and Measure: a fixed, configurable heading; the camera view and the Level."""

from __future__ import annotations

import json

import pytest
import wda

from phoneshell.sim import SimServer
from phoneshell.sim.apps.compass import describe

COMPASS = "com.apple.compass"
MEASURE = "com.apple.measure"


def test_compass_shows_the_heading_and_position(client):
    compass = client.session(COMPASS)
    assert compass(className="StaticText", label="274° W").exists
    assert compass(label="Cupertino, CA").exists and compass(label="236 ft Elevation").exists


def test_the_heading_is_configurable_through_the_store(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 1, "stores": {COMPASS: {"heading": 92}}}))
    with SimServer(state_file=path) as sim:
        compass = wda.Client(sim.url).session(COMPASS)
        assert compass(className="StaticText", label="92° E").exists


@pytest.mark.parametrize(("degrees", "text"), [(0, "0° N"), (22, "22° N"), (23, "23° NE"),
                                               (180, "180° S"), (274, "274° W"),
                                               (338, "338° N"), (315, "315° NW")])
def test_heading_names_the_nearest_point(degrees, text):
    assert describe(degrees) == text


def test_measure_waits_for_the_phone_to_move(client):
    measure = client.session(MEASURE)
    assert measure(label="Move iPhone to start").exists
    add = measure(name="Add a point").get(timeout=1)
    assert add.enabled is False
    add.click()
    assert measure(label="Move iPhone to start").exists


def test_measure_has_a_level_tab(client):
    measure = client.session(MEASURE)
    measure(className="Button", label="Level").click()
    assert measure(className="StaticText", label="0°").exists
    assert not measure(label="Move iPhone to start").exists
    measure(className="Button", label="Measure").click()
    assert measure(label="Move iPhone to start").exists
