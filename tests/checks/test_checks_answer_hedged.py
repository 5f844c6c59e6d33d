"""Hedges the reading missed (red team 100) and honest answers that must still pass.

RT100-1: a bare second number beside a value of degrees or percent written once with its unit
("87% or 86", "61°, maybe 62") or beside a time ("7:05 PM or 8") passed, since a bare number was
read in the value's unit only in an answer that wrote none. RT100-2: a one-word or heading
rival outside the value's clause ("MERIDIAN (possibly Meridean)", "cardamom? lantern?",
"CARDAMOM: nutmeg") or a capitalised run after an everyday word ("Example Domain or Loaded
Page") passed. Each answer is graded by the task's own check kind on evidence alone.
"""

from __future__ import annotations

import pytest
from answer_grades import graded

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Claim, Evidence

# RT100-1: numbers -----------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "answer"), [
    ("42%", "42% or 41"), ("87%", "87%. Maybe 86"), ("87%", "87% (86?)"), ("87%", "87% or 86"),
    ("61°", "61°, maybe 62"), ("57°", "57° (58 feels-like)"), ("57°", "57°F, maybe 58"),
    ("57°", "It's 57°. Could be 58 though."), ("7:05 PM", "7:05 PM or 8"),
    ("7:05 PM", "7:05 PM or 19"), ("7:05 PM", "7:05 PM or 0705"), ("7:05 PM", "7:05 PM or 7h06"),
    # and written in ways the red team did not try
    ("87%", "87%, maybe eighty-six"), ("87%", "87% or 86ish"), ("87%", "87%/86"),
    ("87%", "87% (86 maybe)"), ("87%", "Battery 87%, earlier 86"), ("87%", "87%.86"),
    ("87%", "87%...86"), ("87%", "87%:88%"), ("87%", "87% ± 1"), ("57°", "57°, or fifty-eight"),
    ("57°", "57°F, feels like 55"), ("57°", "57°:58"), ("-3°", "-3° or minus four"),
    ("274° W", "274° W or 275"), ("274° W", "274°, maybe 275"), ("274° W", "274° W (275?)"),
    ("7:05 PM", "7:05 PM, maybe 7:06"), ("7:05 PM", "7:05 PM (or 8)"),
    ("7:05 PM", "7:05 PM or seven"), ("7:05 PM", "7:05 PM or 19h06"),
    ("256 GB", "256 GB or 512"), ("$5", "$5 or 6")])
def test_a_second_number_hedges_however_the_first_was_written(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("87%", "87%"), ("87%", "87"), ("87%", "Battery: 87%"), ("87%", "87% (not charging)"),
    ("87%", "87%, about 5 hours left"), ("87%", "It's at 87 percent."),
    ("87%", "87% as of 9:41 AM"), ("87%", "Battery 87%, in the last 24 hours"),
    ("87%", "87% (eighty-seven percent)"), ("87%", "87%, 87"), ("87%", "87%. Confident."),
    ("87%", '{"battery": "87%"}'), ("57°", "It's 57°F and partly cloudy"),
    ("57°", "57°F right now, updated 5 minutes ago"), ("57°", "57°F, wind 5 mph"),
    ("57°", "57°, updated 9:41 AM"), ("57°", "My Location: 57°"), ("-3°", "3° below zero"),
    ("-3°", "-3°, minus three"), ("274° W", "Heading 274° W (West)"),
    ("274° W", "274°W, pointing west"), ("7:05 PM", "The alarm is set for 7:05 PM."),
    ("7:05 PM", "7:05 PM (19:05)"), ("7:05 PM", "7:05 PM (1905)"), ("7:05 PM", "19h05"),
    ("7:05 PM", "7:05 PM on weekdays"), ("$6", "5 items, $6")])
