"""What the bridge refuses to forward, decided on the action as it pressed and on the screen known
before it: whatever would take the rig away, remove an app, outlast the run, or choose a context
menu's item no screen before it shows; and several fingers on different elements. A refusal is
logged as `refused` with its target, and the client gets WDA's 403.
"""

from __future__ import annotations

from bridge.aiming import Aiming
from bridge.audit_log import AuditWriter
from bridge.classified import Classified
from bridge.context import RunContext
from bridge.control_center import control_center_at
from bridge.http_server import wda_error
from bridge.pointer import SEVERAL_GESTURES
from bridge.settings_controls import settings_at
from bridge.slides import (
    SWIPE_ENDS,
    down_spots,
    path_at,
    pressed,
    screen_frame,
    visible,
)
from bridge.status_bar import status_bar_tap
from bridge.upstream import Reply
from phoneshell.holds import MENU_SLIDE, held_s, held_slide_away, opens_menu
from phoneshell.lasting import outlasts_run, removes_app
from phoneshell.records import Scalar, Target
from phoneshell.rig_down import switcher_shows, takes_rig_down, unplaced_on_switcher
from phoneshell.scroll_drags import scroll_drags
from phoneshell.xcui import KEY_TYPE, SETTINGS, SPRINGBOARD, TOUCH_KINDS, full_type, short_type

KEY = full_type(KEY_TYPE)

WARY_PHASES = ("agent", "unscoped")
"""Whose actions wait for a real phone to settle before they are aimed and judged (Settings'
allow-list too), not the harness's steps': what they read early leaves what is known unsettled."""


def _named(target: Target | None) -> str:
    """An element as a refusal names it: "Switch 'Wi-Fi'"."""
    if target is None:
        return "nothing the screen names"
    return f"{short_type(target.type)} {target.label or target.name!r}"

