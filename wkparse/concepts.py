"""The concept catalog: one TOML page per thing SimAI and AICB users ask the meaning of, under
the top-level `concepts/` folder (beside `rules/`).

A page says what one option, environment variable, header key, row field, collective, output
file or column, stdout line, formula, behaviour, or AICB option or preset means: the names
users write for it (English and Chinese), a definition in both languages, its unit and
default, the model function that computes it, the programs it belongs to, the source lines
that back it (repository, file, function, commit), the SimAI versions where it changed (names
of `wkparse.models.simai.versions.SWITCHES`), where SimAI's or AICB's own docs say otherwise,
related rules and concepts, and a bundled sample to compute it on.

Only the commands that show pages read them (`wkparse concept`, `wkparse concepts`, the
documentation site, triage's answers about meaning): lint never imports this module.

The small API for other parts of wkparse: `find(name)` (any of a page's names, in either
language), `meaning(name, lang)` (the definition, unit, default and sources in `en` or `zh`),
`nearest(name)` (the closest names, for an unknown one) and `concepts(kind=...)`.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from pathlib import Path
from typing import Any

from wkparse.catalog import _toml_loads
from wkparse.record import record
from wkparse.resources import concepts_dir
from wkparse.translated_pages import unwrap

#: the kinds of page, in the order `wkparse concepts` lists them
KINDS: tuple[str, ...] = (
    "option",
    "environment-variable",
    "configuration-key",
    "header-key",
    "row-field",
    "collective",
    "output-file",
    "output-column",
    "stdout-line",
    "formula",
    "behaviour",
    "aicb-option",
    "aicb-preset",
)
#: the programs a page can belong to
PROGRAMS: tuple[str, ...] = ("SimAI_analytical", "SimAI_simulator", "AICB")
LANGS: tuple[str, ...] = ("en", "zh")


@record
class Source:
    """Where a fact is read: a file and function of a repository at a commit, or a recorded
    run of `../shared` (`repo` then names the folder, `file` the case)."""

    repo: str
    file: str
    function: str = ""
    commit: str = ""
    #: what this source shows, where the page states more than one fact
    note: str = ""

    def cite(self) -> str:
        where = f"{self.repo} {self.file}"
        if self.function:
            where += f" ({self.function})"
        if self.commit:
            where += f" at {self.commit[:8]}"
        return where


@record
class Sample:
    """A bundled sample (`samples/`) and SimAI options to compute the page's numbers on."""

    file: str
    options: tuple[str, ...] = ()


@record
class Text:
    """One piece of prose in both languages (Chinese falls back to English where absent)."""

    en: str = ""
    zh: str = ""

    def __call__(self, lang: str) -> str:
        return self.zh if lang == "zh" and self.zh else self.en


@record
class ConceptPage:
    id: str
    kind: str
    title: Text
    definition: Text
    names: tuple[str, ...] = ()
    names_zh: tuple[str, ...] = ()
    programs: tuple[str, ...] = ()
    unit: Text = Text()
    default: Text = Text()
    #: the formula as written for people, and the model function (dotted path) computing it
    formula: str = ""
    model: str = ""
    #: `wkparse.models.simai.versions.SWITCHES` names: where SimAI changed it
    switches: tuple[str, ...] = ()
    #: version history the switches do not hold (an AICB revision, a removed option)
    changes: Text = Text()
    #: where SimAI's or AICB's own docs or help text say otherwise
    docs_say: Text = Text()
    related: tuple[str, ...] = ()
    sources: tuple[Source, ...] = ()
    example: Sample | None = None
    #: the questions the page answers, for triage: each a tuple of patterns that must all be
    #: found in a question (case-insensitive, in either language) for the page to answer it
    asks: tuple[tuple[re.Pattern[str], ...], ...] = ()

    def inline(self, lang: str) -> str:
        """The definition on one line, as an answer quotes it (its line breaks are the TOML's
        layout, not the text's)."""
        return " ".join(self.definition(lang).split())

    @property
    def short_name(self) -> str:
        """The name to show it by: the shortest without a space (`ep` before `ep:`, `TP`
        before `model_parallel_NPU_group:`), else the shortest."""
        names = self.names or (self.id,)
        plain = [n for n in names if " " not in n]
        return min(plain or names, key=len)

    @property
    def all_names(self) -> tuple[str, ...]:
        """Every name the page is found by: its id, its names, its Chinese names, titles."""
        return (self.id, *self.names, *self.names_zh, self.title.en, self.title.zh)


def _text(data: dict[str, Any], key: str) -> Text:
    """`key` and `key_zh`; the Chinese with the line breaks Markdown would make spaces taken
    out (`translated_pages.unwrap`)."""
    en, zh = data.get(key, ""), data.get(f"{key}_zh", "")
    if not isinstance(en, str) or not isinstance(zh, str):
        raise ValueError(f"{data.get('id')}: {key} must be a string")
    return Text(en.strip(), unwrap(zh.strip()))


