"""`delete_created` on the simulated iPhone: it deletes what the count grew by, newest first, and
never what was there before the agent."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from phoneshell.device import Phone, run_step, with_counts
from phoneshell.device.cleanup import DELETERS
from phoneshell.device.probes import ProbeError, run_probe, run_rows
from phoneshell.errors import StepError
from phoneshell.sim import SimServer
from phoneshell.sim.apps.reminders import SEED
from phoneshell.tasks import Step
from phoneshell.tasks.steps import DELETABLE

NOTES, REMINDERS, SAFARI = "com.apple.mobilenotes", "com.apple.reminders", \
    "com.apple.mobilesafari"
TITLE = "phoneshell benchmark"


def step(probe: str, text: str, before: int | None, after: int | None,
         rows: tuple[str, ...] | None = None) -> Step:
    """The step as the runner binds it: the counts, and the rows of the one before if known."""
    bare = Step("delete_created", text, options=(("probe", probe), ("text", text)),
                file="t.yaml", line=9)
    return with_counts(bare, {(probe, text): (before, after)},
                       {(probe, text): rows} if rows is not None else None)


@contextmanager
def phone_with(tmp_path: Path, stores: dict[str, Any]) -> Iterator[tuple[SimServer, Phone]]:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"version": 1, "stores": stores}))
    with SimServer(state_file=path) as sim:
        yield sim, Phone(sim.url, effect_timeout_s=1.0)


def notes(*texts: str) -> dict[str, Any]:
    """Notes' store: the first text is the most recently edited."""
    return {NOTES: {"notes": [{"id": i, "text": t, "modified": 100 - i}
                              for i, t in enumerate(texts, 1)],
                    "deleted": [], "next_id": len(texts) + 1, "clock": 100}}


def kept(sim: SimServer, app: str, key: str) -> list[Any]:
    return list(sim.state()["stores"][app][key])  # type: ignore[index]


def test_the_newest_notes_go_and_the_one_there_before_stays(tmp_path: Path) -> None:
    made = notes(f"{TITLE}\nmade by the agent", f"{TITLE}\nmade first", "Groceries",
                 f"{TITLE}\nthere before")
    with phone_with(tmp_path, made) as (sim, phone):
        run_step(phone, step("notes_titled", TITLE, 1, 3))
        left = [n["text"] for n in kept(sim, NOTES, "notes")]
    assert left == ["Groceries", f"{TITLE}\nthere before"]


def test_nothing_is_sent_when_the_count_did_not_grow_or_was_never_taken(tmp_path: Path) -> None:
    with phone_with(tmp_path, notes(f"{TITLE}\nx", f"{TITLE}\ny")) as (sim, phone):
        sim.latency.tally.take()
        run_step(phone, step("notes_titled", TITLE, 2, 2))
        run_step(phone, step("notes_titled", TITLE, None, None))
        run_step(phone, step("notes_titled", TITLE, 3, 1))
        assert sim.latency.tally.take() == {}
        assert len(kept(sim, NOTES, "notes")) == 2


def test_without_a_count_after_capture_it_counts_again(tmp_path: Path) -> None:
    with phone_with(tmp_path, notes("anchor", "anchor point", "Trip")) as (sim, phone):
        run_step(phone, step("notes_containing", "anchor", 1, None))
        assert [n["text"] for n in kept(sim, NOTES, "notes")] == ["anchor point", "Trip"]


def test_the_newest_reminder_is_the_last_and_only_it_goes(tmp_path: Path) -> None:
    parcel = {"title": "collect parcel", "list": "Reminders", "done": False,
              "flagged": False, "due": ""}
    store = {REMINDERS: {"reminders": [*SEED, {**parcel, "due": "Friday"}, parcel]}}
    with phone_with(tmp_path, store) as (sim, phone):
        run_step(phone, step("reminders_titled", "collect parcel", 1, 2))
        left = kept(sim, REMINDERS, "reminders")
    assert len(left) == len(SEED) + 1 and left[-1]["due"] == "Friday"


def test_the_newest_tabs_are_closed(tmp_path: Path) -> None:
    urls = ["https://www.apple.com/", "https://example.com/", "https://blolabel.ai/probe/one/"]
    tabs = [{"url": u, "title": u, "back": [], "forward": []} for u in urls]
    with phone_with(tmp_path, {SAFARI: {"tabs": tabs, "active": 2}}) as (sim, phone):
        run_step(phone, step("safari_tabs", "", 1, 3))
        assert [t["url"] for t in kept(sim, SAFARI, "tabs")] == urls[:1]


