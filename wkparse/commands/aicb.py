"""`wkparse aicb [-o DIR] [--at REV] -- COMMAND...`: write the file AICB would write for a command.

`--at REV` reproduces AICB at that commit or date; `--versions` lists the revisions modelled;
`--infer FILE` finds the command and revisions that wrote a file.

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
from wkparse.atomic import atomic_write
from wkparse.models.aicb import AicbError, generate
from wkparse.models.aicb.command import split
from wkparse.syntax import shown


def command_words(words: Sequence[str]) -> list[str]:
    """The command's words: a first word holding spaces is a quoted command line to split."""
    first, *rest = words
    return [*split(first), *rest] if any(c.isspace() for c in first) else list(words)


def _span(first: str, last: str) -> str:
    """A run of AICB commits with their dates: `b9d142e (2024-06-03) .. d9b4f5c (2024-10-30)`."""
    from wkparse.models.aicb.revisions import dated

    return dated(first) if first == last else f"{dated(first)} .. {dated(last)}"


def _infer(path: Path, as_json: bool) -> int:
    """`--infer FILE`: exit 0 when a command reproduces the file, 1 when none does, 2 on error."""
    import json

    from wkparse.models.aicb.reading.infer import infer

    errors = terminal.console(stderr=True, highlight=False, soft_wrap=True)
    try:
        data = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except OSError as exc:
        terminal.error(errors, f"{path}: {terminal.reason(exc)}")
        return 2
    from wkparse.encoding import sniff

    wide = sniff(data[:64])
    if wide is not None:  # its bytes read as UTF-8 are noise: say what the file is instead
        terminal.error(
            errors,
            f"{path}: the file is {wide.name} text: convert it to UTF-8 first "
            "(`wkparse lint --fix` does), then infer its command",
        )
        return 2
    try:
        found = infer(str(path), data.decode("utf-8", errors="replace"))
    except (AicbError, ArithmeticError, ValueError) as exc:  # a hostile file
        errors.print(f"error: {path}: no AICB command inferred ({exc})", markup=False)
        return 2
    if as_json:
        sys.stdout.write(json.dumps(found.as_json(), indent=2) + "\n")
        return 0 if found.exact else 1
    at = _span(*found.at) if found.at else "none"
    earlier = ""
    if found.earlier is not None:
        command, (first, last) = found.earlier
        earlier = f"and AICB {_span(first, last)}, before the module's rename, for:\n  {command}\n"
    side = ", ".join(_span(a, b) for a, b in found.side)
    guessed = ""
    if found.not_in_file:
        guessed = (
            f"the file does not show its {_listed(found.not_in_file)} (only AICB's file name "
            "does): the command's are a guess\n"
        )
    if found.exact and found.side and found.at == found.side[0]:
        sys.stdout.write(
            f"exact: only AICB's side-branch commits {side} write this file for:\n"
            f"  {found.command}\n{guessed}"
        )
        return 0
    if found.exact:
        sys.stdout.write(f"exact: AICB {at} writes this file for:\n  {found.command}\n{earlier}")
        if side:
            sys.stdout.write(f"and AICB's side-branch commits {side} (--at takes them)\n")
        sys.stdout.write(guessed)
        return 0
    if found.training_output:
        sys.stdout.write(
            "cannot reproduce: this is the CSV of AICB's training/benchmark path (aicb.py, "
            "run by scripts/megatron_gpt.sh: results/mocked_workload/*_workload.csv or "
            "results/comm_logs/*_log.csv), not a SimAI workload file; AICB writes SimAI "
            "files only with its workload generators (scripts/megatron_workload_with_aiob.sh)\n"
        )
        return 1
    if not found.command:
        sys.stdout.write("no AICB training or inference command comes near this file\n")
        if found.first_difference is not None:
            line = found.first_difference
            sys.stdout.write(f"line {line.line}:\n  found:    {_quoted(line.found)}\n")
        return 1
    diff = found.first_difference
    if found.other_compute_times:
        sys.stdout.write(
            f"AICB {at} writes this file but for its compute times (another AIOB measurement "
            f"than the shipped Example.txt) for:\n  {found.command}\n"
        )
    else:
        sys.stdout.write(f"not exact; nearest command (AICB {at}):\n  {found.command}\n")
    sys.stdout.write(earlier)
    if diff is not None:
        sys.stdout.write(
            f"first difference, line {diff.line}:\n  expected: {_quoted(diff.expected)}\n"
            f"  found:    {_quoted(diff.found)}\n"
        )
    return 1


def _listed(items: Sequence[str]) -> str:
    """`a`, `a or b`, `a, b or c`."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def _quoted(line: str | None) -> str:
    """A line of the file as the report shows it: escaped and bounded (it may be binary junk
    or megabytes long), or that there is none."""
    return "(none: past the last line)" if line is None else shown(line, 240, keep="\t")


def run(
    words: Sequence[str],
    output: Path | None,
    options: bool = False,
    *,
    at: str | None = None,
    versions: bool = False,
    infer: Path | None = None,
    as_json: bool = False,
) -> int:
    errors = terminal.console(stderr=True, highlight=False, soft_wrap=True)
    if options:
        from wkparse.models.aicb.coverage import option_list
        from wkparse.models.aicb.revisions import resolve

        try:
            rev = None if at is None else resolve(at)
        except AicbError as exc:
            terminal.error(errors, str(exc))
            return 2
        sys.stdout.write("".join(f"{line}\n" for line in option_list(rev)))
        return 0
    if versions:
        from wkparse.models.aicb.revisions import version_lines

        sys.stdout.write("".join(f"{line}\n" for line in version_lines()))
        return 0
    if infer is not None:
        return _infer(infer, as_json)
    if not words:
        terminal.error(errors, "give the AICB command after '--'")
        return 2
    try:
        made = generate(command_words(words), at=at)
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
        terminal.error(errors, f"{target}: {terminal.reason(exc)}")
        return 2
    errors.print(f"wrote {target} ({made.workload.row_count} rows)", markup=False)
    return 0
