"""The concept pages (`concepts/*.toml`, `wkparse.concepts`): each page is well formed, every
name finds one page only, what a page points at exists (its model function, the SimAI switches,
the related pages and rules, the sources' commits), and the names the issue asks about answer in
both languages."""

from __future__ import annotations

import importlib
import re

import pytest

from wkparse import concepts
from wkparse.catalog import catalog
from wkparse.models.simai.versions import SWITCHES, VERSIONS

PAGES = concepts.concepts()
HEX40 = re.compile(r"^[0-9a-f]{40}$")
#: the repositories a source may cite, and the shared folders of recorded runs
REPOS = {"aliyun/SimAI", "aliyun/aicb", "wkparse"}


def _resolves(dotted: str) -> bool:
    """Whether `dotted` names an attribute of an importable module (`pkg.mod.Class.attr`)."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(found, attr):
                return False
            found = getattr(found, attr)
        return True
    return False


def test_there_are_pages_of_every_kind_the_issue_names() -> None:
    kinds = {p.kind for p in PAGES}
    assert {"option", "environment-variable", "output-file", "formula"} <= kinds


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_a_page_is_complete_in_both_languages(page: concepts.ConceptPage) -> None:
    assert page.title.en and page.title.zh
    assert page.definition.en and page.definition.zh
    assert re.search(r"[\u4e00-\u9fff]", page.definition.zh), "the Chinese is Chinese"
    assert page.names, "a page has the names users write"
    assert page.programs
    for pair in (page.unit, page.default, page.changes, page.docs_say):
        assert bool(pair.en) == bool(pair.zh), f"{page.id}: one language only"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_what_a_page_points_at_exists(page: concepts.ConceptPage) -> None:
    if page.model:
        assert _resolves(page.model), page.model
    known = {s.name for s in SWITCHES}
    assert set(page.switches) <= known
    ids = {p.id for p in PAGES}
    for other in page.related:
        assert other in ids or other in catalog(), f"{page.id}: related {other!r} is no page"
    assert page.sources, "every page says where its facts come from"
    for source in page.sources:
        assert source.repo in REPOS or source.repo.startswith("../shared/"), source.repo
        if source.repo.startswith("aliyun/"):
            assert HEX40.match(source.commit), f"{page.id}: cite the full commit"
    if page.example is not None:
        from tests.conftest import SAMPLES

        assert (SAMPLES / page.example.file).is_file()


def test_simai_commits_cited_are_modelled_versions() -> None:
    modelled = {v.commit for v in VERSIONS}
    for page in PAGES:
        for source in page.sources:
            if source.repo == "aliyun/SimAI":
                assert source.commit in modelled, f"{page.id}: {source.commit}"


def test_no_name_names_two_pages() -> None:
    seen: dict[str, str] = {}
    for page in PAGES:
        for name in {concepts.normalized(n) for n in page.all_names if n}:
            assert seen.setdefault(name, page.id) == page.id, f"{name!r}: {seen[name]}, {page.id}"


#: the names issue 39 asks about, each with the page it must find
ASKED = {
    "-n_p_s": "n_p_s",
    "--nic_per_server": "n_p_s",
    "NIC 数": "n_p_s",
    "AS_LOG_LEVEL": "as-log-level",
    "AS_NVLSTREE_ENABLE": "as-nvlstree-enable",
    "detailed CSV": "detailed-csv",
    "FCT_OUTPUT_FILE": "fct-output-file",
    "EndToEnd.csv": "end-to-end-csv",
    "busbw": "busbw",
    "algbw": "algbw",
    "bubble": "bubble",
    "流水线气泡": "bubble",
    "Expose_PP_comm": "expose-pp-comm",
    "ns-3 DP": "ns3-dp",
    "grad_gather": "grad-gather",
    "grad_param_comm": "grad-param-comm",
}


@pytest.mark.parametrize(("name", "ident"), ASKED.items())
def test_the_names_the_issue_asks_about_find_their_page(name: str, ident: str) -> None:
    page = concepts.find(name)
    assert page is not None and page.id == ident
    for lang in concepts.LANGS:
        meant = concepts.meaning(name, lang)
        assert meant is not None and meant.definition == page.definition(lang)


def test_a_name_is_found_whatever_its_case_quotes_or_width() -> None:
    assert concepts.find("`as_log_level`") is concepts.find("AS_LOG_LEVEL")
    wide = "".join(chr(ord(c) + 0xFEE0) if c.isalpha() else c for c in "AS_LOG_LEVEL")
    assert concepts.find(wide) is concepts.find("AS_LOG_LEVEL")


def test_an_unknown_name_gets_the_nearest_names() -> None:
    assert concepts.find("AS_LOG_LEVLE") is None
    assert "AS_LOG_LEVEL" in concepts.nearest("AS_LOG_LEVLE")
    assert concepts.meaning("no such thing at all") is None


def test_a_chinese_definition_has_no_line_break_between_characters() -> None:
    for page in PAGES:
        assert not re.search(r"[\u4e00-\u9fff]\n[\u4e00-\u9fff]", page.definition.zh), page.id


def test_a_malformed_page_is_refused_with_its_fault() -> None:
    with pytest.raises(ValueError, match="kind must be one of"):
        concepts.load_page({"id": "x", "kind": "nonsense"})
    with pytest.raises(ValueError, match="unknown programs"):
        concepts.load_page({"id": "x", "kind": "formula", "programs": ["ns4"]})


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_no_angle_bracket_outside_code(page: concepts.ConceptPage) -> None:
    """Markdown reads `<name>` outside backticks as an HTML tag: the site would drop it."""
    for lang in concepts.LANGS:
        for text in (page.definition, page.unit, page.default, page.changes, page.docs_say):
            prose = re.sub(r"`[^`]*`", "", text(lang))
            assert not re.search(r"<[A-Za-z_/]", prose), f"{page.id} ({lang}): {prose[:120]}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.id)
def test_no_python_value_reads_as_a_word(page: concepts.ConceptPage) -> None:
    """A default of `None:` reads as Python's None to a user: a page says "no default" in words
    (a value the user writes, such as AICB's `False`, stays in code)."""
    prose = re.sub(r"`[^`]*`", "", page.default("en"))
    assert not re.search(r"\b(None|True|False)\b", prose), f"{page.id}: {prose[:120]}"
