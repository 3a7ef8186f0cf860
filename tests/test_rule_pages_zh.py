"""The rule pages in Chinese (`rules/zh/`, `wkparse rule CODE --lang zh`).

Every rule has a complete translation: its prose is Chinese (identifiers, options and numbers
kept as written, in backticks or as bare tokens), it holds nothing but the translated fields,
and the page it makes shows the very examples of the English page.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from wkparse import i18n
from wkparse.catalog import RulePage, _toml_loads, catalog
from wkparse.cli import app
from wkparse.commands.rules import page_markdown
from wkparse.translated_pages import (
    NOTE_FIELDS,
    PROSE_FIELDS,
    localized,
    translation,
    translation_file,
    unwrap,
)

runner = CliRunner(env={"COLUMNS": "200"})
PAGES = catalog()
#: CJK ideographs and full-width punctuation (as tests/test_i18n.py counts them)
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
#: what a Chinese page keeps as written: code spans, quoted program output, and paths or
#: dotted names (`Workload.cc`, `aliyun/SimAI#31`)
VERBATIM = re.compile(r"`[^`]*`|\"[^\"]*\"|“[^”]*”|[\w-]*[./#][\w./#-]*", re.A)
#: two or more English words in a row: prose, where identifiers are single tokens
PROSE = re.compile(r"(?<![\w./-])[A-Za-z][a-z]+(?:[ -][a-z]{2,})+(?![\w/-])")
#: words Chinese technical writing keeps in English: collectives' names, and "workload" (as
#: SimAI's Chinese-speaking users write it: `workload 文件`)
KEPT = re.compile(r"all-to-all|all-gather|all-reduce|reduce-scatter|\bworkloads?\b")
#: the least share of CJK among the letters of a field's prose (identifiers taken out): an
#: English sentence left in a field, or a field that is mostly names, falls below it
MIN_CJK_SHARE = 0.5


def prose_problems(text: str) -> list[str]:
    """Why `text` does not read as Chinese prose: English word runs, or too little CJK."""
    rest = KEPT.sub(" ", VERBATIM.sub(" ", text))
    found = [f"English prose {m!r}" for m in PROSE.findall(rest)]
    cjk = len(CJK.findall(rest))
    latin = len(re.findall(r"[A-Za-z]", rest))
    if cjk < MIN_CJK_SHARE * (cjk + latin):
        found.append(f"CJK share {cjk / max(cjk + latin, 1):.2f} < {MIN_CJK_SHARE}")
    return found


def fences(markdown: str) -> list[str]:
    """The page's code blocks, fences included."""
    return [m.group(0) for m in re.finditer(r"^(`{3,})text\n.*?^\1$", markdown, re.S | re.M)]


@pytest.mark.parametrize("rule", list(PAGES.values()), ids=list(PAGES))
def test_every_rule_has_a_complete_chinese_page(rule: RulePage) -> None:
    data = translation(rule.code, "zh")
    assert data is not None, f"no {translation_file(rule.code, 'zh')}"
    assert set(data) <= {*PROSE_FIELDS, *NOTE_FIELDS}, "a translation holds only prose"
    for name in PROSE_FIELDS:
        assert isinstance(data.get(name), str) and data[name].strip(), f"{name} missing"
        assert not prose_problems(data[name]), (name, prose_problems(data[name]))
    for name, examples in NOTE_FIELDS.items():
        english = [e.note for e in getattr(rule, examples)]
        notes = data.get(name, [""] * len(english))
        assert len(notes) == len(english), f"{name}: one note per example"
        assert [bool(n.strip()) for n in notes] == [bool(n) for n in english], name
        for note in filter(None, notes):
            assert not prose_problems(note), (name, prose_problems(note))


def _prose(texts: list[str]) -> str:
    return re.sub(r"\s+", " ", " ".join(texts))


def _spans(text: str) -> set[str]:
    return {m.strip() for m in re.findall(r"`([^`]+)`", text)}


@pytest.mark.parametrize("rule", list(PAGES.values()), ids=list(PAGES))
def test_code_in_the_chinese_prose_is_the_english_pages(rule: RulePage) -> None:
    """Every option, key, file name or command the English prose quotes as code is quoted
    in the Chinese, and the Chinese quotes none the English page does not hold."""
    english = _prose(
        [rule.what, rule.why, rule.fix, *(e.note for e in (*rule.fail, *rule.passing))]
    )
    zh = localized(rule, "zh")
    chinese = _prose([zh.what, zh.why, zh.fix, *(e.note for e in (*zh.fail, *zh.passing))])
    assert not {s for s in _spans(english) if f"`{s}`" not in chinese}
    assert not {s for s in _spans(chinese) if s not in english}


@pytest.mark.parametrize("rule", list(PAGES.values()), ids=list(PAGES))
def test_chinese_page_shows_the_english_pages_examples(rule: RulePage) -> None:
    english = page_markdown(rule)
    with i18n.language("zh"):
        chinese = page_markdown(localized(rule, "zh"))
    assert fences(chinese) == fences(english) and fences(english)
    assert chinese.startswith(f"# {rule.code} {rule.name}")
    for reference in rule.references:
        assert f"- {reference}" in chinese


