"""`--lang zh`: the gettext catalog is complete, compiled, and used by every explain format.

The messages are found the way `pybabel extract` finds them (`_`, `ngettext` and the
`_plural(n, singular, plural)` helper); every one must have a Chinese translation with the
same placeholders, and the shipped `.mo` must be the compiled `.po`.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from wkparse import i18n
from wkparse.catalog import Example, extract_summaries
from wkparse.cli import app
from wkparse.diagnostics import Diagnostic
from wkparse.engine import lint
from wkparse.parse import parse_bytes, parse_file
from wkparse.resources import rules_dir

from .conftest import corpus_files
from .test_catalog import ALL, LIMITS, PAGES, config_for
from .test_explain_html import FILES
from .test_explain_mermaid import chart, sections

PACKAGE = Path(i18n.__file__).parent
CATALOG = PACKAGE / "locale" / "zh" / "LC_MESSAGES"
KEYWORDS = {**DEFAULT_KEYWORDS, "_plural": (2, 3)}
PLACEHOLDER = re.compile(r"\{(\w*)\}")
#: CJK ideographs and full-width punctuation: a message holding none is English prose
CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def code_messages() -> dict[str | tuple[str, str], str]:
    """Every message the code wraps and every rule page's summary, with where it is first
    found (as `pybabel extract -F wkparse/locale/babel.cfg` finds them)."""
    found: dict[str | tuple[str, str], str] = {}
    for folder, method in ((PACKAGE, "python"), (rules_dir(), extract_summaries)):
        for name, line, message, _comments, _context in extract_from_dir(
            folder,
            method_map=[("**.py" if method == "python" else "**.toml", method)],
            keywords=KEYWORDS,
        ):
            found.setdefault(message, f"{name}:{line}")
    return found


def po() -> dict[str | tuple[str, str], object]:
    with (CATALOG / "wkparse.po").open("rb") as f:
        catalog = read_po(f)
    assert not any(m.fuzzy for m in catalog if m.id)
    return {m.id: m.string for m in catalog if m.id}


def test_every_message_in_the_code_has_a_chinese_translation() -> None:
    translated = po()
    missing = []
    for message, where in code_messages().items():
        string = translated.get(message)
        strings = string if isinstance(string, tuple) else (string,)
        if not all(strings):
            missing.append(f"{where}: {message!r}")
    assert not missing, "untranslated (see wkparse/locale/zh/.../wkparse.po):\n" + "\n".join(
        missing
    )


def test_catalog_holds_no_message_the_code_no_longer_uses() -> None:
    assert set(po()) <= set(code_messages())


def test_translations_keep_every_placeholder() -> None:
    for message, string in po().items():
        ids = message if isinstance(message, tuple) else (message,)
        strings = string if isinstance(string, tuple) else (string,)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for s in strings:
            assert isinstance(s, str)
            assert set(PLACEHOLDER.findall(s)) == wanted, (message, s)


def test_compiled_catalog_is_the_po() -> None:
    with (CATALOG / "wkparse.mo").open("rb") as f:
        compiled = {_hashable(m.id): _hashable(m.string) for m in read_mo(f) if m.id}
    assert compiled == po()


def test_each_message_is_defined_once() -> None:
    """gettext's msgfmt refuses a catalog that defines a message twice (babel takes it)."""
    text = (CATALOG / "wkparse.po").read_text(encoding="utf-8")
    ids = re.findall(r'^msgid "(.+)"$', text, flags=re.MULTILINE)
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