def test_an_honest_number_with_words_or_other_measures_beside_it_passes(value: str,
                                                                        answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail


# RT100-2: words ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("value", "answer"), [
    ("MERIDIAN", "MERIDIAN (possibly Meridean)"), ("MERIDIAN", "MERIDIAN! Meridean?"),
    ("MERIDIAN", "MERIDIAN (or maybe Median)"), ("CARDAMOM", "CARDAMOM (possibly cardamon)"),
    ("CARDAMOM", "CARDAMOM (or NutMeg)"), ("CARDAMOM", "CARDAMOM unless it's nutmeg"),
    ("CARDAMOM", "CARDAMOM either way nutmeg"), ("CARDAMOM", "cardamom? lantern?"),
    ("CARDAMOM", "CARDAMOM! Cardamon?"), ("CARDAMOM", "Cardamom. Nutmeg."),
    ("CARDAMOM", "CARDAMOM: nutmeg"), ("CARDAMOM", "The word is CARDAMOM. Could also be Nutmeg."),
    ("CARDAMOM", "CARDAMOM (second guess: nutmeg)"),
    ("Example Domain", "Example Domain or Loaded Page"),
    ("Example Domain", "Example Domain (possibly example website)"),
    ("Example Domain", "Example Domain! example page?"),
    ("Example Domain", "Example Domain or Page Title"),
    ("Example Domain", "Example Domain or Safari Page"),
    ("Example Domain", "Example Domain or The Example"),
    # and written in ways the red team did not try
    ("CARDAMOM", "CARDAMOM - nutmeg"), ("CARDAMOM", "CARDAMOM or ЛАНТЕРН"),
    ("CARDAMOM", "CARDAMOM, CARDAM0M"), ("CARDAMOM", "CARDAMOM (nutmeg)"),
    ("CARDAMOM", "Nutmeg. CARDAMOM."), ("CARDAMOM", "CARDAMOM, but maybe nutmeg"),
    ("CARDAMOM", "CARDAMOM; alternatively nutmeg"), ("CARDAMOM", "CARDAMOM (if not, nutmeg)"),
    ("CARDAMOM", "CARDAMOM or maybe it was nutmeg"), ("MERIDIAN", "MERIDIAN MER1DIAN"),
    ("MERIDIAN", "MERIDIAN, Meirdian"), ("MERIDIAN", "MERIDIAN. Meridians?"),
    ("MERIDIAN", "meridian meridan"), ("Example Domain", "Example Domain or Example Domian"),
    ("Example Domain", "Example Domain (maybe Example Domains)"),
    ("Example Domain", "Example Domain, possibly Sample Domain"),
    ("Example Domain", "Example Domain (or Welcome)"),
    ("iPhone Air", "iPhone Air (or iPhone Aria)"),
    ("CARDAMOM", "CARDAMOM, though it might read nutmeg"),
    ("CARDAMOM", "CARDAMOM. Nutmeg is also possible."),
    ("CARDAMOM", "CARDAMOM (nutmeg likely too)"),
    ("CARDAMOM", "CARDAMOM... nutmeg"), ("CARDAMOM", "Another reading: nutmeg. CARDAMOM.")])
