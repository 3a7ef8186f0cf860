"""`wkparse explain FILE`: read one file (`-` is stdin), explain it, print it in one format.

Exit codes: 0 whenever the file could be read and explained, whatever its lint findings say
(explain describes; `wkparse lint` is the gate that fails on errors); 2 when the path cannot
be read (missing, a directory, no permission) or the format is unknown. The lint findings use
the same configuration `wkparse lint` would use for the file (the nearest `.wkparse.toml` or
`pyproject.toml`); a broken configuration is reported and the defaults are used instead.
"""

from __future__ import annotations

import io
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from wkparse.config import Config, ConfigError, Resolver
from wkparse.engine import lint
from wkparse.explain import Explanation, explain
from wkparse.i18n import language, resolve
from wkparse.parse import ParseResult, parse_bytes, parse_file, read_stdin

if TYPE_CHECKING:
    from rich.console import Console

FORMATS = ("text", "markdown", "json", "html")


def run(path: Path, format: str, output: Path | None = None, lang: str | None = None) -> int:
    """Explain `path` in `format`; `lang` (en, zh, auto) beats the configuration's `lang`."""
    from rich.console import Console

    errors = Console(stderr=True)
    if format not in FORMATS:
        errors.print(f"[bold red]error:[/] unknown format {format!r}", highlight=False)
        return 2
    stdin = str(path) == "-"
    try:
        config = Resolver().for_path(None if stdin else path)
    except ConfigError as exc:
        errors.print(f"[yellow]warning:[/] {exc}; using the default settings", highlight=False)
        config = Config()
    try:
        if stdin:
            result: ParseResult = parse_bytes(read_stdin(config.limits), limits=config.limits)
        else:
            result = parse_file(path, limits=config.limits)
    except OSError as exc:
        errors.print(f"[bold red]error:[/] {path}: {exc.strerror or exc}", highlight=False)
        return 2
    try:
        spoken = resolve(lang if lang is not None else config.lang)
    except ValueError as exc:
        errors.print(f"[bold red]error:[/] {exc}", highlight=False)
        return 2
    shown = None if stdin else str(path)
    with language(spoken):
        e = explain(result, shown, findings=lint(result, shown, replace(config, opt_in=True)))
        return _render(e, format, output, errors)


def _render(e: Explanation, format: str, output: Path | None, errors: Console) -> int:
    if format == "html":
        from wkparse.render import explain_html

        return _write(explain_html.render(e), output, errors)
    if format == "json":
        from wkparse.render import explain_json

        buffer = io.StringIO()
        explain_json.write(e, buffer)
        return _write(buffer.getvalue(), output, errors)
    if format == "markdown":
        from wkparse.render import explain_markdown

        return _write(explain_markdown.render(e), output, errors)
    if output is not None and str(output) != "-":
        errors.print("[bold red]error:[/] --output needs --format html, markdown or json")
        return 2
    from rich.console import Console

    from wkparse.render import explain_text

    Console(highlight=False).print(explain_text.render(e))
    return 0


def _write(page: str, output: Path | None, errors: Console) -> int:
    """The output to stdout, or atomically to the file `output`."""
    if output is None or str(output) == "-":
        sys.stdout.write(page)
        return 0
    from wkparse.atomic import atomic_write

    try:
        atomic_write(output, [page.encode("utf-8")])
    except OSError as exc:
        errors.print(f"[bold red]error:[/] {output}: {exc.strerror or exc}", highlight=False)
        return 2
    return 0
