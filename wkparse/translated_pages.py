"""Rule pages in another language: `rules/<lang>/WKnnn.toml` holds only the translated prose.

Why a file of its own holding prose alone: a page's examples are the rule's tests
(tests/test_catalog.py) and its code, name, severity, targets and references are facts the
English page already states; a second copy of them could drift from the rules' behaviour. So a
translation carries `what`, `why` and `fix`, and for the examples only their notes
(`fail_notes`, `pass_notes`: one string per example of the English page, in order, "" where it
has none); everything else, the examples' text above all, is read from the English page. The
one-line summary is a gettext message like the others (`wkparse rules`, SARIF), so it stays in
`wkparse/locale/<lang>/LC_MESSAGES/wkparse.po` and is translated where it is shown.
A separate folder also keeps the English pages' checksum (`rules/summaries.json`) and the pages
a translator never needs to open untouched by a translation.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from wkparse.catalog import Example, RulePage, _toml_loads
from wkparse.resources import rules_dir

#: the fields a translation must give, each a prose string
PROSE_FIELDS = ("what", "why", "fix")
#: the example notes a translation gives, one per example of the English page
NOTE_FIELDS = {"fail_notes": "fail", "pass_notes": "passing"}
_HAN = "\u3400-\u9fff"
_FULL_WIDTH = "\u3000-\u303f\uff00-\uffef"
#: a line break (with a list item's continuation indent) inside a paragraph, between two
#: Chinese characters or beside a full-width punctuation mark
_CJK_BREAK = re.compile(
    rf"(?<=[{_HAN}])\n[ \t]*(?=[{_HAN}])"
    rf"|(?<=[{_FULL_WIDTH}])\n(?![ \t]*(?:[-*+] |\d+\. |\n))[ \t]*"
    rf"|\n[ \t]*(?=[{_FULL_WIDTH}])"
)


def translation_file(code: str, lang: str) -> Path:
    return rules_dir() / lang / f"{code}.toml"


@functools.cache
def translation(code: str, lang: str) -> dict[str, Any] | None:
    """The translated fields of `code`'s page in `lang`, None where there is no page."""
    path = translation_file(code, lang)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    return _toml_loads(text)


def unwrap(prose: str) -> str:
    """`prose` with the line breaks between Chinese characters or beside full-width punctuation
    taken out: the pages are wrapped for reading as files, and Markdown turns a break into a
    space, which Chinese does not put there (a break between a Chinese and a Latin word stays
    a space, as Chinese technical writing spaces them)."""
    return _CJK_BREAK.sub("", prose)


def _notes(examples: tuple[Example, ...], notes: list[str] | None) -> tuple[Example, ...]:
    if notes is None or len(notes) != len(examples):
        return examples  # a translation that does not match the examples keeps their notes
    return tuple(replace(e, note=n.strip()) if e.note else e for e, n in zip(examples, notes))


def localized(page: RulePage, lang: str) -> RulePage:
    """`page` with its prose in `lang` (English where no translation exists)."""
    if lang == "en":
        return page
    data = translation(page.code, lang)
    if data is None:
        return page

    def prose(name: str, english: str) -> str:
        value = data.get(name)
        return unwrap(value.strip()) if isinstance(value, str) else english

    return replace(
        page,
        what=prose("what", page.what),
        why=prose("why", page.why),
        fix=prose("fix", page.fix),
        fail=_notes(page.fail, data.get("fail_notes")),
        passing=_notes(page.passing, data.get("pass_notes")),
    )