def test_a_rival_word_hedges_in_any_clause(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("CARDAMOM", "CARDAMOM (in big letters)"), ("CARDAMOM", "Word: CARDAMOM"),
    ("CARDAMOM", "Probe: CARDAMOM"), ("CARDAMOM", "Probe 1: CARDAMOM"),
    ("CARDAMOM", "CARDAMOM (confident)"), ("CARDAMOM", "CARDAMOM. Confirmed by zooming in."),
    ("CARDAMOM", "The word is CARDAMOM (a spice)."), ("CARDAMOM", "CARDAMOM's the word"),
    ("CARDAMOM", "The word is CARDAMOM, or at least that's how it's spelled"),
    ("CARDAMOM", "It's probably CARDAMOM"), ("CARDAMOM", "Maybe CARDAMOM"),
    ("CARDAMOM", "CARDAMOM?"), ("CARDAMOM", "Is it CARDAMOM? Yes."),
    ("CARDAMOM", "The word is CARDAMOM, written in bold or italics"),
    ("CARDAMOM", "It's CARDAMOM either way"), ("CARDAMOM", "CARDAMOM. Done."),
    ("CARDAMOM", "CARDAMOM - written in bold at the top of the page"),
    ("CARDAMOM", "The word is CARDAMOM. I didn't need to zoom or scroll."),
    ("CARDAMOM", "The text reads CARDAMOM in dark green letters"),
    ("CARDAMOM", "The answer is CARDAMOM. Nothing else is on the page."),
    ("MERIDIAN", "MERIDIAN - it's written in a serif font on a gradient background"),
    ("MERIDIAN", "MERIDIAN (the image is a bit blurry, but it's clear)"),
    ("MERIDIAN", "MERIDIAN, possibly misspelled"), ("WILLOW", "WILLOW, in yellow letters"),
    ("WILLOW", "The word WILLOW over a picture of a tree"),
    ("Example Domain", "Heading: Example Domain"),
    ("Example Domain", "Page Title: Example Domain"),
    ("Example Domain", "The H1 is Example Domain"),
    ("Example Domain", "Example Domain (example.com)"),
    ("Example Domain", "The heading of example.com is Example Domain"),
    ("Example Domain", "Example Domain\n\nThis domain is for use in illustrative examples in "
                       "documents."),
    ("Example Domain", "Example Domain, the big heading at the top"),
    ("Example Domain", "Example Domain - the page at example.com"),
    ("Example Domain", "| Heading | Example Domain |"),
    ("CARDAMOM", "CARDAMOM, most likely"), ("CARDAMOM", "It's likely CARDAMOM"),
    ("CARDAMOM", "The word is CARDAMOM, I could read it clearly"),
    ("CARDAMOM", "The word is CARDAMOM; you could zoom to confirm"),
    ("CARDAMOM", "I opened https://blolabel.ai/probe/one/ in Safari; the word is CARDAMOM"),
    ("CARDAMOM", '{"answer": "CARDAMOM", "confidence": "high"}')])