@pytest.mark.parametrize(
    ("wrapped", "read"),
    [
        ("第一行，\n第二行", "第一行，第二行"),  # noqa: RUF001
        ("两个\n汉字", "两个汉字"),
        ("（`x`）\n  继续", "（`x`）继续"),  # noqa: RUF001
        ("`ep:`\n（TP）", "`ep:`（TP）"),  # noqa: RUF001
        ("中文\nAICB 和", "中文\nAICB 和"),
        ("条目；\n- 下一条", "条目；\n- 下一条"),  # noqa: RUF001
        ("条目；\n  - 下一条", "条目；\n  - 下一条"),  # noqa: RUF001
        ("段落。\n\n下一段", "段落。\n\n下一段"),
        ("English\nwords", "English\nwords"),
    ],
)
def test_line_breaks_inside_chinese_are_taken_out(wrapped: str, read: str) -> None:
    """Markdown would print a break as a space; Chinese puts none between its characters."""
    assert unwrap(wrapped) == read


@pytest.mark.parametrize("rule", list(PAGES.values()), ids=list(PAGES))
def test_chinese_prose_has_no_break_that_prints_as_a_stray_space(rule: RulePage) -> None:
    page = localized(rule, "zh")
    for text in (page.what, page.why, page.fix):
        assert not re.search(
            r"[\u3400-\u9fff]\n[\u3400-\u9fff]|[\uff0c\u3002\uff1b\uff1a\uff09]\n(?!- )\S", text
        )


def test_the_checks_find_english() -> None:
    """The checks above fail on an English page and on an example that differs."""
    page = PAGES["WK201"]
    assert prose_problems(page.why)
    assert prose_problems("SimAI 按名称查找每个键, and leaves a missing one unset")
    changed = page_markdown(page).replace("ga: 1", "ga: 2")
    assert fences(changed) != fences(page_markdown(page))


def test_rule_in_chinese_on_the_command_line() -> None:
    result = runner.invoke(app, ["rule", "WK201", "--lang", "zh"])
    assert result.exit_code == 0
    out = result.stdout
    for head in ("检查什么", "为什么重要", "不通过的示例", "通过的示例", "如何修复", "参考资料"):
        assert head in out
    assert "Transformer 文件头缺少 SimAI 读取的键" in out  # the summary, from the .po
    assert "WK201 missing-key" in out and "aliyun/SimAI#31" in out
    assert "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2" in out
    assert "What it does" not in out
    # the prose itself, as rich prints it: Markdown's backticks gone, lines wrapped anew
    for name in PROSE_FIELDS:
        first = str(translation("WK201", "zh")[name]).strip().splitlines()[0]  # type: ignore[index]
        assert bare(first) in bare(out)


def bare(text: str) -> str:
    return re.sub(r"\s|`", "", text)


def test_rule_defaults_to_english_and_auto_follows_the_environment() -> None:
    assert "What it does" in runner.invoke(app, ["rule", "WK201"]).stdout
    zh = CliRunner(env={"COLUMNS": "200", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "zh_CN.UTF-8"})
    assert "检查什么" in zh.invoke(app, ["rule", "WK201", "--lang", "auto"]).stdout
    assert "What it does" in zh.invoke(app, ["rule", "WK201"]).stdout
    en = CliRunner(env={"COLUMNS": "200", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C.UTF-8"})
    assert "What it does" in en.invoke(app, ["rule", "WK201", "--lang", "auto"]).stdout


def test_unknown_lang_is_a_one_line_usage_error() -> None:
    result = runner.invoke(app, ["rule", "WK201", "--lang", "fr"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "error: unknown language 'fr'; use one of en, zh, auto"
    ]


def test_opt_in_note_and_example_notes_in_chinese() -> None:
    with i18n.language("zh"):
        text = page_markdown(localized(PAGES["WK901"], "zh"))
    assert "默认关闭" in text and "`wkparse lint --select WK901`" in text
    noted = next(p for p in PAGES.values() if any(e.note for e in p.fail))
    with i18n.language("zh"):
        text = page_markdown(localized(noted, "zh"))
    for example in noted.fail:
        assert not example.note or example.note not in text


def test_a_rule_without_translation_keeps_its_english_prose() -> None:
    page = PAGES["WK201"]
    assert localized(page, "en") is page
    missing = replace(page, code="WK000")
    assert localized(missing, "zh") is missing


def test_translations_are_toml_of_known_files_only() -> None:
    """No stray page: each file in rules/zh/ translates a rule of the catalog."""
    folder = translation_file("WK100", "zh").parent
    names = {p.stem for p in folder.glob("*.toml")}
    assert names == set(PAGES)
    for path in folder.glob("*.toml"):
        _toml_loads(path.read_text(encoding="utf-8"))


def test_rule_follows_the_configured_language_and_the_option_beats_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".wkparse.toml").write_text('lang = "zh"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert "检查什么" in runner.invoke(app, ["rule", "WK201"]).stdout
    assert "What it does" in runner.invoke(app, ["rule", "WK201", "--lang", "en"]).stdout
