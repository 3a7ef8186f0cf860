"""The language lint, explain and rules speak: stdlib `gettext` over `wkparse/locale/`.

Messages are written in English in the code, wrapped in `_()` (with `{name}` placeholders
filled by `.format` after translation, so a translator can move them; `N_()` marks a table's
labels, translated where they are used); the rule pages' one-line summaries are messages too.
`wkparse/locale/LANG/LC_MESSAGES/wkparse.po` holds the translations and `wkparse.mo` their
compiled form (the commands are at the top of the `.po`; a test checks the two agree and that
every message has a translation). Identifiers, keys and numbers stay as written. A message is
worded when it is made, so the parser and the checks run inside `language(...)`.

English is the default. `auto` picks the language from the environment the way gettext
does (the first non-empty of LC_ALL, LC_MESSAGES, LANG) and falls back to English for
anything but Chinese, so the output never depends on a locale the user did not choose.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gettext import NullTranslations

DOMAIN = "wkparse"
LOCALE_DIR = Path(__file__).parent / "locale"
#: the languages wkparse speaks; English needs no catalog
LANGUAGES = ("en", "zh")
CHOICES = (*LANGUAGES, "auto")

#: the catalog in effect; None is English, the messages as written. `gettext` is imported
#: and a catalog read only when another language is asked for: start-up stays cheap.
_active: ContextVar[NullTranslations | None] = ContextVar("wkparse_language", default=None)


@cache
def translations(lang: str) -> NullTranslations | None:
    """The catalog of `lang`; None for English."""
    if lang == "en":
        return None
    import gettext

    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang])


def resolve(lang: str | None, environ: Mapping[str, str] | None = None) -> str:
    """`en`, `zh`, or for `auto` the environment's language when it is Chinese."""
    if lang is None:
        return "en"
    if lang != "auto":
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; use one of {', '.join(CHOICES)}")
        return lang
    env = os.environ if environ is None else environ
    chosen = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    return "zh" if chosen.lower().startswith("zh") else "en"


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Speak `lang` (`en` or `zh`) inside the block."""
    token = _active.set(translations(lang))
    try:
        yield
    finally:
        _active.reset(token)


def current() -> str:
    """The language in effect: `en` or one of the catalogs."""
    catalog = _active.get()
    if catalog is None:
        return "en"
    return catalog.info().get("language", "en") or "en"


def _(message: str) -> str:
    """`message` in the language in effect."""
    catalog = _active.get()
    return message if catalog is None else catalog.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    catalog = _active.get()
    if catalog is None:
        return singular if n == 1 else plural
    return catalog.ngettext(singular, plural, n)


def _plural(n: int, singular: str, plural: str) -> str:
    """`singular` or `plural` (each with an `{n}`) as the language counts `n` (pybabel
    extracts it as `-k _plural:2,3`)."""
    return ngettext(singular, plural, n).format(n=f"{n:,}")


def english_count(n: int, noun: str) -> str:
    """`1 row`, `2 rows`: a count and its noun in output that is English in every language
    (simai, parse, the server's hovers)."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def N_(message: str) -> str:
    """Mark `message` for the catalog where it is defined (a table's labels); `_` translates
    it where it is used, in the language in effect then."""
    return message