def test_an_honest_sentence_around_a_word_passes(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail


# Red team 106: honest context is no hedge -------------------------------------------------------
# A second candidate counts only where the answer offers it as an alternative (after a hedging
# word or "or" / "/", alone in its item, in brackets right after the value, in a sentence that
# opens with a hedge). RT106 found no hedge that wins a pass the value alone would not (the
# reader reads one candidate), so failing an honest answer is the worse error.

RT106_NUMBERS = [
    ("44%", "44%. I opened Settings, tapped Battery, and read the number at the top (2 taps)."),
    ("44%", "1. Opened Settings\n2. Tapped Battery\n3. Read the level: 44%"),
    ("44%", "Steps:\n1. Open Settings\n2. Tap Battery\n\nAnswer: 44%"),
    ("44%", "The battery is at 44% on this iPhone 17 Pro."),
    ("44%", "Battery level: 44% (Settings > Battery, iOS 26)"),
    ("44%", "44% - read from Settings → Battery on iOS 26.1"),
    ("44%", "The battery percentage is 44%. This took 3 steps."),
    ("44%", "44% (top of the Battery page, above the 24-hour chart)"),
    ("44%", "44% (in the last 24h)"), ("44%", '{"battery": "44%", "steps": 3}'),
    ("39°", "It's 39°F in Cupertino, CA 95014."), ("39°", "39° (Weather app, iOS 26)"),
    ("39°", "39°F. I opened the Weather app and it showed My Location first; it took 1 step."),
    ("39°", "1. Opened Weather\n2. Read My Location: 39°, Partly Cloudy"),
    ("39°", "It's 39°F and partly cloudy. The 10-day forecast shows similar weather."),
    ("355° N", "The Compass shows 355° N. I opened it in 1 step."),
    ("44%", "44% (24h)"), ("44%", "44% (10-day view)"), ("44%", "44% (10d)"),
    ("44%", "44% (5m ago)"), ("44%", "44%, cycle count 212"), ("44%", "44% (212 cycles)"),
    ("44%", "44% (20 W charger)"), ("44%", "44% (3 apps)"), ("44%", "44% (Step 2)"),
    ("44%", "44%, on 5G"), ("44%", "44%, as of Dec 6, 2026"), ("44%", "44%, as of 2026-12-06"),
    ("44%", "44%, as of 12/6/2026"), ("44%", "44%, iOS 26.2 (build 23C55)"),
    ("44%", "44%, iPhone 16e"), ("44%", "44%, Wi-Fi 6"), ("44%", "44%, Bluetooth 5.3"),
    ("44%", "44%, 2 bars of signal"), ("44%", "44%, screen on for 3h 20m"),
    ("44%", "44% (shown in 34pt bold)"), ("44%", "44% (page 1 of 2)"),
    ("44%", "44%, 1 of the 5 rows"), ("44%", "44% (#1 result)"),
    ("44%", "44%. Screenshot 1 of 1."), ("44%", "44% - double-checked 2 times"),
    ("39°", "39°F, AQI 42"), ("39°", "39°F, UV index 1"), ("39°", "39°F, UV 1 (low)"),
    ("39°", "39°F, Air Quality 42 - Good"), ("39°", "39°F, pressure 30.1 inHg"),
    ("39°", "39°F, dew point 30"), ("39°", "39°F, 1 Infinite Loop, Cupertino"),
    ("39°", "39°F, 2 alerts"), ("355° N", "355° N, 72 m elevation"),
    ("355° N", "355° N, iPhone 17 Pro"), ("355° N", "355° N, hold flat for 2 s"),
    ("44%", "The battery is at 44% on this iPhone 17 or iOS 26"),
    ("44%", "44% - it took two taps to get there."),
    ("44%", "The battery is at 44%. I tapped Settings, then Battery: two steps."),
    ("44%", "44%, shown above the three usage rows"),
    ("44%", "44% (the big number at the top; the other four percentages are per app)"),
    ("39°", "39°F - I read it from the top of the first of two location cards."),
    ("355° N", "355° N, pointing north (one of eight points: N)"),
    ("355° N", "The phone points 355° (N). Zero taps needed; Compass shows it on launch."),
    ("7:05 PM", "1. Opened Clock\n2. Tapped Alarms\n3. Read: 7:05 PM"),
    ("7:05 PM", "7:05 PM on iOS 26, 3 alarms in the list")]
RT106_WORDS = [
    ("CARDAMOM", "The word is CARDAMOM - I could see it clearly without zooming."),
    ("CARDAMOM", "CARDAMOM. The page probably uses it as a test word."),
    ("CARDAMOM", "The word written there is CARDAMOM. It may be a test page for reading."),
    ("CARDAMOM", "It says CARDAMOM - probably a placeholder test word."),
    ("Example Domain", "The heading is Example Domain. It might be the most famous "
                       "placeholder page on the web."),
    ("Example Domain", "The heading says Example Domain - the page may be used in documents "
                       "without permission."),
    ("CARDAMOM", "The word is CARDAMOM. No other words or images needed interpreting."),
    ("CARDAMOM", "The written word is CARDAMOM; the picture likely contains a different word."),
    ("CARDAMOM", "Answer: CARDAMOM\nMethod: opened the URL in Safari and read the text."),
    ("CARDAMOM", "The word is CARDAMOM, which you might recognise as a spice."),
    ("CARDAMOM", "The word is CARDAMOM. Either the page or the image might contain other "
                 "text, but this is the written word."),
    # RT106-3: the value's plural is the value
    ("MERIDIAN", "MERIDIAN - meridians are lines of longitude."),
    ("Example Domain", "The heading is Example Domain. Example domains like this are reserved "
                       "by IANA."),
    # RT106-4: a descriptive clause after a comma is prose, not a list item
    ("MERIDIAN", "The picture shows the word MERIDIAN, rendered as an image rather than text "
                 "(it's not in the accessibility tree)."),
    ("CARDAMOM", "The word is CARDAMOM, shown under a picture of a sunset."),
    ("Example Domain", "The heading is Example Domain, on a light gray background with a "
                       "white card."),
    # RT106-5: a capitalised name in a clause about something else is no second heading
    ("Example Domain", "Example Domain. Safari's Reader view wasn't needed."),
    # RT106-7: a capacity glued to its unit is no model number
    ("MWV2GCH/A", "The Model Number is MWV2GCH/A (iPhone 17 Pro, 256GB).")]


@pytest.mark.parametrize(("value", "answer"), RT106_NUMBERS + RT106_WORDS)
def test_honest_context_beside_the_value_passes(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail


@pytest.mark.parametrize(("value", "answer"), [
    # no alternative offered, and none that would pass where the phone showed another value
    ("355° N", "355°, 0.1 rad off"), ("44%", "44%, or one more")])
def test_an_alternative_not_offered_with_no_gain_passes(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("44%", "44% or 45 on iOS 26"), ("44%", "44%, unless the widget shows 45"),
    ("44%", "44%. It could be 45."), ("44%", "1. 44%\n2. 45"), ("39°", "39 (low 30, high 43)"),
    ("39°", "39° (40 in the shade)"), ("355° N", "355° N, or 354 depending"),
    ("CARDAMOM", "The word is CARDAMOM. Possibly nutmeg."),
    ("CARDAMOM", "CARDAMOM; my other guess is nutmeg"),
    ("Example Domain", "Example Domain (or Loaded Page)"),
    ("Example Domain", "Example Domain. Sample Page?"),
    ("MWV2GCH/A", "MWV2GCH/A or MWV2LL/A (256GB)")])
def test_an_alternative_offered_beside_honest_context_still_hedges(value: str,
                                                                   answer: str) -> None:
    passed, detail = graded(value, answer)
    assert not passed and "hedges" in detail, detail


# Red team 110: a remark on the value is no hedge -----------------------------------------------
# A part of the value's sentence after it that describes (opens with an article, a preposition,
# a relative word or a participle) offers nothing, whatever its words; before, each of these
# failed as soon as one of its words was missing from the everyday words (RT110-2).

RT110_REMARKS = [
    ("Example Domain", "It's Example Domain, the IANA placeholder page."),
    ("Example Domain", "The page's main heading is Example Domain, followed by a paragraph."),
    ("Example Domain", "Example Domain, followed by text"),
    ("Example Domain", "It's Example Domain, the placeholder page."),
    ("Example Domain", "The heading says Example Domain and the link says More information"),
    ("Example Domain", "Example Domain (Safari, Reader view off)"),
    ("MERIDIAN", "The word shown is MERIDIAN, in a serif typeface"),
    ("MERIDIAN", "MERIDIAN, as in the astronomy term"), ("MERIDIAN", "MERIDIAN, as in geography"),
    ("MERIDIAN", "MERIDIAN; the surrounding caption was blank"),
    ("MERIDIAN", "MERIDIAN (image text, not selectable)"),
    ("MERIDIAN", "MERIDIAN (uppercase, sans-serif)"),
    ("MERIDIAN", "MERIDIAN, in white sans-serif letters"),
    ("MERIDIAN", "MERIDIAN, centred, in a rounded box"),
    # and remarks nobody had tried
    ("MERIDIAN", "MERIDIAN, set in a grotesque"), ("MERIDIAN", "MERIDIAN, with a drop shadow"),
    ("MERIDIAN", "MERIDIAN, whose letters are outlined"),
    ("MERIDIAN", "MERIDIAN (rendered as an image)"),
    ("MERIDIAN", "MERIDIAN; its letters are teal"), ("MERIDIAN", "MERIDIAN, about 40 px tall"),
    ("MERIDIAN", "MERIDIAN, slightly blurry but legible"),
    ("MERIDIAN", "MERIDIAN, nearly filling the image"), ("MERIDIAN", "MERIDIAN, drawn in chalk"),
    ("MERIDIAN", "The word in the image is MERIDIAN, a term from astronomy and geography."),
    ("MERIDIAN", "The picture shows MERIDIAN, in a large serif typeface (possibly italic)."),
    ("Example Domain", "Example Domain, served by IANA"),
    ("Example Domain", "Example Domain, on example.com (IANA)"),
    ("Example Domain", "The heading is Example Domain, and the body text mentions IANA"),
    ("CARDAMOM", "CARDAMOM - found in the page's text."),
    ("CARDAMOM", "The word is CARDAMOM, which might be a reference to the spice."),
    ("CARDAMOM", "The written word is CARDAMOM, spelled C-A-R-D-A-M-O-M.")]


@pytest.mark.parametrize(("value", "answer"), RT110_REMARKS)
def test_a_remark_describing_the_value_passes(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail


@pytest.mark.parametrize(("value", "answer"), [
    # a value offered in the remark's place: after a hedging word, a word of a second choice,
    # a list's joint, a likeness, another name; in brackets right after the value; as a question
    ("MERIDIAN", "The word shown is MERIDIAN, or the word QUILL"),
    ("MERIDIAN", "MERIDIAN (possibly Georgia)"), ("MERIDIAN", "MERIDIAN, Quill"),
    ("Example Domain", "Example Domain, or the Loaded Page"),
    ("Example Domain", "Example Domain, possibly the Loaded Page"),
    ("Example Domain", "It's Example Domain, the Loaded Page?"),
    ("Example Domain", "Example Domain, Loaded Page"),
    ("Example Domain", "Example Domain - Loaded Page"),
    ("CARDAMOM", "CARDAMOM, maybe the nutmeg"), ("CARDAMOM", "CARDAMOM, arguably nutmeg"),
    ("CARDAMOM", "CARDAMOM, the other option being nutmeg"),
    ("CARDAMOM", "CARDAMOM, with nutmeg as a fallback"),
    ("CARDAMOM", "CARDAMOM, failing that nutmeg"), ("CARDAMOM", "CARDAMOM, as well as nutmeg"),
    ("CARDAMOM", "CARDAMOM, perhaps in fact nutmeg"), ("CARDAMOM", "CARDAMOM, read also as nutmeg"),
    ("CARDAMOM", "CARDAMOM, looking like nutmeg"), ("CARDAMOM", "CARDAMOM, spelled nutmeg by some"),
    ("CARDAMOM", "CARDAMOM, the word is nutmeg"),
    ("CARDAMOM", "The word is CARDAMOM, spelled C-A-R-D-A-M-O-N.")])
def test_a_value_offered_where_a_remark_would_be_still_hedges(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize("written", [
    "The word shown in the big picture at the top is {a}, in a {b} typeface",
    "{a}, followed by {b}", "It's {a}, the {b} page.", "with {a}, with {b}", "{a} (in {b})",
    "{a}: the {b}", "{a}, a term from astronomy and {b}", "{a}, in a serif typeface ({b})",
    "in the {a} and in the {b}", "{a}, maybe in {b}", "{a}, which might be a {b}",
    # red team 113's frames
    "{a}, with {b} as runner up", "{a}, with {b} too", "{a}, by which I mean {b}",
    "{a}, with {b} if that is wrong", "{a}, in a tie with {b}", "{a}, i.e. {b}",
    "{a} (with {b} as the other candidate)", "{a}, the heading; {b}, the heading",
    "{a}, rivalled by {b}", "{a}, with a chance of {b}"])
@pytest.mark.parametrize(("one", "other"), [
    ("lantern", "candle"), ("LANTERN", "CANDLE"), ("Example Domain", "Loaded Page"),
    ("iPhone Air", "iPhone Mini")])
def test_a_remark_holding_a_second_value_passes_for_one_value_at_most(
        written: str, one: str, other: str) -> None:
    # graded for the value it remarks with, the answer's first value is its rival: what a
    # description holds wins nothing
    answer = written.format(a=one, b=other)
    claim = Claim(status="done", answer=answer)
    passes = [grade_check(Check.make("answer_contains", value),
                          Evidence("t", 1.0, claim=claim)).passed for value in (one, other)]
    assert passes != [True, True], answer


# Red team 113: a remark that holds a candidate of the value's kind is no remark ---------------
# A remark was blanked whenever it opened like a description and held no word of a list of
# offering words; no such list is complete ("as runner up", "too", "in reserve", "if that is
# wrong"), and once blanked, the second heading went unseen (RT113-1). Now a part holding a
# candidate of the value's kind is read as any part: for a heading, a second title-cased phrase
# anywhere in its sentence; for a word, a word set apart by a capital (not an everyday one) or
# quotes. So a font, a format or a site named in capitals beside a word fails too, whatever
# the words around it: "MERIDIAN, in Georgia" says nothing "MERIDIAN, with Georgia as runner up"
# does not, but for words no list could hold.

RT113_HEDGES = [
    ("Example Domain", "Example Domain, with Loaded Page as runner up"),
    ("Example Domain", "Example Domain, with Loaded Page too"),
    ("Example Domain", "Example Domain, by which I mean Loaded Page"),
    ("Example Domain", "Example Domain, with Loaded Page if that is wrong"),
    ("Example Domain", "Example Domain, with Loaded Page a close contender"),
    ("Example Domain", "Example Domain, with Loaded Page next in line"),
    ("Example Domain", "Example Domain, with a chance of Loaded Page"),
    ("Example Domain", "Example Domain, with Loaded Page in reserve"),
    ("Example Domain", "Example Domain, with Loaded Page as well"),
    ("Example Domain", "Example Domain, with Loaded Page not ruled out"),
    ("Example Domain", "Example Domain, rivalled by Loaded Page"),
    ("Example Domain", "Example Domain, in a tie with Loaded Page"),
    ("Example Domain", "Example Domain, with the runner up being Loaded Page"),
    ("Example Domain", "Example Domain, around fifty-fifty with Loaded Page"),
    ("Example Domain", "Example Domain, near enough Loaded Page"),
    ("Example Domain", "Example Domain, against Loaded Page in a coin toss"),
    ("Example Domain", "Example Domain, with Loaded Page hedged"),
    ("Example Domain", "Example Domain, before switching to Loaded Page"),
    ("Example Domain", "Example Domain (with Loaded Page as the runner up)"),
    ("CARDAMOM", "CARDAMOM, with NUTMEG as runner up"),
    ("CARDAMOM", "CARDAMOM, with Nutmeg if that is wrong"),
    ("CARDAMOM", "CARDAMOM, by which I mean nutmeg"),
    ("CARDAMOM", "CARDAMOM, in a tie with 'nutmeg'"),
    ("lantern", "lantern, with 'candle' as runner up"),
    ("lantern", "lantern, rivalled by Candle"),
    # older: a second heading in brackets, after "i.e.", or stated flat after a semicolon
    ("Example Domain", "Example Domain (with Loaded Page as the other candidate)"),
    ("Example Domain", "Example Domain, i.e. Loaded Page"),
    ("Example Domain", "Example Domain, e.g. Loaded Page"),
    ("Example Domain", "Example Domain, the heading; Loaded Page, the heading"),
    ("Example Domain", "Example Domain: Loaded Page, the heading"),
    # the same shape, honest: a name set apart beside the value is a candidate all the same
    ("MERIDIAN", "MERIDIAN, in Georgia"), ("MERIDIAN", "MERIDIAN, possibly in Georgia"),
    ("MERIDIAN", "MERIDIAN, set in Futura"), ("MERIDIAN", "MERIDIAN (rendered as a PNG)"),
    ("CARDAMOM", "CARDAMOM - found in the page's DOM text."),
    ("Example Domain", "Example Domain (as shown in Safari's Address Bar: example.com)")]


@pytest.mark.parametrize(("value", "answer"), RT113_HEDGES)
def test_a_remark_holding_a_candidate_of_the_values_kind_hedges(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("Example Domain", "Example Domain, with a link called More information below"),
    ("Example Domain", "Example Domain, above a paragraph about IANA"),
    ("Example Domain", "It's Example Domain, the IANA placeholder page."),
    ("CARDAMOM", "CARDAMOM, with the image above showing another word"),
    ("CARDAMOM", "CARDAMOM, in black text near the top"),
    ("MERIDIAN", "MERIDIAN (the page title was Probe)"),
    ("MERIDIAN", "MERIDIAN, as shown in the image, which I zoomed into"),
    ("Example Domain", "Example Domain, loaded in Safari"),
    ("Example Domain", "Example Domain. Safari's Reader view wasn't needed.")])
def test_a_remark_holding_no_candidate_of_the_values_kind_passes(value: str, answer: str) -> None:
    # a heading's kind is a title-cased phrase ("IANA", "Safari" are none); an everyday word
    # with a capital ("I", "Probe") sets nothing apart
    passed, detail = graded(value, answer)
    assert passed, detail
