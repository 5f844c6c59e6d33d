"""Whether a command agent's command line can start, found out by the harness before it runs.

A program's exit status proves nothing about whether it started: a program can exit 127 and
print the shell's "not found" as well as the shell can, after it has read the phone. So an
attempt is counted as never run only on what the harness itself found before starting anything:
each program the command line runs first (the first word of each simple command, after any
`NAME=value`, and after `exec` or `command`, up to the first program a `;` or `&&` follows, or
a command that only sets variables: what runs after them may need what they made or set, as in
`mkdir /tmp/w && cd /tmp/w && ...`), looked for by the shell's own `command -v` (a path: a file
that can be executed), where the agent will run (its sandbox, its PATH, its folder, after any
`cd` before it). Nothing of the agent runs in that look. A command line whose programs cannot
be told so (a subshell, a redirection before the program, a variable or a pattern where a
program is named, a program given its own `PATH=`, `if`, `||`...) is started, and whatever it
exits with is its own, scored as any exit. Where the sandbox runs the program as a user other
than the harness's (a root harness: `agent_user.py`), the look also asks, as that user, that
the files the program needs be readable (its own program, the Python, phoneshell's package): a
file only root can read is said as such, and the attempt is skipped, rather than failed by a
"Permission denied".
"""

from __future__ import annotations

import re
import shlex
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

FIND = """
for step do
  case $step in
    read:*) [ -r "${step#read:}" ] || { printf '%s' "${step#read:}"; exit 101; } ;;
    cd:) cd || { printf '%s' 'cd: no home folder'; exit 100; } ;;
    cd:*) cd -- "${step#cd:}" 2>/dev/null ||
            { printf '%s' "cd ${step#cd:}: no such folder"; exit 100; } ;;
    run:*/*) p=${step#run:}
            if [ ! -e "$p" ]; then printf '%s' "$p: no such file"; exit 100; fi
            if [ -d "$p" ] || [ ! -x "$p" ]; then printf '%s' "$p: not executable"; exit 100; fi ;;
    run:*) command -v -- "${step#run:}" >/dev/null 2>&1 ||
            { printf '%s' "${step#run:}: not found on PATH"; exit 100; } ;;
  esac
done
"""
"""The look, run by `/bin/sh` with the steps as its arguments: exit 0 when every program is
there, 100 with the reason on stdout when one is not, 101 with the file when the agent's user
cannot read a file it needs (`read:`)."""
MISSING, UNREADABLE = 100, 101
LOOK_TIMEOUT_S = 30.0
SEPARATORS = frozenset({";", "&&", "|", "&"})
"""What may join the simple commands of a line the look follows: each one after it runs (or is
meant to). `||` is not among them: what follows it is a fallback, run only when it is needed."""
SEQUENCE = frozenset({";", "&&"})
"""Separators after which the next command starts only once the one before has run."""
REDIRECTIONS = frozenset({">", ">>", "<", ">&", "<&", ">|", "<>"})
"""Redirections: each takes the word after it (a file, or a descriptor as in `2>&1`)."""
NOT_A_PROGRAM = frozenset({"if", "then", "else", "elif", "fi", "case", "esac", "for", "while",
                           "until", "do", "done", "function", "select", "time", "{", "}", "!",
                           "[[", "]]", "coproc"})
"""Words that open shell syntax: what they run is not their first word."""
RUNS_NEXT = frozenset({"exec", "command"})
"""Builtins whose next word is the program."""
EXPANDED = re.compile(r"[$`\\*?\[~]")
"""A word the shell would expand or unescape: its program cannot be told before it runs."""
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*")