class Refusals(Aiming):
    """The refusals of a bridge's action pipeline (`recorder.Recorder`)."""

    writer: AuditWriter
    _session_app: tuple[str, str]
    """(session id, bundle id) of the session created through this bridge."""

    def _session_params(self, action: Classified) -> dict[str, Scalar]:
        """The action's params, naming the app when it closes the session this bridge opened."""
        params: dict[str, Scalar] = dict(action.params)
        sid, bundle = self._session_app
        if action.session == "close" and bundle and action.session_id == sid:
            params = {"bundle_id": bundle, **params}
        return params

    def _pressed(self, context: RunContext, action: Classified) -> Classified:
        """The action as what it did (`slides.pressed`): a slide that pressed is its tap."""
        return pressed(self, context, action)

    def _refuse_touches(self, context: RunContext, action: Classified, target: Target | None,
                        app: str, request: str) -> Reply | None:
        """Refuse an action for what it touches (None: forward it): one that would take the rig
        away or remove an app (`_keep_rig`), by any of its fingers (each as what it pressed,
        `_pressed`); and several fingers down
        together that touch different elements, since the log names one target an action (each
        other finger is aimed as its own one-finger action, from the same screen).

        Raises:
            AuditWriteError: the refusal could not be logged (nothing was forwarded).
        """
        refused = self._keep_rig(context, action, target, app, request)
        for other in action.others:
            if refused is None:
                finger = self._pressed(context, other)
                touched = self.aim(context, finger).target
                refused = self._keep_rig(context, finger, touched, app, request)
                if refused is None and touched != target:
                    refused = self._refusal(context, action, target, app, request, (
                        f"its fingers touch different elements ({_named(target)} and "
                        f"{_named(touched)}), and the log names one target an action; "
                        f"{SEVERAL_GESTURES}"))
        return refused

    def _keep_rig(self, context: RunContext, action: Classified, target: Target | None,
                  app: str, request: str) -> Reply | None:
        """Refuse an action that would take the rig away (`rig_down.takes_rig_down`: powering the
        phone off, erasing or restarting it, turning off UI Automation, stopping WDA), remove
        an app (`lasting.removes_app`: deleting or offloading it, taking it off the Home Screen),
        or change what outlasts the run (`lasting.outlasts_run`: the keyboard's dictionary, the
        Home Screen's layout, every app's permissions...), or may choose a context menu's item
        no screen before it shows (`holds.held_slide_away` from what `opens_menu`: a held slide
        from a link, a button, a row or an icon, which a list refusing by label could not
        judge), logged as `refused` with its target; None for any other action (a tap on the
        status bar presses nothing of the app: `status_bar`). Every refusal for what an action
        touches is decided here, on the action as `_pressed` classified it (a slide that
        pressed "Delete App" is a tap of it), never on the kind its route alone would give it.

        Raises:
            AuditWriteError: the refusal could not be logged (nothing was forwarded).
        """
        seen = target or Target(type="")
        if seen.type == KEY:
            return None  # a key of the keyboard only types ("delete" erases a character)
        if status_bar_tap(lambda: self.known_tree(context), action):
            return None  # the status bar's: the list in front scrolls to its top, nothing else
        if held_slide_away(action.kind, action.params) and opens_menu(
                down_spots(self.known_tree(context), action.params), app):
            return self._refusal(context, action, target, app, request, (
                f"{MENU_SLIDE} (it held still {held_s(action.params):g} s where it went down, "
                "on what opens a context menu, then slid away: the item under the lift, which "
                "no screen before the touch shows, may be one refused by tap)"))
        around = self._around(context, action, app)
        why = unplaced_on_switcher(action.kind, action.params) if around is None else \
            takes_rig_down(action.kind, app, seen.type, seen.label, seen.value, seen.page,
                           seen.chosen, action.params, name=seen.name, around=around)
        removal = "" if why else removes_app(action.kind, app, seen.label, seen.name,
                                             action.params)
        known = self.custody.known.page
        # only a touch outlasts the run: no other kind pays for Control Center's page walk
        lasting = "" if why or removal or action.kind not in TOUCH_KINDS else outlasts_run(
            action.kind, app, seen.label, action.params, seen.page, seen.name, seen.type,
            None if known is None else control_center_at(known.tree, self._point(action)),
            agent=context.phase == "agent", chosen=seen.chosen,
            settings=settings_at(self.known_tree(context), target, self._point(action))
            if app == SETTINGS and context.phase in WARY_PHASES else None)
        if not why and not removal and not lasting:
            return None
        return self._refusal(context, action, target, app, request, (
            f"{why}: no task needs it, and a real phone would end the run" if why else
            f"{removal}: no task needs it, nothing brings an app back, and the later tasks on "
            "it could not be played" if removal else
            f"{lasting}: no task needs it, and nothing after the run sets it back"))

    def _around(self, context: RunContext, action: Classified, app: str,
                ) -> list[tuple[str, str]] | None:
        """(name, label) of the elements a swipe in SpringBoard goes down inside, from the
        screen known ([] for any other action): a phone's App Switcher card may hold its app's
        snapshot, so what the finger is aimed at can be inside the card a swipe up closes
        (`rig_down.wda_card`). A swipe by screen points goes down at its point; one by a
        direction (WDA's swipe or scroll, on the app or an element) drags where WDA drags it
        (`_drag_points`) while the App Switcher shows (`switcher_shows`; elsewhere no card
        closes). None when it shows and a swipe's drags cannot be placed: the finger may go down
        on the runner's card."""
        tree = self.known_tree(context) if action.kind == "swipe" and app == SPRINGBOARD \
            else None
        point = self._point(action)
        if tree is None or (point is None and not switcher_shows(tree)):
            return []
        points = [point] if point is not None else self._drag_points(action, tree)
        if points is None:
            return None
        return [(str(node.get("name") or ""), str(node.get("label") or ""))
                for spot in points for node in path_at(tree, *spot)]

    def _drag_points(self, action: Classified, tree: object,
                     ) -> list[tuple[float, float]] | None:
        """Where WDA's swipe or scroll by a direction (on the app: the screen, or on an element:
        its frame, one read) puts the finger down and drags it through: each of a scroll's drags
        (`scroll_drags`, as WDA computes them) where it goes down; a swipe (XCTest's, whose exact
        ends are not published) at its start, middle and end (`slides.SWIPE_ENDS`). None when
        they cannot be placed: another gesture, a direction WDA does not drag in (a scroll to a
        named child, a picker's turn), a frame that cannot be read."""
        gesture, direction = action.params.get("gesture"), str(action.params.get("direction"))
        distance = action.params.get("distance")
        if action.aim not in ("none", "element") or not (
                (gesture == "swipe" and direction in SWIPE_ENDS)
                or (gesture == "scroll" and isinstance(distance, (int, float)))):
            return None
        frame = screen_frame(tree)
        if action.aim == "element":
            rect = self.element_frame(action, "a swipe by direction in SpringBoard")
            frame = None if rect is None else visible((rect.x, rect.y, rect.width,
                                                       rect.height), frame)
        if frame is None:
            return None
        if gesture == "scroll":
            drags = scroll_drags(frame, direction, float(distance or 0.0))
            return [(x, y) for x, y, _, _ in drags] if drags else None
        left, top, width, height = frame
        sx, sy, ex, ey = SWIPE_ENDS[direction]
        middle = left + width / 2, top + height / 2
        return [(middle[0] + k * width / 4, middle[1] + m * height / 4)
                for k, m in ((sx, sy), (0, 0), (ex, ey))]

    def _refusal(self, context: RunContext, action: Classified, target: Target | None,
                 app: str, request: str, reason: str) -> Reply:
        """Log an action as `refused` with its target and `reason`, and answer WDA's 403."""
        self.writer.write_refusal(context, action.kind, self._session_params(action), reason,
                                  target=target, app_before=app)
        on = f" on {target.label!r}" if target is not None and target.label else ""
        return wda_error(403, "unsupported operation",
                         f"phoneshell bridge refused {request or action.kind}{on}: {reason}")
