"""Answers that passed for two values (red team 110's leftovers): a hedge or a second answer in
a sentence of its own ("The word is cardamom. The answer might also be nutmeg.", "The word is
lantern. The heading is candle."), a value said of another part of the screen ("The heading is
Example Domain. The tab says Loaded Page."), a value named as a preposition's object with no
comma ("lantern in candle"). Each pair test grades an answer for both of two values of the
suite's word-answer tasks (a task's value and the first of its `others`, its page's other word;
the heading beside a probe word) and wants it to pass for one at most. The pairs are graded by
`answer_contains` without `others` (the rules alone, as an unseen task would be graded) and by
the suite's own checks, `others` and all."""

from __future__ import annotations

import pytest
from answer_grades import graded

from phoneshell.checks import Check, grade_check
from phoneshell.evidence import Claim, Evidence
from phoneshell.tasks import Task

# a later sentence that hedges offers the value it hedges with
LATER_HEDGE = [
    "The word is {a}. The answer might also be {b}.", "{a}. The word could also be {b}.",
    "The heading is {a}. Or perhaps {b}.", "{a}. It could be {b}.", "{a}. Could be {b} though.",
    "{a}. {b} could also be it.", "{a}. {b} might be the answer.", "{a}. Possibly {b}.",
    "{a}. Perhaps the word is {b}.", "{a}. Then again, {b}.", "{a}. {b} is another reading.",
    "The word is {a}. The real answer may be {b}.", "{a}. If not, {b}.", "{a}. Maybe it's {b}.",
    "The word is {a}. It might also read {b}.", "{a}. The heading may well be {b}.",
    "{a}! Or was it {b}?", "{a}. Either that or {b}.", "{a}. Unless it's {b}.",
    "{a}. Some might read it as {b}.", "{a}. It may actually say {b}."]
# a sentence that names another value as the answer's thing offers it
STATEMENT = [
    "The word is {a}. The heading is {b}.", "The answer is {a}. The answer is {b}.",
    "{a}. Answer: {b}", "{a}. The word is {b}.", "The word is {a}; the answer is {b}",
    "The word is {a} and the answer is {b}", "Word: {a}. Heading: {b}.",
    "{a}. The word under it is {b}.", "The heading reads {a}. The heading reads {b}.",
    "The word in the picture is {a}. The word in the text is {b}.",
    "The word is {a}. Final answer: {b}", "The written word is {a}. The picture's word is {b}.",
    "{a}\nAnswer: {b}", "My answer is {a}. My final answer is {b}.",
    "I'd say {a}. I'd also say {b}.", "{a} is the word. {b} is the word.",
    "{a} is the answer, and so is {b}.",
    "The heading text is {a}. The heading text is {b}."]
# a value said of another part of the screen: a remark beside the answer, never a second one
ATTRIBUTION = [
    "The heading is {a}. The tab says {b}.", "The heading is {a}. Below it: the {b}",
    "{a}. The tab title is {b}.", "{a}. The link says {b}.",
    "The heading says {a} and the link says {b}", "{a}. The caption reads {b}.",
    "The tab says {b}. The heading is {a}.", "The caption says {b}; the word is {a}.",
    "The tab says {a}. The page shows {b}.", "Word: {a}. Caption: {b}.",
    "The word is {a}. Below it, the page text reads {b}.",
    "The picture shows {a}. The text under it says {b}.",
    "The picture says {a} while the heading says {b}.", "I see {a}. I also see {b}.",
    "{a} is written in the picture, {b} is written in the heading.",
    "{a} is what the picture shows. {b} is what the heading shows.",
    "{a} is shown. So is {b}.", "The {a} image shows {b}", "The {a} on the page has {b}",
    "It says {a}. It also says {b}."]
# a value named as a preposition's object remarks on what its part named first
OBJECT = [
    "{a} in {b}", "{a} on {b}", "{a} with {b}", "{a} near {b}", "{a} in a {b} typeface",
    "{a} beside the {b}", "The word is {a} in {b}", "{a} written in {b}", "{a} above {b}",
    "{a} next to {b}", "{a} as {b}", "{a} like {b}", "{a} over the {b}",
    "The picture shows {a} on a {b} background", "{a} in the {b} font", "{a} is above {b}",
    "{a} rather than {b}", "{a} not {b}", "{a}, written over {b}"]


def _passes(check: Check, answer: str) -> bool:
    return grade_check(check, Evidence("t", 1.0, claim=Claim(status="done",
                                                             answer=answer))).passed


def _word_checks(suite: dict[str, Task]) -> dict[str, Check]:
    """The suite's word-answer checks, by value."""
    return {c.text: c for t in suite.values() for c in t.checks if c.kind == "answer_contains"}


def _pairs(checks: dict[str, Check]) -> list[tuple[str, str]]:
    """Each value with the first of its `others` (a probe page's other word), and the heading
    with each probe word; as written and in small letters."""
    pairs = [(v, c.list_of("others")[0]) for v, c in checks.items() if c.list_of("others")]
    pairs += [(v, w) for v, c in checks.items() if not c.list_of("others")
              for w in checks if w != v]
    return pairs + [(a.lower(), b.lower()) for a, b in pairs]


