"""WDA's pasteboard routes (`/wda/setPasteboard`, `/wda/getPasteboard`), as appium/WebDriverAgent's
FBPasteboard reads and writes UIPasteboard. Listed in `device_routes.ROUTES`."""

from __future__ import annotations

import base64
import binascii
import io
from typing import TYPE_CHECKING

from PIL import Image

from phoneshell.sim.apps.safari_pages import parses
from phoneshell.sim.phone import PASTEBOARD
from phoneshell.sim.store import JSON
from phoneshell.sim.wire import Request, WdaError

if TYPE_CHECKING:
    from phoneshell.sim.endpoints import Endpoints

PASTEBOARD_KINDS = ("plaintext", "url", "image")


def set_pasteboard(ep: Endpoints, req: Request) -> JSON:
    """`/wda/setPasteboard` {"content": base64, "contentType"}: what apps paste next.

    As FBPasteboard's `setData:forType:`: each kind replaces the whole pasteboard (`pb.string`,
    `pb.URL`, `pb.image` each set its items). A URL NSURL cannot read, or bytes no image
    decodes from, are refused with WDA's words and leave the pasteboard as it was. A URL also
    reads as text (UIPasteboard gives a URL item's string to `strings`); an image does not.
    Text goes where Notes and Safari read it (`text`).
    """
    # nil is plaintext; FBPasteboard sends any other value lowercaseString
    kind = (req.text("contentType", "lowercaseString") or "plaintext").lower()
    try:
        content = base64.b64decode(str(req.body.get("content", "")), validate=False)
    except (binascii.Error, ValueError) as exc:
        raise WdaError("invalid argument",
                       "Cannot decode the pasteboard content from base64") from exc
    if kind not in PASTEBOARD_KINDS:
        raise WdaError("unknown error", f"Unsupported content type: {kind}")
    board = ep.phone.store(PASTEBOARD)
    if kind == "image":
        image = _png(content)
        if image is None:
            raise WdaError("unknown error", "No image can be parsed from the given pasteboard "
                                            "data")
        _replace(board.data, image=base64.b64encode(image).decode("ascii"))
    else:
        text = content.decode("utf-8", errors="replace")
        if kind == "url" and not parses(text):
            raise WdaError("unknown error", "No URL can be parsed from the given pasteboard data")
        _replace(board.data, text=text, **({"url": text} if kind == "url" else {}))
    ep.phone.changed()
    return None


def _replace(data: dict[str, JSON], **items: JSON) -> None:
    """Put `items` on the pasteboard in place of everything on it."""
    for key in ("text", "url", "image"):
        data.pop(key, None)
    data.update(items)


def _png(content: bytes) -> bytes | None:
    """The PNG UIImagePNGRepresentation gives for image bytes (None: no image decodes)."""
    try:
        with Image.open(io.BytesIO(content)) as image:
            image.load()
            out = io.BytesIO()
            image.save(out, "PNG")
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return out.getvalue()


def get_pasteboard(ep: Endpoints, req: Request) -> JSON:
    """`/wda/getPasteboard` {"contentType"}: the pasteboard's content of that kind, base64, as
    FBPasteboard's `dataForType:` reads it: "" when it holds none of that kind (text is no
    URL, an image no text)."""
    # nil is plaintext; FBPasteboard sends any other value lowercaseString
    kind = (req.text("contentType", "lowercaseString") or "plaintext").lower()
    if kind not in PASTEBOARD_KINDS:
        raise WdaError("unknown error", f"Unsupported content type: {kind}")
    board = ep.phone.store(PASTEBOARD)
    if kind == "image":
        return board.text("image")
    held = board.text("url" if kind == "url" else "text")
    return base64.b64encode(held.encode("utf-8")).decode("ascii")
