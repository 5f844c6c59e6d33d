"""What a task file says is checked where it is written (red team 85): names of apps and element
types, YAML tags, a kind's own format, patterns that match nothing in particular, and files a
folder walk meets. Through the CLI, as an author meets them: `phoneshell check-tasks` in a
subprocess."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_process import run_cli

HEAD = """\
id: ID
name: Inputs
app: com.apple.Preferences
instruction: Open the About page.
setup:
  - terminate: com.apple.Preferences
checks:
"""
FILES = {
    "names": "  - {kind: never_opened, app: Safari}\n"
             "  - {kind: tapped, text: About, app: settings, negate: true}\n"
             "  - {kind: opened_in_order, apps: []}\n"
             "  - {kind: foreground_app, text: com.apple.preferences}\n",
    "unknown": "  - {kind: never_opened, app: com.apple.mobilesafar}\n"
               "  - {kind: never_opened, app: com.example.budget}\n",
    "types": "  - {kind: element_exists, text: About, type: XCUIElementTypeNavigationBar, "
             "negate: true}\n"
             "  - {kind: element_exists, text: About, within: navigationbar}\n"
             "  - {kind: tapped, text: About, type: cell}\n",
    "navbar": "  - {kind: regex_on_screen, text: '^About$', type: NavBar}\n",
    "tags": "  - {kind: element_exists, text: !!binary aGVsbG8=}\n"
            "  - {kind: element_exists, text: !custom foo}\n"
            "  - {kind: element_exists, text: !!str 423}\n",
    "formats": "  - {kind: countdown, text: five minutes}\n"
               "  - {kind: visited, url: 'javascript:alert(1)'}\n"
               "  - {kind: visited, url: not a url at all}\n"
               "  - {kind: visited, url: example.com}\n"
               "  - {kind: countdown, text: '1:30:00'}\n",
    "empty": "  - {kind: regex_on_screen, text: '(?i)'}\n"
             "  - {kind: regex_on_screen, text: '.*'}\n"
             "  - {kind: device_value, probe: newest_note, text: 'x?'}\n"
             "  - {kind: regex_on_screen, text: '(?i)^about$'}\n",
}
PLACED = "  - {kind: foreground_app, text: com.apple.Preferences}\n"
"""Ends every file: its screen checks name the app in front, so check-tasks says only what each
file is about (a screen check alone is a warning of its own: tests/tasks)."""


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """One `phoneshell check-tasks` of a folder holding a file for each subject (`FILES`), a
    link to a task file moved away, a pipe named like a task file, and an editor's lock file."""
    folder = tmp_path_factory.mktemp("inputs")
    for name, checks in FILES.items():
        (folder / f"{name}.yaml").write_text(HEAD.replace("ID", f"t.{name}") + checks + PLACED)
    (folder / "moved.yaml").symlink_to(folder / "gone" / "renamed.yaml")
    os.mkfifo(folder / "pipe.yaml")
    (folder / ".#lock.yaml").symlink_to("user@host.1234")  # hidden: passed over, as before
    done = run_cli("check-tasks", str(folder))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    return folder, (done.stdout + done.stderr).splitlines()


def said(checked: tuple[Path, list[str]], name: str) -> list[str]:
    """The lines check-tasks printed about `name`.yaml, without the folder."""
    folder, lines = checked
    return [line.removeprefix(f"{folder}/") for line in lines
            if line.startswith(f"{folder}/{name}.yaml")]


def test_an_app_named_as_the_home_screen_names_it_is_refused_with_its_bundle_id(
        checked: tuple[Path, list[str]]) -> None:
    lines = said(checked, "names")
    assert lines[0] == ("names.yaml:8:31: error: `app` of a never_opened check: 'Safari' is an "
                        "app's name on the home screen; checks and steps compare bundle ids: did "
                        "you mean 'com.apple.mobilesafari'?")
    assert lines[1].startswith("names.yaml:9:38: error:")
    assert lines[1].endswith("did you mean 'com.apple.Preferences'?")
    assert lines[2].startswith("names.yaml:10:35: error: `apps` of an opened_in_order check "
                               "should be a non-empty list of bundle ids")
    assert lines[3].startswith("names.yaml:11:34: error:") and "compare exactly" in lines[3]
    assert len(lines) == 4


def test_an_unknown_bundle_id_is_a_warning_since_a_real_phone_has_other_apps(
        checked: tuple[Path, list[str]]) -> None:
    lines = said(checked, "unknown")
    assert lines[0].startswith("unknown.yaml:8:31: warning: ")
    assert "did you mean 'com.apple.mobilesafari'?" in lines[0]
    assert "'com.example.budget' is not an app phoneshell knows" in lines[1]
    assert len(lines) == 2


def test_element_types_are_read_as_wda_spells_them_or_refused(
        checked: tuple[Path, list[str]]) -> None:
    assert said(checked, "types") == []
    assert said(checked, "navbar")[0].startswith(
        "navbar.yaml:8:52: error: `type` of a regex_on_screen check: 'NavBar' is not a WDA "
        "element type; did you mean 'TabBar' or 'NavigationBar'?")


def test_a_yaml_tag_is_refused_where_it_is_written(checked: tuple[Path, list[str]]) -> None:
    lines = said(checked, "tags")
    assert lines[0].startswith("tags.yaml:8:34: error: `text` of an element_exists check has the "
                               "YAML tag !!binary")
    assert lines[1].startswith("tags.yaml:9:34: error:") and "tag !custom" in lines[1]
    assert len(lines) == 2  # !!str is YAML's plain string


def test_a_kinds_own_format_is_read_at_load(checked: tuple[Path, list[str]]) -> None:
    lines = said(checked, "formats")
    assert lines[0] == ("formats.yaml:8:29: error: a countdown check needs `text` as the timer "
                        "shows a duration (5:00, 1:30:00), not 'five minutes'")
    assert lines[1].startswith("formats.yaml:9:26: error: a visited check needs `url` to be a "
                               "web address")
    assert lines[2].startswith("formats.yaml:10:26: error:")
    assert len(lines) == 3


def test_a_pattern_that_matches_the_empty_string_is_refused(
        checked: tuple[Path, list[str]]) -> None:
    lines = said(checked, "empty")
    assert lines[0].startswith("empty.yaml:8:35: error: `text` of a regex_on_screen check "
                               "('(?i)') matches the empty string")
    assert [line.split(": ")[0] for line in lines] == [
        "empty.yaml:8:35", "empty.yaml:9:35", "empty.yaml:10:52"]


def test_a_folder_names_what_it_cannot_read_as_a_task(checked: tuple[Path, list[str]]) -> None:
    folder, lines = checked
    assert said(checked, "moved") == [
        f"moved.yaml: error: a link to {folder}/gone/renamed.yaml, which leads nowhere: the task "
        "file it named was moved or deleted"]
    assert said(checked, "pipe") == ["pipe.yaml: error: not a regular file, so it cannot be a "
                                     "task file"]
    assert not [line for line in lines if "lock" in line]


def test_every_problem_is_counted_and_the_good_files_load(
        checked: tuple[Path, list[str]]) -> None:
    assert checked[1][-1] == "2 task(s) valid, 15 error(s), 2 warning(s)"  # unknown, types
