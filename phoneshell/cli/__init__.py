"""The `phoneshell` command: parse arguments, run one subcommand, turn errors into exit codes.

Exit codes: 0 done and everything passed; 1 done, not everything passed; 2 could not run (bad
input, no device) or was stopped (Ctrl-C, SIGTERM, SIGHUP alike: `runner.stop`); 3 a bug (the
traceback is printed, please report it). Errors a user can fix print `error:` and `hint:`
lines, never a traceback.

Whatever a command writes to stdout and stderr goes through `untrusted.visible`: the lines hold
an agent's stderr, claims, bundle ids, page text and a judge's reasoning, and an escape code
among them could clear the screen, hide the real summary, retitle the window or fill the
clipboard. Nothing phoneshell prints is meant to control a terminal, so every invisible or
controlling character is shown as its escape (`\x1b`, `\u202e`), wherever it came from; and
nothing is meant to command a CI runner reading the lines, so `##[`, `##vso[` and a line's
leading `::` are broken the same way (`##\u005b`, `:\u003a`).
(`phoneshell mcp` speaks its protocol on the raw descriptor, untouched.)
"""

from __future__ import annotations

import argparse
import gc
import importlib
import io
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO, cast

from phoneshell import __version__
from phoneshell.cli.disk_full import (
    REFUSED,
    STORAGE,
    check_temp_folder,
    no_temp_folder,
    output_refused,
    unwritable,
)
from phoneshell.errors import PhoneshellError, TaskFileError
from phoneshell.runner.stop import stop_signals, stopped_line
from phoneshell.untrusted import carried, visible

EXIT_OK, EXIT_FAILED, EXIT_UNUSABLE, EXIT_BUG = 0, 1, 2, 3


MODULES = ("tasks_cmd", "run_cmd", "sim_cmd", "bridge_cmd", "devices_cmd", "report_cmd",
           "agent_cmd", "swap_cmd", "attack_cmd", "judge_cmd")
"""The modules of `phoneshell.cli` that add the commands, in the order `--help` lists them."""
COMMANDS = {"check-tasks": "tasks_cmd", "schema": "tasks_cmd", "implications": "tasks_cmd",
            "grade": "tasks_cmd", "run": "run_cmd", "sim": "sim_cmd", "bridge": "bridge_cmd",
            "devices": "devices_cmd", "doctor": "devices_cmd", "report": "report_cmd",
            "finish": "agent_cmd", "mcp": "agent_cmd", "swap": "swap_cmd",
            "baseline": "swap_cmd", "attack": "attack_cmd", "judgeset": "judge_cmd",
            "judge": "judge_cmd"}
