"""`wkparse rules` (the catalog as a table) and `wkparse rule CODE` (one rule's page).

A page reads like ruff's rule docs: what it checks, why it matters to SimAI, a failing and a
passing example, how to fix it, references. An unknown code exits 2 with the nearest codes
or names as suggestions; a rule can also be named by its catalog name (`count-mismatch`).
Both speak `--lang` (en, zh, auto) as lint and explain do: the page's heads and summary through
gettext, its prose from `rules/<lang>/` (`wkparse.translated_pages`), its examples as they are.
"""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Callable

from wkparse import terminal
from wkparse.catalog import Example, RulePage, catalog
from wkparse.i18n import N_, _

#: the table's column heads (translated where used); severities, names and codes stay as they
#: are written in configurations
HEADS = {
    "code": N_("code"),
    "name": N_("name"),
    "severity": N_("severity"),
    "fixable": N_("fixable"),
    "summary": N_("summary"),
    "name and summary": N_("name and summary"),
}

SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "cyan"}
#: terminal columns from which the rules table gives the summary a column of its own
WIDE_TABLE = 120


#: how a page names its fix (translated where used)
FIXABLE_LABELS = {"no": N_("no automatic fix"), "safe": N_("safe fix"), "unsafe": N_("unsafe fix")}
#: the rules table's words for a severity and for a fix (translated where used; JSON keeps
#: the catalog's values)
SEVERITY_WORDS = {"error": N_("error"), "warning": N_("warning"), "info": N_("info")}
FIXABLE_WORDS = {"no": N_("no"), "safe": N_("safe"), "unsafe": N_("unsafe")}


def spoken_language(lang: str | None) -> str | None:
    """`lang` resolved (the option beats the configuration's `lang`); None, said on stderr,
    when it names no language wkparse speaks."""
    from wkparse.config import ConfigError, Resolver
    from wkparse.i18n import resolve

    try:
        return resolve(lang if lang is not None else Resolver().for_path(None).lang)
    except ValueError as exc:
        terminal.error(terminal.console(stderr=True), str(exc))
        return None
    except ConfigError:
        return "en"  # the catalog does not depend on the configuration otherwise


def list_catalog(as_json: bool, lang: str | None) -> int:
    """The catalog, its summaries in `lang`."""
    from wkparse.i18n import language

    spoken = spoken_language(lang)
    if spoken is None:
        return 2
    with language(spoken):
        return list_json() if as_json else list_all()


def list_all() -> int:
    from rich import box
    from rich.cells import cell_len
    from rich.table import Table

    console = terminal.console()
    # Below this width a summary column of its own would wrap a word to a line: the summary
    # goes under the name instead.
    wide = console.width >= WIDE_TABLE
    table = Table(box=box.SIMPLE_HEAD, title="wkparse rules")
    columns = ("code", "name", "severity", "fixable") if wide else ("code", "severity", "fixable")
    for column in columns:
        head = _(HEADS[column])
        table.add_column(head, no_wrap=True, min_width=cell_len(head))
    table.add_column(_(HEADS["summary" if wide else "name and summary"]), overflow="fold")
    for page in sorted(catalog().values(), key=lambda p: p.code):
        severity = str(page.severity)
        word, opt_in = _(SEVERITY_WORDS[severity]), _(" (opt-in)")
        styled = f"[{SEVERITY_STYLE[severity]}]{word}[/]"
        if page.opt_in:
            styled += f"[dim]{opt_in}[/]"
        summary = _(page.summary)
        fixable = _(FIXABLE_WORDS[page.fixable])
        if wide:
            table.add_row(page.code, page.name, styled, fixable, summary)
        else:
            table.add_row(page.code, styled, fixable, f"[bold]{page.name}[/]\n{summary}")
    console.print(table)
    return 0


def list_json() -> int:
    """The catalog as JSON: one object per rule, for scripts and editor integrations."""
    import json

    pages = sorted(catalog().values(), key=lambda p: p.code)
    listed = [
        {
            "code": p.code,
            "name": p.name,
            "severity": str(p.severity),
            "area": p.area,
            "fixable": p.fixable,
            "default": not p.opt_in,
            "summary": _(p.summary),
        }
        for p in pages
    ]
    print(json.dumps(listed, indent=2))
    return 0


