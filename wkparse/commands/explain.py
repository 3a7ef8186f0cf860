"""`wkparse explain FILE`: read one file (`-` is stdin), explain it, print it in one format.

Exit codes: 0 whenever the file could be read and explained, whatever its lint findings say
(explain describes; `wkparse lint` is the gate that fails on errors); 2 when the path cannot
be read (missing, a directory, no permission) or the format is unknown. The lint findings use
the same configuration `wkparse lint` would use for the file (the nearest `.wkparse.toml` or
`pyproject.toml`); a broken configuration is reported and the defaults are used instead.
"""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from wkparse import terminal
from wkparse.config import Config, ConfigError, Resolver, check_target
from wkparse.discover import STDIN
from wkparse.engine import lint
from wkparse.explanation import Explanation, explain
from wkparse.heap import keep_freed_memory
from wkparse.i18n import language, resolve
from wkparse.models.aicb.reading import verdict
from wkparse.models.simai.options import split_command
from wkparse.parse import (
    ParseResult,
    parse_bytes,
    parse_file_and_bytes,
    read_stdin,
)
from wkparse.render.explain import shown

if TYPE_CHECKING:
    from rich.console import Console

FORMATS = ("text", "markdown", "json", "html")
#: the format an output file's name asks for when --format is not given
_BY_SUFFIX = {".md": "markdown", ".markdown": "markdown", ".json": "json", ".html": "html"}


def format_for(format: str | None, output: Path | None) -> str:
    """`format`, else the one `output`'s name ends in (`-o report.html` writes the page, not
    the terminal's text under an .html name), else text."""
    if format is not None:
        return format
    suffix = "" if output is None else output.suffix.lower()
    return _BY_SUFFIX.get(suffix, "text")


def run(
    path: Path | None,
    format: str,
    output: Path | None = None,
    aicb_command: str | None = None,
    lang: str | None = None,
    target: str | None = None,
    simai_options: str | None = None,
    at: str | None = None,
) -> int:
    """Explain `path` in `format` (for the SimAI `at` names, over the configuration's
    `simai`); `lang` (en, zh, auto) beats the configuration's `lang`,
    `target` (simai, simai-ns3, astra-sim-1.0) its `target`; `simai_options` are SimAI's own
    options for "What SimAI-Analytical will report"."""

    errors = terminal.console(stderr=True)
    if format not in FORMATS:
        terminal.error(errors, f"unknown format {format!r}")
        return 2
    if target is not None:
        try:
            check_target(target)
        except ConfigError as exc:
            terminal.error(errors, f"--target: {exc}")
            return 2
    if simai_options is not None:
        try:
            split_command(simai_options)
        except ValueError as exc:  # shlex: an unclosed quote
            terminal.error(errors, f"--simai-options: cannot split it: {exc}")
            return 2
    if path is None:
        if aicb_command is None:
            terminal.error(errors, "give a FILE, or --aicb-command to explain its file")
            return 2
        spoken = _language(lang, Config(), errors)
        if spoken is None:
            return 2
        with language(spoken):
            return _from_command(aicb_command, format, output, errors, target)
    stdin = str(path) == "-"
    try:
        config = Resolver().for_path(None if stdin else path)
    except ConfigError as exc:  # the same error, exit 2, as lint and fmt give
        terminal.error(errors, f"{path}: {exc}")
        return 2
    config = config.with_target(target)
    try:
        config = config.with_simai(at)
    except ConfigError as exc:
        terminal.error(errors, f"--at {exc}")
        return 2
    spoken = _language(lang, config, errors)
    if spoken is None:
        return 2
    # The parser words its findings too: it reads the file in the language spoken.
    with language(spoken):
        return _explain_file(
            path, stdin, config, aicb_command, format, output, errors, simai_options
        )


def _explain_file(
    path: Path,
    stdin: bool,
    config: Config,
    aicb_command: str | None,
    format: str,
    output: Path | None,
    errors: Console,
    simai_options: str | None = None,
) -> int:
    data: bytes | None = None
    try:
        if stdin:
            data = read_stdin(config.limits)
            result: ParseResult = parse_bytes(data, limits=config.limits)
        else:
            keep_freed_memory(_size(path))
            # the bytes for "What SimAI-Analytical will report" (None over the read limits:
            # the section is left out, as the parser reports the size)
            result, data = parse_file_and_bytes(path, limits=config.limits)
    except OSError as exc:
        terminal.error(errors, f"{path}: {terminal.reason(exc)}")
        return 2
    name = STDIN if stdin else str(path)
    return _render(
        shown(result, name, config, aicb_command, data, simai_options), format, output, errors
    )


def _size(path: Path) -> int | None:
    """The file's size, None if it cannot be told (the reading says why)."""
    try:
        return path.stat().st_size
    except OSError:
        return None


def _language(lang: str | None, config: Config, errors: Console) -> str | None:
    """The language to speak (the option beats the configuration), None when unknown."""
    try:
        return resolve(lang if lang is not None else config.lang)
    except ValueError as exc:
        terminal.error(errors, f"{exc}")
        return None


def _noted(e: Explanation, first: list[str]) -> Explanation:
    return replace(e, notes=(*first, *e.notes))


def _from_command(
    command: str, format: str, output: Path | None, errors: Console, target: str | None = None
) -> int:
    """Explain the file AICB writes for `command`, under the name AICB gives it."""
    # AICB's model only here: importing it costs every explain of a file 16 ms
    from wkparse.models.aicb import AicbError, generate

    try:
        made = generate(command)
    except AicbError as exc:
        terminal.error(errors, f"{exc}")
        return 2
    result = parse_bytes(made.text().encode("utf-8"))
    config = Config(opt_in=True).with_aicb_command(command).with_target(target)
    e = explain(
        result, made.filename, findings=lint(result, made.filename, config), aicb_command=command
    )
    return _render(_noted(e, verdict.about_command(made, command)), format, output, errors)


def _render(e: Explanation, format: str, output: Path | None, errors: Console) -> int:

    if format == "html":
        from wkparse.render.explain import html as explain_html

        return _write(explain_html.render(e), output, errors)
    if format == "json":
        from wkparse.render.explain import json as explain_json

        buffer = io.StringIO()
        explain_json.write(e, buffer)
        return _write(buffer.getvalue(), output, errors)
    if format == "markdown":
        from wkparse.render.explain import markdown as explain_markdown

        return _write(explain_markdown.render(e), output, errors)
    from wkparse.render.explain import text as explain_text

    if output is not None and str(output) != "-":
        # a file gets the text as a pipe does: no colour, no padding at the line ends
        from rich.console import Console

        buffer = io.StringIO()
        Console(file=buffer, color_system=None, highlight=False, width=80).print(
            explain_text.render(e)
        )
        page = "".join(line.rstrip(" ") + "\n" for line in buffer.getvalue().splitlines())
        return _write(page, output, errors)
    terminal.console(highlight=False).print(explain_text.render(e))
    return 0


def _write(page: str, output: Path | None, errors: Console) -> int:
    """The output to stdout (no `output`, or `-`), or atomically to the file `output`."""
    return terminal.write_page(page, None if str(output) == "-" else output, errors)
