# ruff: noqa: RUF001 - Chinese text is written with its own full-width punctuation
"""The concept pages of AICB's options and presets, written from the AICB model's own tables.

AICB has some eighty options across its generators and scripts and a dozen presets; their
pages say what the model knows of each (which entry points take it, its spellings, its type,
default and choices, whether it changes the file and how wkparse models it, the revision that
added or renamed it) and nothing else, so they are made from the model rather than written by
hand: `python -m wkparse.explanation.aicb_pages` writes `concepts/aicb-*.toml`, and
tests/test_concept_coverage.py fails when the stored pages are not what the model gives now (a
new option in the model without its page, or a page the model no longer backs).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from wkparse.i18n import _, language
from wkparse.models.aicb.inference import args as inference_args
from wkparse.models.aicb.options import Option
from wkparse.models.aicb.revisions import LATEST, REVISIONS
from wkparse.models.aicb.training import args as training_args
from wkparse.models.aicb.training import scripts
from wkparse.models.aicb.training.presets import SCRIPT_PRESETS, V1_SCRIPT_PRESETS
from wkparse.models.aicb.v1 import args as v1_args
from wkparse.resources import concepts_dir

#: the first page-file prefix of these pages: every `concepts/aicb-*.toml` is written here
PREFIX = "aicb-"
V1 = REVISIONS[0]
GENERATORS = {
    "training": ("training generator", "训练生成器", "utils/utils.py", "get_params"),
    "inference": (
        "inference generator",
        "推理生成器",
        "workload_generator/SimAI_inference_workload_generator.py",
        "the argument parser",
    ),
}
#: SimAI option words a script spelling must not take as a name (one name, one page)
SIMAI_WORDS = frozenset({"-w", "-g", "-t", "-c", "-l", "-r", "-n", "-v", "-h"})


@dataclass
class _Entry:
    """What the model knows of one option, gathered over the generators and scripts."""

    dest: str
    flags: list[str] = field(default_factory=list)
    generators: dict[str, Option] = field(default_factory=dict)
    v1_flag: str = ""
    script_words: dict[str, list[str]] = field(default_factory=dict)


def _entries() -> dict[str, _Entry]:
    found: dict[str, _Entry] = {}

    def entry(dest: str) -> _Entry:
        return found.setdefault(dest, _Entry(dest))

    for name, options in (
        ("training", training_args.OPTIONS),
        ("inference", inference_args.OPTIONS),
    ):
        for option in options:
            e = entry(option.dest)
            if option.flag not in e.flags:
                e.flags.append(option.flag)
            e.generators[name] = option
    renamed = {new: old for new, old in v1_args._RENAMED.items()}
    for option in v1_args.V1_OPTIONS:
        later = next((new for new, old in renamed.items() if old == option.flag), option.flag)
        dest = Option(later, option.kind).dest
        e = entry(dest)
        if option.flag != later:
            e.v1_flag = option.flag
    parser_dest = {o.flag: o.dest for o in training_args.OPTIONS}
    for script, valued, flags in (
        (scripts.TRAINING_SCRIPT, scripts.TRAINING_VALUED, scripts.TRAINING_FLAGS),
        (scripts.INFERENCE_SCRIPT, scripts.INFERENCE_VALUED, scripts.INFERENCE_FLAGS),
    ):
        for word, variable in valued.items():
            entry(variable).script_words.setdefault(script, []).append(word)
        for word, (variable, passed) in flags.items():
            dest = parser_dest.get(passed, variable)
            entry(dest).script_words.setdefault(script, []).append(word)
    return found


def _ident(dest: str) -> str:
    return PREFIX + dest.replace("_", "-")


def _value(value: object) -> str:
    return "none" if value is None else repr(value) if isinstance(value, str) else str(value)


def _status(option: Option, lang: str) -> str:
    with language(lang):
        if option.effect:
            effect = _(option.effect)
            if lang == "zh":
                return f"不改变写出的文件（{effect}）"
            return f"it does not change the file written ({effect})"
        if option.note.startswith("refused"):
            return (
                f"wkparse 不模拟它（{option.note}）"
                if lang == "zh"
                else f"wkparse does not model it ({option.note})"
            )
        if lang == "zh":
            return "wkparse 模拟了它" + (f"（{option.note}）" if option.note else "")
        return "wkparse models it" + (f" ({option.note})" if option.note else "")


def _kind(option: Option, lang: str) -> str:
    kinds = {
        "en": {"int": "an integer", "str": "a word", "flag": "a flag (no value)"},
        "zh": {"int": "整数", "str": "字符串", "flag": "开关（不带值）"},
    }
    return kinds[lang][option.kind]


def _option_prose(e: _Entry, lang: str) -> str:
    parts = []
    for name, option in e.generators.items():
        en, zh = GENERATORS[name][:2]
        choices = ""
        if option.choices:
            listed = ", ".join(_value(c) for c in option.choices)
            choices = f"，可选 {listed}" if lang == "zh" else f", one of {listed}"
        value = _value(option.default)
        default = f"默认值 {value}" if lang == "zh" else f"default {value}"
        if option.flag_default:
            default = "默认开启" if lang == "zh" else "on by default"
        elif option.kind == "flag":
            default = "默认关闭" if lang == "zh" else "off by default"
        if lang == "zh":
            parts.append(
                f"AICB {zh}的选项 `{option.flag}`：{_kind(option, lang)}{choices}，{default}；"
                f"{_status(option, lang)}。"
            )
        else:
            parts.append(
                f"`{option.flag}` of AICB's {en}: {_kind(option, lang)}{choices}, {default}; "
                f"{_status(option, lang)}."
            )
    for script, words in e.script_words.items():
        spelled = ", ".join(f"`{w}`" for w in words)
        parts.append(
            f"`{script}` 的写法：{spelled}。"
            if lang == "zh"
            else f"`{script}` spells it {spelled}."
        )
    if e.v1_flag:
        parts.append(
            f"AICB v1.0（{V1.short}）写作 `{e.v1_flag}`。"
            if lang == "zh"
            else f"AICB v1.0 ({V1.short}) spells it `{e.v1_flag}`."
        )
    return "\n".join(parts)


def _since(e: _Entry) -> tuple[str, str]:
    """The revision that added an option the first revisions lacked (en, zh)."""
    for flag in e.flags:
        missing = [r for r in REVISIONS if flag in r.era.missing_options]
        if missing:
            later = (r for r in REVISIONS if r not in missing and r.date > missing[0].date)
            came = next(later, None)
            if came is not None:
                return (
                    f"Added at {came.short} ({came.date}).",
                    f"在 {came.short}（{came.date}）加入。",
                )
    return "", ""


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _block(text: str) -> str:
    return '"""\n' + text.replace("\\", "\\\\").replace('"""', '\\"""') + '\n"""'


def _toml(page: Mapping[str, object], sources: list[dict[str, str]]) -> str:
    lines = []
    for key, value in page.items():
        if value in ("", [], None):
            continue
        if isinstance(value, list):
            lines.append(f"{key} = [{', '.join(_quote(v) for v in value)}]")
        elif isinstance(value, str) and ("\n" in value or len(value) > 80):
            lines.append(f"{key} = {_block(value)}")
        else:
            lines.append(f"{key} = {_quote(str(value))}")
    for source in sources:
        lines += ["", "[[source]]", *(f"{k} = {_quote(v)}" for k, v in source.items() if v)]
    return "\n".join(lines) + "\n"


def _aicb(file: str, function: str, commit: str = LATEST.commit) -> dict[str, str]:
    return {"repo": "aliyun/aicb", "file": file, "function": function, "commit": commit}


def _written_names() -> frozenset[str]:
    """The names the hand-written pages (SimAI's) already hold."""
    from wkparse.concepts import concepts, normalized

    return frozenset(
        normalized(n) for p in concepts() if not p.id.startswith(PREFIX) for n in p.all_names
    )


def _named(word: str, taken: frozenset[str]) -> str:
    """`word` as a name of an AICB page: `aicb WORD` where a SimAI page has the word
    (`--gpu_type` is also SimAI_analytical's)."""
    from wkparse.concepts import normalized

    return f"aicb {word}" if normalized(word) in taken or word in SIMAI_WORDS else word


def _option_page(e: _Entry, taken: frozenset[str]) -> tuple[str, str]:
    names = list(e.flags)
    for script, words in e.script_words.items():
        # `-M` and `-m` are one name once case is folded: the capital is the script's own
        names += [
            f"{Path(script).name} {w}" if w != w.lower() and not w.startswith("--") else w
            for w in words
            if w not in names
        ]
    if e.v1_flag:
        names.append(e.v1_flag)
    if not names:
        names = [e.dest]
    names = [_named(n, taken) for n in names]
    changes, changes_zh = _since(e)
    sources = [_aicb(GENERATORS[g][2], GENERATORS[g][3]) for g in e.generators] + [
        _aicb(s, "its option loop") for s in e.script_words
    ]
    if e.v1_flag:
        sources.append(_aicb("utils/utils.py", "get_params", V1.commit))
    title = names[0]
    page = {
        "id": _ident(e.dest),
        "kind": "aicb-option",
        "programs": ["AICB"],
        "names": names,
        "title": f"{title}: an AICB option",
        "title_zh": f"{title}：AICB 选项",
        "definition": _option_prose(e, "en"),
        "definition_zh": _option_prose(e, "zh"),
        "model": "wkparse.models.aicb.coverage.option_list",
        "changes": changes,
        "changes_zh": changes_zh,
    }
    return str(page["id"]), _toml(page, sources)


def _settings(settings: Mapping[str, object], lang: str) -> str:
    listed = ", ".join(f"{k} = {v}" for k, v in settings.items())
    return f"它设定：{listed}。" if lang == "zh" else f"It sets {listed}."


def _preset_pages() -> Iterator[tuple[str, str]]:
    for presets, script, commit, era, era_zh in (
        (SCRIPT_PRESETS, scripts.TRAINING_SCRIPT, LATEST.commit, "", ""),
        (V1_SCRIPT_PRESETS, scripts.TRAINING_SCRIPT, V1.commit, " of AICB v1.0", "（AICB v1.0）"),
    ):
        for size, preset in presets.items():
            name = preset.model_name
            v1 = presets is V1_SCRIPT_PRESETS
            ident = PREFIX + "preset-" + ("v1-" if v1 else "") + size.lower().replace("*", "x")
            names = [f"-m {size}" + (" (AICB v1.0)" if v1 else "")]
            if not v1 or name not in {p.model_name for p in SCRIPT_PRESETS.values()}:
                names.append(name)
            page = {
                "id": ident,
                "kind": "aicb-preset",
                "programs": ["AICB"],
                "names": names,
                "title": f"-m {size}: {name}{era}",
                "title_zh": f"-m {size}：{name}{era_zh}",
                "definition": f"A model preset of `{script}`{era}: `-m {size}` runs {name}. "
                "The script sets these after reading the command line, so they win over "
                "options given for the same settings. " + _settings(preset.settings, "en"),
                "definition_zh": f"`{script}`{era_zh}的模型预设：`-m {size}` 运行 {name}。"
                "脚本在读完命令行之后才设定这些值，所以它们会覆盖命令行中对同一设置给出的选项。"
                + _settings(preset.settings, "zh"),
                "model": "wkparse.models.aicb.training.presets.SCRIPT_PRESETS",
            }
            yield ident, _toml(page, [_aicb(script, "case $model_size", commit)])
    for size, (name, config) in scripts.INFERENCE_MODELS.items():
        ident = PREFIX + "preset-" + size.lower()
        configured = inference_args.BUILT_IN_CONFIGS.get(config, {})
        page = {
            "id": ident,
            "kind": "aicb-preset",
            "programs": ["AICB"],
            "names": [f"-m {size}", name, Path(config).name],
            "title": f"-m {size}: {name} (inference)",
            "title_zh": f"-m {size}：{name}（推理）",
            "definition": f"A model of `{scripts.INFERENCE_SCRIPT}`: `-m {size}` runs {name} "
            f"with the configuration `{config}`. " + _settings(configured, "en"),
            "definition_zh": f"`{scripts.INFERENCE_SCRIPT}` 的模型：`-m {size}` 以配置 `{config}` "
            f"运行 {name}。" + _settings(configured, "zh"),
            "model": "wkparse.models.aicb.inference.args.BUILT_IN_CONFIGS",
        }
        yield ident, _toml(page, [_aicb(config, "the JSON"), _aicb(scripts.INFERENCE_SCRIPT, "-m")])


def pages() -> dict[str, str]:
    """Every generated page: its file stem and its TOML text."""
    taken = _written_names()
    found = dict(_option_page(e, taken) for e in _entries().values())
    found.update(_preset_pages())
    return found


def write() -> None:
    """Write the pages into `concepts/` and remove generated pages the model no longer backs."""
    folder = concepts_dir()
    made = pages()
    for old in folder.glob(f"{PREFIX}*.toml"):
        if old.stem not in made:
            old.unlink()
    for stem, text in made.items():
        (folder / f"{stem}.toml").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    write()
