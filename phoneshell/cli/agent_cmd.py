"""`phoneshell finish` (a command agent reports its claim) and `phoneshell mcp` (the tools as an
MCP server). The MCP SDK is imported only when `mcp` serves."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from phoneshell.agents.environment import WDA_URL, claim_file_from_env, write_claim
from phoneshell.cli.disk_full import DISK_FULL, REFUSED
from phoneshell.errors import PhoneshellError, RunError
from phoneshell.records import CLAIM_STATUSES, Claim, ClaimStatus, claim_status
from phoneshell.untrusted import storable


def add_parsers(commands: Any) -> None:
    """Register `finish` and `mcp`."""
    p = commands.add_parser(
        "finish", help="report an agent's claim from inside an attempt (command agents)",
        description="Write the claim of the attempt this program runs in to "
                    "$PHONESHELL_CLAIM_FILE. The claim is recorded in full and never trusted: "
                    "the phone decides whether the task passed.")
    p.__class__ = FreeTextParser  # a free text may start with "-": "--answer -3°"
    p.add_argument("--status", required=True, choices=CLAIM_STATUSES,
                   type=lambda word: claim_status(word) or word,  # "DONE", as a claim is read
                   help="done (did what was asked), gave_up, or failed")
    p.add_argument("--answer", default="", metavar="TEXT",
                   help="the value the task asked for, alone, not a sentence (empty when it "
                        "asked for none); it may start with \"-\" (--answer -3°)")
    p.add_argument("--summary", default="", metavar="TEXT", help="what the agent did")
    p.set_defaults(run=run_finish)

    p = commands.add_parser(
        "mcp", help="serve the phone tools over MCP (stdio) for Claude Code, Codex...",
        description="An MCP server with the phone tools (observe, tap, type, swipe, open_app, "
                    "press, done), acting through the bridge at --bridge so every action is "
                    "logged. Inside an attempt, done writes the claim to $PHONESHELL_CLAIM_FILE.")
    p.add_argument("--bridge", default=os.environ.get(WDA_URL, ""), metavar="URL",
                   help=f"the bridge's URL (default: ${WDA_URL}, set inside an attempt)")
    p.add_argument("--vision", action="store_true",
                   default=os.environ.get("PHONESHELL_VISION", "") not in ("", "0"),
                   help="attach a screenshot to every reply that reads the screen (default: "
                        "$PHONESHELL_VISION)")
    p.add_argument("--tools", action="store_true",
                   help="print the tool table (Markdown) and exit; needs no SDK and no phone")
    p.set_defaults(run=run_mcp)


FREE_TEXT = ("--answer", "--summary")
"""`finish`'s options that take free text: the word after one is its value, whatever it is."""


class FreeTextParser(argparse.ArgumentParser):
    """`finish`'s parser: the word after a free-text option (`FREE_TEXT`, or a prefix only it
    has) is its value even when it starts with "-". argparse takes "-3°" or "--x" for an option
    and refuses `--answer -3°` ("expected one argument"), so a negative reading written as the
    guide asks could not be claimed (red team 112); only "-3" alone, a number, got through."""

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        words = list(sys.argv[1:] if args is None else args)
        options = [o for action in self._actions for o in action.option_strings]
        joined: list[str] = []
        taking = False
        for word in words:
            if taking:
                joined[-1] = f"{joined[-1]}={word}"
                taking = False
                continue
            joined.append(word)
            named = [o for o in options if o.startswith(word)] if word.startswith("--") else []
            taking = word in FREE_TEXT or (len(named) == 1 and named[0] in FREE_TEXT)
        return super().parse_known_args(joined, namespace)


def run_finish(args: argparse.Namespace) -> int:
    """Write the claim file; exit 2 outside an attempt."""
    path = claim_file_from_env()
    status: ClaimStatus = args.status
    try:
        write_claim(path, Claim(status=status, answer=args.answer, summary=args.summary))
    except OSError as exc:
        raise unwritten_claim(path, exc) from exc
    print(f"claim recorded: {status}", file=sys.stderr)
    escaped = [f"--{name}" for name in ("answer", "summary")
               if storable(getattr(args, name)) != getattr(args, name)]
    if escaped:  # Python reads a byte of the command line that is not UTF-8 as a lone surrogate
        print(f"note: {' and '.join(escaped)} held bytes that are not UTF-8, recorded as their "
              "escapes (\\udcff for the byte 0xff)", file=sys.stderr)
    return 0


STDOUT_CLAIM = ('or print the claim as one JSON line on stdout instead: '
                '{"status": "done", "answer": "..."} (docs/agents.md)')


def unwritten_claim(path: Path, exc: OSError) -> RunError:
    """The error for a claim file `exc` kept from being written: what failed, naming the file
    (the temporary one beside it, when that is where it failed), and advice only where it fits:
    a folder that is gone, a full disk, a folder the program may not write."""
    failed = exc.filename if exc.filename and exc.filename != str(path) else ""
    what = f"cannot write the claim to {path}" + (f" (writing {failed})" if failed else "")
    why = exc.strerror or str(exc)
    if exc.errno == errno.ENOENT and not path.parent.is_dir():
        return RunError(f"{what}: its folder {path.parent} is gone ({why})",
                        hint="the claim file is in the attempt's scratch folder, made before the "
                             f"program starts: did the program remove it? {STDOUT_CLAIM}")
    if exc.errno in DISK_FULL:
        return RunError(f"{what}: the disk holding it is full ({why})",
                        hint="remove what this program wrote that it no longer needs, then "
                             f"`phoneshell finish` again; {STDOUT_CLAIM}")
    if exc.errno in REFUSED:
        return RunError(f"{what}: {why}",
                        hint=f"this program may not write {path.parent} (did it change the "
                             f"folder's permissions?); {STDOUT_CLAIM}")
    return RunError(f"{what}: {why}", hint=STDOUT_CLAIM[0].upper() + STDOUT_CLAIM[1:])


def run_mcp(args: argparse.Namespace) -> int:
    """Serve MCP on stdio until the client leaves (or print the tool table)."""
    if args.tools:
        from phoneshell.agents.tools import tool_table  # the device layer: not for `finish`

        print(tool_table(), end="")
        return 0
    if not args.bridge:
        raise RunError("no bridge URL: give --bridge URL (or run inside an attempt, where "
                       f"${WDA_URL} is set)",
                       hint="`phoneshell bridge --wda URL` prints the URL to use")
    try:
        from phoneshell.agents import mcp_server
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "mcp_types", "anyio"):
            raise
        raise PhoneshellError(f"the MCP SDK is not installed ({exc})",
                              hint="pip install 'phoneshell[mcp]'") from exc
    return mcp_server.serve_stdio(mcp_server.from_environment(args.bridge, args.vision))