def test_the_tabs_count_left_up_is_where_the_closing_starts(tmp_path: Path) -> None:
    urls = [f"https://blolabel.ai/probe/{n}/" for n in ("one", "two", "three", "four", "five",
                                                         "six", "seven", "eight")]
    tabs = [{"url": u, "title": u, "back": [], "forward": []} for u in urls]
    with phone_with(tmp_path, {SAFARI: {"tabs": tabs, "active": 7}}) as (sim, phone):
        assert run_probe(phone, "safari_tabs", "", leave_open=True) == 8
        routes(sim)
        run_step(phone, step("safari_tabs", "", 5, 8))
        sent = routes(sim)  # the overview opened on the newest tab: no launch, no scrolling
        assert "POST /wda/apps/launch" not in sent
        assert "POST /wda/dragfromtoforduration" not in sent
        assert [t["url"] for t in kept(sim, SAFARI, "tabs")] == urls[:5]
        assert phone.app_state(SAFARI) == 1


def test_a_count_that_grew_more_than_what_is_there_fails_with_the_step(tmp_path: Path) -> None:
    with phone_with(tmp_path, notes(f"{TITLE}\nonly one")) as (_, phone), \
            pytest.raises(StepError, match=r"delete_created .*\(t\.yaml:9\): no result row"):
        run_step(phone, step("notes_titled", TITLE, 0, 2))


def test_every_deletable_probe_has_its_deleter() -> None:
    assert sorted(DELETERS.names()) == sorted(DELETABLE)


def routes(sim: SimServer) -> set[str]:
    """The routes the phone was sent since the last look (any phase)."""
    return {route for counts in sim.latency.tally.take().values() for route in counts}


def test_a_count_left_up_is_where_the_deletion_starts(tmp_path: Path) -> None:
    made = notes(f"{TITLE}\nmade by the agent", f"{TITLE}\nthere before")
    with phone_with(tmp_path, made) as (sim, phone):
        assert run_probe(phone, "notes_titled", TITLE, leave_open=True) == 2
        assert phone.app_state(NOTES) == 4  # in front, its search still up
        routes(sim)
        run_step(phone, step("notes_titled", TITLE, 1, 2))
        sent = routes(sim)
        assert "POST /wda/apps/launch" not in sent and "POST /wda/keys" not in sent
        assert [n["text"] for n in kept(sim, NOTES, "notes")] == [f"{TITLE}\nthere before"]
        assert phone.app_state(NOTES) == 1


def test_a_count_left_up_with_nothing_to_delete_is_closed(tmp_path: Path) -> None:
    with phone_with(tmp_path, notes(f"{TITLE}\nthere before")) as (sim, phone):
        assert run_probe(phone, "notes_titled", TITLE, leave_open=True) == 1
        routes(sim)
        run_step(phone, step("notes_titled", TITLE, 1, 1))
        assert routes(sim) == {"POST /wda/apps/terminate", "POST /wda/apps/state"}
        assert phone.app_state(NOTES) == 1 and len(kept(sim, NOTES, "notes")) == 1


@pytest.mark.parametrize("between", ["a tap through the phone", "another client going home"])
def test_anything_between_sends_the_deletion_back_to_a_fresh_search(tmp_path: Path,
                                                                    between: str) -> None:
    made = notes(f"{TITLE}\nmade by the agent", "Groceries", f"{TITLE}\nthere before")
    with phone_with(tmp_path, made) as (sim, phone):
        run_probe(phone, "notes_titled", TITLE, leave_open=True)
        if between == "a tap through the phone":
            phone.tap(200, 120)  # whatever it did, the search may be gone
        else:  # unseen by this phone object: the fresh read at the start shows it
            Phone(sim.url).home()
        routes(sim)
        run_step(phone, step("notes_titled", TITLE, 1, 2))
        assert "POST /wda/apps/launch" in routes(sim)
        assert [n["text"] for n in kept(sim, NOTES, "notes")] == [
            "Groceries", f"{TITLE}\nthere before"]


def test_without_leave_open_a_count_stops_its_app(tmp_path: Path) -> None:
    with phone_with(tmp_path, notes(f"{TITLE}\nx")) as (_, phone):
        assert run_probe(phone, "notes_titled", TITLE) == 1
        assert phone.app_state(NOTES) == 1 and phone.left() == ""


def counted_rows(tmp_path: Path, stores: dict[str, Any], probe: str, text: str
                 ) -> tuple[str, ...]:
    """The rows a count took on a phone holding `stores` (the count before the agent)."""
    (tmp_path / "before").mkdir()
    with phone_with(tmp_path / "before", stores) as (_, phone):
        return run_rows(phone, probe, text)


def test_rows_there_before_are_never_deleted_even_when_edited_after(tmp_path: Path) -> None:
    there = notes(f"{TITLE}\nthere before", "Groceries")
    rows = counted_rows(tmp_path, there, "notes_titled", TITLE)
    assert rows == (f"{TITLE} | 9:41 AM  there before",)
    # The agent made a note with the title, then edited the one that was there: Notes now
    # lists that one first, where "the newest" would have been deleted.
    after = notes(f"{TITLE}\nthere before, edited", f"{TITLE}\nmade by the agent", "Groceries")
    with phone_with(tmp_path, after) as (sim, phone), \
            pytest.raises(StepError, match=r"there before the agent, is no longer shown as it "
                                           r"was \(edited or gone\).*none deleted"):
        run_step(phone, step("notes_titled", TITLE, 1, 2, rows))
    left = [n["text"] for n in kept(sim, NOTES, "notes")]
    assert left == [f"{TITLE}\nthere before, edited", f"{TITLE}\nmade by the agent", "Groceries"]


