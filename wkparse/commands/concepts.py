"""`wkparse concepts [--kind K]` (the concept pages as a list) and `wkparse concept NAME
[--lang zh] [--format text|markdown|json] [FILE [-- SIMAI-OPTIONS]]` (one page).

A page is found by any of its names, in English or Chinese (`-n_p_s`, `--nic_per_server`,
`NIC 数`); an unknown name exits 2 with the nearest names. With FILE, the page adds that file's
numbers as the models compute them (its bubble, its DP, the busbw of each collective), under
SimAI's options after `--` or wkparse's stated set. Exit 0 when the page is shown, 2 for an
unknown name or kind, an unreadable file or options SimAI's parser refuses.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from wkparse import terminal
from wkparse.commands.rules import spoken_language

if TYPE_CHECKING:
    from wkparse.explanation.concept_numbers import Number

FORMATS = ("text", "markdown", "json")


def list_pages(kind: str | None, lang: str | None, as_json: bool) -> int:
    """Every page (of one kind): id, kind and title, in `lang`."""
    from wkparse.concepts import KINDS, concepts
    from wkparse.render.concept.markdown import KIND_NAMES

    if kind is not None and kind not in KINDS:
        terminal.error(
            terminal.console(stderr=True), f"unknown kind {kind!r}; use one of {', '.join(KINDS)}"
        )
        return 2
    spoken = spoken_language(lang)
    if spoken is None:
        return 2
    pages = concepts(kind)
    if as_json:
        from wkparse.render.concept.json import list_json

        print(json.dumps(list_json(pages), indent=2, ensure_ascii=False))
        return 0
    from rich import box
    from rich.table import Table

    table = Table(box=box.SIMPLE_HEAD, title="wkparse concepts")
    for head in ("name", "kind", "title"):
        table.add_column(head, overflow="fold")
    for page in pages:
        table.add_row(page.short_name, KIND_NAMES[spoken][page.kind], page.title(spoken))
    terminal.console().print(table)
    return 0


def show(
    name: str,
    lang: str | None,
    format: str,
    path: Path | None = None,
    words: list[str] | None = None,
    at: str | None = None,
) -> int:
    """One page, in `lang` and `format`; with `path`, that file's numbers."""
    from wkparse.concepts import find, nearest

    errors = terminal.console(stderr=True)
    if format not in FORMATS:
        terminal.error(errors, f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
        return 2
    spoken = spoken_language(lang)
    if spoken is None:
        return 2
    page = find(name)
    if page is None:
        hint = nearest(name)
        tip = f"; did you mean {', '.join(hint)}?" if hint else "; `wkparse concepts` lists them"
        terminal.error(errors, f"unknown concept {name!r}{tip}")
        return 2
    numbers = None
    if path is not None:
        got = _numbers(page.id, path, words or [], at)
        if isinstance(got, str):
            terminal.error(errors, got)
            return 2
        numbers = got
    shown = "-" if path is None else str(path)
    if format == "json":
        from wkparse.render.concept.json import page_json

        print(json.dumps(page_json(page, numbers, shown), indent=2, ensure_ascii=False))
        return 0
    from wkparse.render.concept.markdown import page_markdown

    text = page_markdown(page, spoken, numbers=numbers, file=shown)
    if format == "markdown":
        sys.stdout.write(text + "\n")
    else:
        from rich.markdown import Markdown

        terminal.console().print(Markdown(text))
    return 0


def _numbers(page_id: str, path: Path, words: list[str], at: str | None) -> list[Number] | str:
    """The page's numbers in the file at `path`, or why there are none (a usage error)."""
    from wkparse.explanation.concept_numbers import file_run, numbers
    from wkparse.models.simai.options import split_command
    from wkparse.models.simai.versions import DEFAULT, UnknownVersion, resolve
    from wkparse.parse import Limits, read_input

    try:
        version = DEFAULT if at is None else resolve(at)
    except UnknownVersion as exc:
        return str(exc)
    try:
        words = split_command(words[0] if len(words) == 1 and " " in words[0] else words)
    except ValueError as exc:
        return f"cannot split SimAI's command line: {exc}"
    try:
        data = read_input(path, Limits())
    except OSError as exc:
        return f"{path}: {terminal.reason(exc)}"
    run = file_run(data, str(path), words, version)
    if run.refusal is not None:
        return f"SimAI's option parser refuses the options: {run.refusal.reason}"
    return numbers(page_id, run)
