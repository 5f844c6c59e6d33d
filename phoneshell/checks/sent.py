"""Exactly this text, and the last: `typed_into`'s `whole`, read from the agent's typing.

"Type 'iso 8601 date format' and send it" is not done by sending "iso 8601 date format
javascript parse error", nor by sending the asked text and then another search (red team 54):
a check of "contains" passes both. With `whole`, what the field held when it was judged is the
text, ignoring case and white space at its ends, and it is the last thing judged in such a
field: the last send with `submitted`, else the last text a field's editing ended with. A URL
opened into the app after it (a search engine's, `maps://?q=`) runs another search as much as
typing does, and a later keystroke into a field the bridge could not name may have; either
fails it. A check may name other texts that count as its own (`also`: a search the instruction
leaves open, one word of the words it quotes), each whole. Pure: read from the agent's actions
only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from phoneshell.audit import Action
from phoneshell.checks.keystrokes import Typed
from phoneshell.spelling import folded, folded_lines
from phoneshell.tree import shorten


def _same(run: Typed, wants: frozenset[str], lines: bool = True) -> bool:
    """Whether `run` typed one of `wants` (folded), a line break in it kept as one
    (`folded_lines`: a Return in a note is not the space asked for), or, with `lines` off, read
    as a space (the broader reading, for a ban: typed so at all is typed)."""
    return (folded_lines(run.text) if lines else folded(run.text)) in wants


def _at(run: Typed) -> int:
    """The log position of the moment: the action that made or sent the text."""
    return (run.by or run.action).seq


def asked(texts: Sequence[str]) -> str:
    """The texts a check accepts, for a detail: "'phoneshell benchmark' (or 'phoneshell')"."""
    more = ", ".join(repr(t) for t in texts[1:])
    return repr(texts[0]) + (f" (or {more})" if more else "")


def whole_typed(runs: Sequence[Typed], actions: Sequence[Action], texts: Sequence[str], *,
                judged: Callable[[Typed], bool], app: str, where: str, submitted: bool,
                negate: bool) -> tuple[bool, str]:
    """Whether the text judged in a field `judged` accepts is one of `texts` whole (ignoring
    case and white space at its ends), and the last: (holds, what was seen). `texts` are the
    check's text, then the others it accepts (`also`); `runs` are the moments to judge (every
    moment, negated: typed exactly so at all is typed), `actions` the agent's; `where` names
    the field for the detail (" into 'Address' in com.apple.mobilesafari"). Negated, it holds
    when any moment is one of the texts whole."""
    verb, text = ("sent" if submitted else "typed"), asked(texts)
    wants = frozenset(folded(t) for t in texts)
    moments = [r for r in runs if judged(r) and (r.sent or not submitted)]
    if negate:
        hit = next((r for r in moments if _same(r, wants, lines=False)), None)
        return hit is not None, (f"{verb} {shorten(hit.text)!r}{where}, whole" if hit else
                                 f"never {verb} exactly {text}{where}")
    if not moments:
        unsent = [r for r in runs if judged(r) and not r.sent]
        left = (f"; it typed {shorten(unsent[-1].text)!r}{where} but never sent it"
                if unsent and submitted else "")
        return False, f"nothing {verb}{where}{left}"
    last = moments[-1]
    if not _same(last, wants):
        before = any(_same(r, wants) for r in moments[:-1])
        return False, (f"the last text {verb}{where} was {shorten(last.text)!r}; wanted "
                       f"{text}, whole" + (f" (it {verb} that before: the last one counts)"
                                           if before else ""))
    # a URL that may have opened into the app fails it (`Action.acted`: unless WDA failed it
    # before acting; one whose after was never read may have brought the app up)
    after = [a for a in actions if a.seq > _at(last) and a.acted is not False
             and (not app or app in (a.app_before, a.app_after) or not a.app_after)]
    url = next((a for a in after if a.kind == "open_url"), None)
    blind = next((r for r in runs if _at(r) > _at(last) and r.action.target is None
                  and (not app or r.action.app_before == app)), None)
    if url is not None:
        return False, (f"{verb} {shorten(last.text)!r}{where}, but then {url.describe()}: a "
                       "URL opened into the app after it runs another search")
    if blind is not None:
        return False, (f"{verb} {shorten(last.text)!r}{where}, but then typed "
                       f"{shorten(blind.text)!r} into a field the bridge could not name, "
                       "which may have been another search")
    return True, f"{verb} {shorten(last.text)!r}{where}, whole, and nothing {verb} there after"
