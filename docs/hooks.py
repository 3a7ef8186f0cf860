# ruff: noqa: RUF001 - Chinese text is written with its own full-width punctuation
"""MkDocs hook: write the rule and concept pages of the site from `rules/` and `concepts/`.

Before each build, `docs/rules/` and `docs/concepts/` get one Markdown page per rule and per
concept, in English (`NAME.md`) and Chinese (`NAME.zh.md`, which mkdocs-static-i18n serves under
`/zh/`), and an index of each. The words are the ones `wkparse rule` and `wkparse concept` print
(the same functions make them); links between pages become site links. A file is rewritten only
when its text changes, so `mkdocs serve` does not rebuild forever.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
LANGS = ("en", "zh")
HEADS = {
    "en": {
        "concepts": "Concepts",
        "rules": "Rules",
        "concepts intro": "What SimAI's and AICB's names mean, one page each, by kind. "
        "`wkparse concept NAME` prints a page; `wkparse concepts --kind KIND` lists them.",
        "rules intro": "Every lint rule of wkparse. `wkparse rule CODE` prints a page.",
    },
    "zh": {
        "concepts": "概念",
        "rules": "规则",
        "concepts intro": "SimAI 和 AICB 中各个名称的含义，每项一页，按类别排列。"
        "`wkparse concept NAME` 打印一页；`wkparse concepts --kind KIND` 列出它们。",
        "rules intro": "wkparse 的全部检查规则。`wkparse rule CODE` 打印一页。",
    },
}


def _suffix(lang: str) -> str:
    return ".md" if lang == "en" else f".{lang}.md"


def _write(path: Path, text: str, written: set[Path]) -> None:
    written.add(path)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _concept_link(from_folder: str) -> Any:
    from wkparse.catalog import catalog
    from wkparse.concepts import find

    def link(target: str) -> str:
        if target in catalog():
            return f"[{target}](../rules/{target}.md)"
        page = find(target)
        if page is None:
            return f"`{target}`"
        there = f"{page.id}.md" if from_folder == "concepts" else f"../concepts/{page.id}.md"
        return f"[{page.short_name}]({there})"

    return link


def _concept_pages(written: set[Path]) -> None:
    from wkparse.concepts import KINDS, concepts
    from wkparse.render.concept.markdown import KIND_NAMES, page_markdown

    link = _concept_link("concepts")
    folder = DOCS / "concepts"
    for lang in LANGS:
        index = [f"# {HEADS[lang]['concepts']}", "", HEADS[lang]["concepts intro"], ""]
        for kind in KINDS:
            pages = concepts(kind)
            if not pages:
                continue
            index += [f"## {KIND_NAMES[lang][kind]}", ""]
            index += [f"- [{p.title(lang)}]({p.id}.md)" for p in pages]
            index.append("")
        _write(folder / f"index{_suffix(lang)}", "\n".join(index), written)
        for page in concepts():
            text = page_markdown(page, lang, link=link)
            _write(folder / f"{page.id}{_suffix(lang)}", text + "\n", written)


def _rule_pages(written: set[Path]) -> None:
    from wkparse.catalog import catalog
    from wkparse.commands.rules import page_markdown
    from wkparse.i18n import _, language
    from wkparse.translated_pages import localized

    link = _concept_link("rules")
    folder = DOCS / "rules"
    for lang in LANGS:
        with language(lang):
            index = [f"# {HEADS[lang]['rules']}", "", HEADS[lang]["rules intro"], ""]
            for code, page in sorted(catalog().items()):
                index.append(f"- [{code} {page.name}]({code}.md): {_(page.summary)}")
                text = page_markdown(localized(page, lang), link)
                _write(folder / f"{code}{_suffix(lang)}", text, written)
        _write(folder / f"index{_suffix(lang)}", "\n".join(index) + "\n", written)


def generate() -> None:
    """Write every generated page; remove the ones no rule or concept stands for any more."""
    written: set[Path] = set()
    _concept_pages(written)
    _rule_pages(written)
    for folder in ("concepts", "rules"):
        for path in (DOCS / folder).glob("*.md"):
            if path not in written:
                path.unlink()


def on_pre_build(config: Any) -> None:
    generate()
