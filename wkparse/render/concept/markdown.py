"""A concept page as Markdown, in English or Chinese.

The same text is what `wkparse concept` prints (rendered by rich) and what the documentation
site is built from, so a link to another page or a rule goes through `link`, which the site
replaces with its own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from wkparse.concepts import ConceptPage, find
from wkparse.explanation.concept_numbers import Number

#: the page's heads, in each language
HEADS: dict[str, dict[str, str]] = {
    "en": {
        "names": "Names",
        "programs": "Programs",
        "unit": "Unit",
        "default": "Default",
        "formula": "Formula",
        "model": "Computed by",
        "versions": "Where SimAI changed it",
        "changes": "Versions",
        "docs": "What SimAI's or AICB's own docs say",
        "related": "Related",
        "sources": "Sources",
        "example": "Example",
        "numbers": "In {file}",
        "no numbers": "The models give no number for this page in a file.",
        "before": "before",
        "from": "from",
        "example note": (
            "`wkparse concept {name} samples/{file}{options}` computes it on a bundled sample."
        ),
    },
    "zh": {
        "names": "名称",
        "programs": "所属程序",
        "unit": "单位",
        "default": "默认值",
        "formula": "公式",
        "model": "计算它的模型函数",
        "versions": "SimAI 在哪些版本改变了它",
        "changes": "版本",
        "docs": "SimAI 或 AICB 自己的文档怎么说",
        "related": "相关",
        "sources": "来源",
        "example": "示例",
        "numbers": "{file} 中的数值",
        "no numbers": "模型对这一页在文件中不给出数值。",
        "before": "之前",
        "from": "从",
        "example note": "`wkparse concept {name} samples/{file}{options}` 在自带示例上计算它。",
    },
}
#: the kinds' names, in each language
KIND_NAMES: dict[str, dict[str, str]] = {
    "en": {
        "option": "option",
        "environment-variable": "environment variable",
        "configuration-key": "configuration key",
        "header-key": "header key",
        "row-field": "row field",
        "collective": "collective or suffix",
        "output-file": "output file",
        "output-column": "output column",
        "stdout-line": "printed line",
        "formula": "formula",
        "behaviour": "behaviour",
        "aicb-option": "AICB option",
        "aicb-preset": "AICB preset",
    },
    "zh": {
        "option": "选项",
        "environment-variable": "环境变量",
        "configuration-key": "配置键",
        "header-key": "文件头键",
        "row-field": "行字段",
        "collective": "集合通信或后缀",
        "output-file": "输出文件",
        "output-column": "输出列",
        "stdout-line": "打印的行",
        "formula": "公式",
        "behaviour": "行为",
        "aicb-option": "AICB 选项",
        "aicb-preset": "AICB 预设",
    },
}

Link = Callable[[str], str]


def plain_link(target: str) -> str:
    """A related page or rule as the terminal shows it: its name in code."""
    page = find(target)
    return f"`{target if page is None else page.short_name}`"


def _switch_lines(page: ConceptPage, lang: str) -> list[str]:
    from wkparse.models.simai.versions import SWITCHES

    heads = HEADS[lang]
    lines = []
    for switch in SWITCHES:
        if switch.name in page.switches:
            lines.append(
                f"- **{switch.since}** ({switch.name}, {switch.evidence}): "
                f"{heads['before']}: {switch.before}; {heads['from']} {switch.since}: "
                f"{switch.after}"
            )
    return lines


def _section(head: str, body: str) -> list[str]:
    return [f"## {head}", "", body, ""] if body else []


def page_markdown(
    page: ConceptPage,
    lang: str = "en",
    link: Link = plain_link,
    numbers: Sequence[Number] | None = None,
    file: str = "",
) -> str:
    """The page in `lang`; with `numbers`, what they are in `file`."""
    heads = HEADS[lang]
    kind = KIND_NAMES[lang][page.kind]
    names = [*page.names, *(page.names_zh if lang == "zh" else ())]
    lines = [f"# {page.title(lang)}", "", f"*{kind} · {', '.join(page.programs)}*", ""]
    lines += [page.definition(lang), ""]
    lines += _section(heads["names"], ", ".join(f"`{n}`" for n in names))
    lines += _section(heads["unit"], page.unit(lang))
    lines += _section(heads["default"], page.default(lang))
    if page.formula:
        lines += [f"## {heads['formula']}", "", "```text", page.formula, "```", ""]
    if page.model:
        lines += _section(heads["model"], f"`{page.model}`")
    switches = _switch_lines(page, lang)
    if switches:
        lines += [f"## {heads['versions']}", "", *switches, ""]
    lines += _section(heads["changes"], page.changes(lang))
    lines += _section(heads["docs"], page.docs_say(lang))
    if page.related:
        lines += _section(heads["related"], ", ".join(link(r) for r in page.related))
    if page.sources:
        cited = [f"- {s.cite()}" + (f": {s.note}" if s.note else "") for s in page.sources]
        lines += [f"## {heads['sources']}", "", *cited, ""]
    if numbers is not None:
        lines += [f"## {heads['numbers'].format(file=file)}", ""]
        if numbers:
            lines += [f"- {n.label(lang)}: {n.value(lang)}" for n in numbers]
        else:
            lines.append(heads["no numbers"])
        lines.append("")
    elif page.example is not None:
        options = " -- " + " ".join(page.example.options) if page.example.options else ""
        note = heads["example note"].format(
            name=page.names[0], file=page.example.file, options=options
        )
        lines += _section(heads["example"], note)
    return "\n".join(lines)