def find(code: str) -> RulePage | None:
    pages = catalog()
    wanted = code.strip()
    found = pages.get(wanted.upper())
    if found is None:
        found = next((p for p in pages.values() if p.name == wanted.lower()), None)
    return found


def suggestions(code: str) -> list[str]:
    pages = catalog()
    wanted = code.strip()
    by_code = difflib.get_close_matches(wanted.upper(), list(pages), n=3, cutoff=0.6)
    names = {p.name: p.code for p in pages.values()}
    by_name = difflib.get_close_matches(wanted.lower(), list(names), n=3, cutoff=0.6)
    return list(dict.fromkeys([*by_code, *(names[n] for n in by_name)]))


def show(code: str, lang: str | None = None) -> int:
    """One rule's page, its prose in `lang` (`rules/<lang>/`), its examples the English page's."""
    from rich.markdown import Markdown

    from wkparse.i18n import language
    from wkparse.translated_pages import localized

    spoken = spoken_language(lang)
    if spoken is None:
        return 2
    page = find(code)
    if page is None:
        hint = suggestions(code)
        tip = f"; did you mean {' or '.join(hint)}?" if hint else "; `wkparse rules` lists them"
        terminal.error(terminal.console(stderr=True), f"unknown rule {code!r}{tip}")
        return 2
    with language(spoken):
        terminal.console().print(Markdown(page_markdown(localized(page, spoken))))
    return 0


def _example(title: str, example: Example) -> list[str]:
    lines = [f"## {title}", ""]
    if example.filename != "workload.txt":
        lines += [_("File name: `{name}`").format(name=example.filename), ""]
    if example.note:
        lines += [example.note, ""]
    fence = "````" if "```" in example.text else "```"
    lines += [fence + "text", example_listing(example.text), fence, ""]
    return lines


def example_listing(text: str) -> str:
    """An example as a page lists it: CRLF is shown as ␍␊ and a lone CR as ␍ (a terminal
    would move back to the line's start, and a CR-only file would look like any other)."""
    shown = text.replace("\r\n", "\u240d\u240a\n").replace("\r", "\u240d\n")
    return shown.strip("\n")


def _opt_in_note(page: RulePage) -> list[str]:
    if not page.opt_in:
        return []
    note = _(
        "Off by default: what it finds is true of correct files too (`wkparse explain` "
        "states it). Turn it on with `wkparse lint --select {code}` or "
        '`extend-select = ["{code}"]` in the configuration.'
    )
    return [note.format(code=page.code), ""]


def concepts_about(code: str) -> list[str]:
    """The ids of the concept pages that name the rule among their related pages."""
    from wkparse.concepts import concepts

    return [c.id for c in concepts() if code in c.related]


def _concept_name(ident: str) -> str:
    from wkparse.concepts import find

    page = find(ident)
    name = ident if page is None else page.short_name
    return f"`wkparse concept {shlex.quote(name)}`"


def page_markdown(page: RulePage, link: Callable[[str], str] = _concept_name) -> str:
    """The page as Markdown (rich renders it; the text also reads well as it is), its heads
    and summary in the language in effect; the prose is the page's own (see `localized`).
    The concepts it uses end it, each as `link` gives it (the command to run; the site's
    link on the documentation site)."""
    label = FIXABLE_LABELS.get(page.fixable)
    fixable = _(label) if label else page.fixable
    lines = [
        f"# {page.code} {page.name}",
        "",
        f"*{page.severity} · {page.area} · {fixable}*",
        "",
        *_opt_in_note(page),
        _(page.summary),
        "",
        "## " + _("What it does"),
        "",
        page.what,
        "",
        "## " + _("Why it matters"),
        "",
        page.why,
        "",
    ]
    for i, example in enumerate(page.fail):
        lines += _example(_numbered(_("Fails"), i), example)
    for i, example in enumerate(page.passing):
        lines += _example(_numbered(_("Passes"), i), example)
    lines += ["## " + _("Fix"), "", page.fix, ""]
    if page.references:
        lines += ["## " + _("References"), "", *(f"- {r}" for r in page.references), ""]
    about = concepts_about(page.code)
    if about:
        lines += ["## " + _("What its words mean"), "", ", ".join(map(link, about)), ""]
    return "\n".join(lines)


def _numbered(title: str, i: int) -> str:
    """The first example's head as it is, the next ones numbered: `Fails (2)`."""
    return title if i == 0 else f"{title} ({i + 1})"