"""The module that adds each command. A command line that names one imports that module only,
with what its commands run: `phoneshell finish`, which a command agent runs every attempt,
does not import the runner, the checks and the simulator (tests/cli/test_cli_commands.py holds
this table to what the modules add)."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, one subparser per command: of every command, or of `command`'s
    module only (`COMMANDS`) when it names one."""
    parser = argparse.ArgumentParser(
        prog="phoneshell", description="Grade phone agents on an iPhone, with the phone as the "
                                       "witness.")
    parser.add_argument("--version", action="version", version=f"phoneshell {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in (COMMANDS[command],) if command in COMMANDS else MODULES:
        importlib.import_module(f"{__name__}.{module}").add_parsers(commands)
    return parser


def report_error(exc: PhoneshellError) -> None:
    """Print a user-fixable error as `error:` and `hint:` lines on stderr."""
    message = exc.message
    if isinstance(exc, TaskFileError):
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        errors = sum(p.severity == "error" for p in exc.problems)
        message = f"{errors} error(s) in the task files above"  # each printed once, above
    print(f"error: {message}", file=sys.stderr)
    if exc.hint:
        print(f"hint: {exc.hint}", file=sys.stderr)


class VisibleText:
    """A text stream that writes what it is given as `untrusted.visible` shows it; everything
    else (its buffer, fileno, isatty, encoding) is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.line_so_far = ""  # a CI command split over two writes is one all the same
        self.refused: tuple[OSError, str] | None = None
        """The error of the first write the stream's file refused, and that file."""

    def write(self, text: str) -> int:
        """Write `text` with every invisible or controlling character escaped. A write the
        stream's file refuses (a log on a full disk, `>> log` under `ulimit -f`) is kept to be
        said once the command ends (`output_lost`), and nothing more is written: the command's
        records are not its output, and a run goes on recording."""
        shown = visible(text, self.line_so_far)
        self.line_so_far = carried(self.line_so_far, shown)
        self._guarded(lambda: self.stream.write(shown))
        return len(text)

    def flush(self) -> None:
        """Flush the stream, as `write` writes."""
        self._guarded(self.stream.flush)

    def _guarded(self, act: Callable[[], object]) -> None:
        if self.refused is not None:
            return
        try:
            act()
        except BrokenPipeError:  # `phoneshell ... | head`: the reader left (`_command`)
            raise
        except OSError as exc:
            self.refused = exc, _sent_to(self.stream)
            _to_null(self.stream)

    def writelines(self, lines: Iterable[str]) -> None:
        """Write each line as `write` does."""
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:
        return getattr(self.stream, name)


@contextmanager
def terminal_safe() -> Iterator[tuple[VisibleText, VisibleText]]:
    """Route sys.stdout and sys.stderr through `VisibleText` while the command runs (yielded);
    a character the terminal's encoding lacks is written as its escape too, never an error."""
    saved = sys.stdout, sys.stderr
    for stream in saved:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    shown = VisibleText(saved[0]), VisibleText(saved[1])
    sys.stdout, sys.stderr = cast(TextIO, shown[0]), cast(TextIO, shown[1])
    try:
        yield shown
    finally:
        sys.stdout, sys.stderr = saved


def _sent_to(stream: TextIO) -> str:
    """The file `stream` writes to, as the system names it ("" when it cannot say)."""
    try:
        return os.readlink(f"/proc/self/fd/{stream.fileno()}")
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return ""


def _to_null(stream: TextIO) -> None:
    """Point `stream`'s descriptor at the null device: what its buffer still holds would be
    refused again at exit, and Python would end with its own error and status 120."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (the console script exits with it)."""
    with terminal_safe() as streams:
        return output_lost(streams, _main(argv))


def output_lost(streams: Sequence[VisibleText], code: int) -> int:
    """`code`, or EXIT_UNUSABLE with the error said (on stderr, when it still takes writes)
    when the command's own output refused a write: its lines were lost, not its records."""
    for stream in streams:
        stream.flush()
    lost = [(s, s.refused) for s in streams if s.refused is not None]
    for stream, (exc, target) in lost:
        name = "stdout" if stream is streams[0] else "stderr"
        report_error(output_refused(exc, name, target))
    return code if not lost or code == EXIT_BUG else EXIT_UNUSABLE


def _main(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    args = build_parser(words[0] if words else None).parse_args(words)
    if argv is None:
        # The command's modules are loaded and never garbage: leave them out of every
        # collection to come (a run's simulator, bridge and runner allocate all along, and
        # each full collection walked the modules again). Only for the process's own command
        # line: a caller's heap is the caller's.
        gc.freeze()
    # SIGTERM and SIGHUP (a CI timeout, systemd, a closed terminal) stop a command as Ctrl-C
    # does: a run records its attempt in flight and says how to resume
    with stop_signals():
        try:
            return _command(args)
        except KeyboardInterrupt:  # one more while its error was printed: it stopped all the same
            return EXIT_UNUSABLE


TEMP_USERS = ("run", "attack", "baseline")
"""The commands that play attempts, whose temporary folder is checked before any phone."""


def _command(args: argparse.Namespace) -> int:
    try:
        if args.command in TEMP_USERS:  # a full /tmp is said before any phone, never in an attempt
            check_temp_folder(args)
        code: int = args.run(args)
        return code
    except PhoneshellError as exc:
        report_error(exc)
        return EXIT_UNUSABLE
    except KeyboardInterrupt as exc:
        print(stopped_line(exc), file=sys.stderr)
        return EXIT_UNUSABLE
    except BrokenPipeError:  # `phoneshell ... | head`: the reader left, nothing to report
        return EXIT_OK
    except OSError as exc:
        no_temp = no_temp_folder(exc, args)
        if no_temp is not None:  # a full /tmp, said by `tempfile` as a missing folder
            report_error(no_temp)
            return EXIT_UNUSABLE
        if exc.errno in REFUSED and exc.filename:  # the machine's word, not a bug
            report_error(refused(exc, args))
            return EXIT_UNUSABLE
        if exc.errno not in STORAGE:
            return _bug()
        # Not a bug, whichever command met it (a full disk, `ulimit -f`, a failing or
        # read-only disk): what was recorded before stays (every record is appended or
        # replaced whole); the hint says what goes on from what the command left
        report_error(unwritable(exc, args))
        return EXIT_UNUSABLE
    except Exception:  # noqa: BLE001 - the last resort: a bug, shown in full to be reported
        return _bug()



def refused(exc: OSError, args: argparse.Namespace) -> PhoneshellError:
    """The error for a file the system refused this user (`REFUSED`), with the way round it
    that fits: another --runs folder when it lies in the one given."""
    where = Path(exc.filename)
    runs: Path | None = getattr(args, "runs", None)
    inside = runs is not None and where.absolute().is_relative_to(runs.absolute())
    return PhoneshellError(f"{where}: {exc.strerror}",
                           hint=f"give --runs a folder this user can write (not {runs})" if inside
                           else f"check that this user may read and write {where.parent}")


def _bug() -> int:
    traceback.print_exc()
    print("error: this is a bug in phoneshell; please report it with the traceback above",
          file=sys.stderr)
    return EXIT_BUG