@pytest.mark.parametrize("written", LATER_HEDGE + STATEMENT + ATTRIBUTION + OBJECT)
def test_an_answer_with_two_values_passes_for_one_at_most(suite: dict[str, Task],
                                                          written: str) -> None:
    checks = _word_checks(suite)
    for a, b in _pairs(checks):
        answer = written.format(a=a, b=b)
        plain = [_passes(Check.make("answer_contains", v), answer) for v in (a, b)]
        assert plain != [True, True], answer
        if a in checks and b in checks:  # graded as the suite grades it
            assert [_passes(checks[v], answer) for v in (a, b)] != [True, True], answer


@pytest.mark.parametrize("written", LATER_HEDGE + STATEMENT)
def test_a_second_value_in_a_sentence_of_its_own_hedges(written: str) -> None:
    for a, b in [("CARDAMOM", "nutmeg"), ("cardamom", "nutmeg"), ("MERIDIAN", "quill"),
                 ("Example Domain", "Sample Page")]:
        answer = written.format(a=a, b=b)
        passed, detail = graded(a, answer)
        assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("first", "other", "answer"), [
    ("Example Domain", "Loaded Page", "The heading is Example Domain. The tab says Loaded Page."),
    ("Example Domain", "Loaded Page", "The tab says Loaded Page. The heading is Example Domain."),
    ("Example Domain", "Loaded Page", "Example Domain. The tab says Loaded Page."),
    ("lantern", "candle", "The heading is lantern. Below it: the candle"),
    ("lantern", "candle", "The tab says lantern. The page shows candle."),
    ("MERIDIAN", "quill", "Word: MERIDIAN. Caption: the quill."),
    ("cardamom", "nutmeg", "cardamom in nutmeg"), ("cardamom", "nutmeg", "cardamom near nutmeg")])
def test_a_value_said_of_another_part_is_a_remark_never_the_answer(first: str, other: str,
                                                                   answer: str) -> None:
    # decided: what another part of the screen shows is a remark where the answer names its
    # value (an agent may say it); graded for that other value, the first value given is the
    # answer, so it fails
    passed, detail = graded(first, answer)
    assert passed, detail
    passed, detail = graded(other, answer)
    assert not passed and "hedges" in detail, detail


@pytest.mark.parametrize(("value", "answer"), [
    ("Example Domain", "The heading is Example Domain. The page title in the tab is also "
                       "Example Domain."),
    ("Example Domain", "The heading is Example Domain. Below it is a paragraph about "
                       "documentation examples."),
    ("Example Domain", "The heading reads Example Domain. The link at the bottom says Learn "
                       "more."),
    ("Example Domain", "The page loaded. The heading is Example Domain."),
    ("Example Domain", "I opened Safari and typed example.com. The main heading says Example "
                       "Domain."),
    ("Example Domain", "Example Domain is the heading. The text below it explains the domain "
                       "is reserved."),
    ("Example Domain", "The answer is Example Domain. The page is served by IANA."),
    ("Example Domain", "Example Domain. The address bar shows example.com."),
    ("Example Domain", "Example Domain. The tab title matches."),
    ("Example Domain", "The heading is Example Domain. It is an h1 element."),
    ("Example Domain", "Safari shows example.com. Its heading is Example Domain."),
    ("Example Domain", "The heading is Example Domain. The link says Learn more and points to "
                       "iana.org."),
    ("MERIDIAN", "The word in the picture is MERIDIAN. The page title is blolabel probe."),
    ("MERIDIAN", "MERIDIAN. The picture has a dark background."),
    ("MERIDIAN", "The picture shows MERIDIAN. It is white text on a dark background."),
    ("MERIDIAN", "The word is MERIDIAN. The caption below the image is empty."),
    ("MERIDIAN", "I read MERIDIAN in the picture. The page also has a heading with a different "
                 "word."),
    ("MERIDIAN", "The word is MERIDIAN. The font might be Futura."),
    ("MERIDIAN", "Answer: MERIDIAN. Method: screenshot, then zoom."),
    ("MERIDIAN", "It's MERIDIAN. The word is written in white."),
    ("MERIDIAN", "Word: MERIDIAN\nConfidence: high\nSource: image"),
    ("MERIDIAN", "The word is MERIDIAN. The answer is based on the picture, not the page text."),
    ("MERIDIAN", "MERIDIAN. The heading under the picture is a different word, which I was not "
                 "asked for."),
    ("MERIDIAN", "The word in the image is MERIDIAN. The image itself is a photo of a "
                 "coastline."),
    ("MERIDIAN", "There is a photo on the page with MERIDIAN written across it."),
    ("MERIDIAN", "MERIDIAN. It's a geography term for a line of longitude."),
    ("MERIDIAN", "Looking at the picture on the probe page, the word is MERIDIAN."),
    ("MERIDIAN", "On the probe page, in the picture: MERIDIAN."),
    ("MERIDIAN", "I see MERIDIAN in the picture. I also see a lighthouse."),
    ("CARDAMOM", "The word is CARDAMOM. There is also an image on the page, but its word can "
                 "only be read visually.")])
def test_honest_sentences_about_other_parts_pass(value: str, answer: str) -> None:
    passed, detail = graded(value, answer)
    assert passed, detail