def test_with_the_rows_known_only_the_new_ones_go_whatever_their_order(tmp_path: Path) -> None:
    there = notes(f"{TITLE}\nthere before", "Groceries")
    rows = counted_rows(tmp_path, there, "notes_titled", TITLE)
    # the note there before was opened last (its text unchanged): it is listed first
    after = notes(f"{TITLE}\nthere before", f"{TITLE}\nmade by the agent", "Groceries")
    with phone_with(tmp_path, after) as (sim, phone):
        run_step(phone, step("notes_titled", TITLE, 1, 2, rows))
        assert [n["text"] for n in kept(sim, NOTES, "notes")] == [f"{TITLE}\nthere before",
                                                                  "Groceries"]


@pytest.mark.parametrize("probe", ["notes_titled", "notes_containing"])
def test_a_note_titled_like_the_search_field_does_not_steer_the_count(tmp_path: Path,
                                                                       probe: str) -> None:
    """An earlier finish typed "Search" into a new note: the count still searches, by the
    field's type, and the deletion after it still deletes only the agent's note."""
    made = notes(f"{TITLE}\nmade by the agent", "Search", f"{TITLE}\nthere before")
    with phone_with(tmp_path, made) as (sim, phone):
        assert run_probe(phone, probe, TITLE) == 2
        run_step(phone, step(probe, TITLE, 1, 2))
        assert [n["text"] for n in kept(sim, NOTES, "notes")] == [
            "Search", f"{TITLE}\nthere before"]


def test_a_count_buried_beyond_counting_is_dug_out_down_to_the_rows_before(
        tmp_path: Path) -> None:
    # More notes with the title than a screen of results shows: uncountable, until the newest
    # rows shown more often than they were counted before go, one per search; then the rest
    # beyond the count before go as usual. The note there before stays.
    there = notes("Groceries", f"{TITLE}\nthere before")
    rows = counted_rows(tmp_path, there, "notes_titled", TITLE)
    buried = notes(*(f"{TITLE}\nmade by the agent" for _ in range(9)), "Groceries",
                   f"{TITLE}\nthere before")
    with phone_with(tmp_path, buried) as (sim, phone):
        with pytest.raises(ProbeError, match="than one screen shows"):
            run_probe(phone, "notes_titled", TITLE)
        run_step(phone, step("notes_titled", TITLE, 1, None, rows))
        assert [n["text"] for n in kept(sim, NOTES, "notes")] == ["Groceries",
                                                                  f"{TITLE}\nthere before"]


def test_a_buried_count_whose_rows_on_screen_were_all_there_before_is_left(
        tmp_path: Path) -> None:
    # what buried it is not on screen to tell from what was there: nothing goes
    there = notes(*(f"{TITLE}\nthere {n}" for n in range(9)))
    with phone_with(tmp_path, there) as (sim, phone), \
            pytest.raises(StepError, match="each one shown was there before"):
        run_step(phone, step("notes_titled", TITLE, 9, None,
                             tuple(f"{TITLE} | 9:41 AM  there {n}" for n in range(9))))
    assert len(kept(sim, NOTES, "notes")) == 9


def test_a_run_of_searches_in_one_app_shares_its_launch(tmp_path: Path) -> None:
    # each count leaves its results up for the next, which clears the field and types its own
    with phone_with(tmp_path, notes("anchor", f"{TITLE}\nx", "Trip")) as (sim, phone):
        sim.latency.tally.take()
        assert run_probe(phone, "notes_titled", TITLE, leave_open=True) == 1
        assert run_probe(phone, "notes_containing", "anchor", leave_open=True) == 1
        assert run_probe(phone, "notes_containing", "Trip") == 1
        launches = sum(count.count for routes in sim.latency.tally.take().values()
                       for route, count in routes.items() if route == "POST /wda/apps/launch")
        assert launches == 1


def test_a_title_counts_with_its_first_letter_capitalised_and_not_in_other_case(
        tmp_path: Path) -> None:
    """iOS capitalises a note's first letter by itself; capitals anywhere else are the agent's."""
    rows = [{"title": t, "list": "Reminders", "done": False, "flagged": False, "due": ""}
            for t in ("Collect parcel", "COLLECT PARCEL", "collect Parcel", " collect parcel ")]
    with phone_with(tmp_path, {REMINDERS: {"reminders": [*SEED, *rows]}}) as (_, phone):
        assert run_probe(phone, "reminders_titled", "collect parcel") == 2
    with phone_with(tmp_path, notes("PHONESHELL BENCHMARK", "Phoneshell benchmark")) as (_, phone):
        assert run_probe(phone, "notes_titled", TITLE) == 1
