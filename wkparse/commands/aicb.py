"""`wkparse aicb [-o DIR] -- COMMAND...`: write the file AICB would write for a command.

COMMAND is the AICB command line as typed (the words after `--`, or one quoted string). The
file goes to standard output, or into DIR under the name AICB gives it (written atomically).
Notes (options without effect, words a script dropped, AICB's own warnings) go to standard
error. Exit 0 when a file was produced; 2 when AICB writes none for this command, wkparse
cannot reproduce it, or DIR cannot be written.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from wkparse import terminal
from wkparse.aicb import AicbError, generate
from wkparse.aicb.command import split
from wkparse.atomic import atomic_write


def command_words(words: Sequence[str]) -> list[str]:
    """The command's words: a first word holding spaces is a quoted command line to split."""
    first, *rest = words
    return [*split(first), *rest] if any(c.isspace() for c in first) else list(words)


def run(words: Sequence[str], output: Path | None, options: bool = False) -> int:
    errors = terminal.console(stderr=True, highlight=False, soft_wrap=True)
    if options:
        from wkparse.aicb.coverage import option_list

        sys.stdout.write("".join(f"{line}\n" for line in option_list()))
        return 0
    if not words:
        terminal.error(errors, "give the AICB command after '--'")
        return 2
    try:
        made = generate(command_words(words))
    except AicbError as exc:
        terminal.error(errors, str(exc))
        return 2
    for note in made.notes:
        terminal.say(errors, "note", note, "")
    if output is None:
        for chunk in made.workload.chunks():
            sys.stdout.write(chunk)
        return 0
    if "/" in made.filename:
        terminal.error(errors, f"AICB's file name {made.filename!r} holds a '/'")
        return 2
    target = output / made.filename
    try:
        output.mkdir(parents=True, exist_ok=True)  # as AICB creates its results folder
        atomic_write(target, (c.encode("utf-8") for c in made.workload.chunks()))
    except OSError as exc:
        terminal.error(errors, f"{target}: {exc.strerror or exc}")
        return 2
    errors.print(f"wrote {target} ({made.workload.row_count} rows)", markup=False)
    return 0