def _hashable(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def test_no_message_hides_inside_an_f_string() -> None:
    """The extractor cannot see `_()` inside an f-string's braces: such a message would ship
    untranslated without failing the coverage test."""
    for path in PACKAGE.rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not re.search(r"""\bf["'].*\{[^{}]*\b_\(""", line), f"{path}:{n}"


def explained(path: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["explain", str(path), *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("format", ["text", "markdown", "html"])
def test_seed_in_chinese_keeps_identifiers_and_numbers(format: str) -> None:
    out = explained(FILES["seed"], "--lang", "zh", "--format", format)
    for term in ("流水线阶段", "微批次", "梯度累积", "气泡", "张量并行"):
        assert term in out
    for kept in ("HYBRID_TRANSFORMER_FWD_IN_BCKWD", "3/(64*9)", "0.52%", "embedding_layer"):
        assert kept in out
    assert "One GPU's view" not in out and "Are the other stages the same?" not in out


def test_chinese_html_page_declares_its_language_and_keeps_its_pictures() -> None:
    page = explained(FILES["seed"], "--lang", "zh", "--format", "html")
    assert '<html lang="zh-CN">' in page
    assert "其他流水线阶段是否相同？" in page  # noqa: RUF001
    assert "真实运行：+ 输入嵌入层" in page  # noqa: RUF001
    # compute and bytes, and where SimAI-Analytical's Total time goes
    assert re.findall(r'<svg [^>]*class="([a-z]+)"', page).count("bars") == 3
    assert "SimAI-Analytical 的总时间花在哪里" in page


def test_chinese_mermaid_chart_follows_the_gantt_rules() -> None:
    source = chart(explained(FILES["seed"], "--lang", "zh", "--format", "markdown"))
    assert list(sections(source)) == ["阶段 0", "阶段 1", "阶段 2", "阶段 3"]


def test_json_represents_follows_the_language() -> None:
    out = explained(FILES["pp1"], "--lang", "zh", "--format", "json")
    assert "单个 GPU 视角下的整个模型" in out


def test_english_is_the_default_whatever_the_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    out = explained(FILES["seed"])
    assert "What this file is" in out and "这个文件是什么" not in out


def test_auto_reads_the_locale_like_gettext() -> None:
    assert i18n.resolve("auto", {"LC_ALL": "zh_CN.UTF-8"}) == "zh"
    assert i18n.resolve("auto", {"LANG": "zh_TW.UTF-8"}) == "zh"
    assert i18n.resolve("auto", {"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}) == "en"
    assert i18n.resolve("auto", {"LC_MESSAGES": "zh_CN", "LANG": "en_US"}) == "zh"
    assert i18n.resolve("auto", {"LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.resolve("auto", {}) == "en"
    assert i18n.resolve(None) == "en"


def test_auto_on_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert "这个文件是什么" in explained(FILES["seed"], "--lang", "auto")


def test_config_lang_is_used_and_the_option_beats_it(tmp_path: Path) -> None:
    target = tmp_path / FILES["seed"].name
    target.write_bytes(FILES["seed"].read_bytes())
    (tmp_path / ".wkparse.toml").write_text('lang = "zh"\n', encoding="utf-8")
    assert "这个文件是什么" in explained(target)
    assert "What this file is" in explained(target, "--lang", "en")


def test_bad_config_lang_is_an_error_as_in_lint(tmp_path: Path) -> None:
    """A broken configuration is the same error (exit 2) for every command (issue 32)."""
    target = tmp_path / FILES["seed"].name
    target.write_bytes(FILES["seed"].read_bytes())
    (tmp_path / ".wkparse.toml").write_text('lang = "fr"\n', encoding="utf-8")
    for command in ("explain", "lint"):
        result = CliRunner().invoke(app, [command, str(target)])
        assert result.exit_code == 2, result.output
        assert "lang: must be one of en, zh, auto, not 'fr'" in result.stderr


def test_unknown_lang_option_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["explain", str(FILES["seed"]), "--lang", "fr"])
    assert result.exit_code == 2
    assert "unknown language 'fr'" in result.output


def test_language_is_restored_after_the_block() -> None:
    with i18n.language("zh"):
        assert i18n.current() == "zh" and i18n._("bubble") == "气泡"
    assert i18n.current() == "en" and i18n._("bubble") == "bubble"


NO_PP_COMM = (
    "HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 2 ep: 1 pp: 2 vpp: 1 ga: 1 "
    "all_gpus: 4 checkpoints: 0 checkpoint_initiates: 0\n"
    "1\n"
    "attention_layer -1 5 ALLREDUCE 1024 5 NONE 0 5 NONE 0 100\n"
)


def linted(path: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["lint", str(path), "--select", "WK203", *args])
    assert result.exit_code == 0, result.output  # WK203 is a warning
    return result.output


def test_lint_messages_in_chinese_keep_codes_and_values(tmp_path: Path) -> None:
    target = tmp_path / "w.txt"
    target.write_text(NO_PP_COMM, encoding="utf-8")
    english = linted(target)
    assert "pp is 2 but the header has no `pp_comm:`" in english
    chinese = linted(target, "--lang", "zh")
    assert "WK203" in chinese and "pp 为 2 但文件头没有 `pp_comm:`" in chinese
    assert "流水线阶段间的通信" in chinese


def test_notes_below_the_rows_in_chinese_run_on_without_gaps(tmp_path: Path) -> None:
    """WK105's notes message read '1,309 行 之后' and '第 5-6 行 不是数据行': a space between two
    Chinese words where a counted noun meets the next word."""
    target = tmp_path / "notes.txt"
    target.write_text(NO_PP_COMM + "my notes\nmore notes\n", encoding="utf-8")
    chinese = linted(target, "--lang", "zh", "--select", "WK105")
    message = next(line for line in chinese.splitlines() if "WK105" in line)
    assert "行之后" in message and "行不是数据行" in message
    assert not re.search("[\u4e00-\u9fff] [\u4e00-\u9fff]", message), message


def test_lint_follows_the_configured_language(tmp_path: Path) -> None:
    target = tmp_path / "w.txt"
    target.write_text(NO_PP_COMM, encoding="utf-8")
    (tmp_path / ".wkparse.toml").write_text('lang = "zh"\n', encoding="utf-8")
    assert "文件头没有" in linted(target)
    assert "the header has no" in linted(target, "--lang", "en")


def test_lint_unknown_language_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "w.txt"
    target.write_text(NO_PP_COMM, encoding="utf-8")
    result = CliRunner().invoke(app, ["lint", str(target), "--lang", "fr"])
    assert result.exit_code == 2 and "unknown language 'fr'" in result.output


def test_explain_in_chinese_shows_lint_findings_in_chinese(tmp_path: Path) -> None:
    target = tmp_path / "w.txt"
    target.write_text(NO_PP_COMM, encoding="utf-8")
    out = explained(target, "--lang", "zh")
    assert "pp 为 2 但文件头没有 `pp_comm:`" in out


def test_consistency_message_in_chinese(tmp_path: Path) -> None:
    target = tmp_path / "w.txt"
    text = FILES["seed"].read_text(encoding="utf-8")
    target.write_text(text.replace(" ga: 64 ", " ga: 32 ", 1), encoding="utf-8")
    result = CliRunner().invoke(app, ["lint", str(target), "--select", "WK302", "--lang", "zh"])
    assert "WK302" in result.output
    assert "ga 为 32，但正文有 64 个微批次组" in result.output  # noqa: RUF001


def _english(diagnostics: list[Diagnostic]) -> list[str]:
    """The messages and fix descriptions among `diagnostics` that hold no Chinese."""
    out = []
    for d in diagnostics:
        for text in (d.message, d.fix.description if d.fix else None):
            if text and not CJK.search(text):
                out.append(f"{d.code}: {text}")
    return out


def _chinese_lint(data: bytes, code: str, example: Example | None = None) -> list[Diagnostic]:
    with i18n.language("zh"):
        result = parse_bytes(data, limits=LIMITS.get(code))
        if example is None:
            return lint(result, None, ALL)
        return lint(result, example.filename, config_for(code, example))


def test_every_rule_example_lints_in_chinese() -> None:
    """Each page's failing examples (every code, parser codes included) in Chinese."""
    english, codes = [], set()
    for page in PAGES.values():
        for example in page.fail:
            found = _chinese_lint(example.data, page.code, example)
            codes |= {d.code for d in found}
            english += _english(found)
    assert codes == set(PAGES)
    assert not english, "\n".join(english)


#: lines that trigger the message variants the rule pages' examples do not show
VARIANTS = {
    "WK103": ["MICRO\n\n", "MICRO\n-3\n", "MICRO\n" + "9" * 30 + "x\n"],
    "WK110": ["MICRO\n1\nx -1 1 NONE 0 1 NONE 0 1 NONE\n", "MICRO\n1\nx -1 1 NONE 0 1\n"],
    "WK112": ["MICRO\n1\nx -1 " + "9" * 700 + " NONE 0 1 NONE 0 1 NONE 0 1\n"],
    "WK118": ["MICRO\n1\n" + "x -1 1 NONE 0 1 NONE 0 1 NONE 0 1\n" * 4],
    "WK119": ["\ufeffMICRO\n1\n".encode("utf-16-le").decode("latin-1")],
    "WK121": ["MICRO\x00\n1\n"],
}


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_message_variants_lint_in_chinese(code: str) -> None:
    for text in VARIANTS[code]:
        found = _chinese_lint(text.encode("latin-1" if code == "WK119" else "utf-8"), code)
        assert code in {d.code for d in found}, text
        assert not _english(found)


@pytest.mark.skipif(not corpus_files(), reason="../shared/corpus is absent")
def test_every_corpus_file_lints_in_chinese() -> None:
    english = []
    with i18n.language("zh"):
        for path in corpus_files():
            english += [
                f"{path.name}: {e}" for e in _english(lint(parse_file(path), path.name, ALL))
            ]
    assert not english, "\n".join(english)


def test_lint_text_report_in_chinese_down_to_its_summary(tmp_path: Path) -> None:
    target = tmp_path / "w.txt"
    target.write_text(NO_PP_COMM, encoding="utf-8")
    out = CliRunner().invoke(app, ["lint", str(target), "--lang", "zh"]).output
    heads = [line for line in out.splitlines() if line.startswith(str(target))]
    fixes = [line for line in out.splitlines() if "= fix:" in line]
    assert heads and fixes
    assert all(CJK.search(line.split("]: ", 1)[1]) for line in heads)
    assert all(CJK.search(line) for line in fixes)
    assert "（不安全：需用 --fix --unsafe-fixes 应用）" in out  # noqa: RUF001
    assert out.rstrip().splitlines()[-1] == "在 1 个文件中发现 2 个警告。"
    english = CliRunner().invoke(app, ["lint", str(target)]).output
    assert english.rstrip().splitlines()[-1] == "Found 2 warnings in 1 file."


#: two or more English words in a row: prose, where identifiers are single tokens
PROSE = re.compile(r"(?<![\w./-])[A-Za-z][a-z]+(?:[ -][a-z]{2,})+(?![\w/-])")
#: words that may stand together in Chinese output: the commands, collectives' usual names,
#: a quoted SimAI message, and a row's phase after its name
KEPT = re.compile(
    r"wkparse explain|wkparse concept [\w:-]+|all-to-all|all-gather|all-reduce|'[^']*'"
    r"|\b(?:fwd|ig|wg)\b"
)


class _Visible(HTMLParser):
    """The text a reader of the page sees: element text and tooltips, not style or markup."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("style", "script")
        self.text += [v for k, v in attrs if k in ("title", "aria-label", "alt") and v]

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("style", "script")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.text.append(data)


def english_prose(output: str, format: str) -> list[str]:
    if format == "html":
        page = _Visible()
        page.feed(output)
        output = "\n".join(page.text)
    found = []
    for line in output.splitlines():
        found += [f"{m!r} in {line.strip()[:100]!r}" for m in PROSE.findall(KEPT.sub(" ", line))]
    return found


@pytest.mark.parametrize("format", ["text", "markdown", "html"])
@pytest.mark.parametrize("name", sorted(FILES))
def test_explain_in_chinese_has_no_english_prose(name: str, format: str) -> None:
    english = english_prose(explained(FILES[name], "--lang", "zh", "--format", format), format)
    assert not english, "\n".join(english)


def test_the_prose_detector_finds_english() -> None:
    """The check above would fail on the English page."""
    for format in ("text", "markdown", "html"):
        assert english_prose(explained(FILES["seed"], "--format", format), format)


def test_html_font_stacks_name_common_chinese_fonts() -> None:
    """No font is embedded: prose, table cells and SVG labels each fall back through the
    Simplified Chinese fonts of macOS, Windows and Linux before the generic family."""
    page = explained(FILES["seed"], "--lang", "zh", "--format", "html")
    stacks = dict(re.findall(r"--(sans|mono): ([^;]+);", page))
    for stack in stacks.values():
        for font in ("PingFang SC", "Microsoft YaHei"):
            assert f'"{font}"' in stack
    assert '"Noto Sans CJK SC"' in stacks["sans"] and '"WenQuanYi Micro Hei"' in stacks["sans"]
    assert '"Noto Sans Mono CJK SC"' in stacks["mono"]
    assert stacks["sans"].rstrip().endswith("sans-serif")
    assert stacks["mono"].rstrip().endswith("monospace")
    for rule in (
        "body { font: 14px/1.45 var(--sans)",
        "td { font-family: var(--mono)",
        "svg text { font: 11px var(--sans)",
    ):
        assert rule in page


def test_rules_lists_chinese_summaries_with_codes_and_names() -> None:
    out = CliRunner().invoke(app, ["rules", "--lang", "zh", "--format", "json"]).output
    listed = {r["code"]: r for r in json.loads(out)}
    assert set(listed) == set(PAGES)
    assert all(CJK.search(r["summary"]) for r in listed.values())
    assert listed["WK105"]["name"] == "count-mismatch" and listed["WK105"]["severity"] == "error"
    table = CliRunner().invoke(app, ["rules", "--lang", "zh"]).output
    assert "第 2 行的行数与文件中的实际行数不同" in table and "count-mismatch" in table
    english = CliRunner().invoke(app, ["rules"]).output
    assert "The row count on line 2 differs" in english


def test_sarif_rule_titles_follow_the_language(tmp_path: Path) -> None:
    target = tmp_path / "w.txt"
    target.write_text(NO_PP_COMM, encoding="utf-8")
    args = ["lint", str(target), "--format", "sarif", "--lang", "zh"]
    log = json.loads(CliRunner().invoke(app, args).output)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules and all(CJK.search(r["shortDescription"]["text"]) for r in rules)


def test_english_runs_never_read_a_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Start-up stays cheap: the catalog is read only when a run speaks Chinese."""
    import gettext

    read: list[object] = []
    real = gettext.translation

    def translation(*a: object, **k: object) -> object:
        if (a[0] if a else k.get("domain")) == i18n.DOMAIN:  # not click's own "messages"
            read.append(a)
        return real(*a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(gettext, "translation", translation)
    i18n.translations.cache_clear()
    target = tmp_path / "w.txt"
    target.write_text(NO_PP_COMM, encoding="utf-8")
    for command in (["lint", str(target)], ["explain", str(target)], ["rules"]):
        CliRunner().invoke(app, command)
    assert read == []
    CliRunner().invoke(app, ["lint", str(target), "--lang", "zh"])
    assert len(read) == 1
    i18n.translations.cache_clear()


def test_aicb_run_notes_in_chinese() -> None:
    command = (
        "python -m workload_generator.SimAI_training_workload_generator --world_size 2 "
        "--tensor_model_parallel_size 2 --num_layers 1 --global_batch 2 --hidden_size 8 "
        "--seq_length 4 --num_attention_heads 1 --vocab_size 16 --model_name tiny "
        "--epoch_num 2 --aiob_enable --comp_filepath workload/aiob_inputs/Example.txt"
    )
    args = ["explain", "--aicb-command", command, "--lang", "zh", "--format", "json"]
    notes = json.loads(CliRunner().invoke(app, args).output)["notes"]
    runs = [n for n in notes if n.startswith("AICB 运行：")]  # noqa: RUF001
    assert len(runs) == 2 and all(CJK.search(n.split("：", 1)[1]) for n in runs)  # noqa: RUF001
    assert any(n.startswith("AICB 运行：--epoch_num: ") for n in runs)  # noqa: RUF001


def test_lint_notes_on_stderr_in_chinese(tmp_path: Path) -> None:
    (tmp_path / "w.txt").write_text(NO_PP_COMM, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    args = ["lint", str(tmp_path), "--skip-non-workloads", "--lang", "zh", "--verbose"]
    out = CliRunner().invoke(app, args).output
    assert "跳过" in out and "不是负载文件" in out and "跳过了 1 个非负载文件" in out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert (
        "没有找到负载文件" in CliRunner().invoke(app, ["lint", str(empty), "--lang", "zh"]).output
    )


def test_chinese_lines_break_between_characters_not_after_a_latin_word() -> None:
    """Issue 41: rich broke lines only at spaces, so a Chinese sentence after `SimAI ` went
    whole to the next line and left `SimAI` alone on its own."""
    result = CliRunner().invoke(
        app, ["rule", "WK105", "--lang", "zh"], env={"COLUMNS": "80", "TERMINAL_WIDTH": "80"}
    )
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    alone = re.compile(r"^\s*[A-Za-z][\w.-]*$")
    han = re.compile(r"^\s*[\u4e00-\u9fff]")
    for above, below in pairwise(lines):
        assert not (alone.match(above) and han.match(below)), (above, below)
        assert not above.endswith(("\uff08", "\u300a", "\u201c")), above  # opening brackets
    assert any(line.startswith("SimAI 严格按声明的行数") for line in lines)