def load_page(data: dict[str, Any]) -> ConceptPage:
    """A page from its TOML table; a ValueError names what is wrong with it."""
    ident = data.get("id")
    kind = data.get("kind")
    if not isinstance(ident, str) or not ident:
        raise ValueError("a concept page needs an id")
    if kind not in KINDS:
        raise ValueError(f"{ident}: kind must be one of {', '.join(KINDS)}")
    programs = tuple(data.get("programs", ()))
    unknown = set(programs) - set(PROGRAMS)
    if unknown:
        raise ValueError(f"{ident}: unknown programs {sorted(unknown)}")
    example = data.get("example")
    asks = data.get("asks", [])
    if not isinstance(asks, list) or not all(
        isinstance(a, list) and a and all(isinstance(w, str) and w for w in a) for a in asks
    ):
        raise ValueError(f"{ident}: asks must be a list of non-empty lists of patterns")
    try:
        compiled = tuple(tuple(re.compile(w, re.IGNORECASE) for w in a) for a in asks)
    except re.error as exc:
        raise ValueError(f"{ident}: a pattern of asks is not a regular expression: {exc}") from None
    return ConceptPage(
        id=ident,
        kind=kind,
        title=_text(data, "title"),
        definition=_text(data, "definition"),
        names=tuple(data.get("names", ())),
        names_zh=tuple(data.get("names_zh", ())),
        programs=programs,
        unit=_text(data, "unit"),
        default=_text(data, "default"),
        formula=data.get("formula", "").strip(),
        model=data.get("model", ""),
        switches=tuple(data.get("switches", ())),
        changes=_text(data, "changes"),
        docs_say=_text(data, "docs_say"),
        related=tuple(data.get("related", ())),
        sources=tuple(Source(**s) for s in data.get("source", ())),
        example=None
        if example is None
        else Sample(example["file"], tuple(example.get("options", ()))),
        asks=compiled,
    )


def page_files() -> list[Path]:
    return sorted(concepts_dir().glob("*.toml"))


@functools.cache
def _all() -> dict[str, ConceptPage]:
    pages: dict[str, ConceptPage] = {}
    for path in page_files():
        try:
            page = load_page(_toml_loads(path.read_text(encoding="utf-8")))
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"{path.name}: {exc}") from None
        if page.id != path.stem:
            raise ValueError(f"{path.name} describes {page.id}")
        pages[page.id] = page
    return pages


def concepts(kind: str | None = None) -> list[ConceptPage]:
    """Every page (of one kind), in the order of `KINDS`, then by id."""
    order = {k: i for i, k in enumerate(KINDS)}
    found = [p for p in _all().values() if kind is None or p.kind == kind]
    return sorted(found, key=lambda p: (order[p.kind], p.id))


@functools.lru_cache(maxsize=4096)
def answering(question: str) -> tuple[ConceptPage, ...]:
    """The pages whose `asks` a question matches (what triage answers a question with when it
    names no page: "is a run deterministic?"), most specific first (the most patterns); kept,
    as triage asks it of the same lines several times."""

    def matched(page: ConceptPage) -> int:
        return max((len(a) for a in page.asks if all(w.search(question) for w in a)), default=0)

    found = [(matched(p), p.id, p) for p in _all().values() if p.asks]
    return tuple(p for n, _, p in sorted(found, key=lambda f: (-f[0], f[1])) if n)


def normalized(name: str) -> str:
    """A name as looked up: full-width forms folded (NFKC), case and surrounding quotes,
    backticks and spaces dropped, inner runs of spaces made one."""
    text = unicodedata.normalize("NFKC", name).strip().strip("`'\"").strip()
    return " ".join(text.casefold().split())


@functools.cache
def index() -> dict[str, str]:
    """Every normalized name to its page's id (tests/test_concepts.py: no name names two)."""
    found: dict[str, str] = {}
    for page in _all().values():
        for name in page.all_names:
            if name:
                found.setdefault(normalized(name), page.id)
    return found


def find(name: str) -> ConceptPage | None:
    """The page `name` names (any of its names, in English or Chinese); None if none does."""
    ident = index().get(normalized(name))
    return None if ident is None else _all()[ident]


def nearest(name: str, n: int = 5) -> list[str]:
    """The names closest to an unknown `name`, for "did you mean"."""
    wanted = normalized(name)
    names = index()
    close = difflib.get_close_matches(wanted, list(names), n=n, cutoff=0.6)
    if not close:
        close = [k for k in names if wanted and (wanted in k or k in wanted)][:n]
    shown: dict[str, str] = {}
    for key in close:
        page = _all()[names[key]]
        spelled = next((s for s in page.all_names if s and normalized(s) == key), key)
        shown.setdefault(page.id, spelled)
    return list(shown.values())


@record
class Meaning:
    """What a name means, in one language: what triage and explain quote."""

    id: str
    kind: str
    title: str
    definition: str
    unit: str
    default: str
    formula: str
    sources: tuple[str, ...]


def meaning(name: str, lang: str = "en") -> Meaning | None:
    """The definition, unit, default, formula and sources of the page `name` names, in `lang`
    (`en` or `zh`); None where no page has that name."""
    page = find(name)
    if page is None:
        return None
    return Meaning(
        page.id,
        page.kind,
        page.title(lang),
        page.definition(lang),
        page.unit(lang),
        page.default(lang),
        page.formula,
        tuple(s.cite() for s in page.sources),
    )