def steps(command: str) -> list[str] | None:
    """The look's steps for a command line: `cd:FOLDER` and `run:PROGRAM`, in order (None when
    its programs cannot be told before it runs)."""
    if "\n" in command or "#" in command:
        return None  # several lines, or a comment: beyond what is followed here
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        words = list(lexer)
    except ValueError:  # unbalanced quotes: the shell will say so when it runs
        return None
    found: list[str] = []
    simple: list[str] = []
    target = False
    for word in [*words, ";"]:
        if word in SEPARATORS and not target:
            step = _step(simple)
            if step is None:
                return None
            found += step
            if word in SEQUENCE and (not step or step[-1].startswith("run:")):
                # what runs after a program, or after the environment changed, may need what
                # it made ("mkdir /tmp/w && cd /tmp/w", "python3 -m venv /tmp/v &&
                # /tmp/v/bin/python"): only what runs first is looked for (red team 128)
                return found
            simple = []
        elif word in REDIRECTIONS and not target and any(
                not ASSIGNMENT.fullmatch(w) for w in simple):
            target = True  # `> log` after the program: the next word is a file, not a program
        elif word and set(word) <= set(";&|()<>"):
            return None  # `||`, a subshell, a here-document, a redirection before the program
        elif target:
            target = False
        else:
            simple.append(word)
    return None if target else found


def _step(words: list[str]) -> list[str] | None:
    """The look's step for one simple command ([] for none: assignments only)."""
    while words and ASSIGNMENT.fullmatch(words[0]):
        if words[0].startswith("PATH="):
            return None  # the program is looked for on a PATH the look does not have
        words = words[1:]
    while words and words[0] in RUNS_NEXT:
        words = words[1:]
        if words and words[0].startswith("-"):
            return None  # `exec -a NAME`, `command -p`: not followed here
    if not words:
        return []
    program = words[0]
    if program in NOT_A_PROGRAM or EXPANDED.search(program):
        return None
    if program == "cd":
        if len(words) > 2 or (len(words) == 2 and (words[1].startswith("-")
                                                   or EXPANDED.search(words[1]))):
            return None
        return [f"cd:{words[1] if len(words) == 2 else ''}"]
    return [f"run:{program}"]


def cannot_start(command: str, wrap: Callable[[list[str]], list[str]], env: Mapping[str, str],
                 confined: bool, shell: str = "/bin/sh", reads: Sequence[Path] = (),
                 who: str = "") -> str:
    """Why the command line cannot start, as found where it will run, said with what to try
    ("" when it can, or when that cannot be told before it runs).

    Args:
        wrap: puts a command line in the agent's sandbox (`Sandbox.wrap`, with the agent's
            files and folder).
        env: the agent's environment (its PATH).
        confined: `wrap` is a sandbox: a program missing there is looked for outside it too.
        reads: files the program must be able to read as the user it runs as (`who`), there:
            its own program, the Python, phoneshell's package (`Sandbox.needs`).
    """
    look = [f"read:{path}" for path in reads]
    code, why = _missing(look + (steps(command) or []), wrap, env, shell)
    if not why:
        return ""
    where = "in the agent's sandbox" if confined else "where it runs"
    if code == UNREADABLE:
        return (f"the command could not start: {why} cannot be read by the agent's user "
                f"({who or 'in its sandbox'}; looked at before it ran): make it readable by "
                "others (chmod o+r, and o+x on its folders)")
    hint = ("; it is there outside the sandbox: share its folder with PHONESHELL_SANDBOX_SHARE "
            "(docs/agents.md)" if confined and not _missing(steps(command) or [], list, env,
                                                             shell)[1] else "")
    return f"the command could not start: {why} ({where}, looked for before it ran){hint}"


def _missing(look: list[str], wrap: Callable[[list[str]], list[str]], env: Mapping[str, str],
             shell: str) -> tuple[int, str]:
    """The look's exit status and why it found the command line cannot start ("" when it
    can, or cannot tell)."""
    if not look:
        return 0, ""
    argv = wrap([shell, "-c", FIND, "sh", *look])
    try:
        done = subprocess.run(argv, capture_output=True, text=True, env=dict(env),
                              stdin=subprocess.DEVNULL, timeout=LOOK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return 0, ""  # a slow machine: the command is started, and its exit is its own
    except OSError as exc:
        return MISSING, f"{shell} could not be run ({exc})"
    if done.returncode in (MISSING, UNREADABLE):
        return done.returncode, done.stdout.strip()
    if done.returncode != 0:  # the sandbox could not be made: nothing of the agent's ran
        return MISSING, f"its sandbox could not start ({_last_line(done.stderr)})"
    return 0, ""


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else "no message"
