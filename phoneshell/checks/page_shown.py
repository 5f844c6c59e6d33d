"""`page_shown`: the page Safari shows at the end, read from its address field. Pure.

A page's words are not the page: example.net and example.org show example.com's "Example
Domain", and a search's results and the article a result opens both say the query (red team
93). `visited` holds for any page loaded during the turn, not the one left showing. What names
the page in front is Safari's address field, a TextField named `TabBarItemTitle` (labelled
Address) outside the web content. When it is not being edited, Safari writes there a
left-to-right mark (U+200E) and then the page's host (never a path: "\\u200eexample.com"), or,
for a search engine's results, the search's words; with no page it shows its placeholder. While
it is being edited its value is the agent's typing, which must never count: so the check fails,
and proves no absence, when a keyboard is up, when the field shows no mark, or when the agent
sent the phone a U+200E (WDA's keys route types any character, and the log keeps every text the
agent sent), or a text the log had to cut, whose unlogged part may hold one.
The host is read as Safari writes one (`address_bar.shown_host`), never decoded: a field showing
`example%2Ecom` or `example.com.` shows a search's words (red team 96). Whether Safari writes the
mark before a search's words is not known (the one dump shows a host): the words are read with
or without it, unless the agent typed them into the field and never sent them (RT96-3).
"""

from __future__ import annotations

import re

from phoneshell.address_bar import shown_host
from phoneshell.checks.addresses import Address, parse
from phoneshell.checks.how import ADDRESS_NAMES
from phoneshell.checks.implied import Same
from phoneshell.checks.kind import Check, Finding, check_kind
from phoneshell.checks.path import unwatched
from phoneshell.checks.typed_texts import typed_ends
from phoneshell.evidence import Evidence
from phoneshell.params import Param, ParamValue
from phoneshell.spelling import folded
from phoneshell.tree import Element, PageSource, shorten
from phoneshell.xcui import SAFARI

LTR_MARK = "\u200e"
"""What Safari writes before the page's host or a search's words in the address field (iOS 26
dump: value "\\u200esquoosh.app"), and no typing of a person's puts there."""
CUT = re.compile(r"… \[[\d,]+ characters, sha256 [0-9a-f]{16}\]$")
"""The end the audit log gives a text it shortened (`records.shortened`): its tail is unlogged."""
HOST = Param("url", "str", "The site in front, as the address field names it: a host, e.g. "
                           "example.com (scheme, `www.` and case do not matter). The field "
                           "shows no path, so a path is refused. Give this or `text`.")
WORDS = Param("text", "str", "Instead of `url`: the words of the web search whose results are "
                             "in front, e.g. `iso 8601 date format` (compared ignoring case "
                             "and runs of spaces).")


def _one_page(values: dict[str, ParamValue]) -> tuple[str, str] | None:
    """`url` or `text`, one of them, and a `url` that is a host alone, as (field, problem)."""
    url, words = str(values.get("url") or ""), str(values.get("text") or "")
    if bool(url) == bool(words):
        return "url", "needs `url` (a site) or `text` (a search's words), one of them"
    if not url:
        return None
    got = parse(url)
    if got is None or got.path or got.query:
        return "url", (f"needs `url` to be a host, as Safari's address field shows a page "
                       f"(example.com), not {url!r}: the field shows no path; check the page "
                       "loaded with `visited`")
    return None


def address_fields(page: PageSource) -> list[Element]:
    """Safari's address fields in a source, hidden ones too (a sheet or a link's menu over the
    page hides the bar, which still names the page beneath); never a field of the page's own
    (a form's Address field sits in the WebView)."""
    return [e for e in page.elements[1:] if e.short_type == "TextField"
            and e.name in ADDRESS_NAMES and not page.inside(e, "WebView")]


def _agents_mark(evidence: Evidence) -> str:
    """Why the agent's own typing may be what the field shows ("" when it cannot be): a text
    the agent sent held a U+200E, or was cut in the log, or the log is not the whole turn."""
    doubt = unwatched(evidence)
    if doubt:
        return f"what the agent typed is not known: {doubt}"
    for action in evidence.agent_actions():
        for value in action.params.values():
            if not isinstance(value, str):
                continue
            if LTR_MARK in value:
                return (f"the agent sent a left-to-right mark (U+200E) in {action.kind} "
                        f"{shorten(value)!r}: the mark Safari writes before a page's address")
            if CUT.search(value):
                return (f"the log cut a text the agent sent ({action.kind}, "
                        f"{shorten(value)!r}), whose unlogged part may hold a U+200E")
    return ""


def _wanted(check: Check) -> tuple[Address | None, str]:
    """The site asked for (None for a search) and how a detail names what was wanted."""
    url = check.text_of("url")
    if url:
        site = parse(url)
        return site, f"a page of {site.host if site else url}"
    return None, f"the results of a search for {check.text!r}"


