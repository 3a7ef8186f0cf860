"""`wkparse triage ISSUE [--attachments DIR] [--format markdown|text|json] [--lang auto|en|zh]
[--date YYYY-MM-DD] [-o FILE]`: from an issue's text to an answer a maintainer can post.

ISSUE is a Markdown or plain-text file, `-` (stdin), `gh issue view N --json
title,body,createdAt,url,comments` output, or a file with front matter.

Exit codes: 0 when the issue was read and triaged (whatever it found: triage describes, it is
not a gate); 2 when ISSUE or DIR cannot be read, or an option is wrong.
"""

from __future__ import annotations

from pathlib import Path

from wkparse import terminal
from wkparse.parse import Limits, read_stdin

FORMATS = ("markdown", "text", "json")
LANGS = ("auto", "en", "zh")
#: an issue is text: a bigger input is cut by the reader, never read whole
_MAX_BYTES = 32 * 1024 * 1024


def run(
    issue: Path,
    attachments: Path | None,
    format: str,
    lang: str,
    date: str | None,
    output: Path | None,
) -> int:
    errors = terminal.console(stderr=True)
    if format not in FORMATS:
        terminal.error(errors, f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
        return 2
    if lang not in LANGS:
        terminal.error(errors, f"unknown language {lang!r}; use one of {', '.join(LANGS)}")
        return 2
    from wkparse.threads.versions import is_date

    if date is not None and not is_date(date):
        terminal.error(errors, f"--date {date!r}: give a date as YYYY-MM-DD")
        return 2
    if attachments is not None and not attachments.is_dir():
        terminal.error(errors, f"{attachments}: not a directory")
        return 2
    try:
        data = _read(issue)
    except OSError as exc:
        terminal.error(errors, f"{issue}: {terminal.reason(exc)}")
        return 2
    from wkparse.render.triage.answer import answered, as_json, markdown, text
    from wkparse.threads import triage

    result = answered(triage(data, attachments=attachments, date=date, lang=lang))
    page = {"markdown": markdown, "text": text, "json": as_json}[format](result)
    return terminal.write_page(page, output, errors)


def _read(issue: Path) -> bytes:
    if str(issue) == "-":
        return read_stdin(Limits(max_bytes=_MAX_BYTES))
    if not issue.is_file():
        raise OSError(0, "not a regular file" if issue.exists() else "no such file")
    with issue.open("rb") as stream:
        return stream.read(_MAX_BYTES)