def _shows(site: Address | None, check: Check, shown: str) -> bool:
    """Whether the field's text (after the mark) names the page wanted: a search's words, or a
    host as Safari writes one (`address_bar.shown_host`: lower case, no escape, no trailing
    dot; never decoded: `example%2Ecom` is a search's words, not example.com)."""
    if site is None:
        return folded(shown) == folded(check.text) != ""
    host = shown_host(shown)
    return host is not None and host.removeprefix("www.") == site.host


def _words(field: Element, residue: list[str]) -> tuple[str | None, str]:
    """A field's text read as a search's words: after Safari's mark, or without it (a phone
    may show a query without the mark, as no dump shows one), but never the placeholder nor
    what the agent typed there and left unsent; (None, why) when it is not read."""
    value = field.value
    if value.startswith(LTR_MARK):
        return value[len(LTR_MARK):], ""
    if not value or value == field.placeholder:
        return None, ""
    if folded(value) in residue:
        return None, (f"the agent typed {shorten(value, 60)!r} into the address field and "
                      "never sent it, so the field may hold that typing")
    return value, ""


def _residue(evidence: Evidence) -> list[str]:
    """The texts the agent left typed and unsent in Safari's address field, folded."""
    return [folded(t.last_line) for t in typed_ends(evidence.agent_actions())
            if not t.sent and t.action.target is not None
            and t.action.target.name in ADDRESS_NAMES]


@check_kind("page_shown", family="state", params=(HOST, WORDS), implied_by=Same(),
            invalid=_one_page)
def page_shown(check: Check, evidence: Evidence) -> Finding:
    """Passes when Safari, at capture, shows the page asked for: its address field (the
    TextField named TabBarItemTitle, outside the web page, hidden or not) reads a left-to-right
    mark (U+200E) and then the host `url` names, written as Safari writes a host (lower case,
    no escape, no trailing dot; `www.` and the scheme of `url` do not matter), or the words
    `text` of a web search (ignoring case and runs of spaces; with or without the mark, as a
    phone's is unverified). Fails, with absence unproven, while the field may hold the agent's
    typing: a keyboard up, the agent having sent a U+200E or a text the log cut, words the
    agent typed there and never sent shown without the mark, or no audit log; and on a source
    cut off or unreadable."""
    site, wanted = _wanted(check)
    final = evidence.final
    if final is None or not final.source.readable:
        why = "no page source was captured" if final is None else (
            f"the final page source is unreadable ({final.source.problem})")
        return Finding(False, f"{why}; wanted {wanted}", unproven=why)
    page = final.source
    cut = "" if page.complete else f"the final page source was cut off ({page.problem})"
    if page.bundle_id != SAFARI:
        return Finding(False, f"Safari is not the app the final source shows "
                              f"({page.bundle_id or 'no bundle id'}); wanted {wanted}",
                       unproven=cut)
    fields = address_fields(page)
    if not fields:
        return Finding(False, f"the final screen has no Safari address field (the tab overview, "
                              f"or no tab); wanted {wanted}", unproven=cut)
    editing = ("a keyboard is up, so the address field may hold the agent's typing"
               if page.keyboard_up else _agents_mark(evidence))
    values = list(dict.fromkeys(e.value for e in fields))
    seen = ", ".join(repr(shorten(v, 60)) for v in values)
    if editing:
        return Finding(False, f"the address field shows {seen}, not read: {editing}; wanted "
                              f"{wanted}", unproven=editing)
    if site is None:
        residue = _residue(evidence)
        read = [_words(f, residue) for f in fields]
        doubt = next((why for _, why in read if why), "")
        marked = list(dict.fromkeys(w for w, _ in read if w is not None))
        if doubt or len(marked) != len(read) or not marked:
            return Finding(False, f"the address field shows {seen}: {doubt or 'no search'}; "
                                  f"wanted {wanted}", unproven=doubt or cut)
    else:
        # A host is read after the mark only: the one dump shows it so.
        marked = [v[len(LTR_MARK):] for v in values if v.startswith(LTR_MARK)]
        if len(marked) != len(values):
            return Finding(False, f"the address field shows {seen}: no page's address (Safari "
                                  f"writes one after a U+200E); wanted {wanted}", unproven=cut)
    if all(_shows(site, check, shown) for shown in marked):
        return Finding(True, f"Safari's address field shows {marked[0]!r}: {wanted}")
    return Finding(False, f"Safari's address field shows "
                          f"{', '.join(repr(shorten(m, 60)) for m in marked)}; wanted {wanted}",
                   unproven=cut)


__all__ = ["LTR_MARK", "address_fields", "page_shown"]
